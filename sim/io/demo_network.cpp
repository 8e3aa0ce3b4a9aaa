// SPDX-License-Identifier: Apache-2.0
#include "sim/io/demo_network.h"

#include <stdexcept>
#include <string>

#include "sim/cmdstream/builder.h"
#include "sim/common/int_math.h"
#include "sim/io/tflite_writer.h"

namespace npusim::io {
namespace {

using namespace npusim::cmd;

FeatureMap featureMap(uint64_t base, Shape3 shape, DataFormat format) {
  return denseFeatureMap(1, base, shape, format);
}

// Flash contents: per layer [scales (10 B/channel, 16-B padded)][weights (16-B multiple)].
struct WeightBlock {
  uint64_t offset = 0, scaleBytes = 0, weightBytes = 0;
  uint64_t total() const { return scaleBytes + weightBytes; }
};

class FlashImage {
public:
  explicit FlashImage(const arch::NpuConfig& npu) : scaleBytesPerChannel_(npu.arch->scaleBytesPerChannel) {}
  WeightBlock add(uint64_t weights, uint32_t channels) {
    WeightBlock b{bytes_.size(), roundUp(uint64_t{scaleBytesPerChannel_} * channels, 16ull),
                  roundUp(uint64_t{weights} * 7 / 8, 16ull)};
    for (uint64_t i = 0; i < b.total(); ++i) {
      state_ = state_ * 1664525u + 1013904223u; // deterministic LCG
      bytes_.push_back(static_cast<uint8_t>(state_ >> 24));
    }
    return b;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

private:
  uint32_t scaleBytesPerChannel_;
  std::vector<uint8_t> bytes_;
  uint32_t state_ = 12345;
};

Operation kernelOp(OpKind kind, const FeatureMap& ifm, const FeatureMap& ofm, Kernel k, Padding pad, Shape3 block,
                   uint32_t blockDep) {
  Operation op;
  op.kind = kind;
  op.ifm = ifm;
  op.ofm = ofm;
  op.kernel = k;
  op.padding = pad;
  op.ofmBlock = block;
  op.blockDep = blockDep;
  op.activation = Activation::clamp(-128, 127);
  op.ofm.zeroPoint = -128;
  op.shram = ShramLayout{8, 14, 0};
  return op;
}

void useWeights(Operation& op, const WeightBlock& w, uint8_t region, uint64_t base) {
  op.scales[0] = {region, base, w.scaleBytes};
  op.weights[0] = {region, base + w.scaleBytes, w.weightBytes};
}

Operation dma(const WeightBlock& w, uint64_t dst) {
  Operation op;
  op.kind = OpKind::DmaStart;
  op.dma = {0, 1, false, false, w.offset, dst, w.total()};
  return op;
}

Operation wait(OpKind kind, uint32_t count) {
  Operation op;
  op.kind = kind;
  op.waitCount = count;
  return op;
}

} // namespace

std::vector<uint8_t> buildDemoNetworkTflite(uint32_t macs) {
  const arch::NpuConfig* found = arch::findNpuConfig(arch::ethosU55(), macs);
  if (found == nullptr) {
    throw std::invalid_argument("the demo network is for " + arch::npuConfigNames(arch::ethosU55()) + ", not " +
                                std::to_string(macs) + " MACs");
  }
  const arch::NpuConfig& npu = *found;
  // Arena (region 1) plan, bytes.
  constexpr uint64_t kIn = 0, kFm1 = 3072, kFm2 = 7168, kFm3 = 11264, kFm4 = 0, kOut = 3072;
  constexpr uint64_t kBufA = 19456, kBufB = 21888, kArena = 22656;
  const FeatureMap in = featureMap(kIn, {32, 32, 3}, DataFormat::Nhwc);
  const FeatureMap fm1 = featureMap(kFm1, {16, 16, 16}, DataFormat::Nhcwb16);
  const FeatureMap fm2 = featureMap(kFm2, {16, 16, 16}, DataFormat::Nhcwb16);
  const FeatureMap fm3 = featureMap(kFm3, {16, 16, 32}, DataFormat::Nhcwb16);
  const FeatureMap fm4 = featureMap(kFm4, {8, 8, 32}, DataFormat::Nhcwb16);
  const FeatureMap out = featureMap(kOut, {8, 8, 64}, DataFormat::Nhwc);

  FlashImage flash(npu);
  const WeightBlock w1 = flash.add(3 * 3 * 3 * 16, 16);
  const WeightBlock w2 = flash.add(3 * 3 * 16, 16);
  const WeightBlock w3 = flash.add(16 * 32, 32);
  const WeightBlock w5 = flash.add(32 * 64, 64);

  Operation conv1 = kernelOp(OpKind::Conv, in, fm1, {3, 3, 2, 2, 1, 1, true}, {0, 0, 1, 1}, {8, 16, 16}, 0);
  useWeights(conv1, w1, 0, w1.offset);
  Operation dw2 = kernelOp(OpKind::Depthwise, fm1, fm2, {3, 3, 1, 1, 1, 1, false}, {1, 1, 1, 1}, {8, 16, 16}, 0);
  useWeights(dw2, w2, 1, kBufA);
  Operation conv3 = kernelOp(OpKind::Conv, fm2, fm3, {1, 1, 1, 1, 1, 1, false}, {}, {8, 16, 32}, 0);
  useWeights(conv3, w3, 1, kBufB);
  Operation pool4 = kernelOp(OpKind::Pool, fm3, fm4, {2, 2, 2, 2, 1, 1, false}, {}, {8, 8, 32}, 0);
  pool4.poolMode = PoolMode::Max;
  pool4.ifm.shape = {16, 16, 32};
  Operation conv5 = kernelOp(OpKind::Conv, fm4, out, {1, 1, 1, 1, 1, 1, false}, {}, {8, 8, 64}, 0);
  useWeights(conv5, w5, 1, kBufA);

  CommandStreamBuilder b;
  b.emit(dma(w2, kBufA));
  b.emit(conv1);
  b.emit(wait(OpKind::DmaWait, 0));
  b.emit(dw2);
  b.emit(dma(w3, kBufB));
  b.emit(wait(OpKind::DmaWait, 0));
  b.emit(conv3);
  b.emit(wait(OpKind::KernelWait, 1));
  b.emit(dma(w5, kBufA));
  b.emit(pool4);
  b.emit(wait(OpKind::DmaWait, 0));
  b.emit(conv5);
  Operation stop;
  stop.kind = OpKind::Stop;
  stop.irqMask = 0xFFFF;
  b.emit(stop);

  ModelSpec spec;
  spec.description = "npusim demo network";
  spec.tensors = {
      {"demo_command_stream", {static_cast<int32_t>(32 + b.bytes().size())}, 3, buildCop1Payload(npu, b.bytes())},
      {"demo_flash", {static_cast<int32_t>(flash.bytes().size())}, 3, flash.bytes()},
      {"demo_scratch", {static_cast<int32_t>(kArena)}, 3, {}, 0},
      {"demo_scratch_fast", {static_cast<int32_t>(kArena)}, 3, {}, 0},
      {"input", {1, 32, 32, 3}, 9, {}, static_cast<int64_t>(kIn), 0.0078125f, 0},
      {"output", {1, 8, 8, 64}, 9, {}, static_cast<int64_t>(kOut), 0.0235f, -128},
  };
  spec.operators = {{32, "ethos-u", {0, 1, 2, 3, 4}, {5}}};
  spec.inputs = {4};
  spec.outputs = {5};
  return writeTflite(spec);
}

CompiledNetwork loadModelOrDemo(const std::string& path) {
  return path.empty() ? loadNetworkFromBytes(buildDemoNetworkTflite(), "<demo>") : loadNetwork(path);
}

} // namespace npusim::io
