// SPDX-License-Identifier: Apache-2.0
#pragma once
// The NPU's per-block cost formulas (timing doc 3.3, 3.4, 4.1), over the configuration's tables:
// shared by the simulator's per-block cost and the Vela-style estimator, so each rule is written
// once. Plain C++.

#include <cstdint>

#include "sim/arch/npu_config.h"
#include "sim/cmdstream/operation.h"

namespace npusim::npu {

// What selects the output unit's cycles per element (timing doc 3.4; ethos-u85.md 5.3).
enum class ActivationClass : uint8_t { Lut, Relu, None };
struct OutputStage {
  bool elementwise = false;   // an elementwise operation (else conv/depthwise/pool/FC/ReduceSum)
  bool binary = false;        // elementwise with an IFM2
  bool mul = false, addSub = false, maxPool = false;
  // ADD/SUB whose operands both take 16-bit scales (IFM_PRECISION scale_mode 0: equal input
  // scales, Vela's "simple" add/sub) rather than one operand a 32-bit scale: the output table's O4,
  // else O5. Vela's estimate always takes O5, so only the simulator sets it.
  bool simpleAddSub = false;
  bool acc40 = false;         // wide accumulators (U55/U65 40-bit)
  uint32_t ifmBits = 8, ofmBits = 8;
  ActivationClass activation = ActivationClass::None;
  // 2.x cost rules (U85): the OFM goes to a chaining buffer, and the fused activation, transpose
  // or reverse swaps height and width or reverses the width (the slower activation row, A1).
  bool chainedOutput = false;
  bool swapsHeightWidth = false;
};

// Output-stage cycles per OFM element: Vela's output and activation tables, first matching rule
// (1.x), or the output row by OFM width and chaining, with a fused activation's row (2.x).
double outputCyclesPerElement(const arch::NpuConfig& npu, const OutputStage& stage);
// The 2.x output row alone (ethos-u85.md 5.3: O0..O5 by OFM and IFM width, chaining and binary
// elementwise), which Vela 5.0's estimate sums over an operation group.
double outputRowCycles(const arch::NpuConfig& npu, bool chainedOutput, bool binaryElementwise, uint32_t ifmBits,
                       uint32_t ofmBits);
// The 2.x activation row (A0, or A1 when it swaps height and width or reverses the width).
double activationRowCycles(const arch::NpuConfig& npu, bool swapsHeightWidth);
// The output stage of a decoded operation.
OutputStage outputStageOf(const cmd::Operation& op);

// How the MAC array walks a kernel: pooling, depthwise, a convolution part-kernel-first
// (several taps of 8-channel IFM slices per step) or depth-first (one tap per step; also
// fully connected and REDUCE_SUM).
enum class MacTraversal { Pooling, Depthwise, PartKernelFirst, DepthFirst };

// The traversal of a pooling (not REDUCE_SUM), depthwise or other operation; a convolution walks
// part-kernel-first when its stream (or Vela's choice) says so.
MacTraversal macTraversal(bool pooling, bool depthwise, bool partKernelFirstConvolution);

// One OFM block as the MAC array sees it (timing doc 3.3).
struct MacBlock {
  MacTraversal traversal = MacTraversal::DepthFirst;
  bool wideIfm = false;          // 16-bit IFM
  bool acc40 = false;            // wide accumulators (U55/U65 40-bit, U85 48-bit)
  uint32_t ifmBits = 8;          // 2.x: IFM element bits (scale the per-step cost)
  bool sparse = false;           // 2.x: 2:4 sparse weights (half the steps)
  Shape3 ublock{0, 0, 0};        // the OFM micro-block the operation runs; empty: the configuration's
  Shape3 ofmShape;          // the whole OFM (selects the 1-D micro-block)
  Shape3 block;             // this block's OFM extent
  uint32_t kernelWidth = 1, kernelHeight = 1;
  uint32_t subKernelMax = 8;     // largest sub-kernel side (1 for fully connected in Vela's estimate)
  uint32_t ifmBlockDepth = 8;    // IFM channels per step (sets the part-kernel-first slices)
  uint32_t ifmDepthBlocks = 1;   // the block repeats per IFM depth block (convolutions)
  bool convLike = true;          // conv, depthwise or fully connected (the 1-D micro-block applies)
};

// MAC-array cycles of one OFM block: micro-block counts (with the 1-D micro-block of the 1.x
// rules), sub-kernel decomposition, per-step costs and pipeline delays, IFM depth blocks, and the
// division of the OFM channels between the cores. The 2.x rules (ethos-u85.md 5.2) are integer
// arithmetic as in Vela 5.0's estimate, which computes them with this function.
double blockMacCycles(const arch::NpuConfig& npu, const MacBlock& b);
// The MAC-array cycles the simulator charges a block of an operation whose IFM is `ifmDepth`
// channels deep: Vela's own formulas on the 1.x rules (blockMacCycles; the U55 and U65 FVP points
// validate them), on the 2.x rules the U85's array as the Corstone-320 FVP's per-launch records
// time it (npu_cost.cpp; docs/timing-model.md).
double simulatedBlockMacCycles(const arch::NpuConfig& npu, const MacBlock& b, uint32_t ifmDepth);
// The MAC block of a decoded kernel operation for an OFM block of extent `block`.
MacBlock macBlockOf(const arch::NpuConfig& npu, const cmd::Operation& op, const Shape3& block);

// IFM rows (or columns) one OFM block of `ofmSide` rows (columns) reads (timing doc 4.1 step 2):
// (side - 1) x stride + the dilated kernel's span within one sub-kernel, halved for a 2x upscale,
// rounded up to the micro-block's `ublockSide`; not clipped to the IFM.
uint32_t ifmBlockSide(const arch::NpuConfig& npu, uint32_t ofmSide, uint32_t stride, uint32_t kernelSpan, cmd::Upscale upscale,
                      uint32_t ublockSide);

// IFM block depth the hardware consumes per step for a convolution (timing doc 4.1 step 3).
uint32_t ifmBlockDepth(uint32_t ifmDepth, uint32_t ifmBits, bool partKernelFirst);
// The same on the 2.x rules (ethos-u85.md 1.1, block search): 64 channels, 16 part-kernel-first,
// 32 for a 32-bit IFM or a dense 16-deep micro-block on the smaller arrays (128, 256 MACs), 128
// for sparse 8-bit weights; not clipped to the IFM.
uint32_t ifmBlockDepth2x(const arch::NpuConfig& npu, uint32_t ifmBits, bool partKernelFirst, const Shape3& ublock,
                         bool sparse);
// The IFM block depth of a decoded convolution on its architecture's rules, clipped to the IFM.
uint32_t ifmBlockDepthOf(const arch::NpuConfig& npu, const cmd::Operation& op);

// True when the op's accumulators are wide: 40-bit (U55/U65: 16-bit IFM, not pooling, scaled) or
// 48-bit (U85).
bool usesAcc40(const cmd::Operation& op);

} // namespace npusim::npu
