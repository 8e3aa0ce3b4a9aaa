// SPDX-License-Identifier: Apache-2.0
#pragma once
// Decoded NPU operations: one snapshot of the (sticky) register file per NPU_OP_* command, in
// terms that do not depend on the architecture that encoded it (what differs between
// generations, such as the U55's SHRAM layout, is an optional part).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/arch/architecture.h"
#include "sim/common/shape.h"

namespace npusim::cmd {

// Resize and Branch are the U85's (ethos-u85.md 3.2, 3.4); so are the pooling modes after
// ReduceSum, the elementwise modes after Shl, the accumulator, rounding and storage values the
// U55 lacks: a U55/U65 stream never decodes to them.
enum class OpKind : uint8_t { Conv, Depthwise, Pool, Elementwise, Resize, DmaStart, DmaWait, KernelWait, Stop, Irq,
                              PmuMask, Branch };
enum class PoolMode : uint8_t { Max, Average, ReduceSum, Sum, None, Min, ArgmaxX, ArgmaxY };
enum class ElementwiseMode : uint8_t { Mul, Add, Sub, Min, Max, LRelu, Abs, Clz, Shr, Shl, Lsr, Div, CmpEq, CmpNe,
                                       CmpGe, CmpGt, And, Or, Xor, Not, AndNot };
enum class DataFormat : uint8_t { Nhwc, Nhcwb16 };
enum class Upscale : uint8_t { None, Nearest, Zeros };
// Tfl is double rounding, symmetric (the U85's DOUBLE_SYMMETRIC).
enum class RoundMode : uint8_t { Tfl, Truncate, Natural, DoubleAsymmetric, Symmetric, TruncateToZero, TruncateToLower };
enum class AccFormat : uint8_t { Int32, Int40, Fp16, Int48 };
// Where the accumulators start: reset, kept from the previous operation, or read from IFM2 (U85).
enum class AccInput : uint8_t { Reset, Keep, Ifm2 };
enum class ActivationFunction : uint8_t { Clamp, Tanh, Sigmoid, Lut };
enum class ResizeMode : uint8_t { Bilinear, Replicate, Nearest };
// The U85's fused OFM transposition (axis order written) and reversal (ethos-u85.md 3.3).
enum class Transpose : uint8_t { Hwc, Whc, Hcw, Wch, Chw, Cwh };
enum class Reverse : uint8_t { None, H, W, C };

// Where a feature map lives: in memory as up to four tiles at region offsets, in one of the
// NPU's chaining buffers (the U85's CHAINED storage: `region` holds the buffer's index), or
// nowhere (an input that is a scalar operand; an OFM that is not written).
enum class Storage : uint8_t { Tile2x2, Chained, None };
// Whether a feature map is in memory (only then do its region, bases and strides mean anything).
inline bool inMemory(Storage storage) { return storage == Storage::Tile2x2; }

// Axes along which an input is broadcast: its extent 1 stretched to the OFM's.
struct BroadcastAxes {
  bool height = false, width = false, depth = false;
};

std::string_view opKindName(OpKind kind);
std::string_view poolModeName(PoolMode mode);
std::string_view elementwiseModeName(ElementwiseMode mode);
std::string_view dataFormatName(DataFormat format);
std::string_view storageName(Storage storage);
std::string_view resizeModeName(ResizeMode mode);
std::string_view transposeName(Transpose transpose);
std::string_view reverseName(Reverse reverse);
std::string_view accFormatName(AccFormat format);
std::string_view accInputName(AccInput input);
std::string_view weightFormatName(arch::WeightFormat format);

// True for the operations that run on the MAC/elementwise datapath ("kernels").
inline bool isKernel(OpKind kind) {
  switch (kind) {
  case OpKind::Conv: case OpKind::Depthwise: case OpKind::Pool: case OpKind::Elementwise: case OpKind::Resize:
    return true;
  case OpKind::DmaStart: case OpKind::DmaWait: case OpKind::KernelWait: case OpKind::Stop:
  case OpKind::Irq: case OpKind::PmuMask: case OpKind::Branch: return false;
  }
  return false;
}

// Half-open byte range [begin, end) inside a memory region.
struct ByteSpan {
  uint64_t begin = 0, end = 0;
  uint64_t size() const { return end - begin; }
  bool empty() const { return end <= begin; }
};

// A feature map as the NPU addresses it: region, up to 4 tiles, strides and element type.
struct FeatureMap {
  uint8_t region = 0;                 // memory region (Tile2x2), chaining buffer (Chained)
  Storage storage = Storage::Tile2x2;
  BroadcastAxes broadcast;            // inputs only
  Shape3 shape;                       // extent the operation reads or writes
  std::array<uint64_t, 4> base{};     // tile base offsets
  uint32_t width0 = 1, height0 = 1, height1 = 1; // tile split (WIDTH0, HEIGHT0, HEIGHT1)
  uint64_t strideX = 0, strideY = 0, strideC = 0;
  DataFormat format = DataFormat::Nhwc;
  uint8_t elementBits = 8;            // 8, 16, 32 or (U85) 64
  bool isSigned = true;
  int32_t zeroPoint = 0;
  uint32_t elementBytes() const { return elementBits / 8u; }
  // Byte address (region offset) of element (y, x, c) following the tile rules.
  uint64_t address(uint32_t y, uint32_t x, uint32_t c) const;
  // Smallest byte range covering every element of `shape` (all tiles).
  ByteSpan footprint() const;
};

// A single-tile feature map at `base` with the strides Vela uses for `format` (int8 unless the
// caller changes the element type).
FeatureMap denseFeatureMap(uint8_t region, uint64_t base, Shape3 shape, DataFormat format);

struct Kernel {
  uint32_t width = 1, height = 1;     // undilated kernel size
  uint32_t strideX = 1, strideY = 1;
  uint32_t dilationX = 1, dilationY = 1;
  bool partKernelFirst = false;       // weight order / traversal
  uint32_t dilatedWidth() const { return dilationX * (width - 1) + 1; }
  uint32_t dilatedHeight() const { return dilationY * (height - 1) + 1; }
  uint64_t elements() const { return uint64_t{width} * height; }
};

// Sub-kernels of the same size: the MAC array runs a kernel larger than limit x limit taps as
// sub-kernels of at most limit x limit, so a kernel has at most four distinct sizes.
struct SubKernelGroup {
  uint32_t elements = 0;   // taps of each sub-kernel
  uint64_t count = 0;      // how many of them
};
// The groups of a width x height kernel split into limit x limit sub-kernels, row-major from
// the full-size group; O(1) for any kernel size.
std::vector<SubKernelGroup> subKernelGroups(uint32_t width, uint32_t height, uint32_t limit);

struct Padding {
  uint32_t top = 0, left = 0, bottom = 0, right = 0;
};

// A weight or scale stream: region, offset, length.
struct Stream {
  uint8_t region = 0;
  uint64_t base = 0;
  uint64_t length = 0;
};

// The output unit's activation: a clamp to [min, max], or a function (tanh, sigmoid, a LUT).
struct Activation {
  ActivationFunction function = ActivationFunction::Clamp;
  uint8_t lutSlot = 0;                // Lut (U85 also Tanh, Sigmoid): the table's slot
  uint16_t lutBytes = 0;              // U85: the table's size in the LUT RAM, at lutSlot x lutBytes
  uint8_t clipRange = 0;              // as the architecture encodes it (U85: 0 clip to 16 bits, 1 none)
  int32_t min = 0, max = 0;
  uint8_t code = 0;                   // decoded: the function field as the architecture encodes it
  static Activation clamp(int32_t lo, int32_t hi) {
    Activation a;
    a.min = lo;
    a.max = hi;
    return a;
  }
  bool usesLut() const { return function == ActivationFunction::Lut; }
  bool isTanhOrSigmoid() const { return function == ActivationFunction::Tanh || function == ActivationFunction::Sigmoid; }
};

// The SHRAM layout of architectures that keep their buffers in SHRAM (U55, U65), in 1 KiB
// banks: IB_END, AB_START, IFM2_IB_START.
struct ShramLayout {
  uint32_t ibEnd = 0, abStart = 0, ifm2IbStart = 0;
};

struct Scaling {
  uint32_t ofmScale = 0;  uint8_t ofmShift = 0;
  uint32_t opaScale = 0;  uint8_t opaShift = 0;
  uint32_t opbScale = 0;  uint8_t opbShift = 0;   // opbShift: U85 (IFM2_SCALE)
  bool perChannel = true;             // OFM_PRECISION[8] = 0: scale stream
  RoundMode roundMode = RoundMode::Tfl;           // the OFM's
  uint8_t ifmScaleMode = 0;           // IFM_PRECISION[9:8] (U55/U65)
  // U85: the double-rounding shift of each scale, and the operands' rounding (Tfl or Natural).
  uint8_t ofmDoubleRound = 0, opaDoubleRound = 0, opbDoubleRound = 0;
  RoundMode opaRoundMode = RoundMode::Tfl, opbRoundMode = RoundMode::Tfl;
};

// A DMA: a 1-D copy of `length` bytes, or rows of `length` bytes in 2 or 3 dimensions with byte
// strides per side (the U85), optionally gathered or scattered through an index list.
struct DmaTransfer {
  uint8_t srcRegion = 0, dstRegion = 0;
  bool srcInternal = false, dstInternal = false; // internal = the NPU's buffers (SHRAM, the U85's LUT RAM)
  uint64_t src = 0, dst = 0;
  uint64_t length = 0;                           // bytes of one row: all of a 1-D transfer
  uint8_t dimensions = 1;                        // 1, 2 or 3
  std::array<uint32_t, 2> sizes{1, 1};           // rows of the 2nd and 3rd dimension
  std::array<uint64_t, 2> srcStrides{}, dstStrides{}; // byte strides of the 2nd and 3rd dimension
  bool srcIndexed = false, dstIndexed = false;   // gather (source rows) / scatter (destination rows)
  uint8_t indexRegion = 0;
  uint64_t index = 0;                            // the index list's offset in indexRegion
  uint32_t indexMax = 0;                         // largest valid index
  uint64_t indexSkip = 0;                        // byte stride of the index list's 3rd dimension
};

// A RESIZE's parameters per axis (the U85's RESIZE_*): scale numerator, offset, and the
// integer and fractional steps per output element and per block.
struct ResizeAxis {
  uint32_t scaleNumerator = 1;
  int32_t offset = 0;
  uint32_t stepInt = 0, stepMod = 0, blockStepInt = 0, blockStepMod = 0;
};
struct Resize {
  ResizeMode mode = ResizeMode::Bilinear;
  ResizeAxis x, y;
};

// A BRANCH (U85): always, or when the condition flag is set (RF_TRUE), to the command at byte
// `target` of the stream (a command boundary: decoders check it), command index `targetCommand`.
struct Branch {
  bool conditional = false;
  uint32_t target = 0;
  uint32_t targetCommand = 0;
};

// Up to this many weight streams per operation: one per core (U65-512) or weight decoder (U85).
constexpr size_t kMaxWeightStreams = 4;
// How messages name stream `index` of a kind ("weight", "scale") whose streams each feed one
// `owner` (Architecture::weightStreamOwner): "weight stream", "second core's weight stream", ...
std::string streamLabel(std::string_view kind, size_t index, std::string_view owner);

// One NPU operation with every field it uses; fields irrelevant to `kind` keep their
// (stale) register values and must not be interpreted.
struct Operation {
  OpKind kind = OpKind::Stop;
  uint32_t commandIndex = 0;          // index of the NPU_OP_* command in the stream
  uint32_t byteOffset = 0;            // byte offset of that command in the stream
  uint32_t param = 0;                 // raw param of the NPU_OP_* command

  PoolMode poolMode = PoolMode::Max;
  ElementwiseMode elementwiseMode = ElementwiseMode::Add;
  FeatureMap ifm, ifm2, ofm;
  Kernel kernel;
  Padding padding;
  Upscale upscale = Upscale::None;
  Shape3 ofmBlock;
  Shape3 ublock;                      // the OFM micro-block it runs (U85: chosen by ACC_FORMAT)
  AccFormat accFormat = AccFormat::Int32;
  AccInput accInput = AccInput::Reset;
  bool ofmWritten = true;             // U85 ACC_FORMAT [6]: the accumulators are not written out when false
  std::optional<ShramLayout> shram;   // architectures with a SHRAM (Architecture::buffers)
  Transpose ofmTranspose = Transpose::Hwc;
  Reverse ofmReverse = Reverse::None;
  bool weightsFromIfm2 = false;       // U85 CONV [0]: the weights are IFM2 (MatMul), no weight stream
  uint32_t blockDep = 0;
  // Weight streams [0, weightStreamCount) and bias/scale streams [0, scaleStreamCount): one per
  // core sharing the OFM channels (U65-512: NPU_SET_PARALLEL_MODE 1), or per weight decoder.
  std::array<Stream, kMaxWeightStreams> weights{}, scales{};
  uint8_t weightStreamCount = 1, scaleStreamCount = 1;
  arch::WeightFormat weightFormat = arch::WeightFormat::Standard;
  bool sparse = false;                // 2:4 sparse weights (U85)
  Activation activation;
  Scaling scaling;
  int32_t scalar = 0;                 // the value of an input whose storage is None (a scalar operand)
  bool operandsSwapped = false;       // binary elementwise: IFM2 is the first operand (U55 IFM2_BROADCAST[6])
  Resize resize;
  Branch branch;
  DmaTransfer dma;
  uint32_t waitCount = 0;             // DMA_WAIT / KERNEL_WAIT: outstanding ops allowed
  uint32_t irqMask = 0;               // STOP / IRQ

  // A tensor (not scalar) IFM2: the second operand of a binary elementwise operation, or (U85)
  // a convolution's weights or the accumulators' input.
  bool hasIfm2() const;
  bool isBinaryElementwise() const;   // elementwise with any second operand
  uint64_t macs() const;              // multiply-accumulates the operation performs
};

} // namespace npusim::cmd
