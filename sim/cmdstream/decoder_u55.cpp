// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/decoder_u55.h"

#include <algorithm>
#include <string>

#include "sim/cmdstream/decoder_common.h"

namespace npusim::cmd {
namespace {

using Id = arch::CommandId;
using detail::checkSpan;
using detail::convExtent;
using detail::operationKind;
using detail::readTiles;
using detail::signed16;
using detail::Snapshot;

// Field decoding helpers; each returns false for a reserved encoding.
bool decodePrecision(uint32_t v, uint32_t sizeShift, FeatureMap& fm) {
  fm.isSigned = (v & 1) != 0;
  const uint32_t size = (v >> sizeShift) & 3;
  if (size == 3) {
    return false;
  }
  fm.elementBits = static_cast<uint8_t>(8u << size);
  const uint32_t format = (v >> 6) & 3;
  if (format > 1) {
    return false;
  }
  fm.format = format == 0 ? DataFormat::Nhwc : DataFormat::Nhcwb16;
  return true;
}

// Snapshot of the register file as the operation `command` (an NPU_OP_*) sees it.
Operation snapshotOperation(const RegisterFile& regs, const Command& command) {
  const Snapshot s{regs};
  Operation op;
  op.commandIndex = command.index;
  op.byteOffset = command.offset;
  op.param = command.param;
  op.kind = operationKind(command);
  op.waitCount = command.param & (op.kind == OpKind::KernelWait ? 0x3u : 0xFu);
  op.irqMask = command.param;

  // Feature maps (raw; shapes are completed below per kind).
  readTiles(s, op.ifm, arch::kIfmRegisters);
  readTiles(s, op.ofm, arch::kOfmRegisters);
  readTiles(s, op.ifm2, arch::kIfm2Registers);
  decodePrecision(s.get(Id::IfmPrecision), 2, op.ifm);
  decodePrecision(s.get(Id::OfmPrecision), 1, op.ofm);
  decodePrecision(s.get(Id::Ifm2Precision), 2, op.ifm2);
  op.ofm.shape = {(s.get(Id::OfmHeightM1) & 0xFFFF) + 1, (s.get(Id::OfmWidthM1) & 0xFFFF) + 1,
                  (s.get(Id::OfmDepthM1) & 0xFFFF) + 1};

  // Kernel, stride, dilation, padding, upscale.
  op.kernel = detail::readKernel(s);
  op.padding = detail::readPadding(s);
  switch (s.get(Id::IfmUpscale) & 3) {
  case 1: op.upscale = Upscale::Nearest; break;
  case 2: op.upscale = Upscale::Zeros; break;
  default: op.upscale = Upscale::None; break;
  }

  op.ofmBlock = {(s.get(Id::OfmBlkHeightM1) & 0x1F) + 1, (s.get(Id::OfmBlkWidthM1) & 0x3F) + 1,
                 (s.get(Id::OfmBlkDepthM1) & 0x7F) + 1};
  op.shram = ShramLayout{s.get(Id::IfmIbEnd) & 0x3F, s.get(Id::AbStart) & 0x3F, s.get(Id::Ifm2IbStart) & 0x3F};
  switch (s.get(Id::AccFormat) & 3) {
  case 1: op.accFormat = AccFormat::Int40; break;
  case 2: op.accFormat = AccFormat::Fp16; break;
  default: op.accFormat = AccFormat::Int32; break;
  }
  op.blockDep = s.get(Id::Blockdep) & 3;

  // One weight and one scale stream per core: NPU_SET_PARALLEL_MODE 1 gives the U65-512's
  // second core its own (WEIGHT1_*, SCALE1_*), in the first core's regions.
  const auto weightRegion = static_cast<uint8_t>(s.get(Id::WeightRegion) & 7);
  const auto scaleRegion = static_cast<uint8_t>(s.get(Id::ScaleRegion) & 7);
  op.weights[0] = {weightRegion, s.address(Id::WeightBase), s.get(Id::WeightLength)};
  op.scales[0] = {scaleRegion, s.address(Id::ScaleBase), s.get(Id::ScaleLength)};
  op.weightStreamCount = op.scaleStreamCount = static_cast<uint8_t>((s.get(Id::ParallelMode) & 1) + 1);
  if (op.weightStreamCount > 1) {
    op.weights[1] = {weightRegion, s.address(Id::Weight1Base), s.get(Id::Weight1Length)};
    op.scales[1] = {scaleRegion, s.address(Id::Scale1Base), s.get(Id::Scale1Length)};
  }

  // ACTIVATION [4:0]: 0 clamp only, 3 tanh, 4 sigmoid, 16..23 the LUT in slot 0..7; the other
  // codes are reserved and clamp.
  const uint32_t act = s.get(Id::Activation);
  op.activation.code = static_cast<uint8_t>(act & 0x1F);
  if (op.activation.code == 3) {
    op.activation.function = ActivationFunction::Tanh;
  } else if (op.activation.code == 4) {
    op.activation.function = ActivationFunction::Sigmoid;
  } else if (op.activation.code >= 16 && op.activation.code <= 23) {
    op.activation.function = ActivationFunction::Lut;
    op.activation.lutSlot = static_cast<uint8_t>(op.activation.code - 16);
  }
  op.activation.clipRange = static_cast<uint8_t>((act >> 12) & 7);
  op.activation.min = signed16(s.get(Id::ActivationMin));
  op.activation.max = signed16(s.get(Id::ActivationMax));

  const uint32_t ofmPrec = s.get(Id::OfmPrecision);
  op.scaling.perChannel = ((ofmPrec >> 8) & 1) == 0;
  switch ((ofmPrec >> 14) & 3) {
  case 1: op.scaling.roundMode = RoundMode::Truncate; break;
  case 2: op.scaling.roundMode = RoundMode::Natural; break;
  default: op.scaling.roundMode = RoundMode::Tfl; break;
  }
  op.scaling.ifmScaleMode = static_cast<uint8_t>((s.get(Id::IfmPrecision) >> 8) & 3);
  op.scaling.ofmScale = s.get(Id::OfmScale);
  op.scaling.ofmShift = static_cast<uint8_t>(s.high(Id::OfmScale) & 0x3F);
  op.scaling.opaScale = s.get(Id::OpaScale);
  op.scaling.opaShift = static_cast<uint8_t>(s.high(Id::OpaScale) & 0x3F);
  op.scaling.opbScale = s.get(Id::OpbScale);

  // IFM2_BROADCAST: [2:0] broadcast H, W, C; [6] IFM2 is the first operand; [7] IFM2 is the
  // scalar IFM2_SCALAR instead of a tensor.
  const uint32_t bc = s.get(Id::Ifm2Broadcast);
  op.ifm2.broadcast = {(bc & 1) != 0, (bc & 2) != 0, (bc & 4) != 0};
  op.operandsSwapped = (bc & 0x40) != 0;
  if ((bc & 0x80) != 0) {
    op.ifm2.storage = Storage::None;
  }
  op.scalar = signed16(s.get(Id::Ifm2Scalar));

  const uint32_t srcReg = s.get(Id::Dma0SrcRegion), dstReg = s.get(Id::Dma0DstRegion);
  op.dma = {static_cast<uint8_t>(srcReg & 7), static_cast<uint8_t>(dstReg & 7), ((srcReg >> 8) & 1) != 0,
            ((dstReg >> 8) & 1) != 0, s.get(Id::Dma0Src), s.get(Id::Dma0Dst),
            s.get(Id::Dma0Len)};

  // Operation-specific shapes.
  const uint32_t ifmDepth = (s.get(Id::IfmDepthM1) & 0xFFFF) + 1;
  switch (op.kind) {
  case OpKind::Pool:
    op.poolMode = static_cast<PoolMode>(std::min<uint32_t>(command.param & 7, 2));
    [[fallthrough]];
  case OpKind::Conv:
  case OpKind::Depthwise:
    op.ifm.shape = {convExtent(op.ofm.shape.height, op.kernel.strideY, op.kernel.dilatedHeight(), op.padding.top,
                               op.padding.bottom, op.upscale),
                    convExtent(op.ofm.shape.width, op.kernel.strideX, op.kernel.dilatedWidth(), op.padding.left,
                               op.padding.right, op.upscale),
                    ifmDepth};
    break;
  case OpKind::Elementwise:
    op.elementwiseMode = static_cast<ElementwiseMode>(std::min<uint32_t>(command.param & 0x3F, 9));
    op.ifm.shape = op.ofm.shape;
    op.ifm.shape.depth = ifmDepth;
    op.ifm2.shape = op.ofm.shape;
    if (op.ifm2.broadcast.height) op.ifm2.shape.height = 1;
    if (op.ifm2.broadcast.width) op.ifm2.shape.width = 1;
    if (op.ifm2.broadcast.depth) op.ifm2.shape.depth = 1;
    break;
  case OpKind::Resize: case OpKind::Branch: // the U85's: no architecture 1.x command starts them
  case OpKind::DmaStart: case OpKind::DmaWait: case OpKind::KernelWait: case OpKind::Stop: case OpKind::Irq:
  case OpKind::PmuMask:
    break;
  }
  return op;
}

// Checks the encodings and address ranges an operation depends on.
void validate(const Operation& op, const RegisterFile& regs, const Command& c, const StreamOrigin& origin,
              const arch::NpuConfig& hardware, const RegionLimits& limits) {
  auto bad = [&](const std::string& m) { failAt(origin, c.offset, c.index, std::string(c.info->name) + ": " + m); };
  FeatureMap scratch;
  switch (op.kind) {
  case OpKind::Conv: case OpKind::Depthwise: case OpKind::Pool: case OpKind::Elementwise: {
    if (op.weightStreamCount > hardware.cores) {
      bad("NPU_SET_PARALLEL_MODE " + std::to_string(op.weightStreamCount - 1) + " splits the work between " +
          std::to_string(op.weightStreamCount) + " cores, but the stream was compiled for a " +
          std::to_string(hardware.cores) + "-core NPU (only ethos-u65-512 has two)");
    }
    if (!decodePrecision(regs.read(Id::IfmPrecision), 2, scratch)) bad("reserved IFM_PRECISION encoding");
    if (!decodePrecision(regs.read(Id::OfmPrecision), 1, scratch)) bad("reserved OFM_PRECISION encoding");
    if (op.kind == OpKind::Pool && (c.param & 7) > 2) bad("unknown pooling mode " + std::to_string(c.param & 7));
    if (op.kind == OpKind::Elementwise && (c.param & 0x3F) > 9) {
      bad("unknown elementwise mode " + std::to_string(c.param & 0x3F));
    }
    if (op.hasIfm2() && !decodePrecision(regs.read(Id::Ifm2Precision), 2, scratch)) {
      bad("reserved IFM2_PRECISION encoding");
    }
    if ((regs.read(Id::IfmUpscale) & 3) == 3) bad("reserved IFM_UPSCALE mode 3");
    checkSpan(origin, c, limits, op.ifm.region, op.ifm.footprint(), "IFM");
    checkSpan(origin, c, limits, op.ofm.region, op.ofm.footprint(), "OFM");
    if (op.hasIfm2()) checkSpan(origin, c, limits, op.ifm2.region, op.ifm2.footprint(), "IFM2");
    if (op.kind == OpKind::Conv || op.kind == OpKind::Depthwise) {
      const std::string_view owner = hardware.arch->weightStreamOwner;
      for (size_t i = 0; i < op.weightStreamCount; ++i) { // each core's weight stream, then its scales
        const Stream& w = op.weights[i];
        checkSpan(origin, c, limits, w.region, {w.base, w.base + w.length}, streamLabel("weight", i, owner));
        if (op.scaling.perChannel) {
          const Stream& sc = op.scales[i];
          checkSpan(origin, c, limits, sc.region, {sc.base, sc.base + sc.length}, streamLabel("scale", i, owner));
        }
      }
    }
    break;
  }
  case OpKind::DmaStart:
    if (op.dma.srcInternal) bad("DMA from internal SHRAM is not supported on Ethos-U55");
    checkSpan(origin, c, limits, op.dma.srcRegion, {op.dma.src, op.dma.src + op.dma.length}, "DMA source");
    if (op.dma.dstInternal) {
      if (op.dma.dst + op.dma.length > hardware.shramBytes()) {
        bad("DMA destination [" + hexText(op.dma.dst) + ", " + hexText(op.dma.dst + op.dma.length) +
            ") lies outside SHRAM (" + std::to_string(hardware.shramBytes()) + " bytes)");
      }
    } else {
      checkSpan(origin, c, limits, op.dma.dstRegion, {op.dma.dst, op.dma.dst + op.dma.length}, "DMA destination");
    }
    break;
  case OpKind::Resize: case OpKind::Branch:
  case OpKind::DmaWait: case OpKind::KernelWait: case OpKind::Stop: case OpKind::Irq: case OpKind::PmuMask:
    break;
  }
}

} // namespace

namespace {

// The register file between commands; each operation's snapshot, validated.
class U55Decoder : public detail::OperationDecoder {
public:
  explicit U55Decoder(const detail::DecoderContext& context) : context_(context) {}
  bool step(const Command& c, std::vector<Operation>& out) override {
    if (!c.info->isOperation) {
      regs_.apply(c);
      return false;
    }
    Operation& op = out.emplace_back(snapshotOperation(regs_, c));
    op.ublock = context_.hardware.ofmUblock;
    validate(op, regs_, c, context_.origin, context_.hardware, context_.limits);
    return true;
  }

private:
  detail::DecoderContext context_;
  RegisterFile regs_;
};

} // namespace

std::unique_ptr<detail::OperationDecoder> u55Decoder(const detail::DecoderContext& context) {
  return std::make_unique<U55Decoder>(context);
}

} // namespace npusim::cmd
