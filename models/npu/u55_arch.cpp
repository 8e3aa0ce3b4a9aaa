// SPDX-License-Identifier: Apache-2.0
#include "models/npu/u55_arch.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace npusim::npu {

const U55Arch& u55Arch(uint32_t macs) {
  static const U55Arch k32{32, {1, 1, 4}, 16, 16, {2.0, 3.0, 3.0, 3.0, 4.0, 6.0, 1.0, 2.0}, {1.0, 1.0, 0.0}, 8};
  static const U55Arch k64{64, {1, 1, 8}, 16, 32, {1.0, 1.5, 1.5, 1.5, 2.0, 3.0, 0.5, 1.0}, {1.0, 1.0, 0.0}, 8};
  static const U55Arch k128{128, {1, 2, 8}, 24, 32, {0.75, 1.25, 0.75, 0.75, 1.0, 1.5, 0.25, 0.5}, {1.0, 0.5, 0.0}, 8};
  static const U55Arch k256{256, {2, 2, 8}, 48, 32, {0.625, 1.125, 0.5, 0.375, 0.5, 0.75, 0.125, 0.25}, {1.0, 0.25, 0.0}, 8};
  switch (macs) {
  case 32: return k32;
  case 64: return k64;
  case 128: return k128;
  case 256: return k256;
  }
  throw std::invalid_argument("Ethos-U55 has 32, 64, 128 or 256 MACs, not " + std::to_string(macs));
}

bool usesAcc40(const cmd::Operation& op) {
  return op.ifm.elementBits == 16 && op.kind != cmd::OpKind::Pool && op.shram.accFormat == cmd::AccFormat::Int40;
}

namespace {

bool isMul(const cmd::Operation& op) {
  return op.kind == cmd::OpKind::Elementwise && op.elementwiseMode == cmd::ElementwiseMode::Mul;
}

bool isAddSub(const cmd::Operation& op) {
  return op.kind == cmd::OpKind::Elementwise &&
         (op.elementwiseMode == cmd::ElementwiseMode::Add || op.elementwiseMode == cmd::ElementwiseMode::Sub);
}

// A clamp narrower than the OFM type range is a fused ReLU-family activation.
bool hasClampActivation(const cmd::Operation& op) {
  const int bits = op.ofm.elementBits;
  const int64_t lo = op.ofm.isSigned ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = op.ofm.isSigned ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  const int64_t clampLo = std::max<int64_t>(lo, -32768), clampHi = std::min<int64_t>(hi, 32767);
  return op.activation.min > clampLo || op.activation.max < clampHi;
}

} // namespace

double outputCyclesPerElement(const U55Arch& arch, const cmd::Operation& op) {
  size_t index = 7;
  if (op.kind == cmd::OpKind::Elementwise && op.ifm.elementBits == 32) {
    index = op.hasIfm2() ? 0 : 1;
  } else if (isMul(op) && op.ofm.elementBits == 32) {
    index = 2;
  } else if (isMul(op) || (op.kind != cmd::OpKind::Elementwise && usesAcc40(op))) {
    index = 3;
  } else if (isAddSub(op)) {
    index = 5;
  } else if (op.kind == cmd::OpKind::Pool && op.poolMode == cmd::PoolMode::Max) {
    index = 6;
  }
  size_t act = 2;
  if (op.activation.usesLut() || op.activation.isTanhOrSigmoid()) {
    act = 0;
  } else if (hasClampActivation(op)) {
    act = 1;
  }
  return std::max(arch.outputCycles[index], arch.activationCycles[act]);
}

uint32_t ifmBlockDepth(const cmd::Operation& op) {
  const uint32_t c = op.ifm.shape.depth;
  auto roundUp = [](uint32_t v, uint32_t m) { return (v + m - 1) / m * m; };
  if (op.ifm.elementBits == 16) {
    return roundUp(std::min(c, 16u), 4);
  }
  if (op.ifm.elementBits == 32) {
    return roundUp(std::min(c, 8u), 8);
  }
  const bool partKernel = op.kind == cmd::OpKind::Conv && op.kernel.partKernelFirst;
  return roundUp(std::min(c, partKernel ? 16u : 32u), 8);
}

double subKernelMacCycles(const U55Arch& arch, MacTraversal traversal, bool wideIfm, bool acc40, double nx, double ny,
                          double nz, double ibSlices, uint32_t elements) {
  // 1. Kernel steps and their cycles; the weight path needs weightStepCycles per step at least.
  const double nxy = nx * ny;
  double steps = 1;
  double cycles = 0;
  switch (traversal) {
  case MacTraversal::Pooling:
    cycles = std::max(4u, elements) * nxy * nz * ((wideIfm && arch.macs != 32) ? 2 : 1);
    break;
  case MacTraversal::Depthwise:
    steps = (elements + 3) / 4;
    cycles = std::max<double>(arch.weightStepCycles, 4.0 * nxy * (wideIfm ? 2 : 1)) * steps * nz;
    break;
  case MacTraversal::PartKernelFirst:
    steps = wideIfm ? (elements + 1) / 2 : (elements + 3) / 4;
    cycles = std::max<double>(arch.weightStepCycles, 4.0 * nxy) * steps * ibSlices * nz;
    break;
  case MacTraversal::DepthFirst:
    steps = elements;
    cycles = std::max<double>(arch.weightStepCycles, 4.0 * nxy) * steps * nz;
    break;
  }
  // 2. Pipeline delay per kernel step, visible when the block is one micro-block wide and high.
  const double delay = arch.macs == 32 ? (acc40 ? 7 : 3) : ((acc40 && arch.macs <= 128) ? 3 : 2);
  double d = 0;
  if (nx == 1 && ny == 1) {
    if (nz == 1) {
      d = delay * steps;
    } else if (steps > 1) {
      d = delay * (steps - 1) * nz;
    }
  }
  if (arch.macs == 32 && (nx == 1 || ny == 1) && nz > 1 && acc40) {
    d += delay * nz;
  }
  if (traversal == MacTraversal::PartKernelFirst) {
    d *= ibSlices;
  }
  return cycles + d;
}

double macCyclesPerBlock(const U55Arch& arch, const cmd::Operation& op, const cmd::Shape3& block) {
  // 1. Micro-block counts of this block (1-D special case on U55-256: ublock W4 x H1).
  cmd::Shape3 ub = arch.ofmUblock;
  const bool convLike = op.kind == cmd::OpKind::Conv || op.kind == cmd::OpKind::Depthwise;
  if (ub.height == 2 && convLike && op.ofm.shape.height == 1 && op.ofm.shape.width % 2 == 0 && op.kernel.height == 1) {
    ub = {1, 4, 8};
  }
  const uint32_t nx = (block.width + ub.width - 1) / ub.width;
  const uint32_t ny = (block.height + ub.height - 1) / ub.height;
  const uint32_t nz = (block.depth + ub.depth - 1) / ub.depth;
  const bool pool = op.kind == cmd::OpKind::Pool && op.poolMode != cmd::PoolMode::ReduceSum;
  const bool depthwise = op.kind == cmd::OpKind::Depthwise;
  MacTraversal traversal = MacTraversal::DepthFirst;
  if (pool) {
    traversal = MacTraversal::Pooling;
  } else if (depthwise) {
    traversal = MacTraversal::Depthwise;
  } else if (op.kind == cmd::OpKind::Conv && op.kernel.partKernelFirst) {
    traversal = MacTraversal::PartKernelFirst;
  }
  const uint32_t ibDepth = (depthwise || pool) ? block.depth : ifmBlockDepth(op);
  const uint32_t ibSlices = (ibDepth + 7) / 8;

  // 2. Sub-kernels of at most 8x8 taps (FC-like 1x1 is one sub-kernel), one formula per size.
  double cycles = 0;
  for (const cmd::SubKernelGroup& group : cmd::subKernelGroups(op.kernel.width, op.kernel.height, 8)) {
    cycles += subKernelMacCycles(arch, traversal, op.ifm.elementBits == 16, usesAcc40(op), nx, ny, nz, ibSlices,
                                 group.elements) *
              double(group.count);
  }
  // 3. Convolutions repeat per IFM depth block.
  if (op.kind == cmd::OpKind::Conv || (op.kind == cmd::OpKind::Pool && op.poolMode == cmd::PoolMode::ReduceSum)) {
    cycles *= std::ceil(double(op.ifm.shape.depth) / ibDepth);
  }
  return cycles;
}

} // namespace npusim::npu
