// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 5.0's performance query (regor's PerformanceQuery) and the interface every
// architecture's cost model implements (regor's ArchitecturePerformance). The network-level
// estimate (vela5_estimator) is written once against this interface; the Ethos-U55/U65 model
// is vela5_ethos_u55, the Ethos-U85 model vela5_ethos_u85.

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "harness/analytic/vela5_system.h"
#include "sim/cmdstream/operation.h"

namespace npusim::analytic::vela5 {

// The Vela 5.0 operator types that reach the NPU (regor's OpType spelling in the debug
// database's `perf` table).
enum class OpType : uint8_t {
  Conv2D, DepthwiseConv2D, FullyConnected, MatMul, MaxPool, AvgPool, ReduceSum, ReduceMax, Rescale, Tile, Transpose,
  MemoryCopy, Quantize, Reverse, Add, Sub, Mul, Minimum, Maximum, SHL, Asr, CLZ, Abs, LeakyRelu,
  Relu, Relu0To1, Relu6, ReluN1To1, ReluN, Clamp, Prelu, Sigmoid, Tanh, LUT, Resize
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
  Shape3 ofmUblock{0, 0, 0};  // the OFM micro-block, where the architecture has several (U85), else empty
  Traversal traversal = Traversal::DepthFirst;
  bool wideAccumulator = false;   // 40-bit (U55, U65) or 48-bit (U85) accumulators
};

// What the command stream programs of an operation's block configuration.
struct ProgrammedBlock {
  Shape3 ofmBlock;
  bool wideAccumulator = false;
  std::optional<bool> partKernel;      // convolutions: the weight order the stream was encoded in
  Shape3 ofmUblock{0, 0, 0};           // height and width of the micro-block where the stream sets it (U85), else empty
};

// The class of the activation fused into the operation (the output unit's cost row).
enum class ActivationKind : uint8_t { None, Lut, Relu, Other };

// How an operation writes its OFM, when not in plain H, W, C order (the U85's OFM_PRECISION):
// the order of the written axes (regor's TransposeType names the whole NHWC permutation) and the
// reversed axis.
enum class Transpose : uint8_t { None, Nwhc, Nhcw, Nwch, Nchw, Ncwh };
enum class Reverse : uint8_t { None, H, W, C };

// One operation of a group the NPU runs as one (regor's ArchitectureOpGroup): the primary
// operation, the activations, transposes and reverses fused into one of the group's operations,
// and elementwise operations chained to it (U85: each runs as its own NPU operation and reads an
// earlier one's OFM from a chaining buffer).
struct GroupMember {
  OpType type = OpType::Conv2D;
  uint32_t ifmBits = 8;              // its first input's element size
  uint32_t ofmBits = 8;              // its output's element size, before a fused activation converts it
  bool onChipOutput = false;         // its OFM stays on-chip: chained to a later member or fused into one
  Transpose transpose = Transpose::None;
  Reverse reverse = Reverse::None;
};

// A feature map a chained member reads or writes in memory (regor's FeatureMapRecord): the
// estimate charges its traffic to the group's primary operation.
struct ExternalFeatureMap {
  size_t member = 0;                 // the member that accesses it (index into Query::group)
  OpType memberType = OpType::Add;
  bool output = false;               // its OFM, else its input `input`
  size_t input = 0;
  Tensor tensor;
};

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
  arch::WeightFormat weightFormat = arch::WeightFormat::Standard;
  bool sparse = false;                        // 2:4 sparse weights (U85)
  // The group the operation runs as, primary first, in the order regor added them; empty for an
  // operation alone (U55/U65: a chained activation is `activation`). The primary's OFM is written
  // to memory unless a member takes it on-chip.
  std::vector<GroupMember> group;
  std::vector<ExternalFeatureMap> external;   // chained members' feature maps in memory
  bool ofmWritten = true;
};

// Cost of one operation (regor's CycleCost plus the debug database's components).
struct CycleCost {
  int64_t opCycles = 0;
  int64_t macs = 0;
  std::optional<int64_t> macCycles;           // MAC-array bound (operations that use the MACs)
  int64_t aoCycles = 0, cmdCycles = 0;        // output-unit and command-issue bounds
};

// The cycle bounds of a MAC operation (convolution, depthwise, pooling, vector product) from
// what each architecture computes itself: the OFM's micro-block `ublock`, the output unit's
// cycles per element, the MAC array's cycles per OFM block, the minimum memory cycles, and
// whether the operation reads a scale/bias per OFM channel (convolution, depthwise, vector
// product: each architecture has its own operation classes).
// Shared by every architecture, as in regor: OFM blocks counted fractionally in micro-blocks,
// the output unit bounded by the scale/bias fetch, the command-issue floor, and the two-stage
// MAC/output pipeline. CycleCost::macs is left to the caller.
CycleCost macPipelineCycles(const Query& q, const Shape3& ublock, double aoPerElement, int64_t macBlockCycles,
                            int64_t memoryCycles, bool readsBias);

// Elements (or, after elementTransferToBytes, bytes) an operation moves.
struct ElementAccess {
  std::array<int64_t, 2> ifmRead{};
  int64_t ofmWrite = 0;
  int64_t weightsRefetch = 0;
  std::array<int64_t, 2> constRead{};         // weights, scales
  int64_t tmpRead = 0, tmpWrite = 0;
  std::vector<int64_t> external;              // per Query::external
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
  // The block configuration of an operation the stream programs as `programmed`: what the
  // block-config search pairs with it (the IFM block, the traversal where the stream does not
  // say it, the micro-block).
  virtual OpConfig opConfig(const Query& q, const ProgrammedBlock& programmed) const = 0;
  // True when the model costs an operation's whole group (Query::group, Query::external: U85);
  // false when a fused activation is only Query::activation and the primary writes the OFM.
  virtual bool costsGroups() const = 0;
};

// The cost model of the accelerator `system` describes (Ethos-U55, U65 or U85).
std::unique_ptr<ArchitecturePerformance> makeArchitecturePerformance(const System& system);
// Each architecture's model, for makeArchitecturePerformance.
std::unique_ptr<ArchitecturePerformance> makeEthosU55Performance(const System& system);
std::unique_ptr<ArchitecturePerformance> makeEthosU85Performance(const System& system);

} // namespace npusim::analytic::vela5
