// SPDX-License-Identifier: Apache-2.0
#include "models/npu/block_plan.h"

#include <algorithm>
#include <stdexcept>

#include "sim/common/int_math.h"

namespace npusim::npu {

namespace {

// Channels the IB stores an IFM window's elements in: 16-channel bricks, as the NHCWB16 format
// stores them (assumed; ethos-u85.md gives the IB's size, not its layout).
constexpr uint32_t kIbDepthGranule = 16;

} // namespace

uint64_t IfmReads::bytes() const {
  uint64_t total = 0;
  for (size_t i = 0; i < count; ++i) {
    total += parts[i].bytes();
  }
  return total;
}

void IfmReads::add(const mem::TransferShape& shape) {
  if (shape.bytes() == 0) {
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    if (parts[i].runBytes == shape.runBytes) {
      parts[i].runs += shape.runs;
      return;
    }
  }
  if (count < kMaxParts) {
    parts[count++] = shape;
    return;
  }
  // More distinct widths than parts (kernels over 24 taps wide at an IFM edge): the bytes go into
  // the last part, rounded up to whole runs of its length.
  mem::TransferShape& last = parts[kMaxParts - 1];
  last.runs += ceilDiv(shape.bytes(), last.runBytes);
}

BlockPlan::BlockPlan(const arch::NpuConfig& npu, const cmd::Operation& op) : npu_(npu), op_(op) {
  const Shape3& ofm = op.ofm.shape;
  block_ = {std::min(op.ofmBlock.height, ofm.height), std::min(op.ofmBlock.width, ofm.width),
            std::min(op.ofmBlock.depth, ofm.depth)};
  blocksY_ = ceilDiv(ofm.height, block_.height);
  blocksX_ = ceilDiv(ofm.width, block_.width);
  blocksZ_ = ceilDiv(ofm.depth, block_.depth);
  outputPerElement_ = outputCyclesPerElement(npu, outputStageOf(op));
  if (op.kind == cmd::OpKind::Elementwise || op.kind == cmd::OpKind::Resize) {
    return;
  }
  // IFM window of one configured OFM block, clipped to the IFM.
  const Shape3& ublock = npu.ofmUblockRun(op.ublock);
  ifmRows_ = std::min(ifmBlockSide(npu, op.ofmBlock.height, op.kernel.strideY, op.kernel.dilatedHeight(), op.upscale,
                                    ublock.height),
                       op.ifm.shape.height);
  ifmCols_ = std::min(ifmBlockSide(npu, op.ofmBlock.width, op.kernel.strideX, op.kernel.dilatedWidth(), op.upscale,
                                    ublock.width),
                       op.ifm.shape.width);
  subKernels_ = ceilDiv(op.kernel.width, npu.arch->subKernelMax) * ceilDiv(op.kernel.height, npu.arch->subKernelMax);
  ifmDepthBlocks_ = ceilDiv(op.ifm.shape.depth, ifmBlockDepthOf(npu, op));
}

uint32_t BlockPlan::window(uint32_t first, uint32_t count, uint32_t stride, uint32_t dilation, uint32_t pad,
                           uint32_t tap, uint32_t taps, uint32_t ifmSize, uint32_t* lowest) const {
  // Output rows [first, first + count) read input rows [lo, hi) of the (upscaled) IFM; rows
  // outside the IFM are padding, which the NPU generates instead of reading.
  const int64_t up = op_.upscale == cmd::Upscale::None ? 1 : 2;
  const int64_t lo = std::max<int64_t>(0, int64_t{first} * stride - pad + int64_t{tap} * dilation);
  const int64_t hi = std::min<int64_t>(int64_t{ifmSize} * up, int64_t{first + count - 1} * stride - pad +
                                                                   int64_t{tap} * dilation +
                                                                   int64_t{taps - 1} * dilation + 1);
  *lowest = static_cast<uint32_t>(lo / up);
  if (hi <= lo) {
    return 0;
  }
  return static_cast<uint32_t>((hi + up - 1) / up - lo / up);
}

mem::TransferShape BlockPlan::largestIfmRead() const {
  if (op_.kind == cmd::OpKind::Elementwise) {
    return featureMapRead(op_.ifm, block_.height, block_.width, block_.depth, {});
  }
  if (op_.kind == cmd::OpKind::Resize) {
    const Shape3& in = op_.ifm.shape;
    const Shape3& out = op_.ofm.shape;
    const auto side = [](uint32_t block, uint32_t inSize, uint32_t outSize) {
      return static_cast<uint32_t>(std::min<uint64_t>(inSize, uint64_t{block} * inSize / std::max(outSize, 1u) + 2));
    };
    return featureMapRead(op_.ifm, side(block_.height, in.height, out.height), side(block_.width, in.width, out.width),
                          std::min(block_.depth, in.depth), {});
  }
  const bool perChannelDepth = op_.kind != cmd::OpKind::Conv &&
                               !(op_.kind == cmd::OpKind::Pool && op_.poolMode == cmd::PoolMode::ReduceSum);
  mem::TransferShape s =
      featureMapRead(op_.ifm, ifmRows_, ifmCols_, perChannelDepth ? block_.depth : op_.ifm.shape.depth, {});
  s.runs *= subKernels_;
  return s;
}

mem::TransferShape BlockPlan::featureMapRead(const cmd::FeatureMap& fm, uint32_t rows, uint32_t cols,
                                             uint32_t channels, const Shape3& from) const {
  const uint64_t e = fm.elementBytes();
  mem::TransferShape s;
  s.address = fm.address(std::min(from.height, fm.shape.height - 1), std::min(from.width, fm.shape.width - 1),
                         std::min(from.depth, fm.shape.depth - 1));
  if (fm.format == cmd::DataFormat::Nhcwb16) {
    // One contiguous run per row and 16-channel brick (each starts on a brick boundary).
    const uint64_t bricks = ceilDiv(channels, 16u);
    s.runs = uint64_t{rows} * bricks;
    s.runBytes = uint64_t{cols} * 16 * e;
    s.runStride = bricks > 1 ? fm.strideC : fm.strideY;
  } else if (fm.strideX == uint64_t{channels} * e) {
    s.runs = rows; // whole pixels: one run per row
    s.runBytes = uint64_t{cols} * channels * e;
    s.runStride = fm.strideY;
  } else {
    s.runs = uint64_t{rows} * cols; // one run per pixel (the row's next pixel, then the next row's)
    s.runBytes = uint64_t{channels} * e;
    s.runStride = fm.strideX;
  }
  return s;
}

mem::TransferShape BlockPlan::ofmWrite(const Shape3& extent, const Shape3& from) const {
  mem::TransferShape s = featureMapRead(op_.ofm, extent.height, extent.width, extent.depth, from);
  const cmd::FeatureMap& fm = op_.ofm;
  const uint64_t e = fm.elementBytes();
  // NHWC: whole rows only for a block of the tensor's whole depth of at most 16 channels, stored
  // contiguously; otherwise each pixel's channels go out in pieces of 16 channels per core, at
  // most 64 bytes (Vela's write burst, timing doc 3.6.2). Vela 5.0 counts the U85's weight
  // decoders as cores there (ethos-u85.md 5.5); the U85 has one output unit, and its measured
  // SRAM write beats (rnnoise, U85-1024: 135 on the FVP and the FPGA) are those of 16-channel
  // pieces (130 with 64-byte ones).
  if (fm.format == cmd::DataFormat::Nhcwb16 ||
      (extent.depth == fm.shape.depth && extent.depth <= 16 && fm.strideX == uint64_t{extent.depth} * e)) {
    return s;
  }
  s.runs = uint64_t{extent.height} * extent.width;
  s.runBytes = uint64_t{extent.depth} * e;
  s.runStride = fm.strideX;
  s.pieceBytes = std::min<uint64_t>({64, 16 * e * npu_.cores, s.runBytes});
  return s;
}

std::optional<uint64_t> BlockPlan::previousBlocksNeeded(uint64_t index, uint64_t previousBlocks) const {
  if (previousBlocks == 0) return std::nullopt;
  const uint64_t lastJob = op_.kind == cmd::OpKind::Conv ? (index / blocksZ_ + 1) * ifmDepthBlocks_ - 1 : index;
  if (op_.blockDep == 0 || lastJob >= op_.blockDep) return previousBlocks - 1;
  const uint64_t stillWritten = op_.blockDep - lastJob;
  if (stillWritten >= previousBlocks) return std::nullopt;
  return previousBlocks - 1 - stillWritten;
}

BlockWork BlockPlan::block(uint64_t index) const {
  const Shape3& ofm = op_.ofm.shape;
  BlockWork w;
  const uint64_t z = index % blocksZ_, x = (index / blocksZ_) % blocksX_, y = index / (blocksZ_ * blocksX_);
  w.origin = {static_cast<uint32_t>(y * block_.height), static_cast<uint32_t>(x * block_.width),
              static_cast<uint32_t>(z * block_.depth)};
  w.extent = {std::min(block_.height, ofm.height - w.origin.height), std::min(block_.width, ofm.width - w.origin.width),
              std::min(block_.depth, ofm.depth - w.origin.depth)};
  w.outputCycles = outputPerElement_ * double(w.extent.elements());
  // An OFM in a chaining buffer (U85), or one the operation does not write out, moves no bytes;
  // nor does an input in a chaining buffer or a scalar operand.
  if (cmd::inMemory(op_.ofm.storage) && op_.ofmWritten) {
    w.ofm = ofmWrite(w.extent, w.origin);
  }
  const bool ifmInMemory = cmd::inMemory(op_.ifm.storage);
  switch (op_.kind) {
  case cmd::OpKind::Elementwise: {
    if (ifmInMemory) {
      w.ifm.add(featureMapRead(op_.ifm, w.extent.height, w.extent.width, w.extent.depth, w.origin));
    }
    if (op_.hasIfm2() && cmd::inMemory(op_.ifm2.storage)) {
      const Shape3& b = op_.ifm2.shape;
      w.ifm2 = featureMapRead(op_.ifm2, std::min(w.extent.height, b.height), std::min(w.extent.width, b.width),
                              std::min(w.extent.depth, b.depth), w.origin);
    }
    return w;
  }
  case cmd::OpKind::Resize: {
    // The IFM rows and columns the block's output samples lie between (the OFM-to-IFM ratio of
    // each axis, one more for the interpolation), over the block's channels.
    const Shape3& in = op_.ifm.shape;
    const auto span = [](uint32_t first, uint32_t count, uint32_t inSize, uint32_t outSize) {
      const uint64_t lo = uint64_t{first} * inSize / std::max(outSize, 1u);
      const uint64_t hi = std::min<uint64_t>(inSize, (uint64_t{first} + count) * inSize / std::max(outSize, 1u) + 1);
      return std::pair<uint32_t, uint32_t>{static_cast<uint32_t>(lo), static_cast<uint32_t>(std::max(hi, lo + 1) - lo)};
    };
    const auto [row, rows] = span(w.origin.height, w.extent.height, in.height, ofm.height);
    const auto [col, cols] = span(w.origin.width, w.extent.width, in.width, ofm.width);
    if (ifmInMemory) {
      w.ifm.add(featureMapRead(op_.ifm, std::min(rows, in.height), std::min(cols, in.width),
                               std::min(w.extent.depth, in.depth), {row, col, w.origin.depth}));
    }
    return w;
  }
  case cmd::OpKind::Conv:
  case cmd::OpKind::Depthwise:
  case cmd::OpKind::Pool: {
    w.macCycles = simulatedBlockMacCycles(npu_, macBlockOf(npu_, op_, w.extent), op_.ifm.shape.depth);
    const bool perChannelDepth = op_.kind != cmd::OpKind::Conv &&
                                 !(op_.kind == cmd::OpKind::Pool && op_.poolMode == cmd::PoolMode::ReduceSum);
    const uint32_t channels = perChannelDepth ? w.extent.depth : op_.ifm.shape.depth;
    // With a SHRAM each sub-kernel (at most subKernelMax taps a side) reads its own window: the rows
    // of every row group for each column group's width. With internal buffers (the U85's IB) the
    // block's window spans the whole kernel, the union of its sub-kernels' windows, read once (as
    // Vela 5.0 takes a job's input: the OFM block's rows and columns over the whole dilated kernel,
    // ethos_u85_register_cs_generator.cpp CalcIFMJobShape); docs/timing-model.md has the beats.
    const cmd::Kernel& k = op_.kernel;
    const cmd::Padding& pad = op_.padding;
    uint64_t rows = 0;
    const uint32_t sub = npu_.buffers.ifm > 0 ? std::max(k.height, k.width) : npu_.arch->subKernelMax;
    Shape3 from{0, 0, perChannelDepth ? w.origin.depth : 0};
    for (uint32_t tap = 0; tap < k.height; tap += sub) {
      uint32_t lowest = 0;
      rows += window(w.origin.height, w.extent.height, k.strideY, k.dilationY, pad.top, tap,
                     std::min(sub, k.height - tap), op_.ifm.shape.height, &lowest);
      from.height = tap == 0 ? lowest : from.height;
    }
    // The IFM buffer still holds what the previous depth block of the (x, y) position fetched
    // (depth fastest), so a convolution with one sub-kernel fetches at its second and later depth
    // blocks only what did not fit there: with a SHRAM, whose IFM area holds the last
    // npu_.arch->ifmBufferBlocks IFM depth blocks (the double buffer), all of the window or, with
    // more IFM depth blocks, none of it; with internal buffers, the IB's bytes of it (the window's
    // rows beyond them are fetched again). Kernels split into sub-kernels fetch again
    // (docs/timing-model.md has the beat counts that decide each).
    const bool sameWindow = op_.kind == cmd::OpKind::Conv && z > 0 && subKernels_ == 1;
    // The rows of a window `cols` wide that this block fetches.
    const auto rowsToFetch = [&](uint64_t cols) -> uint64_t {
      if (!sameWindow) return rows;
      if (npu_.buffers.ifm == 0) return ifmDepthBlocks_ <= npu_.arch->ifmBufferBlocks ? 0 : rows;
      const uint64_t bytes = rows * cols * roundUp(op_.ifm.shape.depth, kIbDepthGranule) * op_.ifm.elementBytes();
      const uint64_t held = std::min<uint64_t>(bytes, npu_.buffers.ifm);
      return bytes == 0 ? 0 : ceilDiv(rows * (bytes - held), bytes);
    };
    for (uint32_t tap = 0; tap < k.width && ifmInMemory; tap += sub) {
      const uint32_t cols = window(w.origin.width, w.extent.width, k.strideX, k.dilationX, pad.left, tap,
                                   std::min(sub, k.width - tap), op_.ifm.shape.width, &from.width);
      const uint64_t fetched = rowsToFetch(cols);
      if (fetched == 0) continue;
      w.ifm.add(featureMapRead(op_.ifm, static_cast<uint32_t>(std::min<uint64_t>(fetched, UINT32_MAX)), cols,
                               channels, from));
    }
    if (op_.weightsFromIfm2 && cmd::inMemory(op_.ifm2.storage)) {
      // A matrix product's weights are its IFM2 (U85): the block's channels of it, every row.
      w.ifm2 = featureMapRead(op_.ifm2, op_.ifm2.shape.height, op_.ifm2.shape.width,
                              std::min(w.extent.depth, op_.ifm2.shape.depth), {0, 0, std::min(w.origin.depth, op_.ifm2.shape.depth - 1)});
    } else if (op_.kind != cmd::OpKind::Pool) {
      // The stream is a concatenation of per-depth-block chunks: each spatial block reads the
      // chunk of its depth block (edge depth blocks have proportionally smaller chunks).
      // The bias/scale stream slice of the depth block is fetched with every block, like the
      // weights: the output unit keeps only the current block's. Each core (weight decoder)
      // reads its own streams' slices.
      for (size_t s = 0; s < op_.weightStreamCount; ++s) {
        w.weightBytes[s] = op_.weights[s].length * w.extent.depth / ofm.depth;
      }
      if (op_.weightStreamCount > 0) {
        const uint64_t ifmDepth = op_.kind == cmd::OpKind::Depthwise ? 1 : op_.ifm.shape.depth;
        w.weights = op_.kernel.elements() * ifmDepth * w.extent.depth / (op_.sparse ? 2 : 1);
      }
      for (size_t s = 0; s < op_.scaleStreamCount && op_.scaling.perChannel; ++s) {
        w.scaleBytes[s] = op_.scales[s].length * w.extent.depth / ofm.depth;
      }
    }
    return w;
  }
  case cmd::OpKind::DmaStart: case cmd::OpKind::DmaWait: case cmd::OpKind::KernelWait: case cmd::OpKind::Stop:
  case cmd::OpKind::Irq: case cmd::OpKind::PmuMask: case cmd::OpKind::Branch:
    break;
  }
  return w;
}

} // namespace npusim::npu
