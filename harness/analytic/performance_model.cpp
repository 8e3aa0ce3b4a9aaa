// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/performance_model.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/common/int_math.h"

namespace npusim::analytic {

namespace {

// Vela's OFM depth brick for NHCWB16 storage.
constexpr uint32_t kBrickDepth = 16;

Shape3 minShape(const Shape3& a, const Shape3& b) {
  return {std::min(a.height, b.height), std::min(a.width, b.width), std::min(a.depth, b.depth)};
}

// Number of blocks of `block` needed to cover `shape`, per dimension.
Shape3 blockCount(const Shape3& shape, const Shape3& block) {
  return {static_cast<uint32_t>(ceilDiv(shape.height, block.height)),
          static_cast<uint32_t>(ceilDiv(shape.width, block.width)),
          static_cast<uint32_t>(ceilDiv(shape.depth, block.depth))};
}

bool isConvLike(BlockType type) {
  switch (type) {
  case BlockType::ConvolutionMxN: case BlockType::VectorProduct: case BlockType::ConvolutionDepthWise:
  case BlockType::Pooling: case BlockType::ReduceSum: return true;
  case BlockType::ElementWise: case BlockType::Dma: return false;
  }
  return false;
}

// Vela's sub-kernel limit per block type (FC and elementwise work on 1x1 kernels).
uint32_t subKernelLimit(BlockType type, const arch::NpuConfig& npu) {
  switch (type) {
  case BlockType::VectorProduct: case BlockType::ElementWise: return 1;
  case BlockType::ConvolutionMxN: case BlockType::ConvolutionDepthWise: case BlockType::Pooling:
  case BlockType::ReduceSum: case BlockType::Dma: return npu.arch->subKernelMax;
  }
  return npu.arch->subKernelMax;
}

} // namespace

BlockType blockTypeOf(LayerOp op) {
  switch (op) {
  case LayerOp::Conv2D: return BlockType::ConvolutionMxN;
  case LayerOp::FullyConnected: return BlockType::VectorProduct;
  case LayerOp::Depthwise: return BlockType::ConvolutionDepthWise;
  case LayerOp::MaxPool: case LayerOp::AvgPool: return BlockType::Pooling;
  case LayerOp::ReduceSum: return BlockType::ReduceSum;
  case LayerOp::Add: case LayerOp::Sub: case LayerOp::Mul: case LayerOp::Minimum: case LayerOp::Maximum:
  case LayerOp::Shr: case LayerOp::Shl: case LayerOp::LeakyRelu: case LayerOp::Abs: case LayerOp::Clz:
    return BlockType::ElementWise;
  case LayerOp::Memcpy: return BlockType::Dma;
  }
  return BlockType::Dma;
}

std::string_view layerOpName(LayerOp op) {
  switch (op) {
  case LayerOp::Conv2D: return "Conv2DBias";
  case LayerOp::FullyConnected: return "FullyConnected";
  case LayerOp::Depthwise: return "DepthwiseConv2DBias";
  case LayerOp::MaxPool: return "MaxPool";
  case LayerOp::AvgPool: return "AvgPool";
  case LayerOp::ReduceSum: return "ReduceSum";
  case LayerOp::Add: return "Add";
  case LayerOp::Sub: return "Sub";
  case LayerOp::Mul: return "Mul";
  case LayerOp::Minimum: return "Minimum";
  case LayerOp::Maximum: return "Maximum";
  case LayerOp::Shr: return "SHR";
  case LayerOp::Shl: return "SHL";
  case LayerOp::LeakyRelu: return "LeakyRelu";
  case LayerOp::Abs: return "Abs";
  case LayerOp::Clz: return "CLZ";
  case LayerOp::Memcpy: return "Memcpy";
  }
  return "?";
}

Shape3 PerformanceModel::storageRounded(const Shape3& shape, cmd::DataFormat format) {
  switch (format) {
  case cmd::DataFormat::Nhwc: return shape;
  case cmd::DataFormat::Nhcwb16:
    return {shape.height, shape.width, static_cast<uint32_t>(ceilDiv(shape.depth, kBrickDepth) * kBrickDepth)};
  }
  return shape;
}

uint64_t PerformanceModel::macs(const LayerQuery& q) const {
  const BlockType type = blockTypeOf(q.op);
  if (!isConvLike(type)) {
    return 0;
  }
  const uint64_t perOutput = type == BlockType::ConvolutionDepthWise || type == BlockType::Pooling
                                 ? uint64_t{q.kernel.elements()}
                                 : uint64_t{q.kernel.elements()} * q.ifm.shape.depth;
  return perOutput * q.ofm.shape.elements();
}

double PerformanceModel::burstScaled(bool isRead, MemArea area, cmd::DataFormat format, uint32_t bits,
                                     const Shape3& block, const Shape3& shape, double bytes) const {
  // 1. Natural contiguous run in bits for the format and direction.
  const uint64_t cores = system_.accelerator().cores;
  uint64_t burstBits = 8;
  switch (format) {
  case cmd::DataFormat::Nhcwb16: {
    const double channelStride = bits * 16.0 * shape.width / 8.0;
    if (channelStride == block.depth) {
      burstBits = uint64_t{bits} * block.depth * block.width;
    } else {
      // The cores of a multi-core NPU write their 16-channel bricks side by side.
      burstBits = uint64_t{16} * bits * block.width * (isRead ? 1 : cores);
    }
    break;
  }
  case cmd::DataFormat::Nhwc: {
    const double elementStride = bits / 8.0;
    if (isRead) {
      burstBits = elementStride == block.depth ? uint64_t{bits} * block.depth * block.width
                                               : uint64_t{bits} * block.depth;
    } else if (block.depth <= 16 && elementStride == block.depth) {
      burstBits = uint64_t{bits} * block.depth * block.width;
    } else {
      burstBits = std::min<uint64_t>({64 * 8, uint64_t{16} * bits * cores, uint64_t{block.depth} * bits});
    }
    break;
  }
  }
  // 2. Penalise runs shorter than the memory's efficient burst.
  const uint64_t memBurst = system_.timing(area).burstLength;
  if (memBurst == 0) {
    return bytes;
  }
  const uint64_t burst = std::min(memBurst, burstBits / 8);
  return bytes * (static_cast<double>(memBurst) / static_cast<double>(burst));
}

double PerformanceModel::blockMemoryCycles(const LayerQuery& q) const {
  const AreaTiming& in = system_.timing(q.ifm.area);
  const AreaTiming& out = system_.timing(q.ofm.area);
  const double ifmBytes = static_cast<double>(minShape(q.ifm.shape, q.block.ifmBlock).elements());
  const double ofmBytes = static_cast<double>(minShape(q.ofm.shape, q.block.ofmBlock).elements());
  const double ifmScaled =
      burstScaled(true, q.ifm.area, q.ifm.format, q.ifm.bits, q.block.ifmBlock, q.ifm.shape, ifmBytes);
  const double ofmScaled =
      burstScaled(false, q.ofm.area, q.ofm.format, q.ofm.bits, q.block.ofmBlock, q.ofm.shape, ofmBytes);
  return in.readLatency + ifmScaled / in.bytesPerCycle + out.writeLatency + ofmScaled / out.bytesPerCycle;
}

double PerformanceModel::outputCyclesPerElement(const LayerQuery& q) const {
  // 1. Output-unit and activation tables (timing doc 3.4).
  const BlockType type = blockTypeOf(q.op);
  npu::OutputStage stage;
  stage.elementwise = type == BlockType::ElementWise;
  stage.binary = q.ifm2.has_value();
  stage.mul = q.op == LayerOp::Mul;
  stage.addSub = q.op == LayerOp::Add || q.op == LayerOp::Sub;
  stage.maxPool = q.op == LayerOp::MaxPool;
  stage.acc40 = isConvLike(type) && q.block.acc40;
  stage.ifmBits = q.ifm.bits;
  stage.ofmBits = q.ofm.bits;
  stage.activation = q.activation;
  double cpe = npu::outputCyclesPerElement(system_.accelerator(), stage);
  // 3. Elementwise ops are also bounded by the per-block memory term.
  if (type == BlockType::ElementWise) {
    const double blockElements = static_cast<double>(q.block.ofmBlock.elements());
    const double cmdCycles = (blockMemoryCycles(q) + cpe * blockElements) / 4;
    cpe = std::max(cpe, cmdCycles / blockElements);
  }
  return cpe;
}

double PerformanceModel::convCycles(const LayerQuery& q) const {
  const BlockType type = blockTypeOf(q.op);
  const arch::NpuConfig& a = system_.accelerator();
  // 1. Block shapes clipped to the tensors.
  const Shape3 ifmBlock = minShape(q.ifm.shape, q.block.ifmBlock);
  const Shape3 ofmBlock = minShape(q.ofm.shape, q.block.ofmBlock);
  // 2. MAC-array cycles per OFM block (the simulator's formula), with Vela's kernel traversal.
  npu::MacBlock mac;
  mac.traversal = npu::macTraversal(type == BlockType::Pooling, type == BlockType::ConvolutionDepthWise,
                                    type == BlockType::ConvolutionMxN && q.block.partKernel);
  mac.wideIfm = q.ifm.bits == 16;
  mac.acc40 = q.block.acc40;
  mac.ofmShape = q.ofm.shape;
  mac.block = ofmBlock;
  mac.kernelWidth = q.kernel.width;
  mac.kernelHeight = q.kernel.height;
  mac.subKernelMax = subKernelLimit(type, a);
  mac.ifmBlockDepth = ifmBlock.depth;
  const bool repeats =
      type == BlockType::ConvolutionMxN || type == BlockType::VectorProduct || type == BlockType::ReduceSum;
  mac.ifmDepthBlocks = repeats ? ceilDiv(q.ifm.shape.depth, ifmBlock.depth) : 1;
  mac.convLike = type == BlockType::ConvolutionMxN || type == BlockType::ConvolutionDepthWise ||
                 type == BlockType::VectorProduct;
  double dpuBlock = npu::blockMacCycles(a, mac);
  // 4. Output-unit cycles per block, bounded by the bias/scale fetch latency.
  const double blocks = static_cast<double>(blockCount(q.ofm.shape, ofmBlock).elements());
  double outBlock = std::ceil(outputCyclesPerElement(q) * static_cast<double>(ofmBlock.elements()));
  if (q.hasBias) {
    const double biasCycles =
        double(a.arch->scaleBytesPerChannel) * ofmBlock.depth * system_.timing(q.constArea).readLatency / 256.0;
    outBlock = std::max(outBlock, biasCycles);
  }
  // 5. Command/memory floor, then the two-stage pipeline over all blocks.
  const double cmdCycles = (blockMemoryCycles(q) + outBlock + dpuBlock) / 4;
  dpuBlock = std::max(dpuBlock, cmdCycles);
  outBlock = std::max(outBlock, cmdCycles);
  return dpuBlock > outBlock ? dpuBlock * blocks + outBlock : outBlock * blocks + dpuBlock;
}

int64_t PerformanceModel::computeCycles(const LayerQuery& q) const {
  const BlockType type = blockTypeOf(q.op);
  if (isConvLike(type)) {
    return static_cast<int64_t>(convCycles(q));
  }
  if (type == BlockType::ElementWise) {
    const double elements = static_cast<double>(storageRounded(q.ofm.shape, q.ofm.format).elements());
    return static_cast<int64_t>(std::ceil(outputCyclesPerElement(q) * elements));
  }
  return 0;
}

ElementAccess PerformanceModel::elementAccess(const LayerQuery& q) const {
  ElementAccess access;
  const BlockType type = blockTypeOf(q.op);
  if (type == BlockType::Dma) {
    return access;
  }
  const Shape3 ifmBlock = minShape(q.ifm.shape, q.block.ifmBlock);
  const Shape3 ofmBlock = minShape(q.ofm.shape, q.block.ofmBlock);
  if (isConvLike(type)) {
    // 1. OFM blocks; depthwise and pooling fetch every channel once per X/Y block.
    Shape3 blocks = blockCount(q.ofm.shape, ofmBlock);
    double blockDepth = ofmBlock.depth;
    const bool perChannel = type == BlockType::ConvolutionDepthWise || type == BlockType::Pooling;
    if (perChannel) {
      blocks.depth = 1;
      blockDepth = q.ifm.shape.depth;
    }
    // 2. IFM footprint per block (with halo) over the whole depth, once per sub-kernel.
    const uint32_t limit = subKernelLimit(type, system_.accelerator());
    const double subKernels = static_cast<double>(ceilDiv(q.kernel.width, limit) * ceilDiv(q.kernel.height, limit));
    const double blockCountTotal = static_cast<double>(blocks.elements());
    const Shape3 ifmBlockStored = storageRounded(ifmBlock, q.ifm.format);
    const double ifmFetch = static_cast<double>(uint64_t{ifmBlockStored.height} * ifmBlockStored.width) *
                            storageRounded(q.ifm.shape, q.ifm.format).depth;
    access.ifmRead[0] = ifmFetch * subKernels * blockCountTotal;
    // 3. Weights re-read per OFM block; scales once.
    if (type != BlockType::Pooling && type != BlockType::ReduceSum) {
      const double kernelRead =
          perChannel ? static_cast<double>(q.kernel.elements()) : static_cast<double>(q.kernel.elements()) * q.ifm.shape.depth;
      access.constRead[0] = kernelRead * blockDepth * blockCountTotal;
      access.constRead[1] = q.ofm.shape.depth;
    }
  } else {
    // Elementwise: reads follow the OFM (rounded with the IFM's storage quantum).
    const double ofmAsIfm = static_cast<double>(storageRounded(q.ofm.shape, q.ifm.format).elements());
    if (q.ifm.shape.elements() == 1) {
      if (q.ifm.bits > 8) {
        access.ifmRead[0] = static_cast<double>(storageRounded(q.ifm.shape, q.ifm.format).elements());
      }
      if (q.ifm2) {
        access.ifmRead[1] = ofmAsIfm;
      }
    } else {
      access.ifmRead[0] = ofmAsIfm;
      if (q.ifm2) {
        if (q.ifm2->shape.elements() > 1) {
          access.ifmRead[1] = ofmAsIfm;
        } else if (q.ifm2->bits > 8) {
          access.ifmRead[1] = static_cast<double>(storageRounded(q.ifm2->shape, q.ifm.format).elements());
        }
      }
    }
  }
  access.ofmWrite = static_cast<double>(storageRounded(q.ofm.shape, q.ofm.format).elements());
  return access;
}

double PerformanceModel::mem2mem(MemArea from, MemArea to, uint64_t bytes) const {
  const AreaTiming& src = system_.timing(from);
  const AreaTiming& dst = system_.timing(to);
  const double b = static_cast<double>(bytes);
  const double fromCycles = std::floor(b / src.bytesPerCycle) + src.readLatency;
  const double toCycles = std::floor(b / dst.bytesPerCycle);
  return std::max(fromCycles, toCycles);
}

} // namespace npusim::analytic
