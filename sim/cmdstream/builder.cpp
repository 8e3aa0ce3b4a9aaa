// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/builder.h"

namespace npusim::cmd {
namespace {

void pushWord(std::vector<uint8_t>& out, uint32_t w) {
  for (int i = 0; i < 4; ++i) {
    out.push_back(static_cast<uint8_t>(w >> (8 * i)));
  }
}

uint16_t key(CommandCode c) { return static_cast<uint16_t>(c); }

} // namespace

void CommandStreamBuilder::cmd0(CommandCode code, uint16_t param) {
  words_.push_back(uint32_t{param} << 16 | key(code));
}

void CommandStreamBuilder::cmd1(CommandCode code, uint32_t payload, uint16_t param) {
  words_.push_back(uint32_t{param} << 16 | key(code));
  words_.push_back(payload);
}

void CommandStreamBuilder::append(const Command& c) {
  words_.push_back(uint32_t{c.param} << 16 | c.key);
  if (c.hasPayload()) {
    words_.push_back(c.payload);
  }
}

void CommandStreamBuilder::set(CommandCode code, uint32_t value, uint16_t param) {
  const CommandInfo& info = commandInfo(code);
  const auto slot = static_cast<size_t>(&info - commandTableBegin());
  const uint64_t packed = isCmd1(key(code)) ? (uint64_t{param} << 32 | value) : (value & 0xFFFF);
  if (shadow_[slot] == packed) {
    return;
  }
  shadow_[slot] = packed;
  if (isCmd1(key(code))) {
    cmd1(code, value, param);
  } else {
    cmd0(code, static_cast<uint16_t>(value));
  }
}

void CommandStreamBuilder::setFeatureMap(const FeatureMap& fm, CommandCode base0, CommandCode stride,
                                         CommandCode w0, CommandCode h0, CommandCode h1, CommandCode region,
                                         CommandCode zeroPoint, CommandCode precision, uint32_t precisionExtra,
                                         bool ofmPrecision) {
  set(region, fm.region);
  for (uint16_t t = 0; t < 4; ++t) {
    set(static_cast<CommandCode>(key(base0) + t), static_cast<uint32_t>(fm.base[t]),
        static_cast<uint16_t>(fm.base[t] >> 32));
  }
  set(h0, fm.height0 - 1);
  set(h1, fm.height1 - 1);
  set(w0, fm.width0 - 1);
  set(static_cast<CommandCode>(key(stride) + 2), static_cast<uint32_t>(fm.strideC));
  set(static_cast<CommandCode>(key(stride) + 1), static_cast<uint32_t>(fm.strideY));
  set(stride, static_cast<uint32_t>(fm.strideX));
  set(zeroPoint, static_cast<uint16_t>(fm.zeroPoint));
  const uint32_t sizeCode = fm.elementBits == 32 ? 2 : fm.elementBits == 16 ? 1 : 0;
  const uint32_t prec = (fm.isSigned ? 1u : 0u) | sizeCode << (ofmPrecision ? 1 : 2) |
                        (fm.format == DataFormat::Nhcwb16 ? 1u : 0u) << 6 | precisionExtra;
  set(precision, prec);
}

void CommandStreamBuilder::emit(const Operation& op) {
  auto sendOp = [&](CommandCode code, uint32_t param) { cmd0(code, static_cast<uint16_t>(param)); };
  switch (op.kind) {
  case OpKind::DmaStart:
    set(CommandCode::Dma0SrcRegion, op.dma.srcRegion | (op.dma.srcInternal ? 0x100u : 0u));
    set(CommandCode::Dma0Src, static_cast<uint32_t>(op.dma.src));
    set(CommandCode::Dma0DstRegion, op.dma.dstRegion | (op.dma.dstInternal ? 0x100u : 0u));
    set(CommandCode::Dma0Dst, static_cast<uint32_t>(op.dma.dst));
    set(CommandCode::Dma0Len, static_cast<uint32_t>(op.dma.length));
    sendOp(CommandCode::OpDmaStart, 0);
    return;
  case OpKind::DmaWait: sendOp(CommandCode::OpDmaWait, op.waitCount); return;
  case OpKind::KernelWait: sendOp(CommandCode::OpKernelWait, op.waitCount); return;
  case OpKind::Stop: sendOp(CommandCode::OpStop, op.irqMask); return;
  case OpKind::Irq: sendOp(CommandCode::OpIrq, op.irqMask); return;
  case OpKind::PmuMask: sendOp(CommandCode::OpPmuMask, op.param); return;
  case OpKind::Conv: case OpKind::Depthwise: case OpKind::Pool: case OpKind::Elementwise: break;
  }

  const bool elementwise = op.kind == OpKind::Elementwise;
  if (elementwise) {
    set(CommandCode::OpaScale, op.scaling.opaScale, op.scaling.opaShift);
    set(CommandCode::OpbScale, op.scaling.opbScale);
    set(CommandCode::OfmScale, op.scaling.ofmScale, op.scaling.ofmShift);
  }
  const uint32_t roundBits = static_cast<uint32_t>(op.scaling.roundMode) << 14;
  setFeatureMap(op.ifm, CommandCode::IfmBase0, CommandCode::IfmStrideX, CommandCode::IfmWidth0M1,
                CommandCode::IfmHeight0M1, CommandCode::IfmHeight1M1, CommandCode::IfmRegion,
                CommandCode::IfmZeroPoint, CommandCode::IfmPrecision, uint32_t{op.scaling.ifmScaleMode} << 8, false);
  set(CommandCode::IfmDepthM1, op.ifm.shape.depth - 1);
  set(CommandCode::IfmUpscale, static_cast<uint32_t>(op.upscale));
  set(CommandCode::IfmPadTop, op.padding.top);
  set(CommandCode::IfmPadLeft, op.padding.left);
  set(CommandCode::IfmPadBottom, op.padding.bottom);
  set(CommandCode::IfmPadRight, op.padding.right);
  setFeatureMap(op.ofm, CommandCode::OfmBase0, CommandCode::OfmStrideX, CommandCode::OfmWidth0M1,
                CommandCode::OfmHeight0M1, CommandCode::OfmHeight1M1, CommandCode::OfmRegion,
                CommandCode::OfmZeroPoint, CommandCode::OfmPrecision,
                (op.scaling.perChannel ? 0u : 0x100u) | roundBits, true);
  set(CommandCode::OfmHeightM1, op.ofm.shape.height - 1);
  set(CommandCode::OfmWidthM1, op.ofm.shape.width - 1);
  set(CommandCode::OfmDepthM1, op.ofm.shape.depth - 1);
  if (!elementwise) {
    set(CommandCode::KernelHeightM1, op.kernel.dilationY * (op.kernel.height - 1));
    set(CommandCode::KernelWidthM1, op.kernel.dilationX * (op.kernel.width - 1));
    const uint32_t sx = op.kernel.strideX - 1, sy = op.kernel.strideY - 1;
    set(CommandCode::KernelStride, (sx & 1) | (sy & 1) << 1 | (op.kernel.partKernelFirst ? 4u : 0u) |
                                       (op.kernel.dilationX - 1) << 3 | (op.kernel.dilationY - 1) << 4 |
                                       (sx >> 1) << 6 | (sy >> 1) << 9);
  }
  if (op.kind == OpKind::Conv || op.kind == OpKind::Depthwise) {
    set(CommandCode::WeightRegion, op.weights.region);
    set(CommandCode::WeightBase, static_cast<uint32_t>(op.weights.base));
    set(CommandCode::WeightLength, static_cast<uint32_t>(op.weights.length));
    if (op.scaling.perChannel) {
      set(CommandCode::ScaleRegion, op.scales.region);
      set(CommandCode::ScaleBase, static_cast<uint32_t>(op.scales.base));
      set(CommandCode::ScaleLength, static_cast<uint32_t>(op.scales.length));
    }
  }
  set(CommandCode::Activation, op.activation.function | uint32_t{op.activation.clipRange} << 12);
  set(CommandCode::ActivationMin, static_cast<uint16_t>(op.activation.min));
  set(CommandCode::ActivationMax, static_cast<uint16_t>(op.activation.max));
  set(CommandCode::OfmBlkHeightM1, op.ofmBlock.height - 1);
  set(CommandCode::OfmBlkWidthM1, op.ofmBlock.width - 1);
  set(CommandCode::OfmBlkDepthM1, op.ofmBlock.depth - 1);
  set(CommandCode::IfmIbEnd, op.shram.ibEnd);
  set(CommandCode::AbStart, op.shram.abStart);
  if (op.isBinaryElementwise()) {
    set(CommandCode::Ifm2IbStart, op.shram.ifm2IbStart);
  }
  set(CommandCode::AccFormat, static_cast<uint32_t>(op.shram.accFormat));
  if (op.kind == OpKind::Pool && !op.scaling.perChannel) {
    set(CommandCode::OfmScale, op.scaling.ofmScale, op.scaling.ofmShift);
  }
  if (op.isBinaryElementwise()) {
    if (op.hasIfm2()) {
      setFeatureMap(op.ifm2, CommandCode::Ifm2Base0, CommandCode::Ifm2StrideX, CommandCode::Ifm2Width0M1,
                    CommandCode::Ifm2Height0M1, CommandCode::Ifm2Height1M1, CommandCode::Ifm2Region,
                    CommandCode::Ifm2ZeroPoint, CommandCode::Ifm2Precision, 0, false);
    } else {
      set(CommandCode::Ifm2Scalar, static_cast<uint16_t>(op.broadcast.scalarValue));
    }
    const Ifm2Broadcast& b = op.broadcast;
    set(CommandCode::Ifm2Broadcast, (b.height ? 1u : 0u) | (b.width ? 2u : 0u) | (b.depth ? 4u : 0u) |
                                        (b.operandsSwapped ? 0x40u : 0u) | (b.scalar ? 0x80u : 0u));
  }
  set(CommandCode::Blockdep, op.blockDep);
  switch (op.kind) {
  case OpKind::Conv: sendOp(CommandCode::OpConv, 0); break;
  case OpKind::Depthwise: sendOp(CommandCode::OpDepthwise, 0); break;
  case OpKind::Pool: sendOp(CommandCode::OpPool, static_cast<uint32_t>(op.poolMode)); break;
  case OpKind::Elementwise: sendOp(CommandCode::OpElementwise, static_cast<uint32_t>(op.elementwiseMode)); break;
  case OpKind::DmaStart: case OpKind::DmaWait: case OpKind::KernelWait: case OpKind::Stop: case OpKind::Irq:
  case OpKind::PmuMask: break;
  }
}

std::vector<uint8_t> CommandStreamBuilder::bytes() const {
  std::vector<uint8_t> out;
  out.reserve(words_.size() * 4);
  for (uint32_t w : words_) {
    pushWord(out, w);
  }
  return out;
}

std::vector<uint8_t> encodeCommands(const std::vector<Command>& commands) {
  CommandStreamBuilder b;
  for (const Command& c : commands) {
    b.append(c);
  }
  return b.bytes();
}

std::vector<uint8_t> buildCop1Payload(const arch::NpuConfig& npu, const std::vector<uint8_t>& stream) {
  std::vector<uint8_t> out;
  pushWord(out, 0x31504F43);           // "COP1"
  pushWord(out, 0x00100001);           // OPTIMIZER_CONFIG, release 0 patch 1
  pushWord(out, arch::configWord(npu));
  pushWord(out, kVelaIdWord);
  for (int i = 0; i < 3; ++i) {
    pushWord(out, 0x00000005);         // NOP to 16-byte-align the stream
  }
  const auto words = static_cast<uint32_t>(stream.size() / 4);
  pushWord(out, (words & 0xFFFF) << 16 | ((words >> 16) & 0xFF) << 8 | 0x02);
  out.insert(out.end(), stream.begin(), stream.end());
  return out;
}

} // namespace npusim::cmd
