// SPDX-License-Identifier: Apache-2.0
#include "models/npu/npu_cost.h"

#include <algorithm>
#include <cmath>

#include "sim/common/int_math.h"

namespace npusim::npu {

namespace {

// A clamp narrower than the OFM type range is a fused ReLU-family activation.
bool hasClampActivation(const cmd::Operation& op) {
  const int bits = op.ofm.elementBits;
  const int64_t lo = op.ofm.isSigned ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = op.ofm.isSigned ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  const int64_t clampLo = std::max<int64_t>(lo, -32768), clampHi = std::min<int64_t>(hi, 32767);
  return op.activation.min > clampLo || op.activation.max < clampHi;
}

} // namespace

bool usesAcc40(const cmd::Operation& op) {
  return op.accFormat == cmd::AccFormat::Int40 || op.accFormat == cmd::AccFormat::Int48;
}

OutputStage outputStageOf(const cmd::Operation& op) {
  OutputStage s;
  s.elementwise = op.kind == cmd::OpKind::Elementwise;
  s.binary = op.hasIfm2();
  s.mul = s.elementwise && op.elementwiseMode == cmd::ElementwiseMode::Mul;
  s.addSub = s.elementwise &&
             (op.elementwiseMode == cmd::ElementwiseMode::Add || op.elementwiseMode == cmd::ElementwiseMode::Sub);
  s.simpleAddSub = s.addSub && op.scaling.ifmScaleMode == 0;
  s.maxPool = op.kind == cmd::OpKind::Pool && op.poolMode == cmd::PoolMode::Max;
  s.acc40 = usesAcc40(op);
  s.ifmBits = op.ifm.elementBits;
  s.ofmBits = op.ofm.elementBits;
  if (op.activation.usesLut() || op.activation.isTanhOrSigmoid()) {
    s.activation = ActivationClass::Lut;
  } else if (hasClampActivation(op)) {
    s.activation = ActivationClass::Relu;
  }
  s.chainedOutput = op.ofm.storage == cmd::Storage::Chained;
  s.swapsHeightWidth = op.ofmTranspose == cmd::Transpose::Whc || op.ofmTranspose == cmd::Transpose::Wch ||
                       op.ofmTranspose == cmd::Transpose::Cwh || op.ofmReverse == cmd::Reverse::W;
  // 2.x: a fused transpose or reverse runs in the activation stage like a fused activation.
  if (s.activation == ActivationClass::None &&
      (op.ofmTranspose != cmd::Transpose::Hwc || op.ofmReverse != cmd::Reverse::None)) {
    s.activation = ActivationClass::Relu;
  }
  return s;
}

double outputRowCycles(const arch::NpuConfig& npu, bool chainedOutput, bool binaryElementwise, uint32_t ifmBits,
                       uint32_t ofmBits) {
  size_t index = 0;
  if (chainedOutput && (ofmBits == 32 || ifmBits == 32)) {
    index = 4;
  } else if (ofmBits == 64) {
    index = 3;
  } else if (binaryElementwise && ifmBits == 32) {
    index = ofmBits == 32 ? 5 : 4;
  } else if (ofmBits == 32) {
    index = 2;
  } else if (ofmBits == 16) {
    index = 1;
  }
  return npu.outputCycles[index];
}

double activationRowCycles(const arch::NpuConfig& npu, bool swapsHeightWidth) {
  return npu.activationCycles[swapsHeightWidth ? 1 : 0];
}

double outputCyclesPerElement(const arch::NpuConfig& npu, const OutputStage& s) {
  if (npu.arch->costRules == arch::CostRules::Ethos2x) {
    const double out = outputRowCycles(npu, s.chainedOutput, s.binary, s.ifmBits, s.ofmBits);
    return s.activation == ActivationClass::None ? out : std::max(out, activationRowCycles(npu, s.swapsHeightWidth));
  }
  size_t index = 7;
  if (s.elementwise && s.ifmBits == 32) {
    index = s.binary ? 0 : 1;
  } else if (s.mul && s.ofmBits == 32) {
    index = 2;
  } else if (s.mul || (!s.elementwise && s.acc40)) {
    index = 3;
  } else if (s.addSub) {
    index = s.simpleAddSub ? 4 : 5;
  } else if (s.maxPool) {
    index = 6;
  }
  size_t act = 2;
  switch (s.activation) {
  case ActivationClass::Lut: act = 0; break;
  case ActivationClass::Relu: act = 1; break;
  case ActivationClass::None: act = 2; break;
  }
  return std::max(npu.outputCycles[index], npu.activationCycles[act]);
}

uint32_t ifmBlockSide(const arch::NpuConfig& npu, uint32_t ofmSide, uint32_t stride, uint32_t kernelSpan, cmd::Upscale upscale,
                      uint32_t ublockSide) {
  const uint32_t up = upscale == cmd::Upscale::None ? 1 : 2;
  const uint32_t nearest = upscale == cmd::Upscale::Nearest ? 1 : 0;
  const uint32_t rows = ceilDiv((ofmSide - 1) * stride + std::min(kernelSpan, npu.arch->subKernelMax) + nearest, up);
  return roundUp(rows, ublockSide);
}

uint32_t ifmBlockDepth(uint32_t ifmDepth, uint32_t ifmBits, bool partKernelFirst) {
  if (ifmBits == 16) {
    return roundUp(std::min(ifmDepth, 16u), 4u);
  }
  if (ifmBits == 32) {
    return roundUp(std::min(ifmDepth, 8u), 8u);
  }
  return roundUp(std::min(ifmDepth, partKernelFirst ? 16u : 32u), 8u);
}

uint32_t ifmBlockDepth2x(const arch::NpuConfig& npu, uint32_t ifmBits, bool partKernelFirst, const Shape3& ublock,
                         bool sparse) {
  if (partKernelFirst) return 16;
  if (ifmBits == 32 || (npu.macs <= 256 && ublock.depth == 16 && !sparse)) return 32;
  if (sparse && ifmBits == 8) return 128;
  return 64;
}

uint32_t ifmBlockDepthOf(const arch::NpuConfig& npu, const cmd::Operation& op) {
  const bool partKernelFirst = op.kind == cmd::OpKind::Conv && op.kernel.partKernelFirst;
  if (npu.arch->costRules == arch::CostRules::Ethos2x) {
    return std::min(op.ifm.shape.depth, ifmBlockDepth2x(npu, op.ifm.elementBits, partKernelFirst, op.ublock, op.sparse));
  }
  return ifmBlockDepth(op.ifm.shape.depth, op.ifm.elementBits, partKernelFirst);
}

namespace {

// MAC-array cycles of one sub-kernel of `elements` taps over nx x ny x nz micro-blocks,
// pipeline delays included (timing doc 3.3 steps 3-5).
double subKernelMacCycles(const arch::NpuConfig& npu, const MacBlock& b, double nx, double ny, double nz, double ibSlices,
                          uint32_t elements) {
  // 1. Kernel steps and their cycles; the weight path needs weightStepCycles() per step at least.
  const double nxy = nx * ny;
  const arch::MacPipeline& pipe = npu.pipeline;
  double steps = 1;
  double cycles = 0;
  switch (b.traversal) {
  case MacTraversal::Pooling:
    cycles = std::max(4u, elements) * nxy * nz * (b.wideIfm ? pipe.poolWideIfmFactor : 1);
    break;
  case MacTraversal::Depthwise:
    steps = (elements + 3) / 4;
    cycles = std::max<double>(npu.weightStepCycles(), 4.0 * nxy * (b.wideIfm ? 2 : 1)) * steps * nz;
    break;
  case MacTraversal::PartKernelFirst:
    steps = b.wideIfm ? (elements + 1) / 2 : (elements + 3) / 4;
    cycles = std::max<double>(npu.weightStepCycles(), 4.0 * nxy) * steps * ibSlices * nz;
    break;
  case MacTraversal::DepthFirst:
    steps = elements;
    cycles = std::max<double>(npu.weightStepCycles(), 4.0 * nxy) * steps * nz;
    break;
  }
  // 2. Pipeline delay per kernel step, visible when the block is one micro-block wide and high.
  const double delay = b.acc40 ? pipe.stepDelayAcc40 : pipe.stepDelay;
  double d = 0;
  if (nx == 1 && ny == 1) {
    if (nz == 1) {
      d = delay * steps;
    } else if (steps > 1) {
      d = delay * (steps - 1) * nz;
    }
  }
  if (pipe.narrowBlockAcc40 && (nx == 1 || ny == 1) && nz > 1 && b.acc40) {
    d += delay * nz;
  }
  if (b.traversal == MacTraversal::PartKernelFirst) {
    d *= ibSlices;
  }
  return cycles + d;
}

// The same on the 2.x rules (ethos-u85.md 5.2): U = micro-blocks per axis (uwh = H x W, uc = C),
// b the IFM bits, d the IFM block depth; integer arithmetic.
int64_t subKernelMacCycles2x(const arch::NpuConfig& npu, const MacBlock& b, int64_t uwh, int64_t uc, int64_t weightCycles,
                             int64_t elements) {
  const int64_t bits = b.ifmBits;
  const int64_t depth = b.ifmBlockDepth;
  const int64_t sparse = b.sparse ? 2 : 1;
  int64_t steps = 1, cycles = 0;
  switch (b.traversal) {
  case MacTraversal::Pooling:
    cycles = std::max<int64_t>(4, elements) * uwh * uc * (bits / 2);
    break;
  case MacTraversal::Depthwise:
    steps = (elements + 3) / 4;
    cycles = std::max(weightCycles, 4 * uwh * (bits / 8)) * steps * uc;
    break;
  case MacTraversal::DepthFirst:
    steps = elements;
    cycles = std::max(weightCycles, depth / 8 * uwh) * steps * uc * (bits / 8) / sparse;
    break;
  case MacTraversal::PartKernelFirst:
    steps = (elements + (bits == 16 ? 1 : 3)) / (bits == 16 ? 2 : 4);
    cycles = std::max(weightCycles, 4 * uwh) * steps * uc * ((depth + 7) / 8) / sparse;
    break;
  }
  const int64_t delay = static_cast<int64_t>(b.acc40 ? npu.pipeline.stepDelayAcc40 : npu.pipeline.stepDelay);
  int64_t d = 0;
  if (uwh == 1) {
    d = uc == 1 ? delay * steps : (steps > 1 ? delay * (steps - 1) * uc : 0);
  }
  if (b.traversal == MacTraversal::PartKernelFirst) {
    d *= (depth + 7) / 8;
  }
  return cycles + d;
}

double blockMacCycles2x(const arch::NpuConfig& npu, const MacBlock& b) {
  const Shape3& ub = npu.ofmUblockRun(b.ublock);
  const int64_t uwh = int64_t{ceilDiv(b.block.height, ub.height)} * ceilDiv(b.block.width, ub.width);
  const int64_t uc = ceilDiv(b.block.depth, ub.depth);
  const int64_t weightCycles = 4 * int64_t{ub.depth};   // the weight path's floor per step (cyc_wb)
  int64_t total = 0;
  for (const cmd::SubKernelGroup& group : cmd::subKernelGroups(b.kernelWidth, b.kernelHeight, b.subKernelMax)) {
    total += subKernelMacCycles2x(npu, b, uwh, uc, weightCycles, group.elements) * static_cast<int64_t>(group.count);
  }
  return static_cast<double>(total) * b.ifmDepthBlocks;
}

// The U85's MAC array as the Corstone-320 FVP times it, per OFM block (docs/timing-model.md,
// "Ethos-U85 MAC array"). Where it differs from Vela 5.0's estimate (blockMacCycles2x, ethos-u85.md
// 5.2), the FVP's per-launch records decide (fixtures/fvp-perop):
//   pooling: one cycle per kernel tap and micro-block (x2 for a 16-bit IFM), not Vela's max(4, E) x b/2;
//   the weight path's floor: 4 cycles per micro-block channel of one weight decoder's share (the
//     decoders feed disjoint groups of OFM channels in parallel, ethos-u85.md 4.2; Vela 5.1.0's
//     estimate divides its floor by them, Vela 5.0's does not): kws's second convolution's
//     one-row edge blocks on the U85-512;
//   depthwise: one cycle per kernel tap and micro-block (no rounding of the taps to fours), at
//     least the weight path's floor per tap (a quarter of it per four taps);
//   convolutions: the IFM depth walked in 8-channel slices of its real depth, not in whole IFM depth
//     blocks of 64 (a 140-channel IFM is 18 slices, not 3 x 8);
//   2:4 sparse weights: no faster than dense (the FVP, and the MPS4 board within its ±12%, time
//     the sparse first convolutions of kws at the dense rate);
//   part-kernel-first convolutions: the kernel taps of all the IFM block's 8-channel slices packed
//     together, a quarter of a step each (half for a 16-bit IFM), at least one step; not Vela's
//     taps rounded up to four in every slice. A 1x1 kernel over a 16-channel IFM block is one step,
//     not two (vww4's and yolo-fastest's 1x1 part-kernel-first convolutions on the U85-256), and
//     a 3x3 kernel over a one-channel IFM 2.25 steps, not 3 (ad_medium's first convolutions).
int64_t subKernelArrayCycles(const MacBlock& b, int64_t uwh, int64_t uc, int64_t weightCycles, int64_t elements,
                             int64_t slices) {
  const int64_t bits = b.ifmBits;
  switch (b.traversal) {
  case MacTraversal::Pooling:
    return std::max<int64_t>(1, elements) * uwh * uc * std::max<int64_t>(1, bits / 8);
  case MacTraversal::Depthwise:
    return std::max(weightCycles / 4, uwh * std::max<int64_t>(1, bits / 8)) * elements * uc;
  case MacTraversal::DepthFirst:
    return std::max(weightCycles * 8 / std::max<int64_t>(8, b.ifmBlockDepth), uwh) * slices * elements * uc *
           std::max<int64_t>(1, bits / 8);
  case MacTraversal::PartKernelFirst: {
    // A step's cycles per tap, each packed tap of every slice one of them, at least one step.
    const int64_t tapsPerStep = bits == 16 ? 2 : 4;
    const int64_t taps = std::max(tapsPerStep, elements * ((int64_t{b.ifmBlockDepth} + 7) / 8));
    return std::max(weightCycles, 4 * uwh) * taps / tapsPerStep * uc * b.ifmDepthBlocks;
  }
  }
  return 0;
}

double blockMacCyclesArray2x(const arch::NpuConfig& npu, const MacBlock& b, uint32_t ifmDepth) {
  const Shape3& ub = npu.ofmUblockRun(b.ublock);
  const int64_t uwh = int64_t{ceilDiv(b.block.height, ub.height)} * ceilDiv(b.block.width, ub.width);
  const int64_t uc = ceilDiv(b.block.depth, ub.depth);
  // The weight path's floor per step: 4 cycles per micro-block channel of one decoder's share.
  const int64_t weightCycles = 4 * int64_t{ceilDiv(ub.depth, npu.weightDecoders)};
  const int64_t slices = (int64_t{ifmDepth} + 7) / 8;
  int64_t total = 0;
  for (const cmd::SubKernelGroup& group : cmd::subKernelGroups(b.kernelWidth, b.kernelHeight, b.subKernelMax)) {
    total += subKernelArrayCycles(b, uwh, uc, weightCycles, group.elements, slices) * static_cast<int64_t>(group.count);
  }
  return static_cast<double>(total);
}

// 1.x: MAC-array cycles of a block of extent `block` walked in micro-blocks of `ub`.
double blockMacCycles1x(const arch::NpuConfig& npu, const MacBlock& b, const Shape3& ub, const Shape3& block) {
  const double nx = ceilDiv(block.width, ub.width);
  const double ny = ceilDiv(block.height, ub.height);
  const double nz = ceilDiv(block.depth, ub.depth);
  const double ibSlices = ceilDiv(b.ifmBlockDepth, 8u);
  // Sub-kernels of at most subKernelMax taps a side, one formula per size.
  double cycles = 0;
  for (const cmd::SubKernelGroup& group : cmd::subKernelGroups(b.kernelWidth, b.kernelHeight, b.subKernelMax)) {
    cycles += subKernelMacCycles(npu, b, nx, ny, nz, ibSlices, group.elements) * double(group.count);
  }
  // Repeats per IFM depth block; the cores share the OFM channels.
  return cycles * b.ifmDepthBlocks / npu.cores;
}

} // namespace

double blockMacCycles(const arch::NpuConfig& npu, const MacBlock& b) {
  if (npu.arch->costRules == arch::CostRules::Ethos2x) {
    return blockMacCycles2x(npu, b);
  }
  // Vela's micro-block: the configuration's, except that a two-row micro-block on a one-row OFM of
  // even width and a one-row kernel works as 4 x 1.
  Shape3 ub = npu.ofmUblock;
  Shape3 block = b.block;
  if (ub.height == 2 && b.convLike && b.ofmShape.height == 1 && b.ofmShape.width % 2 == 0 && b.kernelHeight == 1) {
    ub = {1, 4, ub.depth};
    block.height = 1;
  }
  return blockMacCycles1x(npu, b, ub, block);
}

namespace {

double blockMacCyclesArray1x(const arch::NpuConfig& npu, const MacBlock& b) {
  // The micro-block's H x W OFM positions laid out as whichever rectangle of that many positions
  // covers the block with the fewest micro-blocks (the configured one on a tie): Vela's 1-D case
  // (2 x 2 as 1 x 4 on a one-row OFM), generalised. docs/timing-model.md has the FVP points that
  // show it: kws_micronet_m's odd 25 x 5 and 49 x 10 OFMs on every configuration whose micro-block
  // is not 1 x 1.
  const Shape3& configured = npu.ofmUblock;
  const uint32_t positions = configured.height * configured.width;
  Shape3 best = configured;
  uint64_t fewest = uint64_t{ceilDiv(b.block.height, best.height)} * ceilDiv(b.block.width, best.width);
  for (uint32_t h = 1; h <= positions; ++h) {
    if (positions % h != 0) continue;
    const Shape3 ub{h, positions / h, configured.depth};
    const uint64_t count = uint64_t{ceilDiv(b.block.height, ub.height)} * ceilDiv(b.block.width, ub.width);
    if (count < fewest) {
      fewest = count;
      best = ub;
    }
  }
  return blockMacCycles1x(npu, b, best, b.block);
}

} // namespace

double simulatedBlockMacCycles(const arch::NpuConfig& npu, const MacBlock& b, uint32_t ifmDepth) {
  switch (npu.arch->costRules) {
  case arch::CostRules::Ethos1x: return blockMacCyclesArray1x(npu, b);
  case arch::CostRules::Ethos2x: return blockMacCyclesArray2x(npu, b, ifmDepth);
  }
  return blockMacCyclesArray1x(npu, b);
}

MacTraversal macTraversal(bool pooling, bool depthwise, bool partKernelFirstConvolution) {
  if (pooling) return MacTraversal::Pooling;
  if (depthwise) return MacTraversal::Depthwise;
  return partKernelFirstConvolution ? MacTraversal::PartKernelFirst : MacTraversal::DepthFirst;
}

MacBlock macBlockOf(const arch::NpuConfig& npu, const cmd::Operation& op, const Shape3& block) {
  MacBlock b;
  const bool pool = op.kind == cmd::OpKind::Pool && op.poolMode != cmd::PoolMode::ReduceSum;
  const bool depthwise = op.kind == cmd::OpKind::Depthwise;
  b.traversal = macTraversal(pool, depthwise, op.kind == cmd::OpKind::Conv && op.kernel.partKernelFirst);
  b.wideIfm = op.ifm.elementBits == 16;
  b.acc40 = usesAcc40(op);
  b.ifmBits = op.ifm.elementBits;
  b.sparse = op.sparse;
  b.ublock = op.ublock;
  b.ofmShape = op.ofm.shape;
  b.block = block;
  b.kernelWidth = op.kernel.width;
  b.kernelHeight = op.kernel.height;
  b.ifmBlockDepth = (depthwise || pool) ? block.depth : ifmBlockDepthOf(npu, op);
  const bool repeats = op.kind == cmd::OpKind::Conv || (op.kind == cmd::OpKind::Pool && op.poolMode == cmd::PoolMode::ReduceSum);
  b.ifmDepthBlocks = repeats ? ceilDiv(op.ifm.shape.depth, b.ifmBlockDepth) : 1;
  b.convLike = op.kind == cmd::OpKind::Conv || op.kind == cmd::OpKind::Depthwise;
  return b;
}

} // namespace npusim::npu
