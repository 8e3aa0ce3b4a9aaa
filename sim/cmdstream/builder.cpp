// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/builder.h"

#include <stdexcept>
#include <string>

namespace npusim::cmd {
namespace {

using Id = arch::CommandId;

// ACTIVATION [4:0] of architecture 1.x: 0 clamp, 3 tanh, 4 sigmoid, 16 + slot for a LUT.
uint32_t activationCode(const Activation& a) {
  switch (a.function) {
  case ActivationFunction::Clamp: return 0;
  case ActivationFunction::Tanh: return 3;
  case ActivationFunction::Sigmoid: return 4;
  case ActivationFunction::Lut: return 16u + a.lutSlot;
  }
  return 0;
}

void pushWord(std::vector<uint8_t>& out, uint32_t w) {
  for (int i = 0; i < 4; ++i) {
    out.push_back(static_cast<uint8_t>(w >> (8 * i)));
  }
}

} // namespace

void CommandStreamBuilder::cmd0(arch::CommandId id, uint16_t param) {
  words_.push_back(uint32_t{param} << 16 | keyOf(id));
}

void CommandStreamBuilder::cmd1(arch::CommandId id, uint32_t payload, uint16_t param) {
  words_.push_back(uint32_t{param} << 16 | keyOf(id));
  words_.push_back(payload);
}

void CommandStreamBuilder::append(const Command& c) {
  words_.push_back(uint32_t{c.param} << 16 | c.key);
  if (c.hasPayload()) {
    words_.push_back(c.payload);
  }
}

void CommandStreamBuilder::set(arch::CommandId id, uint32_t value, uint16_t param) {
  const bool cmd1Register = arch::isCmd1(keyOf(id));
  const uint64_t packed = cmd1Register ? (uint64_t{param} << 32 | value) : (value & 0xFFFF);
  std::optional<uint64_t>& shadow = shadow_[static_cast<size_t>(id)];
  if (shadow == packed) {
    return;
  }
  shadow = packed;
  if (cmd1Register) {
    cmd1(id, value, param);
  } else {
    cmd0(id, static_cast<uint16_t>(value));
  }
}

void CommandStreamBuilder::setFeatureMap(const FeatureMap& fm, const arch::FeatureMapRegisters& r,
                                         uint32_t precisionExtra, bool ofmPrecision) {
  set(r.region, fm.region);
  for (size_t t = 0; t < 4; ++t) {
    set(r.base[t], static_cast<uint32_t>(fm.base[t]), static_cast<uint16_t>(fm.base[t] >> 32));
  }
  set(r.height0, fm.height0 - 1);
  set(r.height1, fm.height1 - 1);
  set(r.width0, fm.width0 - 1);
  set(r.strideC, static_cast<uint32_t>(fm.strideC));
  set(r.strideY, static_cast<uint32_t>(fm.strideY));
  set(r.strideX, static_cast<uint32_t>(fm.strideX));
  set(r.zeroPoint, static_cast<uint16_t>(fm.zeroPoint));
  const uint32_t sizeCode = fm.elementBits == 32 ? 2 : fm.elementBits == 16 ? 1 : 0;
  const uint32_t prec = (fm.isSigned ? 1u : 0u) | sizeCode << (ofmPrecision ? 1 : 2) |
                        (fm.format == DataFormat::Nhcwb16 ? 1u : 0u) << 6 | precisionExtra;
  set(r.precision, prec);
}

void CommandStreamBuilder::emit(const Operation& op) {
  if (set_->format() != arch::CommandSet::Format::EthosU55) {
    throw std::logic_error("CommandStreamBuilder::emit writes architecture 1.x operations, not " +
                           std::string(set_->name()) + " ones");
  }
  auto sendOp = [&](Id id, uint32_t param) { cmd0(id, static_cast<uint16_t>(param)); };
  switch (op.kind) {
  case OpKind::DmaStart:
    set(Id::Dma0SrcRegion, op.dma.srcRegion | (op.dma.srcInternal ? 0x100u : 0u));
    set(Id::Dma0Src, static_cast<uint32_t>(op.dma.src));
    set(Id::Dma0DstRegion, op.dma.dstRegion | (op.dma.dstInternal ? 0x100u : 0u));
    set(Id::Dma0Dst, static_cast<uint32_t>(op.dma.dst));
    set(Id::Dma0Len, static_cast<uint32_t>(op.dma.length));
    sendOp(Id::OpDmaStart, 0);
    return;
  case OpKind::DmaWait: sendOp(Id::OpDmaWait, op.waitCount); return;
  case OpKind::KernelWait: sendOp(Id::OpKernelWait, op.waitCount); return;
  case OpKind::Stop: sendOp(Id::OpStop, op.irqMask); return;
  case OpKind::Irq: sendOp(Id::OpIrq, op.irqMask); return;
  case OpKind::PmuMask: sendOp(Id::OpPmuMask, op.param); return;
  case OpKind::Resize: case OpKind::Branch:
    throw std::invalid_argument("architecture 1.x streams have no " + std::string(opKindName(op.kind)));
  case OpKind::Conv: case OpKind::Depthwise: case OpKind::Pool: case OpKind::Elementwise: break;
  }
  if ((op.kind == OpKind::Pool && op.poolMode > PoolMode::ReduceSum) ||
      (op.kind == OpKind::Elementwise && op.elementwiseMode > ElementwiseMode::Shl)) {
    throw std::invalid_argument("architecture 1.x streams have no " + std::string(opKindName(op.kind)) + " mode " +
                                std::string(op.kind == OpKind::Pool ? poolModeName(op.poolMode)
                                                                    : elementwiseModeName(op.elementwiseMode)));
  }

  const bool elementwise = op.kind == OpKind::Elementwise;
  if (elementwise) {
    set(Id::OpaScale, op.scaling.opaScale, op.scaling.opaShift);
    set(Id::OpbScale, op.scaling.opbScale);
    set(Id::OfmScale, op.scaling.ofmScale, op.scaling.ofmShift);
  }
  const uint32_t roundBits = static_cast<uint32_t>(op.scaling.roundMode) << 14;
  setFeatureMap(op.ifm, arch::kIfmRegisters, uint32_t{op.scaling.ifmScaleMode} << 8, false);
  set(Id::IfmDepthM1, op.ifm.shape.depth - 1);
  set(Id::IfmUpscale, static_cast<uint32_t>(op.upscale));
  set(Id::IfmPadTop, op.padding.top);
  set(Id::IfmPadLeft, op.padding.left);
  set(Id::IfmPadBottom, op.padding.bottom);
  set(Id::IfmPadRight, op.padding.right);
  setFeatureMap(op.ofm, arch::kOfmRegisters, (op.scaling.perChannel ? 0u : 0x100u) | roundBits, true);
  set(Id::OfmHeightM1, op.ofm.shape.height - 1);
  set(Id::OfmWidthM1, op.ofm.shape.width - 1);
  set(Id::OfmDepthM1, op.ofm.shape.depth - 1);
  if (!elementwise) {
    set(Id::KernelHeightM1, op.kernel.dilationY * (op.kernel.height - 1));
    set(Id::KernelWidthM1, op.kernel.dilationX * (op.kernel.width - 1));
    const uint32_t sx = op.kernel.strideX - 1, sy = op.kernel.strideY - 1;
    set(Id::KernelStride, (sx & 1) | (sy & 1) << 1 | (op.kernel.partKernelFirst ? 4u : 0u) |
                                       (op.kernel.dilationX - 1) << 3 | (op.kernel.dilationY - 1) << 4 |
                                       (sx >> 1) << 6 | (sy >> 1) << 9);
  }
  if (op.kind == OpKind::Conv || op.kind == OpKind::Depthwise) {
    if (op.weightStreamCount > 2 || op.scaleStreamCount != op.weightStreamCount) {
      throw std::invalid_argument("architecture 1.x streams have one or two (weight, scale) stream pairs, not " +
                                  std::to_string(op.weightStreamCount) + " weight and " +
                                  std::to_string(op.scaleStreamCount) + " scale streams");
    }
    // NPU_SET_PARALLEL_MODE only once a second core's streams appear (Vela's U55 streams lack it).
    if (op.weightStreamCount > 1 || shadow_[static_cast<size_t>(Id::ParallelMode)]) {
      set(Id::ParallelMode, op.weightStreamCount - 1u);
    }
    set(Id::WeightRegion, op.weights[0].region);
    set(Id::WeightBase, static_cast<uint32_t>(op.weights[0].base));
    set(Id::WeightLength, static_cast<uint32_t>(op.weights[0].length));
    if (op.weightStreamCount > 1) {
      set(Id::Weight1Base, static_cast<uint32_t>(op.weights[1].base));
      set(Id::Weight1Length, static_cast<uint32_t>(op.weights[1].length));
    }
    if (op.scaling.perChannel) {
      set(Id::ScaleRegion, op.scales[0].region);
      set(Id::ScaleBase, static_cast<uint32_t>(op.scales[0].base));
      set(Id::ScaleLength, static_cast<uint32_t>(op.scales[0].length));
      if (op.scaleStreamCount > 1) {
        set(Id::Scale1Base, static_cast<uint32_t>(op.scales[1].base));
        set(Id::Scale1Length, static_cast<uint32_t>(op.scales[1].length));
      }
    }
  }
  set(Id::Activation, activationCode(op.activation) | uint32_t{op.activation.clipRange} << 12);
  set(Id::ActivationMin, static_cast<uint16_t>(op.activation.min));
  set(Id::ActivationMax, static_cast<uint16_t>(op.activation.max));
  set(Id::OfmBlkHeightM1, op.ofmBlock.height - 1);
  set(Id::OfmBlkWidthM1, op.ofmBlock.width - 1);
  set(Id::OfmBlkDepthM1, op.ofmBlock.depth - 1);
  const ShramLayout shram = op.shram.value_or(ShramLayout{});
  set(Id::IfmIbEnd, shram.ibEnd);
  set(Id::AbStart, shram.abStart);
  if (op.isBinaryElementwise()) {
    set(Id::Ifm2IbStart, shram.ifm2IbStart);
  }
  set(Id::AccFormat, static_cast<uint32_t>(op.accFormat));
  if (op.kind == OpKind::Pool && !op.scaling.perChannel) {
    set(Id::OfmScale, op.scaling.ofmScale, op.scaling.ofmShift);
  }
  if (op.isBinaryElementwise()) {
    if (op.hasIfm2()) {
      setFeatureMap(op.ifm2, arch::kIfm2Registers, 0, false);
    } else {
      set(Id::Ifm2Scalar, static_cast<uint16_t>(op.scalar));
    }
    const BroadcastAxes& b = op.ifm2.broadcast;
    set(Id::Ifm2Broadcast, (b.height ? 1u : 0u) | (b.width ? 2u : 0u) | (b.depth ? 4u : 0u) |
                               (op.operandsSwapped ? 0x40u : 0u) | (op.hasIfm2() ? 0u : 0x80u));
  }
  set(Id::Blockdep, op.blockDep);
  switch (op.kind) {
  case OpKind::Conv: sendOp(Id::OpConv, 0); break;
  case OpKind::Depthwise: sendOp(Id::OpDepthwise, 0); break;
  case OpKind::Pool: sendOp(Id::OpPool, static_cast<uint32_t>(op.poolMode)); break;
  case OpKind::Elementwise: sendOp(Id::OpElementwise, static_cast<uint32_t>(op.elementwiseMode)); break;
  case OpKind::DmaStart: case OpKind::DmaWait: case OpKind::KernelWait: case OpKind::Stop: case OpKind::Irq:
  case OpKind::PmuMask: case OpKind::Resize: case OpKind::Branch: break;
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
  pushWord(out, npu.arch->velaIdWord);
  for (int i = 0; i < 3; ++i) {
    pushWord(out, 0x00000005);         // NOP to 16-byte-align the stream
  }
  const auto words = static_cast<uint32_t>(stream.size() / 4);
  pushWord(out, (words & 0xFFFF) << 16 | ((words >> 16) & 0xFF) << 8 | 0x02);
  out.insert(out.end(), stream.begin(), stream.end());
  return out;
}

} // namespace npusim::cmd
