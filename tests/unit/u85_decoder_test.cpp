// SPDX-License-Identifier: Apache-2.0
// The Ethos-U85 decoder on streams written register by register: what each U85 feature decodes
// to in the architecture-neutral Operation (ethos-u85.md 3.2-3.4). The bad encodings are in
// bad_input_test.cpp.

#include <doctest/doctest.h>

#include "sim/cmdstream/decoder.h"
#include "support/hardware.h"
#include "support/npu_model.h"
#include "support/u85_streams.h"

namespace npusim {
namespace {

using arch::CommandId;
using cmd::Operation;

std::vector<Operation> decodeU85(cmd::CommandStreamBuilder& b, uint32_t macs = 256) {
  test::u85Stop(b);
  return test::decodeStream(b.bytes(), test::u85(macs));
}

} // namespace

TEST_CASE("U85 decoder: an elementwise ADD, its micro-block and accumulators") {
  cmd::CommandStreamBuilder b = test::u85Builder();
  test::u85AddRegisters(b);
  b.cmd0(CommandId::OpElementwise, 1);
  const std::vector<Operation> ops = decodeU85(b);
  REQUIRE(ops.size() == 2);
  const Operation& add = ops[0];
  CHECK(add.kind == cmd::OpKind::Elementwise);
  CHECK(add.elementwiseMode == cmd::ElementwiseMode::Add);
  CHECK(add.ifm.shape == Shape3{4, 4, 16});
  CHECK(add.ifm2.shape == Shape3{4, 4, 16});
  CHECK(add.ofm.shape == Shape3{4, 4, 16});
  CHECK(add.ofm.base[0] == 512);
  CHECK(add.hasIfm2());
  CHECK(add.ublock == Shape3{1, 2, 16});   // ethos-u85-256's 1x2 micro-block
  CHECK(add.accFormat == cmd::AccFormat::Int32);
  CHECK(add.accInput == cmd::AccInput::Reset);
  CHECK(add.ofmWritten);
  CHECK_FALSE(add.shram.has_value());
  CHECK(add.activation.min == -128);
  CHECK(add.activation.max == 127);
  CHECK(ops[1].kind == cmd::OpKind::Stop);
}

TEST_CASE("U85 decoder: a chained pair passes its tensor through a chaining buffer") {
  cmd::CommandStreamBuilder b = test::u85Builder();
  test::u85AddRegisters(b);
  b.cmd0(CommandId::OfmPrecision, 0x8001);   // storage CHAINED
  b.cmd0(CommandId::OfmRegion, 2);           // chaining buffer 2
  b.cmd0(CommandId::OpElementwise, 0);       // MUL
  b.cmd0(CommandId::IfmPrecision, 0x8001);   // reads chaining buffer 2
  b.cmd0(CommandId::IfmRegion, 2);
  b.cmd0(CommandId::OfmPrecision, 0x0001);
  b.cmd0(CommandId::OfmRegion, 1);
  b.cmd0(CommandId::OpElementwise, 1);       // ADD
  const std::vector<Operation> ops = decodeU85(b);
  REQUIRE(ops.size() == 3);
  CHECK(ops[0].ofm.storage == cmd::Storage::Chained);
  CHECK(ops[0].ofm.region == 2);
  CHECK(ops[1].ifm.storage == cmd::Storage::Chained);
  CHECK(ops[1].ifm.region == 2);
  CHECK(ops[1].ofm.storage == cmd::Storage::Tile2x2);
}

TEST_CASE("U85 decoder: broadcast axes, a 32-bit scalar operand, transposition and reversal") {
  cmd::CommandStreamBuilder b = test::u85Builder();
  test::u85AddRegisters(b);
  b.cmd0(CommandId::Ifm2Broadcast, 5);       // CH: IFM2 is 1 x W x 1
  b.cmd0(CommandId::OpElementwise, 2);       // SUB
  b.cmd0(CommandId::Ifm2Broadcast, 8);       // SCALAR
  b.cmd0(CommandId::Ifm2Precision, 0xC009);  // int32, storage NONE
  b.cmd1(CommandId::OpScalar, 0xFFFFFFFE);
  b.cmd0(CommandId::OfmHeightM1, 1);         // 2 x 4 x 16 before transposition
  b.cmd0(CommandId::OfmPrecision, 0x0801 | 2u << 9);   // transpose WHC, reverse W
  b.cmd0(CommandId::OpElementwise, 0);       // MUL
  const std::vector<Operation> ops = decodeU85(b);
  REQUIRE(ops.size() == 3);
  CHECK(ops[0].ifm2.broadcast.height);
  CHECK_FALSE(ops[0].ifm2.broadcast.width);
  CHECK(ops[0].ifm2.broadcast.depth);
  CHECK(ops[0].ifm2.shape == Shape3{1, 4, 1});
  const Operation& mul = ops[1];
  CHECK(mul.ifm2.storage == cmd::Storage::None);
  CHECK_FALSE(mul.hasIfm2());
  CHECK(mul.isBinaryElementwise());
  CHECK(mul.scalar == -2);
  CHECK(mul.ofmTranspose == cmd::Transpose::Whc);
  CHECK(mul.ofmReverse == cmd::Reverse::W);
  CHECK(mul.ofm.shape == Shape3{4, 2, 16});   // as stored: W x H x C
  CHECK(mul.ifm.shape == Shape3{2, 4, 16});   // as computed
}

TEST_CASE("U85 decoder: RESIZE reads the IFM extent from the kernel registers and its steps") {
  cmd::CommandStreamBuilder b = test::u85Builder();
  test::u85Common(b);
  b.cmd0(CommandId::KernelHeightM1, 1);       // IFM 2 x 2
  b.cmd0(CommandId::KernelWidthM1, 1);
  b.cmd0(CommandId::ResizeXScaleNM1, 3);      // n = 4
  b.cmd0(CommandId::ResizeYScaleNM1, 3);
  b.cmd0(CommandId::ResizeXOffset, 0x0FFF);   // -1
  b.cmd0(CommandId::ResizeYOffset, 2);
  b.cmd1(CommandId::ResizeXStep, 0x00020002, 0x00D0);   // block step 13, steps mod 2, 2
  b.cmd0(CommandId::OpResize, 2);                        // NEAREST
  const std::vector<Operation> ops = decodeU85(b);
  REQUIRE(ops.size() == 2);
  const Operation& r = ops[0];
  CHECK(r.kind == cmd::OpKind::Resize);
  CHECK(cmd::isKernel(r.kind));
  CHECK(r.resize.mode == cmd::ResizeMode::Nearest);
  CHECK(r.ifm.shape == Shape3{2, 2, 16});
  CHECK(r.ofm.shape == Shape3{4, 4, 16});
  CHECK(r.resize.x.scaleNumerator == 4);
  CHECK(r.resize.x.offset == -1);
  CHECK(r.resize.y.offset == 2);
  CHECK(r.resize.x.stepInt == 0);
  CHECK(r.resize.x.blockStepInt == 13);
  CHECK(r.resize.x.stepMod == 2);
  CHECK(r.resize.x.blockStepMod == 2);
  CHECK(r.macs() == 0);
}

TEST_CASE("U85 decoder: BRANCH targets a command by byte offset and index") {
  cmd::CommandStreamBuilder b = test::u85Builder();
  b.cmd0(CommandId::OpKernelWait, 0);                   // command 0 at byte 0
  b.cmd1(CommandId::OpScalar, 7);                       // command 1 at byte 4 (8 bytes)
  b.cmd1(CommandId::OpBranch, 4, 1);                    // command 2 at byte 12: RF_TRUE to byte 4
  b.cmd1(CommandId::OpBranch, 28);                      // command 3 at byte 20: ALWAYS to byte 28 (the STOP)
  const std::vector<Operation> ops = decodeU85(b);
  REQUIRE(ops.size() == 4);
  CHECK(ops[1].kind == cmd::OpKind::Branch);
  CHECK(ops[1].branch.conditional);
  CHECK(ops[1].branch.target == 4);
  CHECK(ops[1].branch.targetCommand == 1);
  CHECK_FALSE(ops[2].branch.conditional);
  CHECK(ops[2].branch.targetCommand == 4);   // the STOP
}

TEST_CASE("U85 decoder: 3-D, gathering and LUT DMAs") {
  cmd::CommandStreamBuilder b = test::u85Builder();
  b.cmd0(CommandId::Dma0SrcRegion, 0 | 2u << 9);   // region 0, 3-D
  b.cmd0(CommandId::Dma0DstRegion, 1);
  b.cmd1(CommandId::Dma0Src, 16);
  b.cmd1(CommandId::Dma0Dst, 32);
  b.cmd1(CommandId::Dma0Len, 8);
  b.cmd0(CommandId::Dma0Size0, 4);
  b.cmd0(CommandId::Dma0Size1, 3);
  b.cmd1(CommandId::Dma0SrcStride0, 16);
  b.cmd1(CommandId::Dma0SrcStride1, 64);
  b.cmd1(CommandId::Dma0DstStride0, 8);
  b.cmd1(CommandId::Dma0DstStride1, 32);
  b.cmd0(CommandId::OpDmaStart, 0);
  b.cmd0(CommandId::Dma0SrcRegion, 1 | 1u << 9 | 1u << 11);   // region 1, 2-D, indexed source
  b.cmd0(CommandId::Dma0IdxRegion, 1);
  b.cmd1(CommandId::Dma0Idx, 1024);
  b.cmd1(CommandId::Dma0IdxMax, 9);
  b.cmd0(CommandId::OpDmaStart, 0);
  b.cmd0(CommandId::Dma0SrcRegion, 0);
  b.cmd0(CommandId::Dma0DstRegion, 3 | 0x100);                   // the LUT RAM
  b.cmd1(CommandId::Dma0Dst, 512);
  b.cmd1(CommandId::Dma0Len, 512);
  b.cmd0(CommandId::OpDmaStart, 0);
  const std::vector<Operation> ops = decodeU85(b);
  REQUIRE(ops.size() == 4);
  const cmd::DmaTransfer& d3 = ops[0].dma;
  CHECK(d3.dimensions == 3);
  CHECK(d3.sizes == std::array<uint32_t, 2>{4, 3});
  CHECK(d3.srcStrides == std::array<uint64_t, 2>{16, 64});
  CHECK(d3.dstStrides == std::array<uint64_t, 2>{8, 32});
  CHECK(d3.length == 8);
  const cmd::DmaTransfer& gather = ops[1].dma;
  CHECK(gather.dimensions == 2);
  CHECK(gather.srcIndexed);
  CHECK_FALSE(gather.dstIndexed);
  CHECK(gather.indexRegion == 1);
  CHECK(gather.index == 1024);
  CHECK(gather.indexMax == 9);
  const cmd::DmaTransfer& lut = ops[2].dma;
  CHECK(lut.dstInternal);
  CHECK(lut.dimensions == 1);
  CHECK(lut.dst == 512);
}

TEST_CASE("U85 decoder: a standard stream per weight decoder, one fast stream, 2:4 sparsity, LUT tables") {
  const auto conv = [](uint32_t macs, uint32_t decoders, uint32_t ublock, uint16_t format) {
    cmd::CommandStreamBuilder b = test::u85Builder();
    test::u85ConvRegisters(b, decoders, ublock);
    b.cmd0(CommandId::WeightFormat, format);
    b.cmd0(CommandId::Activation, 7 | 1u << 5);   // LUT s8 -> s32 (1 KiB), table 1
    b.cmd0(CommandId::OpConv, 0);
    return decodeU85(b, macs).at(0);
  };
  const Operation swd = conv(1024, 4, 3, 0x10);   // ethos-u85-1024: four decoders, micro-block 2x2x32
  CHECK(swd.weightFormat == arch::WeightFormat::Standard);
  CHECK(swd.sparse);
  REQUIRE(swd.weightStreamCount == 4);
  CHECK(swd.weights[2].base == 384);
  CHECK(swd.weights[3].length == 64);
  CHECK(swd.scaleStreamCount == 1);
  CHECK(swd.scales[0].length == 160);
  CHECK(swd.ublock == Shape3{2, 2, 32});
  CHECK(swd.activation.function == cmd::ActivationFunction::Lut);
  CHECK(swd.activation.lutBytes == 1024);
  CHECK(swd.activation.lutSlot == 1);   // bytes [1024, 2048) of the LUT RAM
  const Operation fwd = conv(1024, 4, 3, 0x01);
  CHECK(fwd.weightFormat == arch::WeightFormat::Fast);
  CHECK_FALSE(fwd.sparse);
  CHECK(fwd.weightStreamCount == 1);
  const Operation one = conv(256, 1, 1, 0);
  CHECK(one.weightStreamCount == 1);
}

} // namespace npusim
