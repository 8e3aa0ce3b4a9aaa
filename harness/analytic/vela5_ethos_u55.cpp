// SPDX-License-Identifier: Apache-2.0
// Vela 5.0's Ethos-U55/U65 cost model (regor architecture/ethosu55/ethos_u55_performance and the
// parts of ethos_u55.cpp it uses): per-block MAC and output-unit cycles, the command-issue
// floor, element accesses, burst-derated bytes and access cycles. The U65 is the same model
// with its own tables (arch::NpuConfig) and two cores on the ethos-u65-512.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "harness/analytic/vela5_performance.h"
#include "harness/analytic/vela5_shapes.h"
#include "sim/arch/command_set.h"
#include "sim/common/error.h"
#include "sim/common/int_math.h"

namespace npusim::analytic::vela5 {

namespace {

// The NPU operation class an operator type runs as (regor's EthosU55NpuOp).
enum class U55NpuOp : uint8_t { Convolution, Depthwise, VectorProduct, Pooling, ReduceSum, Elementwise, Dma, Compound };

U55NpuOp u55NpuOpOf(OpType type) {
  switch (type) {
  case OpType::DepthwiseConv2D: return U55NpuOp::Depthwise;
  case OpType::Conv2D: return U55NpuOp::Convolution;
  case OpType::FullyConnected: return U55NpuOp::VectorProduct;
  case OpType::ReduceSum: return U55NpuOp::ReduceSum;
  case OpType::Tile: return U55NpuOp::Dma;
  case OpType::Transpose: case OpType::MatMul: case OpType::Resize: return U55NpuOp::Compound;
  case OpType::Add: case OpType::Sub: case OpType::Mul: case OpType::Minimum: case OpType::Maximum: case OpType::SHL:
  case OpType::Asr: case OpType::CLZ: case OpType::Abs: case OpType::LeakyRelu:
    return U55NpuOp::Elementwise;
  // Pooling proper, and the operators Vela 5.0 runs as an average-pool no-op: activations,
  // Quantize, MemoryCopy, Reverse.
  case OpType::MaxPool: case OpType::AvgPool: case OpType::ReduceMax: case OpType::Rescale: case OpType::MemoryCopy:
  case OpType::Quantize: case OpType::Reverse: case OpType::Relu: case OpType::Relu0To1: case OpType::Relu6:
  case OpType::ReluN1To1: case OpType::ReluN: case OpType::Clamp: case OpType::Prelu: case OpType::Sigmoid:
  case OpType::Tanh: case OpType::LUT:
    return U55NpuOp::Pooling;
  }
  return U55NpuOp::Pooling;
}

bool usesMacs(U55NpuOp op) {
  return op == U55NpuOp::Convolution || op == U55NpuOp::Depthwise || op == U55NpuOp::VectorProduct || op == U55NpuOp::Pooling ||
         op == U55NpuOp::ReduceSum;
}

// Largest sub-kernel per operation class (regor's s_SubkernelLimits).
uint32_t subKernelLimit(U55NpuOp op) {
  switch (op) {
  case U55NpuOp::Convolution: case U55NpuOp::Depthwise: case U55NpuOp::Pooling: case U55NpuOp::ReduceSum: return 8;
  case U55NpuOp::VectorProduct: case U55NpuOp::Elementwise: case U55NpuOp::Dma: case U55NpuOp::Compound: return 1;
  }
  return 1;
}

// SHRAM allocation granules in banks per MAC configuration (regor's s_EthosU55Configs /
// s_EthosU65Configs shramGranules): IFM 8-bit, IFM 16-bit, 32-bit accumulators; and the
// configuration's banks per core.
struct ShramGranules {
  uint32_t macsPerCore;
  int banks, ifm8, ifm16, acc32;
};
constexpr std::array<ShramGranules, 4> kShramGranules{{
    {32, 16, 2, 2, 4}, {64, 16, 2, 2, 4}, {128, 24, 4, 4, 8}, {256, 48, 8, 8, 16}}};


// The cost model proper.
class EthosU55Performance final : public ArchitecturePerformance {
public:
  explicit EthosU55Performance(const System& system) : npu_(system.accelerator()) {}

  CycleCost measureCycleCost(const Query& q) const override {
    const U55NpuOp op = u55NpuOpOf(q.type);
    if (op == U55NpuOp::Dma) {
      return {};
    }
    if (usesMacs(op)) {
      return macOpCycles(q, op);
    }
    if (op == U55NpuOp::Elementwise) {
      return elementwiseCycles(q);
    }
    if (q.type == OpType::Transpose) {
      // Vela 5.0's placeholder for its multi-operation transpose: the memory transfer alone.
      const ElementAccess bytes = elementTransferToBytes(q, measureElementAccess(q));
      CycleCost c;
      const int64_t from = perBandwidth(bytes.ifmRead[0], q.ifm[0].memory->bandwidth) + q.ifm[0].memory->readLatency;
      const int64_t to = perBandwidth(bytes.ofmWrite, q.ofm.memory->bandwidth) + q.ofm.memory->writeLatency;
      c.opCycles = std::max(from, to);
      return c;
    }
    throw std::invalid_argument("Vela 5.0 estimate of a " + std::string(opTypeName(q.type)) + " is not modelled");
  }

  int64_t memToMemCycles(const Memory& dest, const Memory& source, int64_t bytes) const override {
    const int64_t from = perBandwidth(bytes, source.bandwidth) + source.readLatency;
    // Vela 5.0 adds the source's write latency to the destination side.
    const int64_t to = perBandwidth(bytes, dest.bandwidth) + source.writeLatency;
    return std::max(from, to);
  }

  ElementAccess measureElementAccess(const Query& q) const override {
    ElementAccess a;
    const U55NpuOp op = u55NpuOpOf(q.type);
    const Shape ifmBlock = minShape(q.ifm[0].shape, q.config.ifmBlock);
    const Shape ofmBlock = minShape(q.ofm.shape, q.config.ofmBlock);
    if (usesMacs(op)) {
      Shape blocks = divRoundUp(q.ofm.shape, ofmBlock);
      int64_t ofmBlockDepth = ofmBlock.depth;
      if (op == U55NpuOp::Depthwise || op == U55NpuOp::Pooling) {
        blocks.depth = 1;
        ofmBlockDepth = q.ifm[0].shape.depth;
      }
      const uint32_t limit = subKernelLimit(op);
      const int64_t subKernels = divUp(q.kernel.width, limit) * divUp(q.kernel.height, limit);
      const int64_t ifmFetch = elementsWH(storageRounded(ifmBlock, q.ifm[0].format)) *
                               storageRounded(q.ifm[0].shape, q.ifm[0].format).depth;
      int64_t kernelRead = static_cast<int64_t>(q.kernel.elements());
      if (op != U55NpuOp::Depthwise && op != U55NpuOp::Pooling) {
        kernelRead *= q.ifm[0].shape.depth;
      }
      const int64_t blockCount = elements(blocks);
      a.ifmRead[0] = ifmFetch * subKernels * blockCount;
      if (op != U55NpuOp::Pooling && op != U55NpuOp::ReduceSum) {
        a.constRead[0] = kernelRead * ofmBlockDepth * blockCount;
        a.constRead[1] = q.ofm.shape.depth;
        a.weightsRefetch = elementsWH(blocks);
      }
    } else if (op == U55NpuOp::Elementwise) {
      const cmd::DataFormat f = q.ifm[0].format;
      if (elements(q.ifm[0].shape) == 1) {
        if (q.ifm[0].bits > 8) {
          a.ifmRead[0] = elements(storageRounded(q.ifm[0].shape, f));
        } else if (q.ifm[1].present()) {
          a.ifmRead[1] = elements(storageRounded(q.ofm.shape, f));
        }
      } else {
        a.ifmRead[0] = elements(storageRounded(q.ofm.shape, f));
        if (q.ifm[1].present()) {
          if (elements(q.ifm[1].shape) > 1) {
            a.ifmRead[1] = a.ifmRead[0];
          } else if (q.ifm[1].bits > 8) {
            a.ifmRead[1] = elements(storageRounded(q.ifm[1].shape, f));
          }
        }
      }
    } else if (q.type == OpType::Tile) {
      a.ifmRead[0] = elements(storageRounded(q.ofm.shape, q.ofm.format));
    } else if (q.type == OpType::Transpose) {
      a.ifmRead[0] = elements(q.ifm[0].shape);
    }
    a.ofmWrite = elements(storageRounded(q.ofm.shape, q.ofm.format));
    return a;
  }

  ElementAccess elementTransferToBytes(const Query& q, const ElementAccess& access) const override {
    ElementAccess r = access;
    const uint32_t ifmBits = q.ifm[0].bits;   // every input is taken at the first one's width
    for (size_t i = 0; i < ifmCount(q); ++i) {
      r.ifmRead[i] = memoryTransfer(true, *q.ifm[i].memory, q.ifm[i].format, ifmBits, q.config.ifmBlock,
                                    q.ifm[i].shape, access.ifmRead[i]);
    }
    r.ofmWrite = memoryTransfer(false, *q.ofm.memory, q.ofm.format, q.ofm.bits, q.config.ofmBlock, q.ofm.shape,
                                access.ofmWrite);
    r.constRead = {0, 0};
    if (q.encodedWeightSize > 0) {
      r.constRead[0] = access.weightsRefetch * static_cast<int64_t>(q.encodedWeightSize);
      r.constRead[1] = access.weightsRefetch * static_cast<int64_t>(q.encodedScaleSize);
      r.weightsRefetch = 1;
    }
    return r;
  }

  MemoryAccessCycles measureAccessCycles(const Query& q, const ElementAccess& bytes) const override {
    struct Groups {
      const Memory* memory = nullptr;
      int64_t featureMaps = 0, weights = 0, scales = 0;
    };
    std::map<MemArea, Groups> transfer;
    const auto at = [&](const Memory& m) -> Groups& {
      Groups& g = transfer[m.area];
      g.memory = &m;
      return g;
    };
    at(*q.ifm[0].memory).featureMaps += bytes.ifmRead[0];
    if (q.ifm[1].present()) {
      at(*q.ifm[1].memory).featureMaps += bytes.ifmRead[1];
    }
    at(*q.ofm.memory).featureMaps += bytes.ofmWrite;
    if (q.constMemory != nullptr) {
      if (q.weightStagingMemory != nullptr) {
        // Weights DMA'd concurrently: the part not pre-buffered is read from permanent storage
        // and written to the staging buffer, from which the NPU reads all of them.
        const int64_t streamed = std::max<int64_t>(static_cast<int64_t>(q.encodedWeightSize) -
                                                       static_cast<int64_t>(q.firstWeightDmaSize), 0);
        at(*q.constMemory).weights += streamed;
        at(*q.weightStagingMemory).weights += streamed + bytes.constRead[0];
      } else {
        at(*q.constMemory).weights += bytes.constRead[0];
      }
      // Scales are charged to permanent storage even when buffered.
      at(*q.constMemory).scales += bytes.constRead[1];
    }
    if (q.tmpMemory != nullptr) {
      at(*q.tmpMemory).featureMaps += bytes.tmpRead + bytes.tmpWrite;
    }
    MemoryAccessCycles out;
    for (const auto& [area, g] : transfer) {
      AccessCycles& c = out[area];
      c.featureMaps = perBandwidth(g.featureMaps, g.memory->bandwidth);
      c.weights = perBandwidth(g.weights, g.memory->bandwidth);
      c.scales = perBandwidth(g.scales, g.memory->bandwidth);
      c.total = perBandwidth(g.featureMaps + g.weights + g.scales, g.memory->bandwidth);
    }
    return out;
  }

  OpConfig opConfig(const Query& q, const ProgrammedBlock& programmed) const override {
    const U55NpuOp op = u55NpuOpOf(q.type);
    if (op == U55NpuOp::Compound) {
      // A compound operation's NPU operations have block configs of their own; Vela costs it
      // with the one its block-config search chose for the operation as a whole.
      return searchBlockConfig(q);
    }
    const Shape& ofmBlock = programmed.ofmBlock;
    OpConfig c;
    c.ofmBlock = ofmBlock;
    c.wideAccumulator = programmed.wideAccumulator;
    // 1. Traversal: depthwise, or a convolution's weight order (the stream's, else Vela's
    //    utilisation rule), else depth first.
    if (op == U55NpuOp::Depthwise) {
      c.traversal = Traversal::Depthwise;
    } else if (op == U55NpuOp::Convolution &&
               programmed.partKernel.value_or(choosePartKernel(largerIfm(q).depth, q.ifm[0].bits, q.kernel))) {
      c.traversal = Traversal::PartKernel;
    }
    // 2. IFM block: the rows and columns the OFM block needs (GetArchIFMBlockSize), its depth
    //    the OFM block's for equal-depth operations, else the search's IFM block depth.
    const int upscale = q.ifmUpscale == cmd::Upscale::None ? 1 : 2;
    const int rounding = q.ifmUpscale == cmd::Upscale::Nearest ? 1 : 0;
    c.ifmBlock.height = ifmBlockSide(ofmBlock.height, q.kernel.strideY, q.kernel.dilatedHeight(), upscale, rounding,
                                     npu_.ofmUblock.height);
    c.ifmBlock.width = ifmBlockSide(ofmBlock.width, q.kernel.strideX, q.kernel.dilatedWidth(), upscale, rounding,
                                    npu_.ofmUblock.width);
    const bool equalDepth = op == U55NpuOp::Elementwise || op == U55NpuOp::Pooling || op == U55NpuOp::Depthwise;
    if (equalDepth) {
      c.ifmBlock.depth = ofmBlock.depth;
    } else {
      const uint32_t depth = largerIfm(q).depth;
      c.ifmBlock.depth = q.ifm[0].bits == 16
                             ? static_cast<uint32_t>(roundUp(uint64_t{std::min(depth, 16u)}, 4u))
                             : static_cast<uint32_t>(roundUp(uint64_t{std::min(depth, c.traversal == Traversal::PartKernel ? 16u : 32u)},
                                                             npu_.arch->ifmUblockDepth));
    }
    return c;
  }

  bool costsGroups() const override { return false; }

private:
  static size_t ifmCount(const Query& q) { return q.ifm[1].present() ? 2 : 1; }

  // regor's FindBlockConfig for an operation that is not elementwise, pooling or depthwise
  // (what a compound operation's search sees): the OFM block, scanned over the micro-block
  // grid, that fits SHRAM and fetches the fewest IFM and weight elements per OFM element.
  OpConfig searchBlockConfig(const Query& q) const {
    constexpr int kSplitDepth = 16;
    const Shape ofmMax{32, 64, 128};
    const auto granules = std::find_if(kShramGranules.begin(), kShramGranules.end(),
                                       [&](const ShramGranules& g) { return g.macsPerCore == npu_.macsPerCore(); });
    if (granules == kShramGranules.end()) {
      throw std::invalid_argument("no Vela 5.0 SHRAM layout for " + std::string(npu_.name));
    }
    // The search sees the OFM before its transposition (for a transpose: the IFM's shape).
    const Shape ofmShape = q.type == OpType::Transpose ? q.ifm[0].shape : q.ofm.shape;
    const Shape ifmShape = largerIfm(q);
    const Shape u = npu_.ofmUblock;
    const int ifmBits = static_cast<int>(q.ifm[0].bits);
    const int ifmGranule = ifmBits == 16 ? granules->ifm16 : granules->ifm8;
    const int lutBanks = granules->banks > 16 ? 2 : 0;
    const int ifmRepeats = static_cast<int>(divUp(q.kernel.dilatedWidth(), 8) * divUp(q.kernel.dilatedHeight(), 8));
    const int ifmBlockDepth = ifmBits == 16 ? static_cast<int>(roundUp(uint64_t{std::min(ifmShape.depth, 16u)}, 4u))
                                            : static_cast<int>(roundUp(uint64_t{std::min(ifmShape.depth, 32u)},
                                                                       npu_.arch->ifmUblockDepth));
    const Shape space{static_cast<uint32_t>(roundUp(uint64_t{std::min(ofmShape.height, ofmMax.height)}, u.height)),
                      static_cast<uint32_t>(roundUp(uint64_t{std::min(ofmShape.width, ofmMax.width)}, u.width)),
                      static_cast<uint32_t>(roundUp(uint64_t{std::min(ofmShape.depth, ofmMax.depth)}, u.depth))};
    const auto fits = [&](const Shape& ofmBlock, const Shape& ifmBlock) {
      const int ifmBytes = static_cast<int>(elementsWH(ifmBlock) * roundUp(uint64_t{ifmBlock.depth} * (ifmBits / 8), 8u));
      const int ifmBanks = static_cast<int>(roundUp(static_cast<uint64_t>(divUp(ifmBytes, 1024) * 2), static_cast<uint64_t>(ifmGranule)));
      const int lutStart = granules->banks - lutBanks;
      const int ifmEnd = 2 + ifmBanks;
      const int accBytes = static_cast<int>(elementsWH(ofmBlock) * static_cast<int64_t>(roundUp(uint64_t{ofmBlock.depth}, 8u)) * 32 / 8);
      const int accBanks = static_cast<int>(roundUp(static_cast<uint64_t>(divUp(accBytes, 1024) * 2), static_cast<uint64_t>(granules->acc32)));
      return ifmEnd <= lutStart - accBanks;
    };
    const float ofmElements = static_cast<float>(elements(ofmShape));
    float bestCost = std::numeric_limits<float>::infinity();
    float bestCoverage = std::numeric_limits<float>::infinity();
    OpConfig best;
    std::set<std::pair<uint32_t, uint32_t>> wontFit;
    uint32_t depth = std::max(u.depth, std::min(space.depth, static_cast<uint32_t>(kSplitDepth)));
    if (depth < ofmShape.depth) {
      depth = static_cast<uint32_t>(roundUp(uint64_t{depth}, static_cast<uint64_t>(kSplitDepth)));
    }
    while (depth <= space.depth) {
      for (uint32_t height = u.height; height <= space.height; height += u.height) {
        for (uint32_t width = u.width; width <= space.width; width += u.width) {
          if (wontFit.count({height, width}) > 0) {
            continue;
          }
          OpConfig c;
          c.ofmBlock = {height, width, depth};
          c.ifmBlock = {ifmBlockSide(height, q.kernel.strideY, q.kernel.dilatedHeight(), 1, 0, u.height),
                        ifmBlockSide(width, q.kernel.strideX, q.kernel.dilatedWidth(), 1, 0, u.width),
                        static_cast<uint32_t>(ifmBlockDepth)};
          Shape fitted = c.ofmBlock;
          if (ofmShape.height == 1 && q.kernel.height == 1 && u.height == 2) {
            fitted.height = std::min(fitted.height, ofmShape.height);
          }
          if (!fits(fitted, c.ifmBlock)) {
            wontFit.insert({height, width});
            continue;
          }
          const Shape full = divRoundUp(ofmShape, fitted);
          const float blocksX = static_cast<float>(ofmShape.width) / static_cast<float>(fitted.width);
          const float blocksY = static_cast<float>(ofmShape.height) / static_cast<float>(fitted.height);
          float ifmFetch = static_cast<float>(elementsWH(c.ifmBlock) * ifmShape.depth * ifmRepeats) * blocksX * blocksY;
          ifmFetch *= static_cast<float>(full.depth);
          float cost = ifmFetch / ofmElements;
          if (static_cast<int64_t>(ifmShape.elements()) < elements(c.ifmBlock) * 2) {
            cost /= 2.0f;
          }
          if (cost <= bestCost) {
            bool choose = false;
            if (cost == bestCost) {
              const Shape covered = minShape(ifmShape, c.ifmBlock);
              const float coverage = static_cast<float>(elementsWH(ifmShape)) /
                                     static_cast<float>(std::max<int64_t>(elementsWH(covered), 1));
              if (coverage <= bestCoverage && height <= 4 && width <= 4) {
                bestCoverage = coverage;
                choose = true;
              }
            } else {
              bestCoverage = std::numeric_limits<float>::infinity();
              choose = true;
            }
            if (choose) {
              bestCost = cost;
              best = c;
            }
          }
        }
      }
      depth += u.depth;
      if (depth < ofmShape.depth) {
        depth = static_cast<uint32_t>(roundUp(uint64_t{depth}, static_cast<uint64_t>(kSplitDepth)));
      }
    }
    if (bestCost == std::numeric_limits<float>::infinity()) {
      throw std::invalid_argument("no Vela 5.0 block config fits the operation");
    }
    return best;
  }

  // The larger input by elements (the block-config search's "elementwise larger-volume correction").
  static Shape largerIfm(const Query& q) {
    return elements(q.ifm[1].shape) > elements(q.ifm[0].shape) ? q.ifm[1].shape : q.ifm[0].shape;
  }

  // regor's ChooseKernelMethod: part-kernel-first when its utilisation is at least depth-first's.
  static bool choosePartKernel(uint32_t ifmDepth, uint32_t ifmBits, const cmd::Kernel& kernel) {
    if (ifmDepth <= 8) {
      return true;
    }
    const double kernelElements = static_cast<double>(kernel.elements());
    const double depthUtil = ifmDepth / static_cast<double>(roundUp(uint64_t{ifmDepth}, ifmBits == 8 ? 32u : 16u));
    const double partUtil = ifmDepth / static_cast<double>(roundUp(uint64_t{ifmDepth}, 8u)) *
                            (kernelElements / static_cast<double>(roundUp(kernel.elements(), ifmBits == 8 ? 4u : 2u)));
    return partUtil >= depthUtil;
  }

  // IFM rows (columns) an OFM block side needs, sub-kernel bounded, rounded to the micro-block.
  static uint32_t ifmBlockSide(uint32_t ofmSide, uint32_t stride, uint32_t dilatedKernel, int upscale, int rounding,
                               uint32_t ublockSide) {
    const int border = static_cast<int>(std::min(dilatedKernel, 8u));
    const int side = static_cast<int>(std::ceil(
        static_cast<float>((static_cast<int>(ofmSide) - 1) * static_cast<int>(stride) + border + rounding) /
        static_cast<float>(upscale)));
    return static_cast<uint32_t>(roundUp(static_cast<uint64_t>(side), ublockSide));
  }

  // The micro-block, with the 1-D optimisation of the 2-high micro-block (U55-256, U65).
  Shape ofmMicroBlock(const Query& q, U55NpuOp op) const {
    const Shape u = npu_.ofmUblock;
    if (u.height == 2 && (op == U55NpuOp::Convolution || op == U55NpuOp::VectorProduct) && q.ofm.shape.height == 1 &&
        q.ofm.shape.width % 2 == 0 && q.kernel.height == 1) {
      return {1, 4, u.depth};
    }
    return u;
  }

  // regor's Ethos-U55 model special-cases the 32-MAC configuration (only the U55 has one).
  bool isU55_32() const { return npu_.macs == 32; }

  int64_t macCyclesPerBlock(const Query& q, U55NpuOp op) const {
    const Shape ifmBlock = minShape(q.ifm[0].shape, q.config.ifmBlock);
    const Shape ofmBlock = minShape(q.ofm.shape, q.config.ofmBlock);
    const Shape ublock = ofmMicroBlock(q, op);
    const int64_t ifmBits = q.ifm[0].bits;
    const Shape blocks = divRoundUp(ofmBlock, ublock);
    const int64_t blocksWH = elementsWH(blocks);
    const bool acc40 = q.config.wideAccumulator;
    const int64_t weightCycles = 32 * int64_t{ublock.depth} / 8;
    const uint32_t limit = subKernelLimit(op);
    const bool partKernel = op == U55NpuOp::Convolution && q.config.traversal == Traversal::PartKernel;
    int64_t total = 0;
    for (uint32_t x = 0; x < q.kernel.width; x += limit) {
      for (uint32_t y = 0; y < q.kernel.height; y += limit) {
        const int64_t subElements = int64_t{std::min(q.kernel.height - y, limit)} * std::min(q.kernel.width - x, limit);
        int64_t steps = 0, cycles = 0;
        if (op == U55NpuOp::Pooling) {
          steps = 1;
          cycles = std::max<int64_t>(4, subElements) * elements(blocks);
          if (!isU55_32()) {
            cycles *= ifmBits / 2;
          }
        } else if (op == U55NpuOp::Depthwise) {
          steps = divUp(subElements, 4);
          cycles = std::max(weightCycles, 4 * blocksWH * (ifmBits / 8)) * steps * blocks.depth;
        } else if (!partKernel) {
          steps = subElements;
          cycles = std::max(weightCycles, 4 * blocksWH) * steps * blocks.depth;
        } else {
          steps = divUp(subElements, ifmBits == 16 ? 2 : 4);
          cycles = std::max(weightCycles, 4 * blocksWH) * steps * blocks.depth * divUp(ifmBlock.depth, 8);
        }
        int64_t delay = 0;
        if (isU55_32()) {
          const int64_t d = acc40 ? 7 : 3;
          if (blocksWH == 1) {
            delay = blocks.depth == 1 ? d * steps : (steps > 1 ? d * (steps - 1) * blocks.depth : 0);
          }
          if ((blocks.width == 1 || blocks.height == 1) && blocks.depth > 1 && acc40) {
            delay += d * blocks.depth;
          }
        } else {
          const int64_t d = acc40 && npu_.macsPerCore() <= 128 ? 3 : 2;
          if (blocksWH == 1) {
            delay = blocks.depth == 1 ? d * steps : (steps > 1 ? d * (steps - 1) * blocks.depth : 0);
          }
        }
        if (partKernel) {
          delay *= divUp(ifmBlock.depth, 8);
        }
        total += cycles + delay;
      }
    }
    if (op == U55NpuOp::Convolution || op == U55NpuOp::VectorProduct || op == U55NpuOp::ReduceSum) {
      total *= divUp(q.ifm[0].shape.depth, ifmBlock.depth);
    }
    return total / npu_.cores;
  }

  double outputCyclesPerElement(const Query& q, U55NpuOp op) const {
    size_t out = 7;
    if (op == U55NpuOp::Elementwise && q.ifm[0].bits == 32) {
      out = q.ifm[1].present() ? 1 : 0;
    } else if (q.type == OpType::Mul && q.ofm.bits == 32) {
      out = 2;
    } else if (q.type == OpType::Mul || (op != U55NpuOp::Elementwise && q.config.wideAccumulator)) {
      out = 3;
    } else if (q.type == OpType::Add || q.type == OpType::Sub) {
      out = 5;   // Vela 5.0 always takes the "advanced" add/sub
    } else if (q.type == OpType::MaxPool) {
      out = 6;
    }
    size_t act = 0;   // no fused activation shares the LUT row
    switch (q.activation) {
    case ActivationKind::None: case ActivationKind::Lut: act = 0; break;
    case ActivationKind::Relu: act = 1; break;
    case ActivationKind::Other: act = 2; break;
    }
    // Vela keeps these tables as floats.
    return static_cast<double>(
        std::max(static_cast<float>(npu_.outputCycles[out]), static_cast<float>(npu_.activationCycles[act])));
  }

  // Bytes `toTransfer` costs on `memory` once runs shorter than its burst are penalised
  // (regor's EstimateMemoryTransfer).
  int64_t memoryTransfer(bool isRead, const Memory& memory, cmd::DataFormat format, uint32_t bits, const Shape& block,
                         const Shape& shape, int64_t toTransfer) const {
    const int64_t cores = npu_.cores;
    int64_t burst = 8;
    switch (format) {
    case cmd::DataFormat::Nhcwb16: {
      const int64_t zStride = (int64_t{shape.width} * bits * 16) / 8;
      if (zStride == block.depth) {
        burst = int64_t{bits} * block.width * block.depth;
      } else {
        burst = 16 * int64_t{bits} * block.width * (isRead ? 1 : cores);
      }
      break;
    }
    case cmd::DataFormat::Nhwc: {
      const int64_t xStride = (int64_t{shape.depth} * bits) / 8;
      if (isRead) {
        burst = xStride == block.depth ? int64_t{bits} * block.width * block.depth : int64_t{bits} * block.depth;
      } else if (block.depth <= 16 && xStride == block.depth) {
        burst = int64_t{bits} * block.width * block.depth;
      } else {
        burst = std::min({int64_t{64 * 8}, 16 * int64_t{bits} * cores, int64_t{block.depth} * bits});
      }
      break;
    }
    }
    burst = std::min<int64_t>(memory.burstLength, burst / 8);
    if (burst <= 0) {
      throw std::invalid_argument("Vela 5.0 burst length of an empty block");
    }
    return toTransfer * memory.burstLength / burst;
  }

  int64_t minimumMemoryCycles(const Query& q) const {
    const uint32_t ifmBits = q.ifm[0].bits;
    int64_t ifmCycles = 0;
    for (size_t i = 0; i < ifmCount(q); ++i) {
      const Tensor& t = q.ifm[i];
      const int64_t bytes = elements(minShape(t.shape, q.config.ifmBlock)) * ifmBits / 8;
      const int64_t tx = memoryTransfer(true, *t.memory, t.format, ifmBits, q.config.ifmBlock, t.shape, bytes);
      ifmCycles = std::max(ifmCycles, t.memory->readLatency + perBandwidth(tx, t.memory->bandwidth));
    }
    const int64_t bytes = elements(minShape(q.ofm.shape, q.config.ofmBlock)) * q.ofm.bits / 8;
    const int64_t tx = memoryTransfer(false, *q.ofm.memory, q.ofm.format, q.ofm.bits, q.config.ofmBlock, q.ofm.shape, bytes);
    return ifmCycles + q.ofm.memory->writeLatency + perBandwidth(tx, q.ofm.memory->bandwidth);
  }

  CycleCost macOpCycles(const Query& q, U55NpuOp op) const {
    const bool readsBias = op == U55NpuOp::Convolution || op == U55NpuOp::Depthwise || op == U55NpuOp::VectorProduct;
    CycleCost c = macPipelineCycles(q, ofmMicroBlock(q, op), outputCyclesPerElement(q, op), macCyclesPerBlock(q, op),
                                    minimumMemoryCycles(q), readsBias);
    c.macs = static_cast<int64_t>(q.kernel.elements()) * elements(q.ofm.shape);
    if (op != U55NpuOp::Depthwise && op != U55NpuOp::Pooling) {
      c.macs *= q.ifm[0].shape.depth;
    }
    return c;
  }

  CycleCost elementwiseCycles(const Query& q) const {
    const double n = static_cast<double>(elements(storageRounded(q.ofm.shape, q.ofm.format)));
    const double aoPerElement = outputCyclesPerElement(q, U55NpuOp::Elementwise);
    const double aoCycles = std::ceil(aoPerElement * n);
    const double blockElements = static_cast<double>(elements(q.config.ofmBlock));
    const double cmdPerElement = (static_cast<double>(minimumMemoryCycles(q)) / blockElements + aoPerElement) / 4.0;
    const double cmdCycles = std::ceil(cmdPerElement * n);
    CycleCost c;
    c.opCycles = static_cast<int64_t>(std::max(cmdCycles, aoCycles));
    c.aoCycles = static_cast<int64_t>(aoCycles);
    c.cmdCycles = static_cast<int64_t>(cmdCycles);
    return c;
  }

  const arch::NpuConfig& npu_;
};

} // namespace

std::unique_ptr<ArchitecturePerformance> makeEthosU55Performance(const System& system) {
  return std::make_unique<EthosU55Performance>(system);
}

} // namespace npusim::analytic::vela5
