// SPDX-License-Identifier: Apache-2.0
#include "models/npu/block_plan.h"

#include <algorithm>

namespace npusim::npu {
namespace {

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint32_t roundUp(uint32_t v, uint32_t m) { return (v + m - 1) / m * m; }

} // namespace

BlockPlan::BlockPlan(const U55Arch& arch, const cmd::Operation& op) : arch_(arch), op_(op) {
  const cmd::Shape3& ofm = op.ofm.shape;
  block_ = {std::min(op.ofmBlock.height, ofm.height), std::min(op.ofmBlock.width, ofm.width),
            std::min(op.ofmBlock.depth, ofm.depth)};
  blocksY_ = ceilDiv(ofm.height, block_.height);
  blocksX_ = ceilDiv(ofm.width, block_.width);
  blocksZ_ = ceilDiv(ofm.depth, block_.depth);
  outputPerElement_ = outputCyclesPerElement(arch, op);
  if (op.kind == cmd::OpKind::Elementwise) {
    return;
  }
  // IFM window of one configured OFM block: (B-1)*stride + kernel span (sub-kernel <= 8),
  // halved for 2x upscale, rounded up to the IFM micro-block, clipped to the IFM.
  const uint32_t spanH = std::min(op.kernel.dilatedHeight(), 8u), spanW = std::min(op.kernel.dilatedWidth(), 8u);
  const uint32_t up = op.upscale == cmd::Upscale::None ? 1 : 2;
  const uint32_t nearest = op.upscale == cmd::Upscale::Nearest ? 1 : 0;
  const uint32_t rows = ((op.ofmBlock.height - 1) * op.kernel.strideY + spanH + nearest + up - 1) / up;
  const uint32_t cols = ((op.ofmBlock.width - 1) * op.kernel.strideX + spanW + nearest + up - 1) / up;
  ifmRows_ = std::min(roundUp(rows, arch.ofmUblock.height), op.ifm.shape.height);
  ifmCols_ = std::min(roundUp(cols, arch.ofmUblock.width), op.ifm.shape.width);
  subKernels_ = static_cast<uint32_t>(ceilDiv(op.kernel.width, 8) * ceilDiv(op.kernel.height, 8));
}

mem::TransferShape BlockPlan::featureMapRead(const cmd::FeatureMap& fm, uint32_t rows, uint32_t cols,
                                             uint32_t channels) const {
  const uint64_t e = fm.elementBytes();
  if (fm.format == cmd::DataFormat::Nhcwb16) {
    // One contiguous run per row and 16-channel brick.
    return {uint64_t{rows} * ceilDiv(channels, 16), uint64_t{cols} * 16 * e};
  }
  if (fm.strideX == uint64_t{channels} * e) {
    return {rows, uint64_t{cols} * channels * e}; // whole pixels: one run per row
  }
  return {uint64_t{rows} * cols, uint64_t{channels} * e};
}

mem::TransferShape BlockPlan::featureMapWrite(const cmd::Shape3& extent) const {
  return featureMapRead(op_.ofm, extent.height, extent.width, extent.depth);
}

BlockWork BlockPlan::block(uint64_t index) const {
  const cmd::Shape3& ofm = op_.ofm.shape;
  BlockWork w;
  const uint64_t z = index % blocksZ_, x = (index / blocksZ_) % blocksX_, y = index / (blocksZ_ * blocksX_);
  w.origin = {static_cast<uint32_t>(y * block_.height), static_cast<uint32_t>(x * block_.width),
              static_cast<uint32_t>(z * block_.depth)};
  w.extent = {std::min(block_.height, ofm.height - w.origin.height), std::min(block_.width, ofm.width - w.origin.width),
              std::min(block_.depth, ofm.depth - w.origin.depth)};
  w.outputCycles = outputPerElement_ * double(w.extent.elements());
  w.ofm = featureMapWrite(w.extent);
  switch (op_.kind) {
  case cmd::OpKind::Elementwise: {
    w.ifm = featureMapRead(op_.ifm, w.extent.height, w.extent.width, w.extent.depth);
    if (op_.hasIfm2()) {
      const cmd::Shape3& b = op_.ifm2.shape;
      w.ifm2 = featureMapRead(op_.ifm2, std::min(w.extent.height, b.height), std::min(w.extent.width, b.width),
                              std::min(w.extent.depth, b.depth));
    }
    return w;
  }
  case cmd::OpKind::Conv:
  case cmd::OpKind::Depthwise:
  case cmd::OpKind::Pool: {
    w.macCycles = macCyclesPerBlock(arch_, op_, w.extent);
    const bool perChannelDepth = op_.kind != cmd::OpKind::Conv &&
                                 !(op_.kind == cmd::OpKind::Pool && op_.poolMode == cmd::PoolMode::ReduceSum);
    const uint32_t channels = perChannelDepth ? w.extent.depth : op_.ifm.shape.depth;
    w.ifm = featureMapRead(op_.ifm, ifmRows_, ifmCols_, channels);
    w.ifm.runs *= subKernels_;
    if (op_.kind != cmd::OpKind::Pool) {
      // The stream is a concatenation of per-depth-block chunks: each spatial block reads the
      // chunk of its depth block (edge depth blocks have proportionally smaller chunks).
      w.weightBytes = op_.weights.length * w.extent.depth / ofm.depth;
      if (x == 0 && y == 0 && op_.scaling.perChannel) {
        w.scaleBytes = op_.scales.length * w.extent.depth / ofm.depth;
      }
    }
    return w;
  }
  case cmd::OpKind::DmaStart: case cmd::OpKind::DmaWait: case cmd::OpKind::KernelWait: case cmd::OpKind::Stop:
  case cmd::OpKind::Irq: case cmd::OpKind::PmuMask:
    break;
  }
  return w;
}

} // namespace npusim::npu
