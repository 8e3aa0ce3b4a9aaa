// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/layer_builder.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>

#include "sim/cmdstream/weight_source.h"
#include "sim/common/error.h"
#include "sim/common/int_math.h"

namespace npusim::analytic {

namespace {

// Index of the most recent DMA into SHRAM (a LUT load) before `before`.
std::optional<size_t> latestShramDma(const std::vector<cmd::Operation>& ops, size_t before) {
  for (size_t i = before; i-- > 0;) {
    if (ops[i].kind == cmd::OpKind::DmaStart && ops[i].dma.dstInternal) {
      return i;
    }
  }
  return std::nullopt;
}

LayerOp layerOpOf(const cmd::Operation& op, const std::string& nngOperator) {
  switch (op.kind) {
  case cmd::OpKind::Conv: {
    if (!nngOperator.empty()) {
      return nngOperator == "FullyConnected" ? LayerOp::FullyConnected : LayerOp::Conv2D;
    }
    const bool pointOnly = op.kernel.elements() == 1 && op.ifm.shape.height == 1 && op.ifm.shape.width == 1 &&
                           op.ofm.shape.height == 1 && op.ofm.shape.width == 1;
    return pointOnly ? LayerOp::FullyConnected : LayerOp::Conv2D;
  }
  case cmd::OpKind::Depthwise: return LayerOp::Depthwise;
  case cmd::OpKind::Pool:
    switch (op.poolMode) {
    case cmd::PoolMode::Max: return LayerOp::MaxPool;
    case cmd::PoolMode::Average: return LayerOp::AvgPool;
    case cmd::PoolMode::ReduceSum: return LayerOp::ReduceSum;
    case cmd::PoolMode::Sum: case cmd::PoolMode::None: case cmd::PoolMode::Min: case cmd::PoolMode::ArgmaxX:
    case cmd::PoolMode::ArgmaxY:
      throw std::logic_error("an Ethos-U85 pooling mode in an estimated stream");
    }
    return LayerOp::AvgPool;
  case cmd::OpKind::Elementwise:
    switch (op.elementwiseMode) {
    case cmd::ElementwiseMode::Mul: return LayerOp::Mul;
    case cmd::ElementwiseMode::Add: return LayerOp::Add;
    case cmd::ElementwiseMode::Sub: return LayerOp::Sub;
    case cmd::ElementwiseMode::Min: return LayerOp::Minimum;
    case cmd::ElementwiseMode::Max: return LayerOp::Maximum;
    case cmd::ElementwiseMode::LRelu: return LayerOp::LeakyRelu;
    case cmd::ElementwiseMode::Abs: return LayerOp::Abs;
    case cmd::ElementwiseMode::Clz: return LayerOp::Clz;
    case cmd::ElementwiseMode::Shr: return LayerOp::Shr;
    case cmd::ElementwiseMode::Shl: return LayerOp::Shl;
    case cmd::ElementwiseMode::Lsr: case cmd::ElementwiseMode::Div: case cmd::ElementwiseMode::CmpEq:
    case cmd::ElementwiseMode::CmpNe: case cmd::ElementwiseMode::CmpGe: case cmd::ElementwiseMode::CmpGt:
    case cmd::ElementwiseMode::And: case cmd::ElementwiseMode::Or: case cmd::ElementwiseMode::Xor:
    case cmd::ElementwiseMode::Not: case cmd::ElementwiseMode::AndNot:
      throw std::logic_error("an Ethos-U85 elementwise mode in an estimated stream");
    }
    return LayerOp::Add;
  case cmd::OpKind::Resize: case cmd::OpKind::Branch:
    throw std::logic_error("an Ethos-U85 operation in an estimated stream");
  case cmd::OpKind::DmaStart: case cmd::OpKind::DmaWait: case cmd::OpKind::KernelWait: case cmd::OpKind::Stop:
  case cmd::OpKind::Irq: case cmd::OpKind::PmuMask:
    break;
  }
  return LayerOp::Memcpy;
}

// Vela's activation class from the ACTIVATION registers. A ReLU whose clamp equals the OFM
// type's range is indistinguishable from "no activation"; it only matters for MaxPool.
ActivationClass activationOf(const cmd::Operation& op) {
  if (op.activation.usesLut() || op.activation.isTanhOrSigmoid()) {
    return ActivationClass::Lut;
  }
  const uint32_t bits = std::min<uint32_t>(op.ofm.elementBits, 16);
  const int32_t typeMin = op.ofm.isSigned ? -(1 << (bits - 1)) : 0;
  const int32_t typeMax = op.ofm.isSigned ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
  const bool clamps = op.activation.min > typeMin || op.activation.max < std::min(typeMax, 32767);
  return clamps ? ActivationClass::Relu : ActivationClass::None;
}

FeatureMapInfo mapInfo(const cmd::FeatureMap& fm, const Shape3& shape, const VelaSystem& system) {
  return {shape, fm.format, fm.elementBits, system.regionArea(fm.region)};
}

// Vela's _choose_kernel_method: part-kernel-first when it uses the MAC array better.
bool choosePartKernel(uint32_t ifmDepth, uint32_t bits, const KernelInfo& kernel) {
  if (ifmDepth <= 8) {
    return true;
  }
  const auto k = static_cast<double>(kernel.elements());
  const double depthUtil = ifmDepth / static_cast<double>(roundUp(ifmDepth, bits == 8 ? 32u : 16u));
  const double kernelQuantum = bits == 8 ? 4 : 2;
  const double partUtil =
      ifmDepth * k / (static_cast<double>(roundUp(ifmDepth, 8u)) * std::ceil(k / kernelQuantum) * kernelQuantum);
  return partUtil > depthUtil;
}

// IFM block implied by an OFM block (Vela's _get_ifm_blocksize and _ifm_blockdepth).
BlockConfig blockConfigOf(const cmd::Operation& op, const LayerQuery& q, const VelaSystem& system) {
  BlockConfig b;
  b.ofmBlock = op.ofmBlock;
  b.acc40 = op.accFormat == cmd::AccFormat::Int40;
  const BlockType type = blockTypeOf(q.op);
  const bool convolution = type == BlockType::ConvolutionMxN || type == BlockType::ConvolutionDepthWise;
  b.partKernel = convolution && choosePartKernel(q.ifm.shape.depth, q.ifm.bits, q.kernel);
  const cmd::Upscale upscale = type != BlockType::ElementWise ? op.upscale : cmd::Upscale::None;
  const arch::NpuConfig& npu = system.accelerator();
  b.ifmBlock.height =
      npu::ifmBlockSide(npu, b.ofmBlock.height, q.kernel.strideY, q.kernel.areaHeight(), upscale, npu.ofmUblock.height);
  b.ifmBlock.width =
      npu::ifmBlockSide(npu, b.ofmBlock.width, q.kernel.strideX, q.kernel.areaWidth(), upscale, npu.ofmUblock.width);
  const bool equalDepth = type == BlockType::ElementWise || type == BlockType::Pooling ||
                          type == BlockType::ConvolutionDepthWise;
  if (equalDepth) {
    b.ifmBlock.depth = b.ofmBlock.depth;
  } else {
    // Vela's block-config search (_ifm_blockdepth) sizes a 32-bit IFM's block like an 8-bit one,
    // unlike the SHRAM rule the hardware follows (arch calc_ifm_block_depth, 8 channels); its
    // estimates (a SOFTMAX's 32-bit REDUCE_SUM in kws_ref_model) follow the search.
    b.ifmBlock.depth = npu::ifmBlockDepth(q.ifm.shape.depth, q.ifm.bits == 32 ? 8 : q.ifm.bits, b.partKernel);
  }
  return b;
}

// Which side of an operation a feature map is.
enum class Side : uint8_t { Ifm, Ifm2 };

const cmd::FeatureMap& sideOf(const cmd::Operation& op, Side side) {
  switch (side) {
  case Side::Ifm: return op.ifm;
  case Side::Ifm2: return op.ifm2;
  }
  return op.ifm;
}

// Full shape of an input: the producing layer's OFM when an earlier layer wrote the same
// tensor (same base, row pitch and depth; the NPU's IFM box may be clipped), else the extent
// the row's stripes read.
Shape3 fullInputShape(const std::vector<cmd::Operation>& ops, const RowSpec& row,
                           const std::vector<Layer>& earlier, Side side, Shape3 shape, uint32_t stripes) {
  const cmd::FeatureMap& fm = sideOf(ops[row.operations.front()], side);
  for (auto it = earlier.rbegin(); it != earlier.rend(); ++it) {
    if (it->operations.empty() || it->operations.front() >= row.operations.front()) {
      continue;
    }
    const cmd::FeatureMap& out = ops[it->operations.front()].ofm;
    if (out.region == fm.region && out.base[0] == fm.base[0]) {
      const Shape3& produced = it->query.ofm.shape;
      // The last write at this address is the tensor read. The box read may be smaller (a
      // clipped strided read) or larger: an IFM whose edge rows or columns are replicated
      // through its tiles (the TILE padding of a bilinear resize) reads them twice.
      const bool sameTensor = out.strideY == fm.strideY && produced.depth == shape.depth;
      return sameTensor ? produced : shape;
    }
  }
  if (stripes > 1 && fm.strideY > 0) {
    uint64_t lowest = fm.base[0];
    uint64_t end = 0;
    for (size_t index : row.operations) {
      const cmd::FeatureMap& part = sideOf(ops[index], side);
      lowest = std::min(lowest, part.base[0]);
      end = std::max(end, part.base[0] + uint64_t{part.shape.height} * part.strideY);
    }
    shape.height = static_cast<uint32_t>((end - lowest) / fm.strideY);
  }
  return shape;
}

// Weight streams of a row: buffered when a DMA fed them, double-buffered when the slices go
// to two destinations alternately.
WeightStreams weightStreams(const std::vector<cmd::Operation>& ops, const SliceMap& map, const LayerQuery& q,
                            uint32_t stripes, const VelaSystem& system) {
  WeightStreams w;
  const std::vector<Slice>& slices = map.slices;
  w.depthSlices = static_cast<uint32_t>(slices.size());
  w.lastSliceDepth = slices.back().depth;
  w.firstTransferBytes = slices.front().bytes;
  w.cascaded = stripes > 1;
  for (const Slice& s : slices) {
    w.encodedBytes += s.bytes;
  }
  const bool depthwise = blockTypeOf(q.op) == BlockType::ConvolutionDepthWise;
  w.originalElements = uint64_t{q.kernel.elements()} * (depthwise ? 1 : q.ifm.shape.depth) * q.ofm.shape.depth;
  if (slices.front().dma) {
    const cmd::DmaTransfer& d = ops[*slices.front().dma].dma;
    std::set<uint64_t> destinations;
    for (const Slice& s : slices) {
      destinations.insert(s.dma ? ops[*s.dma].dma.dst : 0);
    }
    w.buffering = destinations.size() > 1 ? WeightBuffering::DoubleBuffer : WeightBuffering::SingleBuffer;
    for (const Slice& s : slices) {
      if (!s.dma) continue;
      const cmd::DmaTransfer& sd = ops[*s.dma].dma;
      auto it = std::find_if(w.buffers.begin(), w.buffers.end(),
                             [&](const WeightStreams::Buffer& b) { return b.address == sd.dst; });
      if (it == w.buffers.end()) it = w.buffers.insert(w.buffers.end(), {sd.dstRegion, sd.dst, 0});
      it->bytes = std::max(it->bytes, sd.length);
      w.lastBuffer = static_cast<size_t>(it - w.buffers.begin());
    }
    w.sourceArea = system.regionArea(d.srcRegion);
    w.bufferArea = system.regionArea(d.dstRegion);
  } else {
    w.buffering = WeightBuffering::Unbuffered;
    w.sourceArea = system.regionArea(slices.front().key.first);
  }
  return w;
}

} // namespace

std::string_view weightBufferingName(WeightBuffering buffering) {
  switch (buffering) {
  case WeightBuffering::None: return "none";
  case WeightBuffering::Unbuffered: return "unbuffered";
  case WeightBuffering::SingleBuffer: return "single";
  case WeightBuffering::DoubleBuffer: return "double";
  }
  return "?";
}

std::vector<RowSpec> LayerBuilder::oneRowPerKernel(const std::vector<cmd::Operation>& ops) {
  std::vector<RowSpec> rows;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (cmd::isKernel(ops[i].kind)) {
      RowSpec row;
      row.operations = {i};
      rows.push_back(row);
    }
  }
  return rows;
}

std::vector<Layer> LayerBuilder::build(const std::vector<cmd::Operation>& ops, const std::vector<RowSpec>& rows) const {
  std::vector<Layer> layers;
  layers.reserve(rows.size());
  for (const RowSpec& row : rows) {
    for (size_t index : row.operations) {
      if (index >= ops.size() || !cmd::isKernel(ops[index].kind)) {
        throwForKey("<rows>", "operations", "row '" + row.nngOperator + "' names operation " + std::to_string(index) +
                                                ", which is not a kernel operation of the stream");
      }
    }
    if (!row.memcpy && row.operations.empty()) {
      throwForKey("<rows>", "operations", "row '" + row.nngOperator + "' has no kernel operation");
    }
    layers.push_back(buildLayer(ops, row, layers));
  }
  return layers;
}

Layer LayerBuilder::buildLayer(const std::vector<cmd::Operation>& ops, const RowSpec& row,
                               const std::vector<Layer>& earlier) const {
  Layer layer;
  layer.operations = row.operations;
  for (size_t index : row.operations) {
    layer.byteOffsets.push_back(ops[index].byteOffset);
  }
  layer.tfliteOperator = row.tfliteOperator;
  layer.name = row.name;
  layer.sourceId = row.sourceId;
  layer.ofmTensorShape = row.ofmTensorShape;
  if (row.memcpy) {
    layer.query.op = LayerOp::Memcpy;
    layer.nngOperator = row.nngOperator.empty() ? std::string(layerOpName(LayerOp::Memcpy)) : row.nngOperator;
    layer.dma = row.dma;
    if (row.dma) {
      const cmd::DmaTransfer& d = ops[*row.dma].dma;
      layer.copy = FeatureMapCopy{system_.regionArea(d.srcRegion), system_.regionArea(d.dstRegion), d.length};
    }
    return layer;
  }
  const cmd::Operation& first = ops[row.operations.front()];
  LayerQuery& q = layer.query;
  q.op = layerOpOf(first, row.nngOperator);
  layer.nngOperator = row.nngOperator.empty() ? std::string(layerOpName(q.op)) : row.nngOperator;
  const BlockType type = blockTypeOf(q.op);

  // 1. Depth slices (distinct encoded weight slices) and the DMAs that buffered them.
  const SliceMap slices = collectSlices(ops, row.operations);

  // 2. Full OFM: height stripes stack up, depth slices side by side.
  uint32_t stripes = 0;
  Shape3 ofmShape{0, first.ofm.shape.width, first.ofm.shape.depth};
  for (size_t i = 0; i < row.operations.size(); ++i) {
    if (slices.sliceOfOp[i] == 0) {
      ofmShape.height += ops[row.operations[i]].ofm.shape.height;
      ++stripes;
    }
  }
  if (!slices.slices.empty()) {
    ofmShape.depth = 0;
    for (const Slice& s : slices.slices) {
      ofmShape.depth += s.depth;
    }
  }

  // 3. Feature maps with full shapes (depth slices of a depthwise op read only their own
  //    channels), in Vela's primary/secondary operand order for binary elementwise ops.
  Shape3 ifmBox = first.ifm.shape;
  if (type == BlockType::ConvolutionDepthWise) {
    ifmBox.depth = ofmShape.depth;
  }
  q.ofm = mapInfo(first.ofm, ofmShape, system_);
  q.ifm = mapInfo(first.ifm, fullInputShape(ops, row, earlier, Side::Ifm, ifmBox, stripes), system_);
  if (first.isBinaryElementwise()) {
    const bool scalar = !first.hasIfm2();
    FeatureMapInfo second =
        scalar ? FeatureMapInfo{{1, 1, 1}, cmd::DataFormat::Nhwc, first.ifm2.elementBits, system_.constArea()}
               : mapInfo(first.ifm2, fullInputShape(ops, row, earlier, Side::Ifm2, first.ifm2.shape, stripes), system_);
    if (first.operandsSwapped) {
      // The stream's IFM2 is the TFLite op's first input. Vela's scheduler made the other one
      // primary only if the first input is constant/scalar and the other is a full feature map.
      const bool firstConst = scalar || first.ifm2.region == arch::kConstantRegion;
      const bool otherFull = first.ifm.region != arch::kConstantRegion && q.ifm.shape == q.ofm.shape;
      if (!(firstConst && otherFull)) {
        std::swap(q.ifm, second);
      }
    }
    q.ifm2 = second;
  }

  // 4. Kernel (elementwise ops leave stale kernel registers), activation, block config.
  if (type != BlockType::ElementWise) {
    q.kernel = {first.kernel.width,   first.kernel.height,    first.kernel.strideX,
                first.kernel.strideY, first.kernel.dilationX, first.kernel.dilationY};
  }
  q.activation = activationOf(first);
  q.block = blockConfigOf(first, q, system_);
  q.hasBias = type == BlockType::ConvolutionMxN || type == BlockType::VectorProduct ||
              type == BlockType::ConvolutionDepthWise;

  // 5. Weight streams; the NPU reads scales from the buffer when buffered.
  if (!slices.slices.empty()) {
    layer.weights = weightStreams(ops, slices, q, stripes, system_);
    if (constants_ != nullptr && slices.slices.size() > 1) {
      layer.weights.onePieceBytes =
          onePieceBytes(slices.slices, first, q.ifm.shape.depth, q.ofm.shape.depth, q.block.ifmBlock.depth,
                        type == BlockType::ConvolutionDepthWise, system_.accelerator(), *constants_,
                        cmd::WeightEncoder::Vela310);
    }
    q.constArea = layer.weights.buffering == WeightBuffering::Unbuffered ? layer.weights.sourceArea
                                                                           : layer.weights.bufferArea;
  }


  // 6. LUT copied into SHRAM for this operation (charged even when Vela dropped a repeated DMA).
  if (first.activation.usesLut()) {
    if (auto dma = latestShramDma(ops, row.operations.front())) {
      layer.lut = LutLoad{system_.regionArea(ops[*dma].dma.srcRegion), ops[*dma].dma.length};
    }
  }
  return layer;
}

} // namespace npusim::analytic
