// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/vela5_estimator.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "harness/analytic/live_ranges.h"
#include "harness/analytic/vela_debug_db.h"
#include "sim/cmdstream/weight_source.h"
#include "sim/common/error.h"

namespace npusim::analytic::vela5 {

namespace {

// An average pool that writes its OFM with the row and column strides swapped (a row step
// smaller than a column step): one pass of a transpose.
bool transposes(const cmd::Operation& op) {
  return op.kind == cmd::OpKind::Pool && op.poolMode == cmd::PoolMode::Average && op.kernel.elements() == 1 &&
         op.ofm.format == cmd::DataFormat::Nhwc && op.ofm.shape.width > 1 && op.ofm.strideY < op.ofm.strideX;
}

// The operator type a kernel operation runs, when the debug database does not say: a transpose
// pass, a table lookup (a 1x1 average pool with a table activation), else the stream's kind.
OpType streamType(const cmd::Operation& op) {
  if (transposes(op)) {
    return OpType::Transpose;
  }
  if (op.kind == cmd::OpKind::Pool && op.poolMode == cmd::PoolMode::Average && op.kernel.elements() == 1 &&
      op.activation.usesLut()) {
    return OpType::LUT;
  }
  switch (op.kind) {
  case cmd::OpKind::Conv: {
    const bool pointOnly = op.kernel.elements() == 1 && op.ifm.shape.height == 1 && op.ifm.shape.width == 1 &&
                           op.ofm.shape.height == 1 && op.ofm.shape.width == 1;
    return pointOnly ? OpType::FullyConnected : OpType::Conv2D;
  }
  case cmd::OpKind::Depthwise: return OpType::DepthwiseConv2D;
  case cmd::OpKind::Pool:
    switch (op.poolMode) {
    case cmd::PoolMode::Max: return OpType::MaxPool;
    case cmd::PoolMode::Average: return OpType::AvgPool;
    case cmd::PoolMode::ReduceSum: return OpType::ReduceSum;
    // The U85's pooling modes by what Vela 5.0 compiles to them: SUM an average pool (the scale
    // divides), NONE the no-op pool of copies, rescales and transposes, MIN and the arg-max
    // modes the reductions (the same pooling cost class as ReduceMax).
    case cmd::PoolMode::Sum: return OpType::AvgPool;
    case cmd::PoolMode::None: return OpType::MemoryCopy;
    case cmd::PoolMode::Min: case cmd::PoolMode::ArgmaxX: case cmd::PoolMode::ArgmaxY: return OpType::ReduceMax;
    }
    return OpType::AvgPool;
  case cmd::OpKind::Elementwise:
    switch (op.elementwiseMode) {
    case cmd::ElementwiseMode::Mul: return OpType::Mul;
    case cmd::ElementwiseMode::Add: return OpType::Add;
    case cmd::ElementwiseMode::Sub: return OpType::Sub;
    case cmd::ElementwiseMode::Min: return OpType::Minimum;
    case cmd::ElementwiseMode::Max: return OpType::Maximum;
    case cmd::ElementwiseMode::LRelu: return OpType::LeakyRelu;
    case cmd::ElementwiseMode::Abs: return OpType::Abs;
    case cmd::ElementwiseMode::Clz: return OpType::CLZ;
    case cmd::ElementwiseMode::Shr: return OpType::Asr;
    case cmd::ElementwiseMode::Shl: return OpType::SHL;
    case cmd::ElementwiseMode::Lsr: case cmd::ElementwiseMode::Div: case cmd::ElementwiseMode::CmpEq:
    case cmd::ElementwiseMode::CmpNe: case cmd::ElementwiseMode::CmpGe: case cmd::ElementwiseMode::CmpGt:
    case cmd::ElementwiseMode::And: case cmd::ElementwiseMode::Or: case cmd::ElementwiseMode::Xor:
    case cmd::ElementwiseMode::Not: case cmd::ElementwiseMode::AndNot:
      throw std::logic_error("an Ethos-U85 elementwise mode in an estimated stream");
    }
    return OpType::Add;
  case cmd::OpKind::Resize: return OpType::Resize;
  case cmd::OpKind::Branch:
    throw std::logic_error("a BRANCH in an estimated stream");
  case cmd::OpKind::DmaStart: case cmd::OpKind::DmaWait: case cmd::OpKind::KernelWait: case cmd::OpKind::Stop:
  case cmd::OpKind::Irq: case cmd::OpKind::PmuMask:
    break;
  }
  return OpType::MemoryCopy;
}

bool isElementwise(OpType t) {
  switch (t) {
  case OpType::Add: case OpType::Sub: case OpType::Mul: case OpType::Minimum: case OpType::Maximum: case OpType::SHL:
  case OpType::Asr: case OpType::CLZ: case OpType::Abs: case OpType::LeakyRelu:
    return true;
  default: return false;
  }
}

bool hasWeights(OpType t) {
  return t == OpType::Conv2D || t == OpType::DepthwiseConv2D || t == OpType::FullyConnected;
}

ActivationKind activationKind(OpType t) {
  switch (t) {
  case OpType::Sigmoid: case OpType::Tanh: case OpType::LUT: return ActivationKind::Lut;
  case OpType::Relu: case OpType::Relu0To1: case OpType::Relu6: case OpType::ReluN1To1: return ActivationKind::Relu;
  default: return ActivationKind::Other;
  }
}

// The activation class the stream shows (without the debug database): a table, tanh or
// sigmoid; a ReLU when the clamp is narrower than the OFM type, or when the OFM's zero point is
// the type's minimum (a tensor that keeps only non-negative values, what a ReLU whose clamp is
// the full range produces); else none.
ActivationKind streamActivation(const cmd::Operation& op) {
  if (op.activation.usesLut() || op.activation.isTanhOrSigmoid()) {
    return ActivationKind::Lut;
  }
  const uint32_t bits = std::min<uint32_t>(op.ofm.elementBits, 16);
  const int32_t typeMin = op.ofm.isSigned ? -(1 << (bits - 1)) : 0;
  const int32_t typeMax = op.ofm.isSigned ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
  const bool clamps = op.activation.min > typeMin || op.activation.max < std::min(typeMax, 32767);
  return clamps || op.ofm.zeroPoint == typeMin ? ActivationKind::Relu : ActivationKind::None;
}

// Element (y, x, c) of `fm`'s tensor at byte `address`, relative to `fm`'s own base; nullopt
// when the address lies before it.
std::optional<Shape3> coordinate(const cmd::FeatureMap& fm, uint64_t address) {
  if (address < fm.base[0] || fm.strideY == 0) {
    return std::nullopt;
  }
  const uint64_t delta = address - fm.base[0];
  const uint64_t element = std::max<uint64_t>(fm.elementBytes(), 1);
  Shape3 at{static_cast<uint32_t>(delta / fm.strideY), 0, 0};
  const uint64_t inRow = delta % fm.strideY;
  if (fm.format == cmd::DataFormat::Nhcwb16) {
    const uint64_t brick = fm.strideC > 0 ? inRow / fm.strideC : 0;
    const uint64_t inBrick = fm.strideC > 0 ? inRow % fm.strideC : inRow;
    at.width = static_cast<uint32_t>(inBrick / (16 * element));
    at.depth = static_cast<uint32_t>(brick * 16 + inBrick % (16 * element) / element);
  } else {
    const uint64_t step = std::max<uint64_t>(fm.strideX, 1);
    at.width = static_cast<uint32_t>(inRow / step);
    at.depth = static_cast<uint32_t>(inRow % step / element);
  }
  return at;
}

// Whether kernel operation `next` continues the scheduled operation whose operations so far
// are `members` (without the debug database): a stripe that reads the same weight slice (a
// cascade's), or the next depth slice, right after the previous one, of the same IFM into the
// same OFM rows.
bool continues(const std::vector<cmd::Operation>& ops, const std::vector<size_t>& members, size_t next) {
  const cmd::Operation& op = ops[next];
  const cmd::Operation& last = ops[members.back()];
  if (transposes(op) && transposes(last) && members.back() + 1 <= next) {
    // The next slice of a transpose: the same box, IFM and OFM advancing by the same steps.
    bool adjacent = true;
    for (size_t i = members.back() + 1; i < next; ++i) {
      adjacent = adjacent && !cmd::isKernel(ops[i].kind);
    }
    const auto step = [&](size_t a, size_t b, bool out) {
      const cmd::FeatureMap& x = out ? ops[a].ofm : ops[a].ifm;
      const cmd::FeatureMap& y = out ? ops[b].ofm : ops[b].ifm;
      return static_cast<int64_t>(y.base[0]) - static_cast<int64_t>(x.base[0]);
    };
    const bool firstStep = members.size() == 1 && step(members.back(), next, false) > 0 && step(members.back(), next, true) > 0;
    const bool sameStep = members.size() > 1 && step(members.back(), next, false) == step(members[0], members[1], false) &&
                          step(members.back(), next, true) == step(members[0], members[1], true);
    return adjacent && op.ofm.shape == last.ofm.shape && op.ofm.shape.depth == 1 && (firstStep || sameStep);
  }
  if (op.kind != last.kind || !cmd::hasWeightStream(op)) {
    return false;
  }
  const auto source = [&](size_t i) { return cmd::weightStreamInConstants(ops, i); };
  for (size_t m : members) {
    if (source(m) && source(m) == source(next)) {
      return true;
    }
  }
  for (size_t i = members.back() + 1; i < next; ++i) {
    if (cmd::isKernel(ops[i].kind)) {
      return false;
    }
  }
  const auto sameMap = [](const cmd::FeatureMap& a, const cmd::FeatureMap& b) {
    return a.region == b.region && a.strideY == b.strideY && a.strideX == b.strideX && a.format == b.format;
  };
  const std::optional<Shape3> at = coordinate(last.ofm, op.ofm.base[0]);
  const bool sameInput = op.kind == cmd::OpKind::Depthwise || (op.ifm.base[0] == last.ifm.base[0] &&
                                                               op.ifm.shape == last.ifm.shape);
  return sameMap(op.ifm, last.ifm) && sameMap(op.ofm, last.ofm) && sameInput && at && at->height == 0 &&
         at->width == 0 && at->depth == last.ofm.shape.depth && op.ofm.shape.height == last.ofm.shape.height &&
         op.ofm.shape.width == last.ofm.shape.width;
}

// The box the operations cover of one of their feature maps (`side` picks it), in the first
// operation's tensor: stripes stack up in height, depth slices side by side.
template <typename Side>
Shape3 unionBox(const std::vector<cmd::Operation>& ops, const std::vector<size_t>& members, Side side) {
  const cmd::FeatureMap& ref = side(ops[members.front()]);
  Shape3 end = ref.shape;
  for (size_t index : members) {
    const cmd::FeatureMap& fm = side(ops[index]);
    if (const std::optional<Shape3> at = coordinate(ref, fm.base[0])) {
      end.height = std::max(end.height, at->height + fm.shape.height);
      end.width = std::max(end.width, at->width + fm.shape.width);
      end.depth = std::max(end.depth, at->depth + fm.shape.depth);
    }
  }
  return end;
}

// Memory the kernel operations `group` read and write: their feature maps in memory, and the
// destinations of the DMAs that buffer their weights (region, bytes).
std::vector<std::pair<uint8_t, cmd::ByteSpan>> memoryTouched(const std::vector<cmd::Operation>& ops,
                                                              const std::vector<size_t>& group) {
  std::vector<std::pair<uint8_t, cmd::ByteSpan>> out;
  const auto add = [&](const cmd::FeatureMap& fm) {
    if (cmd::inMemory(fm.storage)) out.emplace_back(fm.region, storageSpan(fm));
  };
  for (size_t index : group) {
    const cmd::Operation& op = ops[index];
    add(op.ifm);
    if (op.hasIfm2()) add(op.ifm2);
    add(op.ofm);
  }
  for (const Slice& slice : collectSlices(ops, group).slices) {
    if (slice.dma) {
      const cmd::DmaTransfer& d = ops[*slice.dma].dma;
      out.emplace_back(d.dstRegion, cmd::ByteSpan{d.dst, d.dst + d.length});
    }
  }
  return out;
}

// True when a weight slice of `map` is DMA'd into memory that the kernel operations `previous`
// read or write.
bool buffersOver(const std::vector<cmd::Operation>& ops, const SliceMap& map, const std::vector<size_t>& previous) {
  const std::vector<std::pair<uint8_t, cmd::ByteSpan>> used = memoryTouched(ops, previous);
  for (const Slice& slice : map.slices) {
    if (!slice.dma) continue;
    const cmd::DmaTransfer& d = ops[*slice.dma].dma;
    for (const auto& [region, span] : used) {
      if (region == d.dstRegion && span.begin < d.dst + d.length && d.dst < span.end) return true;
    }
  }
  return false;
}

// True when another row's kernel operation runs between the first and last of `members`
// (height stripes of a cascade); the operations of its own group (`group`: its chained members
// run after each of its slices) do not count.
bool interleaved(const std::vector<cmd::Operation>& ops, const std::vector<size_t>& members,
                 const std::vector<size_t>& group) {
  for (size_t i = members.front(); i <= members.back(); ++i) {
    if (cmd::isKernel(ops[i].kind) && std::find(group.begin(), group.end(), i) == group.end()) {
      return true;
    }
  }
  return false;
}

// SHRAM bank layout of the LUT slots (regor's Ethos-U55 RCS generator): a LUT of `bytes` lives
// in the last max(ceil(bytes / 1 KiB), reserved) banks, in 256-byte slots.
constexpr uint64_t kBankBytes = 1024;
constexpr uint64_t kLutSlotBytes = 256;

std::optional<uint64_t> lutSlot(const arch::NpuConfig& npu, uint64_t dst, uint64_t bytes) {
  const uint64_t banks = npu.shramKb / npu.cores;
  const uint64_t reserved = banks > 16 ? 2 : 0;
  const uint64_t lutBanks = std::max((bytes + kBankBytes - 1) / kBankBytes, reserved);
  const uint64_t start = (banks - std::min(banks, lutBanks)) * kBankBytes;
  if (dst < start || (dst - start) % kLutSlotBytes != 0) {
    return std::nullopt;
  }
  return (dst - start) / kLutSlotBytes;
}

// The LUT an operation with a table activation reads: the most recent DMA into its SHRAM slot.
std::optional<LutCopy> lutOf(const std::vector<cmd::Operation>& ops, size_t index, const System& system) {
  const cmd::Operation& op = ops[index];
  if (!op.activation.usesLut()) {
    return std::nullopt;
  }
  const uint64_t slot = op.activation.lutSlot;
  for (size_t i = index; i-- > 0;) {
    const cmd::Operation& d = ops[i];
    if (d.kind == cmd::OpKind::DmaStart && d.dma.dstInternal &&
        lutSlot(system.accelerator(), d.dma.dst, d.dma.length) == slot) {
      return LutCopy{&system.region(d.dma.srcRegion), d.dma.length};
    }
  }
  return std::nullopt;
}

nlohmann::json shapeJson(const Shape3& s) { return {s.height, s.width, s.depth}; }

nlohmann::json tensorJson(const Tensor& t) {
  return {{"shape", shapeJson(t.shape)},
          {"format", cmd::dataFormatName(t.format)},
          {"bits", t.bits},
          {"memory", t.memory != nullptr ? std::string(t.memory->name) : ""}};
}

size_t areaIndex(MemArea area) {
  for (size_t i = 0; i < kAccessAreas.size(); ++i) {
    if (kAccessAreas[i] == area) {
      return i;
    }
  }
  return kAccessAreas.size();
}

// The tensors of a transpose, which the Ethos-U55/U65 runs as average pools writing with
// swapped strides (regor's InsertTransposeCommand): one pool of the H x W x C volume swaps H and
// W (NWHC); otherwise each pool swaps two axes of one 1-deep slice, H slices of W x C (NHCW,
// consecutive IFM slices a W x C plane apart) or W slices of H x C (NCWH, a channel row apart).
// A single 1-deep slice is taken for NHCW (an NCWH one has the same depths).
void transposeShapes(const std::vector<cmd::Operation>& ops, const std::vector<size_t>& members, Query& q) {
  const Shape3 box = ops[members.front()].ofm.shape;
  const auto slices = static_cast<uint32_t>(members.size());
  if (slices == 1 && box.depth > 1) {
    q.ifm[0].shape = box;
    q.ofm.shape = {box.width, box.height, box.depth};
    return;
  }
  const uint64_t step = slices > 1 ? ops[members[1]].ifm.base[0] - ops[members[0]].ifm.base[0] : 0;
  if (slices == 1 || step == uint64_t{box.height} * box.width * ops[members.front()].ifm.elementBytes()) {
    q.ifm[0].shape = {slices, box.height, box.width};   // NHCW
    q.ofm.shape = {slices, box.width, box.height};
  } else {
    q.ifm[0].shape = {box.height, slices, box.width};   // NCWH
    q.ofm.shape = {box.width, slices, box.height};
  }
}

// The OFM axes order and reversal a member writes with, in the query's terms.
Transpose transposeOf(cmd::Transpose t) {
  switch (t) {
  case cmd::Transpose::Hwc: return Transpose::None;
  case cmd::Transpose::Whc: return Transpose::Nwhc;
  case cmd::Transpose::Hcw: return Transpose::Nhcw;
  case cmd::Transpose::Wch: return Transpose::Nwch;
  case cmd::Transpose::Chw: return Transpose::Nchw;
  case cmd::Transpose::Cwh: return Transpose::Ncwh;
  }
  return Transpose::None;
}

Reverse reverseOf(cmd::Reverse r) {
  switch (r) {
  case cmd::Reverse::None: return Reverse::None;
  case cmd::Reverse::H: return Reverse::H;
  case cmd::Reverse::W: return Reverse::W;
  case cmd::Reverse::C: return Reverse::C;
  }
  return Reverse::None;
}

// The shape of the tensor an OFM of shape `ofm` written with `transpose` was read from: the
// transposition names, in OFM order, the input axes each OFM axis comes from.
Shape3 transposeSource(const Shape3& ofm, cmd::Transpose transpose) {
  const uint32_t h = ofm.height, w = ofm.width, c = ofm.depth;
  switch (transpose) {
  case cmd::Transpose::Hwc: return ofm;
  case cmd::Transpose::Whc: return {w, h, c};   // OFM (W, H, C) of the input
  case cmd::Transpose::Hcw: return {h, c, w};   // OFM (H, C, W)
  case cmd::Transpose::Wch: return {c, h, w};   // OFM (W, C, H)
  case cmd::Transpose::Chw: return {w, c, h};   // OFM (C, H, W)
  case cmd::Transpose::Cwh: return {c, w, h};   // OFM (C, W, H)
  }
  return ofm;
}

// The element size a fused activation reads: a table's input (a table of 256 entries is
// indexed by 8-bit values, a larger one by 16-bit values), else the OFM's.
uint32_t fusedInputBits(const cmd::Operation& op) {
  const bool table = op.activation.usesLut() || op.activation.isTanhOrSigmoid();
  if (!table || op.activation.lutBytes == 0) {
    return op.ofm.elementBits;
  }
  const uint32_t entries = op.activation.lutBytes / std::max<uint32_t>(op.ofm.elementBytes(), 1);
  return entries <= 256 ? 8 : 16;
}

// The group an operation runs as (regor's ArchitectureOpGroup), from its NPU operations: the
// primary `first`, then the members in Vela's order. A member with NPU operations of its own
// (chained, U85) has their element types and OFM order; it reads an input from memory unless the
// input is a chaining buffer, and writes its OFM to memory unless into one. A member without
// (an activation, transpose or reverse fused into the output unit) takes the OFM of the last
// member with operations (its host): at the host's OFM type, the host's transposition or
// reversal, and written where the host writes; the host's own output then stays on-chip. A
// member's feature maps are the boxes its operations cover (one per depth slice or stripe of
// the primary). Returns the member operation that writes the group's last OFM to memory and
// that OFM's box; a null operation when `first` writes it.
struct GroupWriter {
  const cmd::Operation* op = nullptr;
  Shape3 shape{0, 0, 0};
};

template <typename MakeTensor>
GroupWriter groupOf(const std::vector<cmd::Operation>& ops, const cmd::Operation& first, const OperationSpec& spec,
                    const MakeTensor& tensor, Query& q) {
  std::vector<const cmd::Operation*> hosts;
  const auto add = [&](OpType type, const cmd::Operation& op, bool fused) {
    GroupMember g;
    g.type = type;
    g.ifmBits = fused ? fusedInputBits(op) : op.ifm.elementBits;
    g.ofmBits = op.ofm.elementBits;
    g.onChipOutput = op.ofm.storage == cmd::Storage::Chained;
    if (!fused || type == OpType::Transpose) {
      g.transpose = transposeOf(op.ofmTranspose);
    }
    if (!fused || type == OpType::Reverse) {
      g.reverse = reverseOf(op.ofmReverse);
    }
    if (fused) {
      q.group.back().onChipOutput = true;
      q.group.back().ofmBits = g.ifmBits;   // the host converts to the activation's input type
    }
    q.group.push_back(g);
    hosts.push_back(&op);
  };
  add(q.type, first, false);
  for (const GroupMemberSpec& m : spec.members) {
    const bool fused = m.operations.empty();
    add(m.type.value_or(OpType::Clamp), fused ? *hosts.back() : ops[m.operations.front()], fused);
  }
  GroupWriter writer;
  const auto ifm = [](const cmd::Operation& o) -> const cmd::FeatureMap& { return o.ifm; };
  const auto ifm2 = [](const cmd::Operation& o) -> const cmd::FeatureMap& { return o.ifm2; };
  const auto ofm = [](const cmd::Operation& o) -> const cmd::FeatureMap& { return o.ofm; };
  for (size_t i = 1; i < q.group.size(); ++i) {
    const cmd::Operation& op = *hosts[i];
    // The operations of the member, or of its host when it is fused.
    const std::vector<size_t>* own = nullptr;
    for (size_t h = i; own == nullptr && h >= 1; --h) {
      own = spec.members[h - 1].operations.empty() ? nullptr : &spec.members[h - 1].operations;
    }
    const bool fused = spec.members[i - 1].operations.empty();
    if (!fused) {
      const size_t count = op.hasIfm2() || op.isBinaryElementwise() ? 2 : 1;
      for (size_t input = 0; input < count; ++input) {
        const cmd::FeatureMap& fm = input == 0 ? op.ifm : op.ifm2;
        if (fm.storage == cmd::Storage::Chained) {
          continue;
        }
        const Shape3 box = input == 0 ? unionBox(ops, *own, ifm) : unionBox(ops, *own, ifm2);
        q.external.push_back({i, q.group[i].type, false, input, tensor(fm, box)});
      }
    }
    if (!q.group[i].onChipOutput) {
      const bool primary = &op == &first;
      writer = primary ? GroupWriter{} : GroupWriter{&op, unionBox(ops, *own, ofm)};
      Tensor t = primary ? q.ofm : tensor(op.ofm, writer.shape);
      t.bits = q.group[i].ofmBits;
      q.external.push_back({i, q.group[i].type, true, 0, t});
    }
  }
  q.ofmWritten = !q.group.front().onChipOutput;
  return writer;
}

} // namespace

std::vector<OperationSpec> operationSpecs(const std::vector<cmd::Operation>& ops, const VelaDebugDb* db,
                                          int streamId, const std::string& model, uint64_t streamFileOffset) {
  std::vector<OperationSpec> specs;
  if (db == nullptr || !db->regorLayout()) {
    // Without the database: kernel operations grouped by their weights (stripes and depth
    // slices of one operation), typed by the stream.
    for (size_t i = 0; i < ops.size(); ++i) {
      if (!cmd::isKernel(ops[i].kind)) {
        continue;
      }
      auto group = std::find_if(specs.rbegin(), specs.rend(),
                                [&](const OperationSpec& s) { return continues(ops, s.operations, i); });
      if (group != specs.rend()) {
        group->operations.push_back(i);
        continue;
      }
      OperationSpec s;
      s.type = streamType(ops[i]);
      s.typeName = std::string(opTypeName(*s.type));
      s.operations = {i};
      specs.push_back(std::move(s));
    }
    return specs;
  }
  // 1. Kernel operations -> scheduled operation. The queue names the last NPU operation of
  //    each piece of a scheduled operation (a depth slice, a stripe, or the whole of an
  //    operation that runs as many, such as a transpose); the operations before it without an
  //    entry are that piece's.
  std::map<uint32_t, int> queued;
  for (const VelaDebugDb::QueueEntry& e : db->queue) {
    if (e.streamId == streamId) {
      queued[e.offset] = e.scheduledId;
    }
  }
  std::map<int, std::vector<size_t>> members;
  std::vector<size_t> pending;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!cmd::isKernel(ops[i].kind)) {
      continue;
    }
    pending.push_back(i);
    if (auto it = queued.find(ops[i].byteOffset); it != queued.end()) {
      std::vector<size_t>& m = members[it->second];
      m.insert(m.end(), pending.begin(), pending.end());
      pending.clear();
    }
  }
  if (!pending.empty()) {
    throwAtOffset(model, streamFileOffset + ops[pending.front()].byteOffset,
                  "debug database has no scheduled operation for the NPU operation at stream offset " +
                      std::to_string(ops[pending.front()].byteOffset));
  }
  // 2. Rows in the `perf` table's order: the operations of this stream and the members of their
  //    groups (rows of zeros; a chained member's NPU operations are its group's).
  std::map<int, int> parentOf;
  for (const VelaDebugDb::GroupEntry& g : db->groups) {
    parentOf[g.id] = g.groupId;
  }
  std::set<int> inStream;
  for (const auto& [id, ops_] : members) {
    inStream.insert(id);
  }
  for (const VelaDebugDb::ScheduledOp& s : db->scheduled) {
    const auto parent = parentOf.find(s.id);
    const bool chained = parent != parentOf.end();
    if (inStream.count(chained ? parent->second : s.id) == 0) {
      continue;
    }
    OperationSpec spec;
    spec.id = s.id;
    spec.typeName = s.type;
    spec.type = opTypeFromName(s.type);
    spec.sourceId = s.sourceId;
    spec.name = s.name;
    if (const VelaDebugDb::SourceOp* src = db->findSource(s.sourceId)) {
      spec.sourceType = src->type;
    }
    spec.chained = chained;
    std::vector<size_t> own;
    if (auto it = members.find(s.id); it != members.end()) {
      own = std::move(it->second);
      members.erase(it);
    }
    if (chained) {
      for (OperationSpec& p : specs) {
        if (p.id != parent->second) {
          continue;
        }
        if (own.empty() && p.members.empty()) {
          p.chainedActivation = spec.type.value_or(OpType::Clamp);
        }
        p.operations.insert(p.operations.end(), own.begin(), own.end());
        std::sort(p.operations.begin(), p.operations.end());
        p.members.push_back({s.id, spec.type, std::move(own)});
      }
    } else {
      spec.operations = std::move(own);
    }
    specs.push_back(std::move(spec));
  }
  if (!members.empty()) {
    const size_t first = members.begin()->second.front();
    throwAtOffset(model, streamFileOffset + ops[first].byteOffset,
                  "debug database's queue names scheduled operation " + std::to_string(members.begin()->first) +
                      ", which its perf table does not list");
  }
  return specs;
}

std::vector<ScheduledOp> Estimator::build(const std::vector<cmd::Operation>& ops, std::vector<OperationSpec> specs,
                                          const ConstantRegion* constants) const {
  std::vector<ScheduledOp> out;
  out.reserve(specs.size());
  for (OperationSpec& spec : specs) {
    ScheduledOp s;
    s.spec = std::move(spec);
    if (s.spec.chained) {
      out.push_back(std::move(s));
      continue;
    }
    // The operation's own kernel operations (not its chained members').
    std::vector<size_t> members = s.spec.operations;
    for (const GroupMemberSpec& m : s.spec.members) {
      for (size_t index : m.operations) {
        members.erase(std::remove(members.begin(), members.end(), index), members.end());
      }
    }
    const cmd::Operation& first = ops[members.front()];
    Query& q = s.query;
    q.type = s.spec.type ? *s.spec.type : streamType(first);
    if (q.type == OpType::MatMul) {
      throwForKey("<debug database>", "perf", "Vela 5.0's MatMul estimate is not modelled (scheduled operation " +
                                                  std::to_string(s.spec.id) + ")");
    }
    // 1. Feature maps. The OFM: height stripes stack up, depth slices (distinct weight slices)
    //    side by side. An input: the box its NPU operations read, or the whole OFM of the
    //    operation that wrote it when that is larger (stripes read a rolling buffer; a clipped
    //    box skips rows Vela counts).
    const SliceMap map = hasWeights(q.type) && cmd::hasWeightStream(first) ? collectSlices(ops, members) : SliceMap{};
    // A chaining buffer's tensor is Vela's in the feature-map memory (never accessed there); a
    // scalar operand (U85) a one-element constant (never read: its value is in the command).
    const auto tensor = [&](const cmd::FeatureMap& fm, const Shape3& shape) {
      switch (fm.storage) {
      case cmd::Storage::Chained: return Tensor{shape, fm.format, fm.elementBits, &system_.featureMaps()};
      case cmd::Storage::None: return Tensor{{1, 1, 1}, fm.format, fm.elementBits, &system_.readonly()};
      case cmd::Storage::Tile2x2: break;
      }
      return Tensor{shape, fm.format, fm.elementBits, &system_.region(fm.region)};
    };
    Shape3 ofmShape{0, first.ofm.shape.width, first.ofm.shape.depth};
    for (size_t i = 0; i < members.size(); ++i) {
      if (map.sliceOfOp.empty() || map.sliceOfOp[i] == 0) {
        ofmShape.height += ops[members[i]].ofm.shape.height;
      }
    }
    if (map.slices.size() > 1) {
      ofmShape.depth = 0;
      for (const Slice& slice : map.slices) {
        ofmShape.depth += slice.depth;
      }
    }
    q.ofm = tensor(first.ofm, ofmShape);
    const auto input = [&](const cmd::FeatureMap& fm, Shape3 box) {
      for (auto it = out.rbegin(); it != out.rend(); ++it) {
        if (it->spec.chained || !it->producedAt || *it->producedAt != std::make_tuple(fm.region, fm.base[0], fm.strideY)) {
          continue;
        }
        // The same tensor when its rows are as long and the box fits inside it.
        const Shape3& produced = it->producedShape;
        if (produced.depth == box.depth && produced.width >= box.width && produced.height >= box.height) {
          box = produced;
        }
        break;
      }
      return tensor(fm, box);
    };
    q.ifm[0] = input(first.ifm, unionBox(ops, members, [](const cmd::Operation& o) -> const cmd::FeatureMap& { return o.ifm; }));
    if (first.hasIfm2()) {
      q.ifm[1] =
          input(first.ifm2, unionBox(ops, members, [](const cmd::Operation& o) -> const cmd::FeatureMap& { return o.ifm2; }));
    } else if (first.isBinaryElementwise()) {
      q.ifm[1] = Tensor{{1, 1, 1}, cmd::DataFormat::Nhwc, first.ifm2.elementBits, &system_.readonly()};
    }
    if (first.ofmTranspose != cmd::Transpose::Hwc) {
      q.ifm[0].shape = transposeSource(q.ofm.shape, first.ofmTranspose);   // the OFM transposes it (U85)
    } else if (q.type == OpType::Transpose) {
      transposeShapes(ops, members, q);
    }
    if (first.isBinaryElementwise() && first.operandsSwapped) {
      std::swap(q.ifm[0], q.ifm[1]);   // the stream's IFM2 is the operation's first input
    }
    s.producedAt = std::make_tuple(first.ofm.region, first.ofm.base[0], first.ofm.strideY);
    s.producedShape = q.ofm.shape;
    if (arch_.costsGroups()) {
      // A group whose primary writes on-chip produces the OFM its last member writes to memory.
      if (const GroupWriter writer = groupOf(ops, first, s.spec, tensor, q); writer.op != nullptr) {
        s.producedAt = std::make_tuple(writer.op->ofm.region, writer.op->ofm.base[0], writer.op->ofm.strideY);
        s.producedShape = writer.shape;
      }
    }
    // 2. Kernel (elementwise operations keep stale kernel registers), activation, block config.
    if (!isElementwise(q.type)) {
      q.kernel = first.kernel;
      q.ifmUpscale = first.upscale;
    }
    q.activation = s.spec.chainedActivation ? activationKind(*s.spec.chainedActivation)
                                            : (s.spec.id < 0 ? streamActivation(first) : ActivationKind::None);
    const std::optional<bool> partKernel =
        q.type == OpType::Conv2D ? std::optional<bool>(first.kernel.partKernelFirst) : std::nullopt;
    if (hasWeights(q.type) && cmd::hasWeightStream(first)) {
      q.weightFormat = first.weightFormat;   // the block config depends on 2:4 sparsity (U85)
      q.sparse = first.sparse;
    }
    ProgrammedBlock programmed;
    programmed.ofmBlock = first.ofmBlock;
    programmed.wideAccumulator = first.accFormat == cmd::AccFormat::Int40 || first.accFormat == cmd::AccFormat::Int48;
    programmed.partKernel = partKernel;
    programmed.ofmUblock = Shape3{first.ublock.height, first.ublock.width, 0};
    q.config = arch_.opConfig(q, programmed);
    // 3. Weights and scales: where they live, whether a DMA buffers them, their encoded sizes.
    if (!map.slices.empty()) {
      WeightTransfer& w = s.weights;
      w.present = true;
      w.buffered = map.slices.front().dma.has_value();
      w.cascaded = members.size() > 1 && interleaved(ops, members, s.spec.operations);
      w.firstSliceBytes = map.slices.front().bytes;
      // Pre-buffered (regor's preBuffer): the first slice goes under the previous operation of
      // the stream, never for a cascade. regor then starts the buffer's live range a step early,
      // so its allocator keeps the buffer clear of everything that operation uses: a weight DMA
      // into such memory marks a buffer that was not pre-buffered.
      const auto previous = std::find_if(out.rbegin(), out.rend(), [](const ScheduledOp& o) { return !o.spec.chained; });
      w.preBuffered = w.buffered && !w.cascaded && previous != out.rend() &&
                      !buffersOver(ops, map, previous->spec.operations);
      w.depthSlices = {0};
      uint64_t total = 0;
      for (const Slice& slice : map.slices) {
        w.weightBytes += slice.weightBytes;
        total += slice.bytes;
        w.depthSlices.push_back(w.depthSlices.back() + slice.depth);
      }
      w.scaleBytes = total - w.weightBytes;
      if (constants != nullptr && map.slices.size() > 1) {
        w.onePieceBytes = onePieceBytes(map.slices, first, q.ifm[0].shape.depth, q.ofm.shape.depth,
                                        q.config.ifmBlock.depth, q.type == OpType::DepthwiseConv2D,
                                        system_.accelerator(), *constants, cmd::WeightEncoder::Vela50);
      }
      q.hasScales = first.scales[0].length > 0;
      q.constMemory = &system_.readonly();
      q.encodedWeightSize = w.weightBytes;
      q.encodedScaleSize = w.scaleBytes;
      q.weightStagingMemory = w.buffered ? &system_.staging() : nullptr;
    }
    // 4. The LUT of a table lookup: Vela charges its DMA to the operation only when the lookup
    //    is the operation itself, not an activation chained to it (a softmax's exp LUT).
    if (activationKind(q.type) == ActivationKind::Lut) {
      s.lut = lutOf(ops, members.front(), system_);
    }
    out.push_back(std::move(s));
  }
  return out;
}

int64_t Estimator::schedulingCycles(const Query& q, uint32_t depth) const {
  Query ref = q;
  const auto unstaged = [&](Tensor& t) {
    if (t.memory == &system_.staging()) {
      t.memory = &system_.featureMaps();
    }
  };
  unstaged(ref.ifm[0]);
  unstaged(ref.ifm[1]);
  unstaged(ref.ofm);
  ref.ofm.shape.depth = depth;
  // The scheduler estimates with the default weight format (dense, standard).
  ref.weightFormat = arch::WeightFormat::Standard;
  ref.sparse = false;
  return arch_.measureCycleCost(ref).opCycles;
}

std::vector<LayerEstimate> Estimator::estimate(const std::vector<ScheduledOp>& ops) const {
  std::vector<LayerEstimate> out;
  out.reserve(ops.size());
  int64_t previousSlack = 0;
  for (const ScheduledOp& op : ops) {
    LayerEstimate e;
    if (op.spec.chained) {
      out.push_back(e);
      continue;
    }
    const WeightTransfer& w = op.weights;
    Query q = op.query;
    // 1. Pre-buffering: the first slice's share of the weights DMA'd under the previous
    //    operation does not count as streamed (Vela's firstWeightDMASize).
    if (w.preBuffered) {
      const float ratio = static_cast<float>(w.depthSlices[1]) / static_cast<float>(w.depthSlices.back());
      q.firstWeightDmaSize = static_cast<uint64_t>(static_cast<float>(q.encodedWeightSize) * ratio);
    }
    // 2. Cycles and MACs; the slack it offers the next operation's DMA (its last depth slice).
    const CycleCost cost = arch_.measureCycleCost(q);
    const uint32_t slackDepth = w.buffered && !w.cascaded && w.depthSlices.size() > 2
                                    ? w.depthSlices.back() - w.depthSlices[w.depthSlices.size() - 2]
                                    : q.ofm.shape.depth;
    const int64_t ownSlack = schedulingCycles(q, slackDepth);
    // 3. LUT and weight DMA the previous operation's slack does not hide.
    int64_t lutCycles = 0;
    std::array<AreaTraffic, 5> traffic{};
    const auto trafficOf = [&](const Memory& m) -> AreaTraffic& { return traffic[static_cast<size_t>(m.area)]; };
    if (op.lut && op.lut->source != &system_.lut()) {
      lutCycles = arch_.memToMemCycles(system_.lut(), *op.lut->source, static_cast<int64_t>(op.lut->bytes));
      trafficOf(*op.lut->source).otherRead += static_cast<double>(op.lut->bytes);
    }
    int64_t npu = cost.opCycles;
    if (w.buffered) {
      const int64_t firstDma = arch_.memToMemCycles(system_.staging(), system_.readonly(), static_cast<int64_t>(w.firstSliceBytes));
      // Sliced weights are timed in one piece; when that size is unknown (no constant region)
      // the slices' total stands in and the estimate says so.
      const bool sliced = w.depthSlices.size() > 2;
      e.fullTransferApproximated = sliced && !w.cascaded && w.onePieceBytes == 0;
      const uint64_t fullBytes = w.onePieceBytes > 0 ? w.onePieceBytes : w.weightBytes + w.scaleBytes;
      const int64_t full =
          w.cascaded ? 0 : arch_.memToMemCycles(system_.staging(), system_.readonly(), static_cast<int64_t>(fullBytes));
      npu = std::max(full - previousSlack + ownSlack, cost.opCycles + std::max<int64_t>(firstDma - previousSlack, 0));
      const double allocated = static_cast<double>(w.weightBytes + w.scaleBytes);
      trafficOf(system_.readonly()).weightRead += allocated;
      trafficOf(system_.staging()).weightWrite += allocated;
    } else {
      lutCycles = std::max<int64_t>(lutCycles - previousSlack, 0);
    }
    npu += lutCycles;
    // 4. Bytes and access cycles per memory; the operation takes as long as its slowest term.
    const ElementAccess elements = arch_.measureElementAccess(q);
    const ElementAccess bytes = arch_.elementTransferToBytes(q, elements);
    trafficOf(*q.ofm.memory).featureMapWrite += static_cast<double>(bytes.ofmWrite);
    trafficOf(*q.ifm[0].memory).featureMapRead += static_cast<double>(bytes.ifmRead[0]);
    if (q.ifm[1].present()) {
      trafficOf(*q.ifm[1].memory).featureMapRead += static_cast<double>(bytes.ifmRead[1]);
    }
    for (size_t i = 0; i < q.external.size(); ++i) {
      AreaTraffic& t = trafficOf(*q.external[i].tensor.memory);
      (q.external[i].output ? t.featureMapWrite : t.featureMapRead) += static_cast<double>(bytes.external[i]);
    }
    if (w.present) {
      const Memory& from = w.buffered ? system_.staging() : system_.readonly();
      trafficOf(from).weightRead += static_cast<double>(bytes.constRead[0]);
      trafficOf(from).otherRead += static_cast<double>(bytes.constRead[1]);
    }
    const MemoryAccessCycles access = arch_.measureAccessCycles(q, bytes);
    e.npuCycles = static_cast<double>(npu);
    e.totalCycles = e.npuCycles;
    for (const auto& [area, cycles] : access) {
      const size_t i = areaIndex(area);
      if (i < kAccessAreas.size()) {
        e.accessCycles[i] = static_cast<double>(cycles.total);
      }
      e.totalCycles = std::max(e.totalCycles, static_cast<double>(cycles.total));
    }
    for (size_t i = 0; i < kAccessAreas.size(); ++i) {
      e.traffic[i] = traffic[static_cast<size_t>(kAccessAreas[i])];
    }
    e.macs = static_cast<uint64_t>(cost.macs);
    e.computeCycles = cost.opCycles;
    e.slackCycles = static_cast<double>(ownSlack);
    out.push_back(e);
    previousSlack = ownSlack;
  }
  return out;
}

std::string_view weightTransferName(const WeightTransfer& w) {
  if (!w.present) return "none";
  if (!w.buffered) return "unbuffered";
  return w.cascaded ? "cascaded" : "buffered";
}

nlohmann::json scheduledOpJson(const ScheduledOp& op) {
  nlohmann::json j{{"scheduled_id", op.spec.id}, {"chained", op.spec.chained}};
  if (op.spec.chained) {
    return j;
  }
  const Query& q = op.query;
  nlohmann::json query{{"type", std::string(opTypeName(q.type))},
                       {"ifm", tensorJson(q.ifm[0])},
                       {"ofm", tensorJson(q.ofm)},
                       {"kernel", {q.kernel.width, q.kernel.height}},
                       {"stride", {q.kernel.strideX, q.kernel.strideY}},
                       {"ofm_block", shapeJson(q.config.ofmBlock)},
                       {"ifm_block", shapeJson(q.config.ifmBlock)},
                       {"traversal", std::string(traversalName(q.config.traversal))},
                       {"wide_accumulator", q.config.wideAccumulator}};
  if (q.ifm[1].present()) {
    query["ifm2"] = tensorJson(q.ifm[1]);
  }
  if (q.config.ofmUblock.elements() > 0) {
    query["ofm_ublock"] = shapeJson(q.config.ofmUblock);
  }
  j["query"] = query;
  const WeightTransfer& w = op.weights;
  if (w.present) {
    j["weights"] = {{"buffered", w.buffered},        {"cascaded", w.cascaded},
                    {"weight_bytes", w.weightBytes}, {"scale_bytes", w.scaleBytes},
                    {"first_slice_bytes", w.firstSliceBytes}, {"one_piece_bytes", w.onePieceBytes},
                    {"pre_buffered", w.preBuffered}, {"depth_slices", w.depthSlices}};
  }
  if (op.lut) {
    j["lut"] = {{"source", std::string(op.lut->source->name)}, {"bytes", op.lut->bytes}};
  }
  return j;
}

} // namespace npusim::analytic::vela5
