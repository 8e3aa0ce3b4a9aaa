// SPDX-License-Identifier: Apache-2.0
#pragma once
// The NPU's per-block cost formulas (timing doc 3.3, 3.4, 4.1), over the configuration's tables:
// shared by the simulator's per-block cost and the Vela-style estimator, so each rule is written
// once. Plain C++.

#include <cstdint>

#include "sim/arch/npu_config.h"
#include "sim/cmdstream/operation.h"

namespace npusim::npu {

// What selects the output unit's cycles per element (timing doc 3.4).
enum class ActivationClass : uint8_t { Lut, Relu, None };
struct OutputStage {
  bool elementwise = false;   // an elementwise operation (else conv/depthwise/pool/FC/ReduceSum)
  bool binary = false;        // elementwise with an IFM2
  bool mul = false, addSub = false, maxPool = false;
  // ADD/SUB whose operands both take 16-bit scales (IFM_PRECISION scale_mode 0: equal input
  // scales, Vela's "simple" add/sub) rather than one operand a 32-bit scale: the output table's O4,
  // else O5. Vela's estimate always takes O5, so only the simulator sets it.
  bool simpleAddSub = false;
  bool acc40 = false;         // 40-bit accumulators
  uint32_t ifmBits = 8, ofmBits = 8;
  ActivationClass activation = ActivationClass::None;
};

// Output-stage cycles per OFM element: Vela's output and activation tables, first matching rule.
double outputCyclesPerElement(const arch::NpuConfig& npu, const OutputStage& stage);
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
  bool acc40 = false;
  Shape3 ofmShape;          // the whole OFM (selects the 1-D micro-block)
  Shape3 block;             // this block's OFM extent
  uint32_t kernelWidth = 1, kernelHeight = 1;
  uint32_t subKernelMax = 8;     // largest sub-kernel side (1 for fully connected in Vela's estimate)
  uint32_t ifmBlockDepth = 8;    // IFM channels per step (sets the part-kernel-first slices)
  uint32_t ifmDepthBlocks = 1;   // the block repeats per IFM depth block (convolutions)
  bool convLike = true;          // conv, depthwise or fully connected (the 1-D micro-block applies)
};

// MAC-array cycles of one OFM block: micro-block counts (with the 1-D micro-block), sub-kernel
// decomposition, per-step costs and pipeline delays, IFM depth blocks, and the division of the
// OFM channels between the cores.
double blockMacCycles(const arch::NpuConfig& npu, const MacBlock& b);
// The MAC block of a decoded kernel operation for an OFM block of extent `block`.
MacBlock macBlockOf(const cmd::Operation& op, const Shape3& block);

// IFM rows (or columns) one OFM block of `ofmSide` rows (columns) reads (timing doc 4.1 step 2):
// (side - 1) x stride + the dilated kernel's span within one sub-kernel, halved for a 2x upscale,
// rounded up to the micro-block's `ublockSide`; not clipped to the IFM.
uint32_t ifmBlockSide(const arch::NpuConfig& npu, uint32_t ofmSide, uint32_t stride, uint32_t kernelSpan, cmd::Upscale upscale,
                      uint32_t ublockSide);

// IFM block depth the hardware consumes per step for a convolution (timing doc 4.1 step 3).
uint32_t ifmBlockDepth(uint32_t ifmDepth, uint32_t ifmBits, bool partKernelFirst);

// True when the op's accumulators are 40-bit (16-bit IFM, not pooling, scaled).
bool usesAcc40(const cmd::Operation& op);

} // namespace npusim::npu
