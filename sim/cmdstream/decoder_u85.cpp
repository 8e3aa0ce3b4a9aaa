// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/decoder_u85.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <string>

#include "sim/cmdstream/decoder_common.h"

namespace npusim::cmd {
namespace {

using Id = arch::CommandId;
using detail::checkSpan;
using detail::signed16;
using detail::Snapshot;

// ACC_FORMAT [10:8]: the micro-block's height x width (ethos-u85.md 3.3); 6 and 7 are reserved.
constexpr std::array<std::pair<uint32_t, uint32_t>, 6> kMicroblocks{{{1, 1}, {1, 2}, {1, 4}, {2, 2}, {2, 4}, {4, 4}}};

// OFM_PRECISION [13:11]: the transposition, or none for the reserved values 4 and 5.
std::optional<Transpose> transposeOf(uint32_t code) {
  switch (code) {
  case 0: return Transpose::Hwc;
  case 1: return Transpose::Whc;
  case 2: return Transpose::Hcw;
  case 3: return Transpose::Wch;
  case 6: return Transpose::Chw;
  case 7: return Transpose::Cwh;
  default: return std::nullopt;
  }
}

// The shape an OFM of `shape` (H, W, C before transposition) has in memory after `t`.
Shape3 transposed(const Shape3& shape, Transpose t) {
  const uint32_t h = shape.height, w = shape.width, c = shape.depth;
  switch (t) {
  case Transpose::Hwc: return {h, w, c};
  case Transpose::Whc: return {w, h, c};
  case Transpose::Hcw: return {h, c, w};
  case Transpose::Wch: return {w, c, h};
  case Transpose::Chw: return {c, h, w};
  case Transpose::Cwh: return {c, w, h};
  }
  return shape;
}

// ELEMENTWISE [5:0]: the defined modes (ethos-u85.md 3.2).
std::optional<ElementwiseMode> elementwiseModeOf(uint32_t code) {
  static constexpr std::pair<uint32_t, ElementwiseMode> kModes[] = {
      {0, ElementwiseMode::Mul},    {1, ElementwiseMode::Add},    {2, ElementwiseMode::Sub},
      {3, ElementwiseMode::Min},    {4, ElementwiseMode::Max},    {5, ElementwiseMode::LRelu},
      {6, ElementwiseMode::Abs},    {7, ElementwiseMode::Clz},    {8, ElementwiseMode::Shr},
      {9, ElementwiseMode::Shl},    {10, ElementwiseMode::Lsr},   {11, ElementwiseMode::Div},
      {16, ElementwiseMode::CmpEq}, {17, ElementwiseMode::CmpNe}, {18, ElementwiseMode::CmpGe},
      {19, ElementwiseMode::CmpGt}, {33, ElementwiseMode::And},   {34, ElementwiseMode::Or},
      {35, ElementwiseMode::Xor},   {36, ElementwiseMode::Not},   {42, ElementwiseMode::AndNot}};
  for (const auto& [c, mode] : kModes) {
    if (c == code) return mode;
  }
  return std::nullopt;
}

// ACTIVATION [4:0]: the function and its table's size in the LUT RAM (Vela's table sizes per
// input and output type); none for a reserved code.
struct ActivationCode {
  ActivationFunction function;
  uint16_t lutBytes;
};
std::optional<ActivationCode> activationOf(uint32_t code) {
  switch (code) {
  case 0: return ActivationCode{ActivationFunction::Clamp, 0};
  case 1: case 4: return ActivationCode{ActivationFunction::Lut, 256};   // u8 -> u8, s8 -> s8
  case 5: return ActivationCode{ActivationFunction::Lut, 512};           // s8 -> s16
  case 7: return ActivationCode{ActivationFunction::Lut, 1024};          // s8 -> s32
  case 8: case 9: return ActivationCode{ActivationFunction::Lut, 2048};  // s16 -> s16, s16 -> s32
  case 10: return ActivationCode{ActivationFunction::Tanh, 2048};
  case 11: return ActivationCode{ActivationFunction::Sigmoid, 2048};
  default: return std::nullopt;
  }
}

// The parameter bits an operation command defines; the others are reserved.
uint32_t operationParamMask(OpKind kind) {
  switch (kind) {
  case OpKind::Stop: case OpKind::Irq: return 0xFFFF;   // IRQ mask
  case OpKind::Conv: return 0x1;                        // weights from IFM2
  case OpKind::Pool: return 0x7;
  case OpKind::Elementwise: return 0x3F;
  case OpKind::Resize: return 0x3;
  case OpKind::DmaWait: return 0x3;
  case OpKind::KernelWait: case OpKind::PmuMask: case OpKind::Branch: return 0x1;
  case OpKind::Depthwise: case OpKind::DmaStart: return 0;
  }
  return 0;
}

// Sign-extends the low `bits` bits of `v`.
int32_t signExtend(uint32_t v, int bits) {
  const uint32_t m = 1u << (bits - 1);
  v &= (1u << bits) - 1;
  return static_cast<int32_t>(v ^ m) - static_cast<int32_t>(m);
}

// Decodes one stream: the register file, each operation's snapshot with the encodings it uses
// checked, and the state that spans operations (the chaining buffers the current group wrote).
class U85Decoder : public detail::OperationDecoder {
public:
  explicit U85Decoder(const detail::DecoderContext& context)
      : hw_(context.hardware), commands_(context.commands), streamBytes_(context.streamBytes), origin_(context.origin),
        limits_(context.limits) {}

  bool step(const Command& c, std::vector<Operation>& out) override {
    if (!c.info->isOperation) {
      regs_.apply(c);
      return false;
    }
    out.push_back(operation(c));
    return true;
  }

private:
  [[noreturn]] void bad(const Command& c, const std::string& message) const {
    failAt(origin_, c.offset, c.index, std::string(c.info->name) + ": " + message);
  }
  std::string nameOf(Id id) const { return std::string(hw_.arch->commands->info(id).name); }

  Operation operation(const Command& c);
  void kernelOperation(const Command& c, Operation& op);
  void readInput(const Command& c, Id precision, Id broadcast, bool withBroadcast, FeatureMap& fm, const char* what);
  void readOutput(const Command& c, Operation& op);
  void readAccumulator(const Command& c, Operation& op);
  void readActivation(const Command& c, Operation& op);
  void readScaling(const Command& c, Operation& op);
  void readStreams(const Command& c, Operation& op);
  void readResize(const Command& c, Operation& op);
  void checkKernelRegions(const Command& c, const Operation& op) const;
  void followChain(const Command& c, const Operation& op);
  void dmaOperation(const Command& c, Operation& op) const;
  void branchOperation(const Command& c, Operation& op) const;

  const arch::NpuConfig& hw_;
  const std::vector<Command>* commands_;   // the whole stream, or null while it is read command by command
  uint32_t streamBytes_;
  const StreamOrigin& origin_;
  const RegionLimits& limits_;
  RegisterFile regs_;
  std::bitset<8> chained_;   // chaining buffers the current chained group has written
};

Operation U85Decoder::operation(const Command& c) {
  Operation op;
  op.commandIndex = c.index;
  op.byteOffset = c.offset;
  op.param = c.param;
  op.kind = detail::operationKind(c);
  op.irqMask = c.param;
  op.waitCount = c.param & operationParamMask(op.kind);
  if ((c.param & ~operationParamMask(op.kind)) != 0) {
    bad(c, "reserved parameter bits " + hexText(c.param & ~operationParamMask(op.kind), 4) + " set");
  }
  switch (op.kind) {
  case OpKind::Conv: case OpKind::Depthwise: case OpKind::Pool: case OpKind::Elementwise: case OpKind::Resize:
    kernelOperation(c, op);
    break;
  case OpKind::DmaStart: dmaOperation(c, op); break;
  case OpKind::Branch: branchOperation(c, op); break;
  case OpKind::DmaWait: case OpKind::KernelWait: case OpKind::Stop: case OpKind::Irq: case OpKind::PmuMask: break;
  }
  return op;
}

void U85Decoder::readInput(const Command& c, Id precision, Id broadcast, bool withBroadcast, FeatureMap& fm,
                           const char* what) {
  // *_PRECISION: [0] signed, [3:2] 8/16/32/64 bits, [7:6] format, [15:14] storage (0 TILE2X2,
  // 1 TILE3X1, 2 CHAINED, 3 NONE). *_BROADCAST: [3:0] the axes (H 1, W 2, C 4), 8 a scalar.
  const Snapshot s{regs_};
  const uint32_t v = s.get(precision);
  fm.isSigned = (v & 1) != 0;
  fm.elementBits = static_cast<uint8_t>(8u << ((v >> 2) & 3));
  const uint32_t format = (v >> 6) & 3;
  if (format > 1) bad(c, std::string(what) + " format " + std::to_string(format) + " (" + nameOf(precision) + ") is reserved");
  fm.format = format == 0 ? DataFormat::Nhwc : DataFormat::Nhcwb16;
  const uint32_t storage = (v >> 14) & 3;
  if (storage == 1) {
    bad(c, std::string(what) + " storage TILE3X1 (" + nameOf(precision) + ") is not supported: its tile layout is undocumented");
  }
  fm.storage = storage == 0 ? Storage::Tile2x2 : storage == 2 ? Storage::Chained : Storage::None;
  if (!withBroadcast) {
    return;
  }
  const uint32_t b = s.get(broadcast) & 0xF;
  if (b > 8) bad(c, std::string(what) + " broadcast " + std::to_string(b) + " (" + nameOf(broadcast) + ") is reserved");
  const bool scalar = b == 8;
  if (scalar != (fm.storage == Storage::None)) {
    bad(c, std::string(what) + (scalar ? " is a SCALAR broadcast but its storage is not NONE"
                                       : " has storage NONE but its broadcast is not SCALAR"));
  }
  if (!scalar) {
    fm.broadcast = {(b & 1) != 0, (b & 2) != 0, (b & 4) != 0};
  }
}

void U85Decoder::readOutput(const Command& c, Operation& op) {
  // OFM_PRECISION: [0] signed, [2:1] 8/16/32/64 bits, [7:6] format, [8] global scale, [10:9]
  // reverse, [13:11] transpose, [15:14] storage (TILE2X2, -, CHAINED, NONE).
  const Snapshot s{regs_};
  const uint32_t v = s.get(Id::OfmPrecision);
  op.ofm.isSigned = (v & 1) != 0;
  op.ofm.elementBits = static_cast<uint8_t>(8u << ((v >> 1) & 3));
  const uint32_t format = (v >> 6) & 3;
  if (format > 1) bad(c, "OFM format " + std::to_string(format) + " (NPU_SET_OFM_PRECISION) is reserved");
  op.ofm.format = format == 0 ? DataFormat::Nhwc : DataFormat::Nhcwb16;
  op.scaling.perChannel = ((v >> 8) & 1) == 0;
  op.ofmReverse = static_cast<Reverse>((v >> 9) & 3);
  const std::optional<Transpose> t = transposeOf((v >> 11) & 7);
  if (!t) bad(c, "OFM transpose " + std::to_string((v >> 11) & 7) + " (NPU_SET_OFM_PRECISION) is reserved");
  op.ofmTranspose = *t;
  const uint32_t storage = (v >> 14) & 3;
  if (storage == 1) bad(c, "OFM storage TILE3X1 (NPU_SET_OFM_PRECISION) is reserved for an OFM");
  op.ofm.storage = storage == 0 ? Storage::Tile2x2 : storage == 2 ? Storage::Chained : Storage::None;
}

void U85Decoder::readAccumulator(const Command& c, Operation& op) {
  // ACC_FORMAT: [1:0] 0 32-bit, 1 48-bit; [5:4] input RESET, KEEP, IFM2; [6] output disabled;
  // [10:8] the micro-block.
  const uint32_t v = Snapshot{regs_}.get(Id::AccFormat);
  const uint32_t format = v & 3, input = (v >> 4) & 3, ublock = (v >> 8) & 7;
  if (format > 1) bad(c, "accumulator format " + std::to_string(format) + " (NPU_SET_ACC_FORMAT) is reserved");
  if (input > 2) bad(c, "accumulator input 3 (NPU_SET_ACC_FORMAT) is reserved");
  if (ublock >= kMicroblocks.size()) bad(c, "micro-block " + std::to_string(ublock) + " (NPU_SET_ACC_FORMAT) is reserved");
  op.accFormat = format == 0 ? AccFormat::Int32 : AccFormat::Int48;
  op.accInput = static_cast<AccInput>(input);
  op.ofmWritten = ((v >> 6) & 1) == 0;
  const auto [h, w] = kMicroblocks[ublock];
  const Shape3* u = hw_.ofmUblockOf(h, w);
  if (u == nullptr) {
    std::string valid;
    for (const Shape3& x : hw_.ofmUblocks) valid += (valid.empty() ? "" : ", ") + x.text();
    bad(c, "micro-block " + std::to_string(h) + "x" + std::to_string(w) + " (NPU_SET_ACC_FORMAT) is not one of " +
               std::string(hw_.name) + "'s (" + valid + ")");
  }
  op.ublock = *u;
}

void U85Decoder::readActivation(const Command& c, Operation& op) {
  // ACTIVATION: [4:0] function, [7:5] table, [12] clip (0 to 16 bits, 1 none).
  const Snapshot s{regs_};
  const uint32_t v = s.get(Id::Activation);
  op.activation.code = static_cast<uint8_t>(v & 0x1F);
  const std::optional<ActivationCode> a = activationOf(v & 0x1F);
  if (!a) bad(c, "activation function " + std::to_string(v & 0x1F) + " (NPU_SET_ACTIVATION) is reserved");
  op.activation.function = a->function;
  op.activation.lutBytes = a->lutBytes;
  op.activation.lutSlot = static_cast<uint8_t>((v >> 5) & 7);
  op.activation.clipRange = static_cast<uint8_t>((v >> 12) & 1);
  op.activation.min = signed16(s.get(Id::ActivationMin));
  op.activation.max = signed16(s.get(Id::ActivationMax));
  const uint32_t end = (op.activation.lutSlot + 1u) * a->lutBytes;
  if (end > hw_.buffers.lut) {
    bad(c, "table " + std::to_string(op.activation.lutSlot) + " of " + std::to_string(a->lutBytes) +
               " bytes (NPU_SET_ACTIVATION) lies outside the " + std::to_string(hw_.buffers.lut) + "-byte LUT RAM");
  }
}

void U85Decoder::readScaling(const Command& c, Operation& op) {
  // OFM_SCALE: payload [30:0] scale; param [5:0] shift, [10:6] double-round shift, [15:13]
  // rounding. IFM_SCALE, IFM2_SCALE: the same with a one-bit rounding in [13].
  const Snapshot s{regs_};
  static constexpr RoundMode kOfmRounding[] = {RoundMode::Tfl,       RoundMode::Natural,        RoundMode::DoubleAsymmetric,
                                               RoundMode::Symmetric, RoundMode::TruncateToZero, RoundMode::TruncateToLower};
  const uint32_t ofmParam = s.high(Id::OfmScale);
  const uint32_t rounding = (ofmParam >> 13) & 7;
  if (rounding >= std::size(kOfmRounding)) {
    bad(c, "OFM rounding " + std::to_string(rounding) + " (NPU_SET_OFM_SCALE) is reserved");
  }
  Scaling& sc = op.scaling;
  sc.roundMode = kOfmRounding[rounding];
  sc.ofmScale = s.get(Id::OfmScale) & 0x7FFFFFFF;
  sc.ofmShift = static_cast<uint8_t>(ofmParam & 0x3F);
  sc.ofmDoubleRound = static_cast<uint8_t>((ofmParam >> 6) & 0x1F);
  const auto input = [&s](Id id, uint32_t& scale, uint8_t& shift, uint8_t& doubleRound, RoundMode& mode) {
    const uint32_t param = s.high(id);
    scale = s.get(id) & 0x7FFFFFFF;
    shift = static_cast<uint8_t>(param & 0x3F);
    doubleRound = static_cast<uint8_t>((param >> 6) & 0x1F);
    mode = ((param >> 13) & 1) != 0 ? RoundMode::Natural : RoundMode::Tfl;
  };
  input(Id::OpaScale, sc.opaScale, sc.opaShift, sc.opaDoubleRound, sc.opaRoundMode);
  input(Id::OpbScale, sc.opbScale, sc.opbShift, sc.opbDoubleRound, sc.opbRoundMode);
}

void U85Decoder::readStreams(const Command& c, Operation& op) {
  // WEIGHT_FORMAT: [0] fast (FWD), [4] 2:4 sparse. A standard stream per weight decoder (streams
  // 0-3: WEIGHT_BASE/LENGTH, WEIGHT1-3_*), one fast stream whatever the decoder count; one
  // scale stream (ethos-u85.md 3.4, 4.1-4.3).
  const Snapshot s{regs_};
  const uint32_t format = s.get(Id::WeightFormat);
  if ((format & ~0x11u) != 0) {
    bad(c, "weight format " + hexText(format, 4) + " (NPU_SET_WEIGHT_FORMAT) sets reserved bits " +
               hexText(format & ~0x11u, 4) + " (defined: [0] fast weight format, [4] 2:4 sparse)");
  }
  op.weightFormat = (format & 1) != 0 ? arch::WeightFormat::Fast : arch::WeightFormat::Standard;
  op.sparse = (format & 0x10) != 0;
  static constexpr Id kBase[] = {Id::WeightBase, Id::Weight1Base, Id::Weight2Base, Id::Weight3Base};
  static constexpr Id kLength[] = {Id::WeightLength, Id::Weight1Length, Id::Weight2Length, Id::Weight3Length};
  const auto region = static_cast<uint8_t>(s.get(Id::WeightRegion) & 7);
  op.weightStreamCount = static_cast<uint8_t>(op.weightFormat == arch::WeightFormat::Fast ? 1 : hw_.weightDecoders);
  for (size_t i = 0; i < op.weightStreamCount; ++i) {
    op.weights[i] = {region, s.address(kBase[i]), s.get(kLength[i])};
  }
  op.scaleStreamCount = 1;
  op.scales[0] = {static_cast<uint8_t>(s.get(Id::ScaleRegion) & 7), s.address(Id::ScaleBase),
                  s.get(Id::ScaleLength) & 0xFFFFF};
}

void U85Decoder::readResize(const Command& c, Operation& op) {
  // RESIZE_*_SCALE_N_M1 [10:0], RESIZE_*_OFFSET [11:0] signed (-n <= offset < n), RESIZE_*_STEP
  // param [3:0] step, [14:4] block step, payload [10:0] step modulo, [26:16] block step modulo.
  const Snapshot s{regs_};
  if ((c.param & 3) == 3) bad(c, "resize mode 3 is reserved");
  op.resize.mode = static_cast<ResizeMode>(c.param & 3);
  const auto axis = [&](Id scale, Id offset, Id step, const char* name) {
    ResizeAxis a;
    a.scaleNumerator = (s.get(scale) & 0x7FF) + 1;
    a.offset = signExtend(s.get(offset), 12);
    const uint32_t param = s.high(step), payload = s.get(step);
    a.stepInt = param & 0xF;
    a.blockStepInt = (param >> 4) & 0x7FF;
    a.stepMod = payload & 0x7FF;
    a.blockStepMod = (payload >> 16) & 0x7FF;
    const auto n = static_cast<int32_t>(a.scaleNumerator);
    if (a.offset < -n || a.offset >= n) {
      bad(c, std::string(name) + " offset " + std::to_string(a.offset) + " lies outside [-" + std::to_string(n) +
                 ", " + std::to_string(n) + ") for scale numerator " + std::to_string(n));
    }
    return a;
  };
  op.resize.x = axis(Id::ResizeXScaleNM1, Id::ResizeXOffset, Id::ResizeXStep, "x");
  op.resize.y = axis(Id::ResizeYScaleNM1, Id::ResizeYOffset, Id::ResizeYStep, "y");
}

void U85Decoder::kernelOperation(const Command& c, Operation& op) {
  const Snapshot s{regs_};
  detail::readTiles(s, op.ifm, arch::kIfmRegisters);
  detail::readTiles(s, op.ifm2, arch::kIfm2Registers);
  detail::readTiles(s, op.ofm, arch::kOfmRegisters);
  readOutput(c, op);
  readAccumulator(c, op);
  readActivation(c, op);
  readScaling(c, op);
  op.blockDep = s.get(Id::Blockdep) & 7;
  op.ofmBlock = {(s.get(Id::OfmBlkHeightM1) & 0x7F) + 1, (s.get(Id::OfmBlkWidthM1) & 0x7F) + 1,
                 (s.get(Id::OfmBlkDepthM1) & 0x3FF) + 1};
  op.kernel = detail::readKernel(s);
  op.padding = detail::readPadding(s);
  const uint32_t upscale = s.get(Id::IfmUpscale) & 3;
  if (upscale == 3) bad(c, "IFM upscale mode 3 (NPU_SET_IFM_UPSCALE) is reserved");
  op.upscale = static_cast<Upscale>(upscale);

  // Shapes: OFM_WIDTH/HEIGHT/DEPTH_M1 count before the transposition, the OFM's tiles after it.
  const Shape3 computed{(s.get(Id::OfmHeightM1) & 0xFFFF) + 1, (s.get(Id::OfmWidthM1) & 0xFFFF) + 1,
                        (s.get(Id::OfmDepthM1) & 0xFFFF) + 1};
  op.ofm.shape = transposed(computed, op.ofmTranspose);
  const uint32_t ifmDepth = (s.get(Id::IfmDepthM1) & 0xFFFF) + 1;
  const bool elementwise = op.kind == OpKind::Elementwise;
  readInput(c, Id::IfmPrecision, Id::IfmBroadcast, elementwise, op.ifm, "IFM");
  switch (op.kind) {
  case OpKind::Conv:
    op.weightsFromIfm2 = (c.param & 1) != 0;
    [[fallthrough]];
  case OpKind::Depthwise:
  case OpKind::Pool:
    if (op.kind == OpKind::Pool) op.poolMode = static_cast<PoolMode>(c.param & 7);
    op.ifm.shape = {detail::convExtent(computed.height, op.kernel.strideY, op.kernel.dilatedHeight(), op.padding.top,
                                       op.padding.bottom, op.upscale),
                    detail::convExtent(computed.width, op.kernel.strideX, op.kernel.dilatedWidth(), op.padding.left,
                                       op.padding.right, op.upscale),
                    ifmDepth};
    break;
  case OpKind::Elementwise: {
    const std::optional<ElementwiseMode> mode = elementwiseModeOf(c.param & 0x3F);
    if (!mode) bad(c, "elementwise mode " + std::to_string(c.param & 0x3F) + " is reserved");
    op.elementwiseMode = *mode;
    // Elementwise inputs have the OFM's extent (before transposition), 1 along their broadcast
    // axes: IFM_DEPTH_M1 is not theirs. Vela leaves it as the previous operation wrote it
    // (mobilenet_v2 on the U85: a residual Add of 32-deep tensors after a 192-deep convolution
    // runs with IFM_DEPTH_M1 191).
    op.ifm.shape = computed;
    break;
  }
  case OpKind::Resize:
    // KERNEL_WIDTH/HEIGHT_M1 hold the IFM's extent - 1; no kernel.
    op.ifm.shape = {(s.get(Id::KernelHeightM1) & 0xFFFF) + 1, (s.get(Id::KernelWidthM1) & 0xFFFF) + 1, ifmDepth};
    op.kernel = Kernel{};
    readResize(c, op);
    break;
  case OpKind::DmaStart: case OpKind::DmaWait: case OpKind::KernelWait: case OpKind::Stop: case OpKind::Irq:
  case OpKind::PmuMask: case OpKind::Branch:
    break;
  }
  // IFM2: a binary elementwise operand (broadcast like the IFM), a MatMul's weights (their layout
  // is undocumented: only the base is checked, shape 1x1x1), or the accumulators' input (one per
  // OFM element).
  const bool ifm2Used = op.isBinaryElementwise() || (op.kind == OpKind::Conv && op.weightsFromIfm2) ||
                        op.accInput == AccInput::Ifm2;
  if (ifm2Used) {
    readInput(c, Id::Ifm2Precision, Id::Ifm2Broadcast, elementwise, op.ifm2, "IFM2");
    op.ifm2.shape = op.kind == OpKind::Conv && op.weightsFromIfm2 ? Shape3{} : computed;
  }
  const auto broadcast = [](FeatureMap& fm) {
    if (fm.broadcast.height) fm.shape.height = 1;
    if (fm.broadcast.width) fm.shape.width = 1;
    if (fm.broadcast.depth) fm.shape.depth = 1;
  };
  broadcast(op.ifm);
  broadcast(op.ifm2);
  if (op.ifm.storage == Storage::None && op.ifm2.storage == Storage::None && op.isBinaryElementwise()) {
    bad(c, "both operands are scalars");
  }
  if (op.ifm.storage == Storage::None && !elementwise) bad(c, "the IFM has storage NONE");
  if (op.ifm.storage == Storage::None || (ifm2Used && op.ifm2.storage == Storage::None)) {
    op.scalar = static_cast<int32_t>(s.get(Id::OpScalar));
  }
  if (op.kind == OpKind::Conv || op.kind == OpKind::Depthwise) {
    readStreams(c, op);
  }
  checkKernelRegions(c, op);
  followChain(c, op);
}

void U85Decoder::checkKernelRegions(const Command& c, const Operation& op) const {
  if (inMemory(op.ifm.storage)) checkSpan(origin_, c, limits_, op.ifm.region, op.ifm.footprint(), "IFM");
  if (op.hasIfm2() && inMemory(op.ifm2.storage)) {
    checkSpan(origin_, c, limits_, op.ifm2.region, op.ifm2.footprint(), "IFM2");
  }
  if (op.ofmWritten && inMemory(op.ofm.storage)) checkSpan(origin_, c, limits_, op.ofm.region, op.ofm.footprint(), "OFM");
  if ((op.kind == OpKind::Conv && !op.weightsFromIfm2) || op.kind == OpKind::Depthwise) {
    const std::string_view owner = hw_.arch->weightStreamOwner;
    for (size_t i = 0; i < op.weightStreamCount; ++i) {
      const Stream& w = op.weights[i];
      checkSpan(origin_, c, limits_, w.region, {w.base, w.base + w.length}, streamLabel("weight", i, owner));
    }
    if (op.scaling.perChannel) {
      const Stream& sc = op.scales[0];
      checkSpan(origin_, c, limits_, sc.region, {sc.base, sc.base + sc.length}, streamLabel("scale", 0, owner));
    }
  }
}

void U85Decoder::followChain(const Command& c, const Operation& op) {
  // A chained group's members pass their OFMs through the chaining buffers: an input with
  // CHAINED storage reads the buffer (its REGION) an earlier member of the group wrote. The
  // group ends with the member whose OFM leaves the chaining buffers (ethos-u85.md 3.7).
  const auto reads = [&](const FeatureMap& fm, const char* what, Id region) {
    if (fm.storage == Storage::Chained && !chained_.test(fm.region)) {
      bad(c, std::string(what) + " reads chaining buffer " + std::to_string(fm.region) + " (" + nameOf(region) +
                 "), which no earlier operation of its chained group wrote");
    }
  };
  reads(op.ifm, "IFM", Id::IfmRegion);
  if (op.hasIfm2()) reads(op.ifm2, "IFM2", Id::Ifm2Region);
  if (op.ofm.storage == Storage::Chained) {
    chained_.set(op.ofm.region);
  } else {
    chained_.reset();
  }
}

void U85Decoder::dmaOperation(const Command& c, Operation& op) const {
  // DMA0_SRC_REGION: [2:0] region, [8] internal, [10:9] 1-D, 2-D, 3-D, [11] indexed;
  // DMA0_DST_REGION: [2:0], [8], [11]. LEN is one row's bytes, SIZE0/SIZE1 the 2nd and 3rd
  // dimension's rows, the strides per side; an indexed side addresses rows index x stride 0.
  const Snapshot s{regs_};
  const uint32_t src = s.get(Id::Dma0SrcRegion), dst = s.get(Id::Dma0DstRegion);
  DmaTransfer& d = op.dma;
  d.srcRegion = static_cast<uint8_t>(src & 7);
  d.dstRegion = static_cast<uint8_t>(dst & 7);
  d.srcInternal = ((src >> 8) & 1) != 0;
  d.dstInternal = ((dst >> 8) & 1) != 0;
  const uint32_t mode = (src >> 9) & 3;
  if (mode == 3) bad(c, "DMA stride mode 3 (NPU_SET_DMA0_SRC_REGION) is reserved");
  d.dimensions = static_cast<uint8_t>(mode + 1);
  d.srcIndexed = ((src >> 11) & 1) != 0;
  d.dstIndexed = ((dst >> 11) & 1) != 0;
  d.src = s.address(Id::Dma0Src);
  d.dst = s.address(Id::Dma0Dst);
  d.length = s.address(Id::Dma0Len);
  d.sizes = {d.dimensions > 1 ? s.get(Id::Dma0Size0) & 0xFFFF : 1u, d.dimensions > 2 ? s.get(Id::Dma0Size1) & 0xFFFF : 1u};
  d.srcStrides = {s.address(Id::Dma0SrcStride0), s.address(Id::Dma0SrcStride1)};
  d.dstStrides = {s.address(Id::Dma0DstStride0), s.address(Id::Dma0DstStride1)};
  if (d.srcIndexed || d.dstIndexed) {
    d.indexRegion = static_cast<uint8_t>(s.get(Id::Dma0IdxRegion) & 7);
    d.index = s.address(Id::Dma0Idx);
    d.indexMax = s.get(Id::Dma0IdxMax) & 0x7FFFFFFF;
    d.indexSkip = s.address(Id::Dma0IdxSkip1);
  }
  if (d.srcIndexed && d.dstIndexed) bad(c, "both the source and the destination are indexed");
  if (d.srcInternal) bad(c, "a DMA from internal memory is not supported (undocumented on the Ethos-U85)");
  // The bytes one side touches: rows at stride 0 (or at index x stride 0), planes at stride 1.
  const auto span = [&d](uint64_t base, const std::array<uint64_t, 2>& strides, bool indexed) {
    const uint64_t rows = indexed ? d.indexMax : d.sizes[0] - 1u;
    return ByteSpan{base, base + rows * strides[0] + (d.sizes[1] - 1u) * strides[1] + d.length};
  };
  checkSpan(origin_, c, limits_, d.srcRegion, span(d.src, d.srcStrides, d.srcIndexed), "DMA source");
  if (d.dstInternal) {
    // Internal destination: the LUT RAM, one row.
    if (d.dimensions > 1 || d.dstIndexed) bad(c, "a strided or indexed DMA into the LUT RAM is not supported");
    if (d.dst + d.length > hw_.buffers.lut) {
      bad(c, "DMA destination [" + hexText(d.dst) + ", " + hexText(d.dst + d.length) + ") lies outside the " +
                 std::to_string(hw_.buffers.lut) + "-byte LUT RAM");
    }
  } else {
    checkSpan(origin_, c, limits_, d.dstRegion, span(d.dst, d.dstStrides, d.dstIndexed), "DMA destination");
  }
  if (d.srcIndexed || d.dstIndexed) {
    // The index list: at least one byte per row (Vela's own check; the index width is undocumented).
    checkSpan(origin_, c, limits_, d.indexRegion, {d.index, d.index + uint64_t{d.sizes[0]} * d.sizes[1]},
              "DMA index list");
  }
}

void U85Decoder::branchOperation(const Command& c, Operation& op) const {
  // BRANCH: param [0] 0 always, 1 if the condition flag is set; payload: the target's byte
  // offset in the stream, which must start a command.
  op.branch.conditional = (c.param & 1) != 0;
  op.branch.target = c.payload;
  if (c.payload >= streamBytes_) {
    bad(c, "target byte " + hexText(c.payload) + " lies outside the " + std::to_string(streamBytes_) + "-byte stream");
  }
  if (commands_ == nullptr) {
    return; // read command by command: the commands after this one are not known yet
  }
  const auto it = std::lower_bound(commands_->begin(), commands_->end(), c.payload,
                                   [](const Command& x, uint32_t o) { return x.offset < o; });
  if (it == commands_->end() || it->offset != c.payload) {
    const Command& inside = *std::prev(it);
    bad(c, "target byte " + hexText(c.payload) + " is not a command boundary (it lies inside " +
               std::string(inside.info->name) + " at byte " + hexText(inside.offset) + ")");
  }
  op.branch.targetCommand = it->index;
}

} // namespace

std::unique_ptr<detail::OperationDecoder> u85Decoder(const detail::DecoderContext& context) {
  return std::make_unique<U85Decoder>(context);
}

} // namespace npusim::cmd
