// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/operation.h"

#include <algorithm>
#include <iterator>

namespace npusim::cmd {

std::string_view opKindName(OpKind kind) {
  switch (kind) {
  case OpKind::Conv: return "CONV";
  case OpKind::Depthwise: return "DEPTHWISE";
  case OpKind::Pool: return "POOL";
  case OpKind::Elementwise: return "ELEMENTWISE";
  case OpKind::Resize: return "RESIZE";
  case OpKind::DmaStart: return "DMA_START";
  case OpKind::DmaWait: return "DMA_WAIT";
  case OpKind::KernelWait: return "KERNEL_WAIT";
  case OpKind::Stop: return "STOP";
  case OpKind::Irq: return "IRQ";
  case OpKind::PmuMask: return "PMU_MASK";
  case OpKind::Branch: return "BRANCH";
  }
  return "?";
}

std::string_view poolModeName(PoolMode mode) {
  switch (mode) {
  case PoolMode::Max: return "MAX";
  case PoolMode::Average: return "AVERAGE";
  case PoolMode::ReduceSum: return "REDUCE_SUM";
  case PoolMode::Sum: return "SUM";
  case PoolMode::None: return "NONE";
  case PoolMode::Min: return "MIN";
  case PoolMode::ArgmaxX: return "ARGMAX_X";
  case PoolMode::ArgmaxY: return "ARGMAX_Y";
  }
  return "?";
}

std::string_view elementwiseModeName(ElementwiseMode mode) {
  switch (mode) {
  case ElementwiseMode::Mul: return "MUL";
  case ElementwiseMode::Add: return "ADD";
  case ElementwiseMode::Sub: return "SUB";
  case ElementwiseMode::Min: return "MIN";
  case ElementwiseMode::Max: return "MAX";
  case ElementwiseMode::LRelu: return "LRELU";
  case ElementwiseMode::Abs: return "ABS";
  case ElementwiseMode::Clz: return "CLZ";
  case ElementwiseMode::Shr: return "SHR";
  case ElementwiseMode::Shl: return "SHL";
  case ElementwiseMode::Lsr: return "LSR";
  case ElementwiseMode::Div: return "DIV";
  case ElementwiseMode::CmpEq: return "CMP_EQ";
  case ElementwiseMode::CmpNe: return "CMP_NE";
  case ElementwiseMode::CmpGe: return "CMP_GE";
  case ElementwiseMode::CmpGt: return "CMP_GT";
  case ElementwiseMode::And: return "AND";
  case ElementwiseMode::Or: return "OR";
  case ElementwiseMode::Xor: return "XOR";
  case ElementwiseMode::Not: return "NOT";
  case ElementwiseMode::AndNot: return "AND_NOT";
  }
  return "?";
}

std::string_view dataFormatName(DataFormat format) {
  switch (format) {
  case DataFormat::Nhwc: return "NHWC";
  case DataFormat::Nhcwb16: return "NHCWB16";
  }
  return "?";
}

std::string_view storageName(Storage storage) {
  switch (storage) {
  case Storage::Tile2x2: return "TILE2X2";
  case Storage::Chained: return "CHAINED";
  case Storage::None: return "NONE";
  }
  return "?";
}

std::string_view resizeModeName(ResizeMode mode) {
  switch (mode) {
  case ResizeMode::Bilinear: return "BILINEAR";
  case ResizeMode::Replicate: return "REPLICATE";
  case ResizeMode::Nearest: return "NEAREST";
  }
  return "?";
}

std::string_view transposeName(Transpose transpose) {
  switch (transpose) {
  case Transpose::Hwc: return "HWC";
  case Transpose::Whc: return "WHC";
  case Transpose::Hcw: return "HCW";
  case Transpose::Wch: return "WCH";
  case Transpose::Chw: return "CHW";
  case Transpose::Cwh: return "CWH";
  }
  return "?";
}

std::string_view reverseName(Reverse reverse) {
  switch (reverse) {
  case Reverse::None: return "NONE";
  case Reverse::H: return "H";
  case Reverse::W: return "W";
  case Reverse::C: return "C";
  }
  return "?";
}

std::string_view accFormatName(AccFormat format) {
  switch (format) {
  case AccFormat::Int32: return "INT32";
  case AccFormat::Int40: return "INT40";
  case AccFormat::Fp16: return "FP16";
  case AccFormat::Int48: return "INT48";
  }
  return "?";
}

std::string_view accInputName(AccInput input) {
  switch (input) {
  case AccInput::Reset: return "RESET";
  case AccInput::Keep: return "KEEP";
  case AccInput::Ifm2: return "IFM2";
  }
  return "?";
}

std::string_view weightFormatName(arch::WeightFormat format) {
  switch (format) {
  case arch::WeightFormat::Standard: return "SWD";
  case arch::WeightFormat::Fast: return "FWD";
  }
  return "?";
}

std::string streamLabel(std::string_view kind, size_t index, std::string_view owner) {
  static constexpr std::string_view kOrdinals[] = {"first", "second", "third", "fourth"};
  const std::string stream = std::string(kind) + " stream";
  if (index == 0) {
    return stream;
  }
  const std::string ordinal = index < std::size(kOrdinals) ? std::string(kOrdinals[index]) : std::to_string(index + 1) + "th";
  return ordinal + " " + std::string(owner) + "'s " + stream;
}

std::vector<SubKernelGroup> subKernelGroups(uint32_t width, uint32_t height, uint32_t limit) {
  // Along one axis: n / limit full pieces, then one piece of the remainder.
  struct Piece {
    uint32_t size;
    uint64_t count;
  };
  const auto pieces = [limit](uint32_t n) {
    std::vector<Piece> out;
    if (n / limit > 0) out.push_back({limit, n / limit});
    if (n % limit > 0) out.push_back({n % limit, 1});
    return out;
  };
  std::vector<SubKernelGroup> groups;
  for (const Piece& y : pieces(height)) {
    for (const Piece& x : pieces(width)) {
      groups.push_back({y.size * x.size, y.count * x.count});
    }
  }
  return groups;
}

uint64_t FeatureMap::address(uint32_t y, uint32_t x, uint32_t c) const {
  // 1. Pick the tile and make the coordinates tile-local.
  size_t tile = 0;
  if (x >= width0) {
    x -= width0;
    tile = 1;
    if (y >= height1) {
      y -= height1;
      tile = 3;
    }
  } else if (y >= height0) {
    y -= height0;
    tile = 2;
  }
  // 2. Apply the format's strides.
  const uint64_t e = elementBytes();
  switch (format) {
  case DataFormat::Nhwc:
    return base[tile] + y * strideY + x * strideX + c * e;
  case DataFormat::Nhcwb16:
    return base[tile] + y * strideY + (c / 16) * strideC + x * strideX + (c % 16) * e;
  }
  return base[tile];
}

ByteSpan FeatureMap::footprint() const {
  ByteSpan span{UINT64_MAX, 0};
  const uint32_t lastC = shape.depth - 1;
  auto cover = [&](uint32_t y0, uint32_t y1, uint32_t x0, uint32_t x1) {
    if (y0 >= y1 || x0 >= x1) {
      return;
    }
    span.begin = std::min(span.begin, address(y0, x0, 0));
    span.end = std::max(span.end, address(y1 - 1, x1 - 1, lastC) + elementBytes());
  };
  const uint32_t h = shape.height, w = shape.width;
  const uint32_t w0 = std::min(width0, w);
  cover(0, std::min(height0, h), 0, w0);
  cover(0, std::min(height1, h), w0, w);
  cover(std::min(height0, h), h, 0, w0);
  cover(std::min(height1, h), h, w0, w);
  if (span.begin == UINT64_MAX) {
    return ByteSpan{};
  }
  return span;
}

FeatureMap denseFeatureMap(uint8_t region, uint64_t base, Shape3 shape, DataFormat format) {
  FeatureMap fm;
  fm.region = region;
  fm.shape = shape;
  fm.base = {base, 0, 0, 0};
  fm.width0 = shape.width;
  fm.height0 = fm.height1 = shape.height;
  fm.format = format;
  switch (format) {
  case DataFormat::Nhcwb16:
    fm.strideX = 16;
    fm.strideY = uint64_t{shape.width} * ((shape.depth + 15) / 16 * 16);
    fm.strideC = 16ull * shape.width;
    break;
  case DataFormat::Nhwc:
    fm.strideC = 1;
    fm.strideX = shape.depth;
    fm.strideY = uint64_t{shape.width} * shape.depth;
    break;
  }
  return fm;
}

bool Operation::isBinaryElementwise() const {
  if (kind != OpKind::Elementwise) {
    return false;
  }
  switch (elementwiseMode) {
  case ElementwiseMode::LRelu: case ElementwiseMode::Abs: case ElementwiseMode::Clz: case ElementwiseMode::Not:
    return false;
  case ElementwiseMode::Mul: case ElementwiseMode::Add: case ElementwiseMode::Sub: case ElementwiseMode::Min:
  case ElementwiseMode::Max: case ElementwiseMode::Shr: case ElementwiseMode::Shl: case ElementwiseMode::Lsr:
  case ElementwiseMode::Div: case ElementwiseMode::CmpEq: case ElementwiseMode::CmpNe: case ElementwiseMode::CmpGe:
  case ElementwiseMode::CmpGt: case ElementwiseMode::And: case ElementwiseMode::Or: case ElementwiseMode::Xor:
  case ElementwiseMode::AndNot:
    return true;
  }
  return false;
}

bool Operation::hasIfm2() const {
  const bool used = isBinaryElementwise() || (kind == OpKind::Conv && weightsFromIfm2) ||
                    (isKernel(kind) && accInput == AccInput::Ifm2);
  return used && ifm2.storage != Storage::None;
}

uint64_t Operation::macs() const {
  const uint64_t taps = kernel.elements();
  switch (kind) {
  case OpKind::Conv: return taps * ifm.shape.depth * ofm.shape.elements();
  case OpKind::Depthwise: return taps * ofm.shape.elements();
  case OpKind::Pool:
    return poolMode == PoolMode::ReduceSum ? taps * ifm.shape.depth * ofm.shape.elements()
                                           : taps * ofm.shape.elements();
  case OpKind::Elementwise: case OpKind::Resize: case OpKind::DmaStart: case OpKind::DmaWait:
  case OpKind::KernelWait: case OpKind::Stop: case OpKind::Irq: case OpKind::PmuMask: case OpKind::Branch: return 0;
  }
  return 0;
}

} // namespace npusim::cmd
