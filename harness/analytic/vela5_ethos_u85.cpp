// SPDX-License-Identifier: Apache-2.0
// Vela 5.0's Ethos-U85 cost model (regor architecture/ethosu85/ethos_u85_performance and the parts
// of ethos_u85.cpp it uses; shared/docs/ethos-u85.md section 5): MAC cycles per OFM block, the
// output unit's cycles per element summed over a group of fused and chained operations, the
// command-issue floor, element accesses with the chained operations' feature maps in memory,
// burst-derated bytes, and access cycles bounded per AXI channel (read buffers, outstanding
// transactions and latency of each memory).

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "harness/analytic/vela5_performance.h"
#include "harness/analytic/vela5_shapes.h"
#include "models/npu/npu_cost.h"
#include "sim/arch/command_set.h"
#include "sim/common/int_math.h"

namespace npusim::analytic::vela5 {

namespace {

// The NPU operation an operator type runs as (regor's EthosU85NpuOp).
enum class U85NpuOp : uint8_t {
  Convolution, Depthwise, VectorProduct, Pooling, ReduceSum, ReduceMinMax, ArgMax, Elementwise, Resize, Dma
};

U85NpuOp u85NpuOpOf(OpType type) {
  switch (type) {
  case OpType::DepthwiseConv2D: return U85NpuOp::Depthwise;
  case OpType::Conv2D: return U85NpuOp::Convolution;
  case OpType::ReduceSum: return U85NpuOp::ReduceSum;
  case OpType::FullyConnected: case OpType::MatMul: return U85NpuOp::VectorProduct;
  case OpType::ReduceMax: return U85NpuOp::ReduceMinMax;
  case OpType::Resize: return U85NpuOp::Resize;
  case OpType::Tile: return U85NpuOp::Dma;
  case OpType::Add: case OpType::Sub: case OpType::Mul: case OpType::Minimum: case OpType::Maximum: case OpType::SHL:
  case OpType::Asr: case OpType::CLZ: case OpType::Abs: case OpType::LeakyRelu:
    return U85NpuOp::Elementwise;
  // Pooling proper, and what Vela 5.0 runs as an average-pool no-op: activations, Quantize,
  // MemoryCopy, Transpose, Reverse, Rescale.
  case OpType::MaxPool: case OpType::AvgPool: case OpType::Rescale: case OpType::MemoryCopy: case OpType::Quantize:
  case OpType::Transpose: case OpType::Reverse: case OpType::Relu: case OpType::Relu0To1: case OpType::Relu6:
  case OpType::ReluN1To1: case OpType::ReluN: case OpType::Clamp: case OpType::Prelu: case OpType::Sigmoid:
  case OpType::Tanh: case OpType::LUT:
    return U85NpuOp::Pooling;
  }
  return U85NpuOp::Pooling;
}

bool usesMacs(U85NpuOp op) { return op != U85NpuOp::Elementwise && op != U85NpuOp::Resize && op != U85NpuOp::Dma; }

// Operations that pool a window of the IFM without weights.
bool isPoolingLike(U85NpuOp op) { return op == U85NpuOp::Pooling || op == U85NpuOp::ReduceMinMax || op == U85NpuOp::ArgMax; }

// Largest sub-kernel side per operation class (regor's s_SubkernelLimits).
uint32_t subKernelLimit(U85NpuOp op) {
  switch (op) {
  case U85NpuOp::Convolution: case U85NpuOp::Depthwise: case U85NpuOp::Pooling: case U85NpuOp::ReduceSum: case U85NpuOp::ReduceMinMax:
  case U85NpuOp::ArgMax:
    return 8;
  case U85NpuOp::VectorProduct: case U85NpuOp::Elementwise: case U85NpuOp::Resize: case U85NpuOp::Dma: return 1;
  }
  return 1;
}

bool isActivation(OpType t) {
  switch (t) {
  case OpType::Relu: case OpType::Relu0To1: case OpType::Relu6: case OpType::ReluN: case OpType::ReluN1To1:
  case OpType::Prelu: case OpType::Clamp: case OpType::Sigmoid: case OpType::Tanh: case OpType::LUT:
    return true;
  default: return false;
  }
}

bool isBinaryElementwise(OpType t) {
  switch (t) {
  case OpType::Add: case OpType::Sub: case OpType::Mul: case OpType::Minimum: case OpType::Maximum: case OpType::SHL:
  case OpType::Asr:
    return true;
  default: return false;
  }
}

// The AXI channels the U85 reads and writes through (regor's MemChannel), each read channel with
// a read buffer of its own (NpuConfig::readBuffers).
enum class Channel : uint8_t { Mem2Mem, IfmStream, Weight, FastWeight, Ifm, Scale, Write };

// What Vela 5.0's U85 model knows of a MAC configuration beyond NpuConfig (regor's
// s_EthosU85Configs; ethos-u85.md 1.1): the IFM allocation unit each OFM micro-block uses for IFM
// block depths of up to 128, 256 and more bits. Weight decoders, read buffers and the output
// unit's rows are NpuConfig's.
struct Ublock {
  Shape3 shape;
  std::array<Shape3, 3> ifmAllocationUnit;   // depth in units of 128 bits
};
struct U85Config {
  uint32_t macs;
  std::array<Ublock, 3> ublocks;
  size_t ublockCount;
};

constexpr std::array<Shape3, 3> kAu2x2{{{2, 2, 1}, {1, 2, 2}, {1, 1, 4}}};
constexpr std::array<Shape3, 3> kAu1x4{{{1, 4, 1}, {1, 2, 2}, {1, 1, 4}}};
constexpr std::array<Shape3, 3> kAu2x4{{{2, 4, 1}, {2, 2, 2}, {1, 2, 4}}};
constexpr std::array<Shape3, 3> kAu4x4{{{4, 4, 1}, {2, 4, 2}, {2, 2, 4}}};
const std::array<U85Config, 5> kConfigs{{
    {128, {{{{1, 2, 8}, {{{1, 2, 1}, {1, 1, 2}, {1, 1, 2}}}}, {{1, 1, 16}, {{{1, 2, 1}, {1, 1, 2}, {1, 1, 2}}}}}}, 2},
    {256, {{{{1, 2, 16}, kAu2x2}, {{1, 4, 8}, kAu1x4}, {{2, 2, 8}, kAu2x2}}}, 3},
    {512, {{{{2, 2, 16}, kAu2x2}, {{1, 4, 16}, kAu1x4}}}, 2},
    {1024, {{{{2, 2, 32}, kAu2x4}, {{1, 4, 32}, {{{2, 4, 1}, {1, 4, 2}, {1, 2, 4}}}}, {{2, 4, 16}, kAu2x4}}}, 3},
    {2048, {{{{2, 2, 64}, kAu4x4}, {{1, 4, 64}, {{{4, 4, 1}, {2, 4, 2}, {1, 4, 4}}}}, {{4, 4, 16}, kAu4x4}}}, 3},
}};

constexpr uint32_t kSubKernelMax = 8;
uint32_t roundUp32(uint32_t value, uint32_t granule) { return static_cast<uint32_t>(roundUp(uint64_t{value}, granule)); }

// The largest OFM block regor searches (ethos-u85.md 1.1), the accumulator depth granule and the
// chaining buffer's slots.
constexpr Shape3 kOfmBlockMax{128, 128, 1024};
constexpr uint32_t kAccDepthGranule = 16;
constexpr uint32_t kChainingSlots = 6;

// A tile of `range` in multiples of `granule`, at most `tile`: `tile` when it divides `range`,
// else `range` shared evenly over one tile more than fit, rounded up to the granule.
uint32_t granularTile(uint32_t range, uint32_t granule, uint32_t tile) {
  if (range % tile == 0) {
    return tile;
  }
  const uint32_t tiles = range / tile;
  return std::max(roundUp32(range / (tiles + 1), granule), granule);
}

// Grows `value` (up to `maxLimit`) by the whole factor `available` can give up while keeping
// at least `required`, when that factor is 2 or more; `available` shrinks by the same factor.
uint32_t reapportion(uint32_t value, uint32_t maxLimit, uint32_t& available, uint32_t required) {
  const uint32_t factor = std::min(available / required, maxLimit / value);
  if (factor >= 2) {
    available /= factor;
    value *= factor;
  }
  return value;
}

// The cost model proper.
class EthosU85Performance final : public ArchitecturePerformance {
public:
  explicit EthosU85Performance(const System& system)
      : npu_(system.accelerator()), config_(configOf(system.accelerator().macs)) {}

  CycleCost measureCycleCost(const Query& q) const override {
    const U85NpuOp op = u85NpuOpOf(q.type);
    if (op == U85NpuOp::Dma || op == U85NpuOp::Resize) {
      return {};   // Vela 5.0 does not cost DMA operations and resizes
    }
    return usesMacs(op) ? macOpCycles(q, op) : elementwiseCycles(q);
  }

  int64_t memToMemCycles(const Memory& dest, const Memory& source, int64_t bytes) const override {
    const int64_t from = perBandwidth(bytes, channelBandwidth(source, Channel::Mem2Mem)) + source.readLatency;
    const int64_t to = perBandwidth(bytes, channelBandwidth(dest, Channel::Write)) + dest.writeLatency;
    return std::max(from, to);
  }

  ElementAccess measureElementAccess(const Query& q) const override {
    ElementAccess a;
    const U85NpuOp op = u85NpuOpOf(q.type);
    const cmd::DataFormat ifmFormat = q.ifm[0].format;   // every input is rounded like the first
    if (usesMacs(op)) {
      const Shape ifmBlock = minShape(q.ifm[0].shape, q.config.ifmBlock);
      const Shape ofmBlock = minShape(q.ofm.shape, q.config.ofmBlock);
      Shape blocks = divRoundUp(q.ofm.shape, ofmBlock);
      int64_t ofmBlockDepth = ofmBlock.depth;
      if (op == U85NpuOp::Depthwise || isPoolingLike(op)) {
        blocks.depth = 1;
        ofmBlockDepth = q.ifm[0].shape.depth;
      }
      const uint32_t limit = subKernelLimit(op);
      const int64_t subKernels = divUp(q.kernel.width, limit) * divUp(q.kernel.height, limit);
      const int64_t ifmFetch =
          elementsWH(storageRounded(ifmBlock, ifmFormat)) * storageRounded(q.ifm[0].shape, ifmFormat).depth;
      a.ifmRead[0] = ifmFetch * subKernels * elements(blocks);
      if (op == U85NpuOp::Convolution || op == U85NpuOp::Depthwise || op == U85NpuOp::VectorProduct) {
        int64_t kernelRead = static_cast<int64_t>(q.kernel.elements());
        if (op != U85NpuOp::Depthwise) {
          kernelRead *= q.ifm[0].shape.depth;
        }
        a.constRead[0] = kernelRead * ofmBlockDepth * elements(blocks);
        a.constRead[1] = q.ofm.shape.depth;
        a.weightsRefetch = elementsWH(blocks);
      }
    } else if (op == U85NpuOp::Elementwise) {
      // A one-element input is a scalar operand, but only one of them can be encoded.
      bool scalar = false;
      for (size_t i = 0; i < 2; ++i) {
        const int64_t n = elements(q.ifm[i].shape);
        if (n > 1 || (n == 1 && scalar)) {
          a.ifmRead[i] = elements(storageRounded(q.ifm[i].shape, ifmFormat));
        } else if (n == 1) {
          scalar = true;
        }
      }
    } else if (op == U85NpuOp::Resize) {
      a.ifmRead[0] = elements(storageRounded(q.ifm[0].shape, ifmFormat));
    } else if (q.type == OpType::Tile) {
      a.ifmRead[0] = elements(storageRounded(q.ofm.shape, ifmFormat));
    }
    // Chained members' feature maps in memory. Vela reads only the first of each member's
    // (regor looks them up by member); a one-element input is a scalar operand, never read.
    a.external.assign(q.external.size(), 0);
    std::set<size_t> seen;
    for (size_t i = 0; i < q.external.size(); ++i) {
      const ExternalFeatureMap& fm = q.external[i];
      if (!seen.insert(fm.member).second) {
        continue;
      }
      const int64_t n = elements(storageRounded(fm.tensor.shape, fm.tensor.format));
      a.external[i] = fm.output || elements(fm.tensor.shape) > 1 ? n : 0;
    }
    if (q.ofmWritten) {
      a.ofmWrite = elements(storageRounded(q.ofm.shape, q.ofm.format));
    }
    return a;
  }

  ElementAccess elementTransferToBytes(const Query& q, const ElementAccess& access) const override {
    ElementAccess r = access;
    for (size_t i = 0; i < (q.ifm[1].present() ? 2u : 1u); ++i) {
      r.ifmRead[i] = memoryTransfer(true, q.ifm[i], q.config.ifmBlock, access.ifmRead[i]);
    }
    r.ofmWrite = memoryTransfer(false, q.ofm, q.config.ofmBlock, access.ofmWrite);
    r.constRead = {0, 0};
    if (q.encodedWeightSize > 0) {
      r.constRead[0] = access.weightsRefetch * static_cast<int64_t>(q.encodedWeightSize);
      r.constRead[1] = access.weightsRefetch * static_cast<int64_t>(q.encodedScaleSize);
      r.weightsRefetch = 1;
    }
    for (size_t i = 0; i < q.external.size(); ++i) {
      const ExternalFeatureMap& fm = q.external[i];
      r.external[i] = memoryTransfer(!fm.output, fm.tensor, fm.output ? q.config.ofmBlock : q.config.ifmBlock,
                                     access.external[i]);
    }
    return r;
  }

  MemoryAccessCycles measureAccessCycles(const Query& q, const ElementAccess& bytes) const override {
    // 1. Bytes per memory, channel and what is moved.
    enum Group : uint8_t { FeatureMaps, Weights, Scales };
    struct Transfers {
      const Memory* memory = nullptr;
      std::map<Channel, std::array<std::optional<int64_t>, 3>> channels;
    };
    std::map<MemArea, Transfers> transfer;
    const auto add = [&](const Memory& m, Channel channel, Group group, int64_t n) {
      Transfers& t = transfer[m.area];
      t.memory = &m;
      std::optional<int64_t>& slot = t.channels[channel][group];
      slot = slot.value_or(0) + n;
    };
    add(*q.ifm[0].memory, inputChannel(q.type, 0), FeatureMaps, bytes.ifmRead[0]);
    if (q.ifm[1].present()) {
      add(*q.ifm[1].memory, inputChannel(q.type, 1), FeatureMaps, bytes.ifmRead[1]);
    }
    add(*q.ofm.memory, Channel::Write, FeatureMaps, bytes.ofmWrite);
    for (size_t i = 0; i < q.external.size(); ++i) {
      const ExternalFeatureMap& fm = q.external[i];
      add(*fm.tensor.memory, fm.output ? Channel::Write : inputChannel(fm.memberType, fm.input), FeatureMaps,
          bytes.external[i]);
    }
    if (q.constMemory != nullptr) {
      const Channel weightChannel = q.weightFormat == arch::WeightFormat::Fast ? Channel::FastWeight : Channel::Weight;
      if (q.weightStagingMemory != nullptr) {
        // Weights DMA'd concurrently: the part not pre-buffered is read from permanent storage
        // and written to the staging buffer, from which the NPU reads all of them.
        const int64_t streamed = std::max<int64_t>(
            static_cast<int64_t>(q.encodedWeightSize) - static_cast<int64_t>(q.firstWeightDmaSize), 0);
        add(*q.constMemory, Channel::Mem2Mem, Weights, streamed);
        add(*q.weightStagingMemory, Channel::Write, Weights, streamed);
        add(*q.weightStagingMemory, weightChannel, Weights, bytes.constRead[0]);
      } else {
        // Vela reads unbuffered weights through the standard weight channel whatever their format.
        add(*q.constMemory, Channel::Weight, Weights, bytes.constRead[0]);
      }
      add(*q.constMemory, Channel::Scale, Scales, bytes.constRead[1]);
    }
    // 2. Per memory: a group takes its bytes over the memory's bandwidth, or its slowest channel;
    //    the memory, all bytes or the channel whose groups take longest.
    MemoryAccessCycles out;
    for (const auto& [area, t] : transfer) {
      std::array<int64_t, 3> groupBytes{}, groupChannelCycles{};
      std::array<bool, 3> used{};
      int64_t totalBytes = 0, slowestChannel = 0;
      for (const auto& [channel, groups] : t.channels) {
        const float bandwidth = channelBandwidth(*t.memory, channel);
        int64_t channelCycles = 0;
        for (size_t g = 0; g < groups.size(); ++g) {
          if (!groups[g]) {
            continue;
          }
          const int64_t cycles = perBandwidth(*groups[g], bandwidth);
          groupChannelCycles[g] = std::max(groupChannelCycles[g], cycles);
          groupBytes[g] += *groups[g];
          used[g] = true;
          totalBytes += *groups[g];
          channelCycles += cycles;
        }
        slowestChannel = std::max(slowestChannel, channelCycles);
      }
      const auto groupCycles = [&](Group g) {
        return used[g] ? std::max(perBandwidth(groupBytes[g], t.memory->bandwidth), groupChannelCycles[g]) : 0;
      };
      AccessCycles& c = out[area];
      c.featureMaps = groupCycles(FeatureMaps);
      c.weights = groupCycles(Weights);
      c.scales = groupCycles(Scales);
      c.total = std::max(perBandwidth(totalBytes, t.memory->bandwidth), slowestChannel);
    }
    return out;
  }

  OpConfig opConfig(const Query& q, const ProgrammedBlock& programmed) const override {
    const U85NpuOp op = u85NpuOpOf(q.type);
    OpConfig c;
    c.ofmBlock = programmed.ofmBlock;
    c.wideAccumulator = programmed.wideAccumulator;
    c.ofmUblock = ublockOf(programmed.ofmUblock).shape;
    // 1. Traversal: depthwise, or a convolution's weight order (the stream's, else Vela's
    //    utilisation rule), else depth first.
    const Shape ifmShape = elements(q.ifm[1].shape) > elements(q.ifm[0].shape) ? q.ifm[1].shape : q.ifm[0].shape;
    if (op == U85NpuOp::Depthwise) {
      c.traversal = Traversal::Depthwise;
    } else if (op == U85NpuOp::Convolution && programmed.partKernel.value_or(choosePartKernel(ifmShape, q))) {
      c.traversal = Traversal::PartKernel;
    }
    // 2. IFM block (regor's FindBlockConfig and GetArchIFMBlockSize): the OFM block's for
    //    elementwise operations; the rows and columns the OFM block needs, on the micro-block's
    //    IFM allocation unit, for the others, as deep as the OFM block (depthwise, pooling,
    //    resize) or the fixed IFM block depth of convolutions and reductions.
    if (op == U85NpuOp::Elementwise) {
      c.ofmBlock = elementwiseBlock(q, programmed.ofmBlock, c.ofmUblock);
      c.ifmBlock = c.ofmBlock;
      return c;
    }
    const uint32_t bits = q.ifm[0].bits;
    if (op == U85NpuOp::Depthwise || (isPoolingLike(op) && q.type != OpType::MemoryCopy)) {
      // Vela's depthwise search sizes the IFM block without resampling.
      c.ifmBlock = ifmBlockSize(c.ofmBlock, q.kernel, allocationUnit(c.ofmBlock.depth, bits, c), 1, 0, 0);
      return c;
    }
    uint32_t ifmBlockDepth = npu::ifmBlockDepth2x(npu_, bits, c.traversal == Traversal::PartKernel, c.ofmUblock, q.sparse);
    if (op == U85NpuOp::ReduceSum) {
      c.ifmBlock = ifmBlockSize(c.ofmBlock, q.kernel, allocationUnit(ifmBlockDepth, bits, c), 1, 0, ifmBlockDepth);
      return c;
    }
    if (isPoolingLike(op) || op == U85NpuOp::Resize) {
      ifmBlockDepth = c.ofmBlock.depth;   // equal-depth operations
    }
    const int upscale = q.ifmUpscale == cmd::Upscale::Zeros ? 2 : 1;
    const int rounding = q.ifmUpscale == cmd::Upscale::Nearest ? 1 : 0;
    c.ifmBlock = ifmBlockSize(c.ofmBlock, q.kernel, allocationUnit(ifmBlockDepth, bits, c), upscale, rounding,
                              ifmBlockDepth);
    c.ifmBlock.depth = ifmBlockDepth;
    return c;
  }

  bool costsGroups() const override { return true; }

private:
  // The block Vela 5.0 estimated an elementwise operation with: the programmed one, unless
  // regor's elementwise search (FindElementwiseConfig: as wide as the output or chaining buffer
  // holds rows of the block's depth, not capped at the 128 columns of its block limit) chose one
  // wider than OFM_BLK_WIDTH_M1 can hold (7 bits: 128 columns), which the stream then holds
  // modulo that: then the search's (estimated by Vela, not run by the hardware; docs/estimator.md).
  Shape3 elementwiseBlock(const Query& q, const Shape3& programmed, const Shape3& ublock) const {
    const bool plain = q.group.empty() || (q.group.front().transpose == Transpose::None &&
                                           q.group.front().reverse == Reverse::None);
    if (!plain || programmed.width == 0) {
      return programmed;   // a transposed or reversed output: a search with other limits
    }
    const Shape3 searched = searchElementwiseBlock(q, ublock);
    const uint32_t widths = 1u << npu_.arch->commands->info(arch::CommandId::OfmBlkWidthM1).fields->front().width;
    const bool wrapped = searched.width > widths && searched.height == programmed.height &&
                         searched.depth == programmed.depth && (searched.width - 1) % widths == programmed.width - 1;
    return wrapped ? searched : programmed;
  }

  // regor's FindElementwiseConfig (ethos-u85.md 1.1): granule = the micro-block's rows and
  // columns at the accumulator depth granule; the output buffer holds rows of granule-deep
  // columns, a chaining-buffer slot rows of 16-channel bricks of the micro-block's height.
  Shape3 searchElementwiseBlock(const Query& q, const Shape3& ublock) const {
    const Shape3 granule{ublock.height, ublock.width, kAccDepthGranule};
    const Shape3 ofm{roundUp32(q.ofm.shape.height, granule.height), roundUp32(q.ofm.shape.width, granule.width),
                     roundUp32(q.ofm.shape.depth, granule.depth)};
    const Shape3 limit = minShape(ofm, kOfmBlockMax);
    const uint32_t ifmBits = q.ifm[0].bits;
    const uint32_t outputColumns = npu_.buffers.output * 8 / ifmBits / granule.depth;
    const uint32_t chainingColumns =
        npu_.buffers.chaining / kChainingSlots / (kBrickDepth * (ifmBits / 8)) / ublock.height;
    uint32_t height = granularTile(ofm.height, granule.height, limit.height);
    const uint32_t widthNeeded = granularTile(ofm.width, granule.width, std::min(outputColumns, limit.width));
    const uint32_t required = std::max(widthNeeded, granule.width);
    uint32_t width = outputColumns;
    uint32_t depth = reapportion(granule.depth, limit.depth, width, required);
    const auto scalar = [](const Tensor& t) { return t.present() && t.shape.elements() == 1; };
    if (q.ifm[1].present() && !scalar(q.ifm[0]) && !scalar(q.ifm[1])) {
      // Broadcast axes: where an input is smaller than the output.
      const auto smaller = [&](const Shape3& s, uint32_t Shape3::*axis) { return s.*axis < q.ofm.shape.*axis; };
      const auto broadcast = [&](uint32_t Shape3::*axis) {
        return smaller(q.ifm[0].shape, axis) || smaller(q.ifm[1].shape, axis);
      };
      if (broadcast(&Shape3::depth)) {
        depth = granularTile(ofm.depth, granule.depth, limit.depth);
        width = chainingColumns;
        if (!broadcast(&Shape3::width) && !broadcast(&Shape3::height)) {
          height = reapportion(ublock.height, limit.height, width, required);
        }
      } else if (broadcast(&Shape3::height)) {
        width = chainingColumns;
        depth = reapportion(kBrickDepth, limit.depth, width, required);
      }
    }
    return {roundUp32(height, granule.height), roundUp32(width, granule.width), roundUp32(depth, granule.depth)};
  }

  static const U85Config& configOf(uint32_t macs) {
    for (const U85Config& c : kConfigs) {
      if (c.macs == macs) {
        return c;
      }
    }
    throw std::invalid_argument("Vela 5.0 has no Ethos-U85 configuration with " + std::to_string(macs) + " MACs");
  }

  // The configuration's micro-block of the programmed height and width (each is unique).
  const Ublock& ublockOf(const Shape& programmed) const {
    for (size_t i = 0; i < config_.ublockCount; ++i) {
      const Ublock& u = config_.ublocks[i];
      if (u.shape.height == programmed.height && u.shape.width == programmed.width) {
        return u;
      }
    }
    throw std::invalid_argument("ethos-u" + std::to_string(config_.macs) + " has no " +
                                std::to_string(programmed.height) + "x" + std::to_string(programmed.width) +
                                " OFM micro-block");
  }

  // The IFM allocation unit of an IFM block `depth` deep (regor's CalcIfmAUSize).
  Shape allocationUnit(uint32_t depth, uint32_t bits, const OpConfig& c) const {
    const uint32_t depthBits = depth * bits;
    const size_t index = depthBits > 256 ? 2 : depthBits > 128 ? 1 : 0;
    const Shape au = ublockOf(c.ofmUblock).ifmAllocationUnit[index];
    return {au.height, au.width, au.depth * 128 / bits};
  }

  // IFM rows and columns an OFM block needs, sub-kernel bounded, on the allocation unit; its
  // depth `depth` (or the OFM block's) rounded to the unit (regor's GetArchIFMBlockSize).
  static Shape ifmBlockSize(const Shape& ofmBlock, const cmd::Kernel& kernel, const Shape& au, int upscale,
                            int rounding, uint32_t depth) {
    const auto side = [&](uint32_t ofmSide, uint32_t stride, uint32_t dilated, uint32_t granule) {
      const int border = static_cast<int>(std::min(dilated, kSubKernelMax));
      const int needed = static_cast<int>(std::ceil(
          static_cast<float>((static_cast<int>(ofmSide) - 1) * static_cast<int>(stride) + border + rounding) /
          static_cast<float>(upscale)));
      return roundUp32(static_cast<uint32_t>(needed), granule);
    };
    return {side(ofmBlock.height, kernel.strideY, kernel.dilatedHeight(), au.height),
            side(ofmBlock.width, kernel.strideX, kernel.dilatedWidth(), au.width),
            roundUp32(depth > 0 ? depth : ofmBlock.depth, au.depth)};
  }

  // regor's ChooseKernelFirst: part-kernel-first when its utilisation is at least depth-first's.
  static bool choosePartKernel(const Shape& ifmShape, const Query& q) {
    const int k = static_cast<int>(q.kernel.elements());
    const int granule = q.sparse ? 10 : 5;
    const int rest = q.sparse ? 4 : 2;
    const int rounded = (k / granule) * granule + std::max(k % granule, rest);
    const double depth = ifmShape.depth;
    const double partUtil = depth / static_cast<double>(roundUp(uint64_t{ifmShape.depth}, 16u)) *
                            (k / static_cast<double>(rounded));
    const double depthUtil = depth / static_cast<double>(roundUp(uint64_t{ifmShape.depth}, q.sparse ? 128u : 64u));
    return partUtil >= depthUtil;
  }

  // The channel an operation's input `index` is read through (regor's LookupChannel): streamed
  // for elementwise operations, resizes and a matrix multiplication's second operand.
  static Channel inputChannel(OpType type, size_t index) {
    const bool streamed = (index == 1 && type == OpType::MatMul) || type == OpType::Resize ||
                          u85NpuOpOf(type) == U85NpuOp::Elementwise;
    return streamed ? Channel::IfmStream : Channel::Ifm;
  }

  // The read buffer of a read channel, 16-byte words (NpuConfig::readBuffers).
  uint32_t readBufferWords(Channel channel) const {
    const arch::ReadBuffers& rb = npu_.readBuffers;
    switch (channel) {
    case Channel::Mem2Mem: return rb.mem2mem;
    case Channel::IfmStream: return rb.ifmStream;
    case Channel::Weight: return rb.weight;
    case Channel::FastWeight: return rb.fastWeight;
    case Channel::Ifm: return rb.ifm;
    case Channel::Scale: return rb.scale;
    case Channel::Write: break;
    }
    throw std::logic_error("the write channel has no read buffer");
  }

  // Bytes per cycle one channel of `m` sustains: its read buffer (reads) or the outstanding
  // transactions of the memory's ports, 80% used, each a burst per latency, 80% efficient; at
  // most the memory's bandwidth (regor's ChannelBW).
  float channelBandwidth(const Memory& m, Channel channel) const {
    const bool write = channel == Channel::Write;
    const int latency = write ? m.writeLatency : m.readLatency;
    if (latency <= 0) {
      return m.bandwidth;   // no latency bound (regor's quotient is infinite or NaN, std::min keeps the bandwidth)
    }
    const int outstanding = write ? m.maxWrites : m.maxReads;
    const float readBuffer =
        write ? std::numeric_limits<float>::max()
              : static_cast<float>(readBufferWords(channel)) /
                    static_cast<float>(std::max(m.burstLength / 16, 1));
    const float transactions = std::min(readBuffer, static_cast<float>(outstanding * m.portsUsed * 0.8));
    return std::min(m.bandwidth,
                    static_cast<float>(static_cast<float>(m.burstLength) * transactions / static_cast<float>(latency) * 0.8));
  }

  // Bytes `toTransfer` elements of `t` cost once runs shorter than the memory's burst are
  // penalised (regor's EstimateMemoryTransfer; OFM runs widen with the weight decoders).
  int64_t memoryTransfer(bool isRead, const Tensor& t, const Shape& block, int64_t toTransfer) const {
    const int64_t bits = t.bits;
    const int64_t decoders = npu_.weightDecoders;
    int64_t burst = 8;
    switch (t.format) {
    case cmd::DataFormat::Nhcwb16: {
      const int64_t zStride = (int64_t{t.shape.width} * bits * 16) / 8;
      if (zStride == block.depth) {
        burst = bits * block.width * block.depth;
      } else {
        burst = 16 * bits * block.width * (isRead ? 1 : decoders);
      }
      break;
    }
    case cmd::DataFormat::Nhwc: {
      const int64_t xStride = (int64_t{t.shape.depth} * bits) / 8;
      if (isRead) {
        burst = xStride == block.depth ? bits * block.width * block.depth : bits * block.depth;
      } else if (block.depth <= 16 && xStride == block.depth) {
        burst = bits * block.width * block.depth;
      } else {
        burst = std::min({int64_t{64 * 8}, 16 * bits * decoders, int64_t{block.depth} * bits});
      }
      break;
    }
    }
    const int64_t burstLength = t.memory->burstLength;
    burst = std::min(burstLength, burst / 8);
    if (burst <= 0) {
      throw std::invalid_argument("Vela 5.0 burst length of an empty block");
    }
    return toTransfer * bits / 8 * burstLength / burst;
  }

  int64_t minimumMemoryCycles(const Query& q) const {
    int64_t ifmCycles = 0;
    for (size_t i = 0; i < (q.ifm[1].present() ? 2u : 1u); ++i) {
      Tensor t = q.ifm[i];
      t.bits = q.ifm[0].bits;   // every input is taken at the first one's width
      const int64_t tx = memoryTransfer(true, t, q.config.ifmBlock, elements(minShape(t.shape, q.config.ifmBlock)));
      ifmCycles = std::max(ifmCycles, t.memory->readLatency + perBandwidth(tx, t.memory->bandwidth));
    }
    const int64_t tx = memoryTransfer(false, q.ofm, q.config.ofmBlock, elements(minShape(q.ofm.shape, q.config.ofmBlock)));
    return ifmCycles + q.ofm.memory->writeLatency + perBandwidth(tx, q.ofm.memory->bandwidth);
  }

  // MAC cycles of one OFM block: the U85's MAC-array rules (npu::blockMacCycles, ethos-u85.md
  // 5.2) on the clipped OFM and IFM blocks the query's block configuration gives.
  int64_t macCyclesPerBlock(const Query& q, U85NpuOp op) const {
    npu::MacBlock b;
    b.traversal = isPoolingLike(op) ? npu::MacTraversal::Pooling
                  : op == U85NpuOp::Depthwise ? npu::MacTraversal::Depthwise
                  : op == U85NpuOp::Convolution && q.config.traversal == Traversal::PartKernel ? npu::MacTraversal::PartKernelFirst
                                                                                               : npu::MacTraversal::DepthFirst;
    b.acc40 = q.config.wideAccumulator;
    b.ifmBits = q.ifm[0].bits;
    b.sparse = q.sparse;
    b.ublock = q.config.ofmUblock;
    b.block = minShape(q.ofm.shape, q.config.ofmBlock);
    b.kernelWidth = q.kernel.width;
    b.kernelHeight = q.kernel.height;
    b.subKernelMax = subKernelLimit(op);
    b.ifmBlockDepth = minShape(q.ifm[0].shape, q.config.ifmBlock).depth;
    const bool repeats = op == U85NpuOp::Convolution || op == U85NpuOp::VectorProduct || op == U85NpuOp::ReduceSum;
    b.ifmDepthBlocks = repeats ? static_cast<uint32_t>(divUp(q.ifm[0].shape.depth, b.ifmBlockDepth)) : 1;
    return static_cast<int64_t>(npu::blockMacCycles(npu_, b));
  }

  // Output-unit cycles of one element written by a member (regor's GetOutputCyclesPerElement:
  // the U85's output rows, npu::outputRowCycles).
  double outputCycles(const GroupMember& m) const {
    return npu::outputRowCycles(npu_, m.onChipOutput, isBinaryElementwise(m.type), m.ifmBits, m.ofmBits);
  }

  // Cycles of a fused activation, transpose or reverse (half rate when it swaps H and W or
  // reverses W).
  double activationCycles(const GroupMember& m) const {
    const bool swapsHW = m.transpose == Transpose::Nwhc || m.transpose == Transpose::Nwch || m.transpose == Transpose::Ncwh;
    return npu::activationRowCycles(npu_, swapsHW || m.reverse == Reverse::W);
  }

  // Output-unit cycles per OFM element of the whole group: per operation that writes (primary,
  // chained), the slowest of it and the operations fused after it, summed.
  double outputCyclesPerElement(const Query& q) const {
    std::vector<GroupMember> alone;
    const std::vector<GroupMember>* group = &q.group;
    if (q.group.empty()) {
      alone.push_back({q.type, q.ifm[0].bits, q.ofm.bits, !q.ofmWritten, Transpose::None, Reverse::None});
      group = &alone;
    }
    double total = 0, slowest = 0;
    for (const GroupMember& m : *group) {
      if (isActivation(m.type) || m.type == OpType::Transpose || m.type == OpType::Reverse) {
        slowest = std::max(slowest, activationCycles(m));
      } else {
        total += slowest;
        slowest = outputCycles(m);
      }
    }
    return total + slowest;
  }

  CycleCost macOpCycles(const Query& q, U85NpuOp op) const {
    const bool readsBias = op == U85NpuOp::Convolution || op == U85NpuOp::Depthwise || op == U85NpuOp::VectorProduct;
    CycleCost c = macPipelineCycles(q, q.config.ofmUblock, outputCyclesPerElement(q), macCyclesPerBlock(q, op),
                                    minimumMemoryCycles(q), readsBias);
    c.macs = static_cast<int64_t>(q.kernel.elements()) * elements(q.ofm.shape);
    if (op != U85NpuOp::Depthwise && !isPoolingLike(op)) {
      c.macs *= q.ifm[0].shape.depth;
    }
    c.macs /= q.sparse ? 2 : 1;
    return c;
  }

  CycleCost elementwiseCycles(const Query& q) const {
    const double n = static_cast<double>(elements(storageRounded(q.ofm.shape, q.ofm.format)));
    const double perElement = outputCyclesPerElement(q);
    const double aoCycles = std::ceil(perElement * n);
    const double blockElements = static_cast<double>(elements(q.config.ofmBlock));
    const double cmdCycles = std::ceil((static_cast<double>(minimumMemoryCycles(q)) / blockElements + perElement) / 4.0 * n);
    CycleCost c;
    c.opCycles = static_cast<int64_t>(std::max(cmdCycles, aoCycles));
    c.aoCycles = static_cast<int64_t>(aoCycles);
    c.cmdCycles = static_cast<int64_t>(cmdCycles);
    return c;
  }

  const arch::NpuConfig& npu_;
  const U85Config& config_;
};

} // namespace

std::unique_ptr<ArchitecturePerformance> makeEthosU85Performance(const System& system) {
  return std::make_unique<EthosU85Performance>(system);
}

} // namespace npusim::analytic::vela5
