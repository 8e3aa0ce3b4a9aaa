// SPDX-License-Identifier: Apache-2.0
#include "support/npu_model.h"

#include <algorithm>
#include <stdexcept>

#include <doctest/doctest.h>

#include "sim/io/tflite_writer.h"
#include "support/hardware.h"

namespace npusim::test {

using namespace npusim::cmd;

namespace {


constexpr uint8_t kUint8 = 3, kInt8 = 9;

Operation kernelOp(OpKind kind, const FeatureMap& ifm, const FeatureMap& ofm, Kernel kernel, Padding padding) {
  Operation op;
  op.kind = kind;
  op.ifm = ifm;
  op.ofm = ofm;
  op.kernel = kernel;
  op.padding = padding;
  op.ofmBlock = {4, 8, 16};
  op.shram = ShramLayout{6, 6, 0};
  op.activation = Activation::clamp(-128, 127);
  op.blockDep = 1;
  return op;
}

void checkSameFeatureMap(const FeatureMap& want, const FeatureMap& got) {
  CHECK(got.region == want.region);
  CHECK(got.shape == want.shape);
  CHECK(got.base == want.base);
  CHECK(got.width0 == want.width0);
  CHECK(got.height0 == want.height0);
  CHECK(got.height1 == want.height1);
  CHECK(got.strideX == want.strideX);
  CHECK(got.strideY == want.strideY);
  CHECK(got.strideC == want.strideC);
  CHECK(got.format == want.format);
  CHECK(got.elementBits == want.elementBits);
  CHECK(got.isSigned == want.isSigned);
  CHECK(got.zeroPoint == want.zeroPoint);
  CHECK(got.storage == want.storage);
}

void checkSameStream(const Stream& want, const Stream& got) {
  CHECK(got.region == want.region);
  CHECK(got.base == want.base);
  CHECK(got.length == want.length);
}

} // namespace

std::vector<uint8_t> buildNpuModel(const std::vector<uint8_t>& cop1Payload, const ModelLayout& layout) {
  std::vector<uint8_t> flash(layout.flashBytes);
  for (size_t i = 0; i < flash.size(); ++i) {
    flash[i] = static_cast<uint8_t>(i * 7 + 3);
  }
  io::ModelSpec spec;
  spec.tensors = {
      {"test_command_stream", {static_cast<int32_t>(cop1Payload.size())}, kUint8, cop1Payload},
      {"test_flash", {static_cast<int32_t>(flash.size())}, kUint8, flash},
      {"test_scratch", {static_cast<int32_t>(layout.scratchBytes)}, kUint8, {}, 0},
      {"test_scratch_fast", {static_cast<int32_t>(layout.scratchBytes)}, kUint8, {}, 0},
      {"input", {1, 8, 8, 16}, kInt8, {}, 0, 0.5f, -1},
      {"output", {1, 8, 8, 16}, kInt8, {}, 1024, 0.25f, 3},
  };
  spec.operators = {{32, "ethos-u", {0, 1, 2, 3, 4}, {5}}};
  spec.inputs = {4};
  spec.outputs = {5};
  return io::writeTflite(spec);
}

std::vector<uint8_t> buildNpuModelWithStream(const std::vector<uint8_t>& stream, const ModelLayout& layout) {
  return buildNpuModel(buildCop1Payload(test::u55(layout.macs), stream), layout);
}

uint64_t findBytes(const std::vector<uint8_t>& haystack, const std::vector<uint8_t>& needle) {
  const auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end());
  if (it == haystack.end()) {
    throw std::runtime_error("byte pattern not found");
  }
  return static_cast<uint64_t>(it - haystack.begin());
}

FeatureMap featureMap(uint64_t base, Shape3 shape, DataFormat format, uint8_t region) {
  return denseFeatureMap(region, base, shape, format);
}

Operation sampleConv() {
  Operation op = kernelOp(OpKind::Conv, featureMap(0, {8, 8, 16}, DataFormat::Nhwc),
                          featureMap(1024, {8, 8, 16}, DataFormat::Nhcwb16), {3, 3, 1, 1, 1, 1, true}, {1, 2, 1, 0});
  op.ifm.zeroPoint = -1;
  op.ofm.zeroPoint = 3;
  op.scales[0] = {0, 0, 160};
  op.weights[0] = {0, 160, 2048};
  return op;
}

Operation sampleDepthwise() {
  Operation op = kernelOp(OpKind::Depthwise, featureMap(1024, {8, 8, 16}, DataFormat::Nhcwb16),
                          featureMap(2048, {4, 4, 16}, DataFormat::Nhcwb16), {3, 3, 2, 2, 1, 1, false}, {0, 0, 1, 1});
  op.scales[0] = {1, 8192, 160};
  op.weights[0] = {1, 8352, 192};
  op.activation = Activation::clamp(0, 127);
  return op;
}

Operation samplePool() {
  Operation op = kernelOp(OpKind::Pool, featureMap(1024, {8, 8, 16}, DataFormat::Nhcwb16),
                          featureMap(3072, {4, 4, 16}, DataFormat::Nhwc), {2, 2, 2, 2, 1, 1, false}, {});
  op.poolMode = PoolMode::Average;
  op.scaling.perChannel = false;
  op.scaling.ofmScale = 1 << 30;
  op.scaling.ofmShift = 32;
  op.scaling.roundMode = RoundMode::Natural;
  return op;
}

Operation sampleElementwise() {
  Operation op = kernelOp(OpKind::Elementwise, featureMap(0, {8, 8, 16}, DataFormat::Nhwc),
                          featureMap(4096, {8, 8, 16}, DataFormat::Nhwc), {}, {});
  op.elementwiseMode = ElementwiseMode::Add;
  op.ifm2 = featureMap(5120, {1, 8, 16}, DataFormat::Nhwc);
  op.ifm2.zeroPoint = 5;
  op.ifm2.broadcast.height = true;
  op.shram->ifm2IbStart = 3;
  op.scaling.perChannel = false;
  op.scaling.opaScale = 0x4000;
  op.scaling.opbScale = 0x2000;
  op.scaling.ofmScale = 0x40000000;
  op.scaling.ofmShift = 31;
  return op;
}

Operation sampleScalarMul() {
  Operation op = sampleElementwise();
  op.elementwiseMode = ElementwiseMode::Mul;
  op.ifm2.broadcast = {};
  op.ifm2.storage = Storage::None;
  op.operandsSwapped = true;
  op.scalar = -7;
  op.ifm.elementBits = 16;
  op.ifm.strideX = 32;
  op.ifm.strideY = 256;
  op.ifm.strideC = 2;
  op.scaling.ifmScaleMode = 1;
  return op;
}

Operation sampleDma() {
  Operation op;
  op.kind = OpKind::DmaStart;
  op.dma = {0, 1, false, false, 0, 8192, 352};
  return op;
}

Operation sampleLutDma() {
  Operation op;
  op.kind = OpKind::DmaStart;
  op.dma = {0, 3, false, true, 2048, 0x5800, 2048};
  return op;
}

Operation waitOp(OpKind kind, uint32_t count) {
  Operation op;
  op.kind = kind;
  op.waitCount = count;
  return op;
}

Operation stopOp() {
  Operation op;
  op.kind = OpKind::Stop;
  op.irqMask = 0xFFFF;
  return op;
}

std::vector<uint8_t> encodeOps(const std::vector<Operation>& ops) {
  CommandStreamBuilder b;
  for (const Operation& op : ops) {
    b.emit(op);
  }
  b.emit(stopOp());
  return b.bytes();
}

StreamOrigin testOrigin() { return {"<test stream>", 0}; }

std::vector<Operation> decodeStream(const std::vector<uint8_t>& stream, const arch::NpuConfig& hardware) {
  return decodeProgram(hardware, stream.data(), stream.size(), testOrigin(), RegionLimits{}).operations;
}

std::vector<Operation> decodeStream(const std::vector<uint8_t>& stream) { return decodeStream(stream, u55(128)); }

void checkSameOperation(const Operation& want, const Operation& got) {
  INFO("operation ", opKindName(want.kind));
  REQUIRE(got.kind == want.kind);
  switch (want.kind) {
  case OpKind::Conv: case OpKind::Depthwise: case OpKind::Pool: case OpKind::Elementwise:
    checkSameFeatureMap(want.ifm, got.ifm);
    checkSameFeatureMap(want.ofm, got.ofm);
    CHECK(got.upscale == want.upscale);
    CHECK(got.ofmBlock == want.ofmBlock);
    REQUIRE(got.shram.has_value());
    CHECK(got.shram->ibEnd == want.shram.value_or(cmd::ShramLayout{}).ibEnd);
    CHECK(got.shram->abStart == want.shram.value_or(cmd::ShramLayout{}).abStart);
    CHECK(got.accFormat == want.accFormat);
    CHECK(got.blockDep == want.blockDep);
    CHECK(got.activation.function == want.activation.function);
    CHECK(got.activation.lutSlot == want.activation.lutSlot);
    CHECK(got.activation.clipRange == want.activation.clipRange);
    CHECK(got.activation.min == want.activation.min);
    CHECK(got.activation.max == want.activation.max);
    CHECK(got.scaling.perChannel == want.scaling.perChannel);
    CHECK(got.scaling.roundMode == want.scaling.roundMode);
    CHECK(got.scaling.ifmScaleMode == want.scaling.ifmScaleMode);
    CHECK(got.macs() == want.macs());
    break;
  case OpKind::DmaStart:
    CHECK(got.dma.srcRegion == want.dma.srcRegion);
    CHECK(got.dma.dstRegion == want.dma.dstRegion);
    CHECK(got.dma.srcInternal == want.dma.srcInternal);
    CHECK(got.dma.dstInternal == want.dma.dstInternal);
    CHECK(got.dma.src == want.dma.src);
    CHECK(got.dma.dst == want.dma.dst);
    CHECK(got.dma.length == want.dma.length);
    return;
  case OpKind::DmaWait: case OpKind::KernelWait:
    CHECK(got.waitCount == want.waitCount);
    return;
  case OpKind::Stop: case OpKind::Irq:
    CHECK(got.irqMask == want.irqMask);
    return;
  case OpKind::PmuMask:
    CHECK(got.param == want.param);
    return;
  case OpKind::Resize: case OpKind::Branch:
    FAIL("checkSameOperation compares architecture 1.x operations only");
    return;
  }
  if (want.kind != OpKind::Elementwise) {
    CHECK(got.kernel.width == want.kernel.width);
    CHECK(got.kernel.height == want.kernel.height);
    CHECK(got.kernel.strideX == want.kernel.strideX);
    CHECK(got.kernel.strideY == want.kernel.strideY);
    CHECK(got.kernel.dilationX == want.kernel.dilationX);
    CHECK(got.kernel.dilationY == want.kernel.dilationY);
    CHECK(got.kernel.partKernelFirst == want.kernel.partKernelFirst);
    CHECK(got.padding.top == want.padding.top);
    CHECK(got.padding.left == want.padding.left);
    CHECK(got.padding.bottom == want.padding.bottom);
    CHECK(got.padding.right == want.padding.right);
  }
  if (want.kind == OpKind::Conv || want.kind == OpKind::Depthwise) {
    REQUIRE(got.weightStreamCount == want.weightStreamCount);
    REQUIRE(got.scaleStreamCount == want.scaleStreamCount);
    for (size_t i = 0; i < want.weightStreamCount; ++i) {
      checkSameStream(want.weights[i], got.weights[i]);
    }
    for (size_t i = 0; i < want.scaleStreamCount && want.scaling.perChannel; ++i) {
      checkSameStream(want.scales[i], got.scales[i]);
    }
  }
  if (want.kind == OpKind::Pool) {
    CHECK(got.poolMode == want.poolMode);
  }
  if (!want.scaling.perChannel) {
    CHECK(got.scaling.ofmScale == want.scaling.ofmScale);
    CHECK(got.scaling.ofmShift == want.scaling.ofmShift);
  }
  if (want.kind == OpKind::Elementwise) {
    CHECK(got.elementwiseMode == want.elementwiseMode);
    CHECK(got.scaling.opaScale == want.scaling.opaScale);
    CHECK(got.scaling.opbScale == want.scaling.opbScale);
    CHECK(got.ifm2.storage == want.ifm2.storage);
    CHECK(got.operandsSwapped == want.operandsSwapped);
    CHECK(got.hasIfm2() == want.hasIfm2());
    if (want.hasIfm2()) {
      checkSameFeatureMap(want.ifm2, got.ifm2);
      CHECK(got.shram->ifm2IbStart == want.shram.value_or(cmd::ShramLayout{}).ifm2IbStart);
      CHECK(got.ifm2.broadcast.height == want.ifm2.broadcast.height);
      CHECK(got.ifm2.broadcast.width == want.ifm2.broadcast.width);
      CHECK(got.ifm2.broadcast.depth == want.ifm2.broadcast.depth);
    } else if (want.isBinaryElementwise()) {
      CHECK(got.scalar == want.scalar);
    }
  }
}

} // namespace npusim::test
