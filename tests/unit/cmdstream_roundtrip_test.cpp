// SPDX-License-Identifier: Apache-2.0
// Builder -> bytes -> decoder round trips, register stickiness, tile addressing and the
// packed-field decoding of the command stream (no fixtures needed).

#include <doctest/doctest.h>

#include "sim/cmdstream/builder.h"
#include "sim/cmdstream/decoder.h"
#include "sim/common/error.h"
#include "support/npu_model.h"
#include "support/hardware.h"

namespace npusim::cmd {
namespace {

using test::checkSameOperation;
using test::decodeStream;
using test::encodeOps;

// Emits `ops` (plus STOP), decodes the bytes for `hardware` and compares operation by operation.
void checkRoundTrip(const std::vector<Operation>& ops, const arch::NpuConfig& hardware = test::u55(128)) {
  const std::vector<Operation> decoded = decodeStream(encodeOps(ops), hardware);
  REQUIRE(decoded.size() == ops.size() + 1);
  for (size_t i = 0; i < ops.size(); ++i) {
    checkSameOperation(ops[i], decoded[i]);
  }
  CHECK(decoded.back().kind == OpKind::Stop);
  CHECK(decoded.back().irqMask == 0xFFFF);
}

// Decodes a stream of raw register writes followed by one NPU_OP_CONV.
Operation decodeConvAfter(CommandStreamBuilder& b) {
  b.cmd0(arch::CommandId::OpConv, 0);
  b.cmd0(arch::CommandId::OpStop, 0xFFFF);
  const std::vector<Operation> ops = decodeStream(b.bytes());
  REQUIRE(ops.size() == 2);
  return ops[0];
}

} // namespace

TEST_CASE("builder round trip: convolution") { checkRoundTrip({test::sampleConv()}); }

TEST_CASE("builder round trip: depthwise convolution") { checkRoundTrip({test::sampleDepthwise()}); }

TEST_CASE("builder round trip: a two-core convolution reads each core's weight and scale streams") {
  // NPU_SET_PARALLEL_MODE 1 (ethos-u65-512): WEIGHT1_* and SCALE1_* in the first streams' regions.
  Operation conv = test::sampleConv();
  conv.weightStreamCount = conv.scaleStreamCount = 2;
  conv.weights[1] = {conv.weights[0].region, 3000, 512};
  conv.scales[1] = {conv.scales[0].region, 3600, 96};
  checkRoundTrip({conv, test::sampleDepthwise()}, test::u65(512));
  // A one-core NPU refuses the split.
  CHECK_THROWS_WITH_AS(decodeStream(encodeOps({conv}), test::u55(128)),
                       doctest::Contains("compiled for a 1-core NPU"), InputError);
}

TEST_CASE("builder round trip: tanh, sigmoid and a LUT slot") {
  for (ActivationFunction f : {ActivationFunction::Tanh, ActivationFunction::Sigmoid, ActivationFunction::Lut}) {
    Operation conv = test::sampleConv();
    conv.activation.function = f;
    conv.activation.lutSlot = f == ActivationFunction::Lut ? 5 : 0;
    checkRoundTrip({conv});
  }
  // ACTIVATION's function field as the command-stream doc encodes it: 3 tanh, 4 sigmoid, 16 + slot.
  CommandStreamBuilder b;
  b.cmd0(arch::CommandId::Activation, 21);
  const Operation lut = decodeConvAfter(b);
  CHECK(lut.activation.function == ActivationFunction::Lut);
  CHECK(lut.activation.lutSlot == 5);
  CHECK(lut.activation.code == 21);
}

TEST_CASE("builder round trip: pooling, every mode") {
  for (PoolMode mode : {PoolMode::Max, PoolMode::Average, PoolMode::ReduceSum}) {
    Operation op = test::samplePool();
    op.poolMode = mode;
    checkRoundTrip({op});
  }
}

TEST_CASE("builder round trip: elementwise with IFM2 tensor and with scalar") {
  checkRoundTrip({test::sampleElementwise(), test::sampleScalarMul()});
  Operation unary = test::sampleElementwise();
  unary.elementwiseMode = ElementwiseMode::Abs;
  checkRoundTrip({unary});
}

TEST_CASE("builder round trip: DMA and waits") {
  checkRoundTrip({test::sampleDma(), test::waitOp(OpKind::DmaWait, 0), test::sampleLutDma(),
                  test::waitOp(OpKind::KernelWait, 1), test::waitOp(OpKind::DmaWait, 3)});
}

TEST_CASE("builder round trip: a whole sequence keeps per-operation state") {
  checkRoundTrip({test::sampleDma(), test::sampleConv(), test::waitOp(OpKind::DmaWait, 0), test::sampleDepthwise(),
                  test::samplePool(), test::sampleElementwise(), test::sampleScalarMul(), test::sampleConv()});
}

TEST_CASE("builder round trip: command indices and byte offsets of the operations") {
  const std::vector<uint8_t> stream = encodeOps({test::sampleDma(), test::sampleConv()});
  const Program program = decodeProgram(test::u55(128), stream.data(), stream.size(), test::testOrigin(), {});
  const std::vector<Command>& commands = program.commands;
  const std::vector<Operation>& ops = program.operations;
  REQUIRE(ops.size() == 3);
  for (const Operation& op : ops) {
    REQUIRE(op.commandIndex < commands.size());
    const Command& c = commands[op.commandIndex];
    CHECK(c.info->isOperation);
    CHECK(c.offset == op.byteOffset);
  }
  // DMA: SRC_REGION, SRC, DST_REGION, DST, LEN, DMA_START = 1 + 2 + 1 + 2 + 2 + 1 words.
  CHECK(ops[0].commandIndex == 5);
  CHECK(ops[0].byteOffset == 9 * 4 - 4);
  CHECK(commands.back().id() == arch::CommandId::OpStop);
  CHECK(encodeCommands(commands) == stream);
}

TEST_CASE("program: a byte offset names its command, a command index the operations from there") {
  const std::vector<uint8_t> stream = encodeOps({test::sampleDma(), test::sampleConv()});
  const Program program = decodeProgram(test::u55(128), stream.data(), stream.size(), test::testOrigin(), {});
  REQUIRE(program.operations.size() == 3);
  CHECK(program.streamBytes() == stream.size());
  // Every command starts at its own offset; the bytes inside a cmd1 start none.
  for (const Command& c : program.commands) {
    REQUIRE(program.commandAt(c.offset).has_value());
    CHECK(*program.commandAt(c.offset) == c.index);
    if (c.hasPayload()) CHECK_FALSE(program.commandAt(c.offset + 4).has_value());
  }
  CHECK_FALSE(program.commandAt(static_cast<uint32_t>(stream.size())).has_value());
  // From the first command, the DMA; from just past it, the convolution; past STOP, none.
  const Operation& dma = program.operations[0];
  CHECK(program.operationFrom(0) == 0);
  CHECK(program.operationFrom(dma.commandIndex) == 0);
  CHECK(program.operationFrom(dma.commandIndex + 1) == 1);
  CHECK(program.operationFrom(program.operations[2].commandIndex + 1) == 3);
}

TEST_CASE("register stickiness: unchanged registers are not re-emitted and are inherited") {
  const Operation first = test::sampleConv();
  Operation second = first;
  second.ofm.base[0] = 2048;

  CommandStreamBuilder b;
  b.emit(first);
  const size_t wordsAfterFirst = b.words().size();
  b.emit(second);
  // Only OFM_BASE0 (cmd1: 2 words) and NPU_OP_CONV (1 word) are new.
  REQUIRE(b.words().size() == wordsAfterFirst + 3);
  CHECK((b.words()[wordsAfterFirst] & 0xFFFF) == 0x4010); // cmd1 0x010 NPU_SET_OFM_BASE0
  CHECK(b.words()[wordsAfterFirst + 1] == 2048);
  CHECK(b.words().back() == 0x0002);                        // cmd0 0x002 NPU_OP_CONV

  b.emit(test::stopOp());
  const std::vector<Operation> ops = decodeStream(b.bytes());
  REQUIRE(ops.size() == 3);
  checkSameOperation(first, ops[0]);
  checkSameOperation(second, ops[1]);
}

TEST_CASE("register stickiness: the register file keeps values across operations") {
  CommandStreamBuilder b;
  b.set(arch::CommandId::IfmRegion, 2);
  b.set(arch::CommandId::IfmRegion, 2); // suppressed: same value
  b.set(arch::CommandId::OfmScale, 0x12345678, 7);
  b.set(arch::CommandId::OfmScale, 0x12345678, 8); // shift changed: re-emitted
  CHECK(b.words().size() == 1 + 2 + 2);
  b.cmd0(arch::CommandId::OpPool, 1);
  b.cmd0(arch::CommandId::OpPool, 1);
  b.set(arch::CommandId::IfmRegion, 3);
  b.cmd0(arch::CommandId::OpPool, 1);
  b.cmd0(arch::CommandId::OpStop, 0);
  const std::vector<Operation> ops = decodeStream(b.bytes());
  REQUIRE(ops.size() == 4);
  CHECK(ops[0].ifm.region == 2);
  CHECK(ops[1].ifm.region == 2);
  CHECK(ops[2].ifm.region == 3);
  for (size_t i = 0; i < 3; ++i) {
    CHECK(ops[i].scaling.ofmScale == 0x12345678);
    CHECK(ops[i].scaling.ofmShift == 8);
    CHECK(ops[i].poolMode == PoolMode::Average);
  }

  RegisterFile regs;
  Command c;
  c.key = 0x4020; // cmd1 opcode 0x020 (command-stream doc 4)
  c.info = arch::ethosU55CommandSet().find(c.key);
  REQUIRE(c.info != nullptr);
  CHECK(c.info->name == "NPU_SET_WEIGHT_BASE");
  c.payload = 0xABCD0;
  c.param = 0x12;
  regs.apply(c);
  CHECK(regs.read(arch::CommandId::WeightBase) == 0xABCD0);
  CHECK(regs.readHigh(arch::CommandId::WeightBase) == 0x12);
  CHECK(regs.read(arch::CommandId::ScaleBase) == 0);
}

TEST_CASE("tile addressing: NHWC with two vertical tiles") {
  FeatureMap fm = test::featureMap(1000, {6, 4, 3}, DataFormat::Nhwc);
  fm.height0 = fm.height1 = 4; // rows 0-3 in tile 0, rows 4-5 in tile 2
  fm.base = {1000, 0, 5000, 0};
  // strides: C = 1, X = 3, Y = 12
  CHECK(fm.address(0, 0, 0) == 1000);
  CHECK(fm.address(3, 3, 2) == 1000 + 3 * 12 + 3 * 3 + 2);
  CHECK(fm.address(4, 0, 0) == 5000);
  CHECK(fm.address(5, 2, 1) == 5000 + 1 * 12 + 2 * 3 + 1);
  const ByteSpan span = fm.footprint();
  CHECK(span.begin == 1000);
  CHECK(span.end == 5000 + 1 * 12 + 3 * 3 + 2 + 1);

  fm.elementBits = 16;
  fm.strideC = 2;
  fm.strideX = 6;
  fm.strideY = 24;
  CHECK(fm.address(5, 2, 1) == 5000 + 24 + 12 + 2);
  CHECK(fm.footprint().end == 5000 + 24 + 18 + 4 + 2);
}

TEST_CASE("tile addressing: NHCWB16 with two vertical tiles") {
  FeatureMap fm = test::featureMap(256, {4, 5, 20}, DataFormat::Nhcwb16);
  fm.height0 = fm.height1 = 2;
  fm.base = {256, 0, 4096, 0};
  // strides: X = 16, C (brick) = 16 * 5 = 80, Y = 5 * 32 = 160
  REQUIRE(fm.strideC == 80);
  REQUIRE(fm.strideY == 160);
  CHECK(fm.address(0, 0, 0) == 256);
  CHECK(fm.address(0, 1, 0) == 256 + 16);
  CHECK(fm.address(0, 0, 15) == 256 + 15);
  CHECK(fm.address(0, 0, 16) == 256 + 80);
  CHECK(fm.address(1, 4, 19) == 256 + 160 + 80 + 4 * 16 + 3);
  CHECK(fm.address(2, 0, 0) == 4096);
  CHECK(fm.address(3, 2, 17) == 4096 + 160 + 80 + 2 * 16 + 1);
  const ByteSpan span = fm.footprint();
  CHECK(span.begin == 256);
  CHECK(span.end == 4096 + 160 + 80 + 4 * 16 + 3 + 1);
}

TEST_CASE("tile addressing: horizontal split uses tiles 1 and 3") {
  FeatureMap fm = test::featureMap(0, {4, 8, 1}, DataFormat::Nhwc);
  fm.width0 = 5;
  fm.height0 = 2;
  fm.height1 = 3;
  fm.base = {0, 1000, 2000, 3000};
  CHECK(fm.address(1, 4, 0) == 0 + 8 + 4);
  CHECK(fm.address(2, 5, 0) == 1000 + 2 * 8);   // tile 1: y < H1
  CHECK(fm.address(2, 4, 0) == 2000 + 0 * 8 + 4); // tile 2: y >= H0
  CHECK(fm.address(3, 7, 0) == 3000 + 0 * 8 + 2); // tile 3: y >= H1, x - W0
}

TEST_CASE("KERNEL_STRIDE decoding: strides, dilation and traversal bits") {
  struct Case {
    uint16_t stride;
    uint32_t strideX, strideY, dilationX, dilationY;
    bool partKernelFirst;
  };
  const Case cases[] = {
      {0x000, 1, 1, 1, 1, false}, {0x006, 1, 2, 1, 1, true},  {0x001, 2, 1, 1, 1, false},
      {0x040, 3, 1, 1, 1, false}, {0x200, 1, 3, 1, 1, false}, {0x243, 4, 4, 1, 1, false},
      {0x018, 1, 1, 2, 2, false}, {0x00C, 1, 1, 2, 1, true},
  };
  for (const Case& k : cases) {
    INFO("KERNEL_STRIDE = ", k.stride);
    CommandStreamBuilder b;
    b.cmd0(arch::CommandId::KernelStride, k.stride);
    b.cmd0(arch::CommandId::KernelWidthM1, 4);
    b.cmd0(arch::CommandId::KernelHeightM1, 2);
    const Operation op = decodeConvAfter(b);
    CHECK(op.kernel.strideX == k.strideX);
    CHECK(op.kernel.strideY == k.strideY);
    CHECK(op.kernel.dilationX == k.dilationX);
    CHECK(op.kernel.dilationY == k.dilationY);
    CHECK(op.kernel.partKernelFirst == k.partKernelFirst);
    // KERNEL_*_M1 hold the dilated span - 1.
    CHECK(op.kernel.width == 4 / k.dilationX + 1);
    CHECK(op.kernel.height == 2 / k.dilationY + 1);
    CHECK(op.kernel.dilatedWidth() == 5);
    CHECK(op.kernel.dilatedHeight() == 3);
  }
}

TEST_CASE("IFM extent: KWS first convolution gives a 49x5 IFM") {
  // OFM 25x5, kernel 10x3 (h x w), stride y 2, pads top 4, left 1, bottom 5, right 1.
  CommandStreamBuilder b;
  b.cmd0(arch::CommandId::OfmHeightM1, 24);
  b.cmd0(arch::CommandId::OfmWidthM1, 4);
  b.cmd0(arch::CommandId::OfmDepthM1, 63);
  b.cmd0(arch::CommandId::IfmDepthM1, 0);
  b.cmd0(arch::CommandId::KernelHeightM1, 9);
  b.cmd0(arch::CommandId::KernelWidthM1, 2);
  b.cmd0(arch::CommandId::KernelStride, 6);
  b.cmd0(arch::CommandId::IfmPadTop, 4);
  b.cmd0(arch::CommandId::IfmPadLeft, 1);
  b.cmd0(arch::CommandId::IfmPadBottom, 5);
  b.cmd0(arch::CommandId::IfmPadRight, 1);
  const Operation op = decodeConvAfter(b);
  CHECK(op.ifm.shape == Shape3{49, 5, 1});
  CHECK(op.ofm.shape == Shape3{25, 5, 64});
  CHECK(op.kernel.height == 10);
  CHECK(op.kernel.width == 3);
  CHECK(op.kernel.strideY == 2);
  CHECK(op.kernel.strideX == 1);
  CHECK(op.kernel.partKernelFirst);
  CHECK(op.macs() == 10ull * 3 * 1 * 25 * 5 * 64);
}

TEST_CASE("IFM extent: 2x upscale halves the extent") {
  Operation op = test::sampleConv();
  op.upscale = Upscale::Nearest;
  op.padding = {0, 0, 0, 0};
  op.ofm.shape = {16, 16, 16};
  const std::vector<Operation> ops = decodeStream(encodeOps({op}));
  // (16 - 1) + 3 = 18 upscaled rows -> 9 IFM rows.
  CHECK(ops[0].ifm.shape == Shape3{9, 9, 16});
  CHECK(ops[0].upscale == Upscale::Nearest);
}

TEST_CASE("COP1 payload: Vela's header layout") {
  CHECK(arch::configWord(test::u55(32)) == 0x1005);
  CHECK(arch::configWord(test::u55(64)) == 0x1006);
  CHECK(arch::configWord(test::u55(128)) == 0x1807);
  CHECK(arch::configWord(test::u55(256)) == 0x3008);
  // The U65 fixtures' COP1 headers: product 1, 48 / 96 KiB SHRAM, 2^8 / 2^9 MACs.
  CHECK(arch::configWord(test::u65(256)) == 0x10003008);
  CHECK(arch::configWord(test::u65(512)) == 0x10006009);
  const std::vector<uint8_t> stream = encodeOps({});
  const std::vector<uint8_t> payload = buildCop1Payload(test::u55(256), stream);
  REQUIRE(payload.size() == 32 + stream.size());
  const std::vector<uint8_t> header(payload.begin(), payload.begin() + 32);
  CHECK(header == std::vector<uint8_t>{'C', 'O', 'P', '1', 0x01, 0x00, 0x10, 0x00, 0x08, 0x30, 0, 0, 0, 0, 0x06, 0x10,
                                       5, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 0x02, 0, 1, 0});
}

} // namespace npusim::cmd
