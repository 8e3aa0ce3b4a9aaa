// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/live_ranges.h"

#include <algorithm>
#include <array>
#include <optional>

#include "sim/common/int_math.h"

namespace npusim::analytic {

cmd::ByteSpan storageSpan(const cmd::FeatureMap& fm) {
  cmd::ByteSpan span = fm.footprint();
  if (fm.format == cmd::DataFormat::Nhcwb16 && !span.empty()) {
    span.end += uint64_t{roundUp(fm.shape.depth, 16u) - fm.shape.depth} * fm.elementBytes();
  }
  return span;
}

namespace {

// True when `fm` fills only part of its tensor: its strides step over more pixels or channels
// than its box has.
bool isPart(const cmd::FeatureMap& fm) {
  const uint64_t e = fm.elementBytes();
  if (fm.format == cmd::DataFormat::Nhwc) {
    return fm.shape.depth * e < fm.strideX || fm.shape.width * fm.strideX < fm.strideY;
  }
  return fm.shape.width * fm.strideX < fm.strideC || uint64_t{roundUp(fm.shape.depth, 16u) / 16} * fm.strideC < fm.strideY;
}

// Channel c at byte `offset` from the start of a pixel of a tensor laid out as `fm`; nullopt
// when the offset leaves the pixel's channels.
std::optional<uint64_t> channelAt(const cmd::FeatureMap& fm, uint64_t offset) {
  const uint64_t e = std::max<uint64_t>(fm.elementBytes(), 1);
  if (fm.format == cmd::DataFormat::Nhwc) {
    return offset < fm.strideX ? std::optional<uint64_t>(offset / e) : std::nullopt;
  }
  if (fm.strideC == 0 || offset % fm.strideC >= 16 * e || offset >= fm.strideY) return std::nullopt;
  return offset / fm.strideC * 16 + offset % fm.strideC / e;
}

// True when `a` and `b` are other channels of the same pixels of one tensor (parts of a
// concatenation along the depth): the same layout and box height and width, bases apart by
// a whole number of channels, both within the tensor's depth, and no channel in common.
bool otherChannels(const cmd::FeatureMap& a, const cmd::FeatureMap& b) {
  if (a.format != b.format || a.strideX != b.strideX || a.strideY != b.strideY || a.strideC != b.strideC ||
      a.elementBits != b.elementBits || a.shape.height != b.shape.height || a.shape.width != b.shape.width) {
    return false;
  }
  const cmd::FeatureMap& lo = a.base[0] <= b.base[0] ? a : b;
  const cmd::FeatureMap& hi = a.base[0] <= b.base[0] ? b : a;
  const std::optional<uint64_t> channel = channelAt(lo, hi.base[0] - lo.base[0]);
  const uint64_t depth = lo.format == cmd::DataFormat::Nhwc ? lo.strideX / std::max<uint64_t>(lo.elementBytes(), 1)
                                                            : lo.strideC > 0 ? lo.strideY / lo.strideC * 16 : 0;
  return channel && *channel >= lo.shape.depth && *channel + hi.shape.depth <= depth;
}

} // namespace

uint64_t LiveRanges::Range::bytes() const { return roundUp(end - begin, kAllocationQuantum); }

void LiveRanges::read(cmd::ByteSpan span, int64_t time) {
  if (span.empty()) return;
  Range* r = find(span);
  if (r == nullptr) r = create(span, time, Writer{});
  // A read across several tensors reads one tensor they are the parts of (a concatenation's
  // copies, each written as its own tensor): one range from the first part's first use.
  for (Range& other : ranges_) {
    if (&other != r && other.matchable && other.begin < span.end && span.begin < other.end) {
      r->begin = std::min(r->begin, other.begin);
      r->end = std::max(r->end, other.end);
      r->first = std::min(r->first, other.first);
      r->last = std::max(r->last, other.last);
      other.matchable = false;
      other.end = other.begin;   // its bytes are r's now
    }
  }
  mark(*r, time);
  readNow_.push_back(r - ranges_.data());
}

void LiveRanges::write(cmd::ByteSpan span, int64_t time, Writer writer, const cmd::FeatureMap* part) {
  if (span.empty()) return;
  Range* r = find(span);
  const bool readNow =
      r != nullptr && std::find(readNow_.begin(), readNow_.end(), r - ranges_.data()) != readNow_.end();
  bool joins = readNow;
  if (!readNow) {
    // The writer's tensor so far (depth slices and parts need not overlap or touch).
    for (auto it = ranges_.rbegin(); it != ranges_.rend(); ++it) {
      if (it->matchable && it->writer == writer) {
        r = &*it;
        joins = true;
        break;
      }
    }
  }
  if (!joins && part != nullptr) {
    // Another part of a tensor written in parts.
    for (auto it = ranges_.rbegin(); it != ranges_.rend() && !joins; ++it) {
      if (!it->matchable || it->parts.empty() || it->end <= span.begin || span.end <= it->begin) continue;
      joins = std::all_of(it->parts.begin(), it->parts.end(), [&](const cmd::FeatureMap& p) {
        return otherChannels(p, *part);
      });
      if (joins) r = &*it;
    }
  }
  // Older tensors the write overlaps are overwritten: dead.
  for (Range& old : ranges_) {
    if (&old != r && old.matchable && old.begin < span.end && span.begin < old.end) old.matchable = false;
  }
  if (joins) {
    r->begin = std::min(r->begin, span.begin);
    r->end = std::max(r->end, span.end);
  } else {
    if (r != nullptr) r->matchable = false;
    r = create(span, time, writer);
  }
  if (part != nullptr) r->parts.push_back(*part);
  mark(*r, time);
}

void LiveRanges::add(uint64_t bytes, int64_t first, int64_t last) {
  ranges_.push_back(Range{0, bytes, first, std::max(first, last), Writer{}, {}, false});
}

void LiveRanges::markOperation(const cmd::Operation& op, int64_t time, Writer writer,
                               const std::function<bool(uint8_t)>& counts) {
  const auto inMemory = [&](const cmd::FeatureMap& fm) {
    return fm.storage == cmd::Storage::Tile2x2 && counts(fm.region);
  };
  if (inMemory(op.ifm)) read(storageSpan(op.ifm), time);
  if (op.hasIfm2() && inMemory(op.ifm2)) read(storageSpan(op.ifm2), time);
  if (inMemory(op.ofm)) write(storageSpan(op.ofm), time, writer, isPart(op.ofm) ? &op.ofm : nullptr);
  endOperation();
}

uint64_t LiveRanges::usage(int64_t time) const {
  uint64_t total = 0;
  for (const Range& r : ranges_) {
    if (r.first <= time && time <= r.last) total += r.bytes();
  }
  return total;
}

LiveRanges::Range* LiveRanges::find(cmd::ByteSpan span) {
  for (auto it = ranges_.rbegin(); it != ranges_.rend(); ++it) {
    if (it->matchable && it->begin < span.end && span.begin < it->end) return &*it;
  }
  return nullptr;
}

LiveRanges::Range* LiveRanges::create(cmd::ByteSpan span, int64_t time, Writer writer) {
  ranges_.push_back({span.begin, span.end, time, time, writer, {}, true});
  return &ranges_.back();
}

void LiveRanges::mark(Range& r, int64_t time) {
  r.first = std::min(r.first, time);
  r.last = std::max(r.last, time + 1);
}

namespace {

// The bytes of a compiled-model tensor in the arena (Vela's CPU-side tensors are NHWC).
std::optional<cmd::ByteSpan> arenaSpan(const io::CompiledNetwork& net, int tensor) {
  if (tensor < 0 || static_cast<size_t>(tensor) >= net.tensors.size()) return std::nullopt;
  const io::TensorInfo& t = net.tensors[static_cast<size_t>(tensor)];
  if (!t.arenaOffset || *t.arenaOffset < 0 || t.data) return std::nullopt;
  const auto begin = static_cast<uint64_t>(*t.arenaOffset);
  return cmd::ByteSpan{begin, begin + std::max<uint64_t>(t.bytes(), 1)};
}

} // namespace

void walkNetwork(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                 const NetworkSteps& steps, LiveRanges& ranges) {
  auto markTensor = [&](int tensor, int64_t time, bool written) {
    if (!steps.arenaCounts) return;
    if (const auto span = arenaSpan(net, tensor)) {
      if (written) ranges.write(*span, time, Writer{Writer::Kind::Tensor, 0, tensor});
      else ranges.read(*span, time);
    }
  };
  for (int t : net.inputs) markTensor(t, 0, true);
  ranges.endOperation();
  int64_t now = steps.firstStep;
  size_t s = 0;
  for (const io::Operator& op : net.operators) {
    if (op.kind == io::OperatorKind::Cpu) {
      for (int t : op.inputs) markTensor(t, now, false);
      for (int t : op.outputs) markTensor(t, now, true);
      ranges.endOperation();
      now += 2;
      continue;
    }
    if (s >= decoded.size() || decoded[s].operatorIndex != op.index) continue;
    // An NPU subgraph: its feature-map inputs, its rows, then its outputs.
    const io::NpuOp& npu = op.npu;
    for (int t : op.inputs) {
      if (t != npu.commandStreamTensorIndex && t != npu.flashTensorIndex && t != npu.scratchTensorIndex &&
          t != npu.scratchFastTensorIndex) {
        markTensor(t, now, false);
      }
    }
    ranges.endOperation();
    now += steps.rows(s, now);
    for (int t : op.outputs) markTensor(t, now, false);
    ranges.endOperation();
    ++s;
  }
  for (int t : net.outputs) markTensor(t, now, false);
  // Variable tensors (state kept across inferences) live for the whole inference.
  for (const io::TensorInfo& t : net.tensors) {
    if (!t.isVariable) continue;
    markTensor(t.index, 0, false);
    markTensor(t.index, now, false);
  }
}

std::vector<size_t> cascadeGroups(const std::vector<const std::vector<size_t>*>& operations) {
  std::vector<size_t> group(operations.size(), 0);
  size_t g = 0;
  size_t groupEnd = 0;   // past the last operation of the current group
  bool open = false;
  for (size_t i = 0; i < operations.size(); ++i) {
    const std::vector<size_t>& ops = *operations[i];
    if (open && !ops.empty() && ops.front() < groupEnd) {
      group[i] = g;
    } else {
      g += i == 0 ? 0 : 1;
      group[i] = g;
      groupEnd = 0;
    }
    open = !ops.empty();
    for (size_t op : ops) groupEnd = std::max(groupEnd, op + 1);
  }
  return group;
}

} // namespace npusim::analytic
