// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 5.0's performance query (regor's PerformanceQuery) and the interface every
// architecture's cost model implements (regor's ArchitecturePerformance). The network-level
// estimate (vela5_estimator) is written once against this interface; the Ethos-U55/U65 model
// is vela5_ethos_u55, an Ethos-U85 model plugs in beside it.

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "harness/analytic/vela5_system.h"
#include "sim/cmdstream/operation.h"

namespace npusim::analytic::vela5 {

// The Vela 5.0 operator types that reach the NPU (regor's OpType spelling in the debug
// database's `perf` table).
enum class OpType : uint8_t {
  Conv2D, DepthwiseConv2D, FullyConnected, MatMul, MaxPool, AvgPool, ReduceSum, ReduceMax, Rescale, Tile, Transpose,
  MemoryCopy, Quantize, Reverse, Add, Sub, Mul, Minimum, Maximum, SHL, Asr, CLZ, Abs, LeakyRelu,
  Relu, Relu0To1, Relu6, ReluN1To1, ReluN, Clamp, Prelu, Sigmoid, Tanh, LUT
};

std::string_view opTypeName(OpType type);
std::optional<OpType> opTypeFromName(std::string_view name);

// A feature map as the query sees it: the operation's slice of the tensor, its storage
// format, element size and memory. An absent operand has an empty shape.
struct Tensor {
  Shape3 shape{0, 0, 0};
  cmd::DataFormat format = cmd::DataFormat::Nhwc;
  uint32_t bits = 8;
  const Memory* memory = nullptr;
  bool present() const { return shape.elements() > 0; }
};

// How the MAC array walks the kernel (regor's EthosUTraversal).
enum class Traversal : uint8_t { DepthFirst, PartKernel, Depthwise };
std::string_view traversalName(Traversal t);

// The block configuration the scheduler chose.
struct OpConfig {
  Shape3 ofmBlock;      // as programmed
  Shape3 ifmBlock;      // as the block-config search sized it
  Traversal traversal = Traversal::DepthFirst;
  bool acc40 = false;
};

// The class of the activation fused into the operation (the output unit's cost row).
enum class ActivationKind : uint8_t { None, Lut, Relu, Other };

// Everything one estimate of one operation reads.
struct Query {
  OpType type = OpType::Conv2D;
  std::array<Tensor, 2> ifm;
  Tensor ofm;
  cmd::Kernel kernel;                         // size, stride, dilation
  cmd::Upscale ifmUpscale = cmd::Upscale::None; // IFM resampling (2x nearest or zeros)
  OpConfig config;
  ActivationKind activation = ActivationKind::None;
  bool hasScales = false;                     // a scale/bias tensor (constShape)
  const Memory* constMemory = nullptr;        // where weights and scales are read from (permanent storage)
  uint64_t encodedWeightSize = 0;             // after scheduling: encoded weight bytes (0 before)
  uint64_t encodedScaleSize = 0;
  const Memory* weightStagingMemory = nullptr; // the buffer the weights are DMA'd to, if any
  uint64_t firstWeightDmaSize = 0;            // bytes pre-buffered under the previous operation
  const Memory* tmpMemory = nullptr;          // scratch of compound operations
};

// Cost of one operation (regor's CycleCost plus the debug database's components).
struct CycleCost {
  int64_t opCycles = 0;
  int64_t macs = 0;
  std::optional<int64_t> macCycles;           // MAC-array bound (operations that use the MACs)
  int64_t aoCycles = 0, cmdCycles = 0;        // output-unit and command-issue bounds
};

// Elements (or, after elementTransferToBytes, bytes) an operation moves.
struct ElementAccess {
  std::array<int64_t, 2> ifmRead{};
  int64_t ofmWrite = 0;
  int64_t weightsRefetch = 0;
  std::array<int64_t, 2> constRead{};         // weights, scales
  int64_t tmpRead = 0, tmpWrite = 0;
};

// Access cycles of one memory, by what was moved.
struct AccessCycles {
  int64_t featureMaps = 0, weights = 0, scales = 0, total = 0;
};
using MemoryAccessCycles = std::map<MemArea, AccessCycles>;

// One architecture's cost model. Contract: pure functions of the query and the system;
// integer and float arithmetic exactly where Vela 5.0 has it.
class ArchitecturePerformance {
public:
  virtual ~ArchitecturePerformance() = default;
  virtual CycleCost measureCycleCost(const Query& q) const = 0;
  virtual int64_t memToMemCycles(const Memory& dest, const Memory& source, int64_t bytes) const = 0;
  virtual ElementAccess measureElementAccess(const Query& q) const = 0;
  virtual ElementAccess elementTransferToBytes(const Query& q, const ElementAccess& access) const = 0;
  virtual MemoryAccessCycles measureAccessCycles(const Query& q, const ElementAccess& bytes) const = 0;
  // The IFM block the block-config search pairs with `ofmBlock` for this operation, and the
  // traversal it picks (what the stream does not say).
  virtual OpConfig opConfig(const Query& q, const Shape3& ofmBlock, bool acc40,
                            std::optional<bool> partKernel) const = 0;
};

// The cost model of the accelerator `system` describes (Ethos-U55 or Ethos-U65).
std::unique_ptr<ArchitecturePerformance> makeArchitecturePerformance(const System& system);

} // namespace npusim::analytic::vela5
