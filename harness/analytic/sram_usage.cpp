// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/sram_usage.h"

#include <algorithm>
#include <optional>

#include "sim/arch/regions.h"
#include "sim/common/int_math.h"

namespace npusim::analytic {

namespace {

// Vela allocates tensors in multiples of 16 bytes.
constexpr uint64_t kAllocationQuantum = 16;

// The bytes a feature map box occupies in its tensor: from its first element to the end of its
// last element's brick (NHCWB16 stores depth in bricks of 16 channels).
cmd::ByteSpan storageSpan(const cmd::FeatureMap& fm) {
  cmd::ByteSpan span = fm.footprint();
  if (fm.format == cmd::DataFormat::Nhcwb16 && !span.empty()) {
    span.end += uint64_t{roundUp(fm.shape.depth, 16u) - fm.shape.depth} * fm.elementBytes();
  }
  return span;
}

// Which writes fill one tensor: a compiled-model tensor, one Vela operation's NPU operations,
// or the copies a Concatenation is made of.
struct Writer {
  enum class Kind : uint8_t { None, Tensor, Operation, Concatenation } kind = Kind::None;
  size_t subgraph = 0;
  int64_t id = 0;
  bool operator==(const Writer& o) const {
    return kind != Kind::None && kind == o.kind && subgraph == o.subgraph && id == o.id;
  }
};

// A tensor's lifetime in fast storage, Vela's live range: from the first to one step past the
// last time an operation touched it.
struct LiveRange {
  uint64_t begin = 0, end = 0;     // addresses
  int64_t first = 0, last = 0;     // times
  Writer writer;
  bool matchable = true;           // false once a later tensor took its place
  uint64_t bytes() const { return roundUp(end - begin, kAllocationQuantum); }
};

// Every live range of fast storage, found from the addresses operations read and write.
class Timeline {
public:
  // The tensor the operation at `time` reads at `span`: the latest one there.
  void read(cmd::ByteSpan span, int64_t time) {
    if (span.empty()) return;
    LiveRange* r = find(span);
    if (r == nullptr) r = create(span, time, Writer{});
    mark(*r, time);
    readNow_.push_back(r - ranges_.data());
  }
  // An operation at `time` writes `span`. Writes of one group (`writer`: the operations of one
  // Vela operation, or the copies of one Concatenation) fill one tensor; a write over a tensor
  // the same operation reads is an elementwise operation overwriting its input (Vela gives the
  // output the input's live range); anything else is a new tensor in memory freed earlier.
  void write(cmd::ByteSpan span, int64_t time, Writer writer) {
    if (span.empty()) return;
    LiveRange* r = find(span);
    const bool readNow =
        r != nullptr && std::find(readNow_.begin(), readNow_.end(), r - ranges_.data()) != readNow_.end();
    if (!readNow) {
      // The group's tensor so far (depth slices and copies need not overlap or touch).
      for (auto it = ranges_.rbegin(); it != ranges_.rend(); ++it) {
        if (it->matchable && it->writer == writer) {
          r = &*it;
          break;
        }
      }
    }
    if (r != nullptr && (r->writer == writer || readNow)) {
      r->begin = std::min(r->begin, span.begin);
      r->end = std::max(r->end, span.end);
    } else {
      for (LiveRange& old : ranges_) {
        if (old.matchable && old.begin < span.end && span.begin < old.end) old.matchable = false;
      }
      r = create(span, time, writer);
    }
    mark(*r, time);
  }
  // A range that nothing reads or writes by address (weight buffers).
  void add(cmd::ByteSpan span, int64_t first, int64_t last) {
    LiveRange r{span.begin, span.end, first, last, Writer{}, false};
    ranges_.push_back(r);
  }
  void endOperation() { readNow_.clear(); }
  uint64_t usage(int64_t time) const {
    uint64_t total = 0;
    for (const LiveRange& r : ranges_) {
      if (r.first <= time && time <= r.last) total += r.bytes();
    }
    return total;
  }

private:
  LiveRange* find(cmd::ByteSpan span) {
    for (auto it = ranges_.rbegin(); it != ranges_.rend(); ++it) {
      if (it->matchable && it->begin < span.end && span.begin < it->end) return &*it;
    }
    return nullptr;
  }
  LiveRange* create(cmd::ByteSpan span, int64_t time, Writer writer) {
    ranges_.push_back({span.begin, span.end, time, time, writer, true});
    return &ranges_.back();
  }
  static void mark(LiveRange& r, int64_t time) {
    r.first = std::min(r.first, time);
    r.last = std::max(r.last, time + 1);
  }

  std::vector<LiveRange> ranges_;
  std::vector<std::ptrdiff_t> readNow_;
};

// The bytes of a compiled-model tensor in the arena (Vela's CPU-side tensors are NHWC).
std::optional<cmd::ByteSpan> arenaSpan(const io::CompiledNetwork& net, int tensor) {
  if (tensor < 0 || static_cast<size_t>(tensor) >= net.tensors.size()) return std::nullopt;
  const io::TensorInfo& t = net.tensors[static_cast<size_t>(tensor)];
  if (!t.arenaOffset || *t.arenaOffset < 0 || t.data) return std::nullopt;
  const auto begin = static_cast<uint64_t>(*t.arenaOffset);
  return cmd::ByteSpan{begin, begin + std::max<uint64_t>(t.bytes(), 1)};
}

// Groups of rows that share one time: a cascade's operations interleave in the stream.
std::vector<size_t> cascadeGroups(const std::vector<Layer>& layers) {
  std::vector<size_t> group(layers.size(), 0);
  size_t g = 0;
  size_t groupEnd = 0;   // past the last operation of the current group
  bool open = false;
  for (size_t i = 0; i < layers.size(); ++i) {
    const std::vector<size_t>& ops = layers[i].operations;
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

} // namespace

SramUsage sramUsage(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                    const std::vector<const std::vector<Layer>*>& layers, const VelaSystem& system) {
  SramUsage result;
  const MemArea fast = system.fastArea();
  auto isFast = [&](uint8_t region) { return region != arch::kConstantRegion && system.regionArea(region) == fast; };
  const bool arenaFast = isFast(arch::kArenaRegion);
  Timeline timeline;
  std::vector<std::vector<int64_t>> rowTimes;
  // 1. Time 0: the network's inputs (Vela's start-up pass); every operator then takes 2 steps.
  auto markTensor = [&](int tensor, int64_t time, bool written) {
    if (!arenaFast) return;
    if (const auto span = arenaSpan(net, tensor)) {
      if (written) timeline.write(*span, time, Writer{Writer::Kind::Tensor, 0, tensor});
      else timeline.read(*span, time);
    }
  };
  for (int t : net.inputs) markTensor(t, 0, true);
  timeline.endOperation();
  int64_t now = 2;
  size_t s = 0;
  for (const io::Operator& op : net.operators) {
    if (op.kind == io::OperatorKind::Cpu) {
      for (int t : op.inputs) markTensor(t, now, false);
      for (int t : op.outputs) markTensor(t, now, true);
      timeline.endOperation();
      now += 2;
      continue;
    }
    if (s >= decoded.size() || decoded[s].operatorIndex != op.index || s >= layers.size()) continue;
    // 2. An NPU subgraph: its feature-map inputs, then each Vela operation (a cascade's
    //    operations share one step), then its outputs.
    const io::NpuOp& npu = op.npu;
    for (int t : op.inputs) {
      if (t != npu.commandStreamTensorIndex && t != npu.flashTensorIndex && t != npu.scratchTensorIndex &&
          t != npu.scratchFastTensorIndex) {
        markTensor(t, now, false);
      }
    }
    timeline.endOperation();
    const std::vector<cmd::Operation>& ops = decoded[s].operations;
    const std::vector<Layer>& rows = *layers[s];
    const std::vector<size_t> group = cascadeGroups(rows);
    std::vector<int64_t> times(rows.size());
    for (size_t r = 0; r < rows.size(); ++r) {
      const int64_t t = now + 2 * static_cast<int64_t>(group[r]);
      times[r] = t;
      const Layer& layer = rows[r];
      const bool cascaded = (r > 0 && group[r] == group[r - 1]) || (r + 1 < rows.size() && group[r + 1] == group[r]);
      // A Concatenation's copies (each writes part of a larger OFM) fill one tensor, also when
      // Vela split them over NPU subgraphs (YOLOv8's last Concatenation).
      const bool part = layer.ofmTensorShape.elements() > layer.query.ofm.shape.elements();
      const Writer writer = part ? Writer{Writer::Kind::Concatenation, 0, layer.sourceId}
                                 : Writer{Writer::Kind::Operation, s, static_cast<int64_t>(r)};
      if (layer.dma) {
        const cmd::DmaTransfer& d = ops[*layer.dma].dma;
        if (isFast(d.srcRegion)) timeline.read({d.src, d.src + d.length}, t);
        if (isFast(d.dstRegion)) timeline.write({d.dst, d.dst + d.length}, t, writer);
        timeline.endOperation();
      }
      for (size_t index : layer.operations) {
        const cmd::Operation& k = ops[index];
        if (isFast(k.ifm.region)) timeline.read(storageSpan(k.ifm), t);
        if (k.hasIfm2() && isFast(k.ifm2.region)) timeline.read(storageSpan(k.ifm2), t);
        if (isFast(k.ofm.region)) timeline.write(storageSpan(k.ofm), t, writer);
        timeline.endOperation();
      }
      // Weight buffers live while the operation runs; the first is filled under the operation
      // before (not for the first operation or a cascade's); of two alternating buffers the one
      // the last slice does not use ends a step earlier.
      const WeightStreams& w = layer.weights;
      for (size_t b = 0; b < w.buffers.size(); ++b) {
        if (!isFast(w.buffers[b].region)) continue;
        const int64_t first = t - (b == 0 && r > 0 && !cascaded ? 1 : 0);
        const int64_t last = w.buffers.size() > 1 && b != w.lastBuffer ? t : t + 1;
        timeline.add({w.buffers[b].address, w.buffers[b].address + w.buffers[b].bytes}, first, std::max(first, last));
      }
    }
    now += rows.empty() ? 0 : 2 * static_cast<int64_t>(group.back() + 1);
    for (int t : op.outputs) markTensor(t, now, false);
    timeline.endOperation();
    rowTimes.push_back(std::move(times));
    if (result.fastStorageBytes == 0) {
      result.fastStorageBytes = arenaFast ? npu.scratchSize : isFast(arch::kCacheRegion) ? npu.scratchFastSize : 0;
    }
    ++s;
  }
  for (int t : net.outputs) markTensor(t, now, false);
  // Variable tensors (state kept across inferences) live for the whole inference.
  for (const io::TensorInfo& t : net.tensors) {
    if (!t.isVariable) continue;
    markTensor(t.index, 0, false);
    markTensor(t.index, now, false);
  }
  // 3. Every range complete: the use at each operation's step.
  for (const std::vector<int64_t>& times : rowTimes) {
    std::vector<uint64_t> perLayer;
    for (int64_t t : times) perLayer.push_back(timeline.usage(t));
    result.perLayer.push_back(std::move(perLayer));
  }
  return result;
}

} // namespace npusim::analytic
