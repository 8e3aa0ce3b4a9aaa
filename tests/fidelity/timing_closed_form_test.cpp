// SPDX-License-Identifier: Apache-2.0
// Closed-form timing checks of the NPU units and the AXI/memory model (no SystemC).

#include <doctest/doctest.h>

#include <array>
#include <memory>

#include "models/mem/memory_timing.h"
#include "support/timing_bench.h"
#include "models/npu/block_plan.h"
#include "models/npu/npu_cost.h"
#include "models/npu/npu_units.h"
#include "support/hardware.h"
#include "support/npu_model.h"

namespace {

using namespace npusim;

// SRAM on AXI0 (8 reads and writes in flight), flash on AXI1 (2): the U55's Vela system config
// without adapters. Region 0 -> flash, every other region -> SRAM.
test::UnitBench bench(const arch::NpuConfig& arch, uint32_t dmaChunk = 256) {
  return test::UnitBench(arch, {8.0, 32, 32}, {1.0, 64, 64}, {8, 64, 8, 8, 0}, {8, 64, 2, 2, 0}, dmaChunk);
}

// The same SRAM on AXI0, and on AXI1 (region 0) a memory of `latency` cycles' latency and ample
// bandwidth (256 B/cycle) with 8 reads and writes in flight: round trips, not bandwidth, bound it.
test::UnitBench latencyBench(const arch::NpuConfig& arch, double latency) {
  return test::UnitBench(arch, {8.0, 32, 32}, {256.0, latency, latency}, {8, 64, 8, 8, 0}, {8, 64, 8, 8, 0});
}

// 1x1 conv 25x5x64 -> 25x5x64 on U55-128, block 9x6x32, everything in SRAM (timing doc §3.9 a).
cmd::Operation pointwiseConv() {
  cmd::Operation op;
  op.kind = cmd::OpKind::Conv;
  op.ifm = test::featureMap(0, {25, 5, 64}, cmd::DataFormat::Nhcwb16);
  op.ofm = test::featureMap(8192, {25, 5, 64}, cmd::DataFormat::Nhcwb16);
  op.ofmBlock = {9, 6, 32};
  op.weights[0] = {1, 16384, 4752};
  op.scales[0] = {1, 16384 + 4752, 640};
  op.activation = cmd::Activation::clamp(-128, 127);
  return op;
}

// A configuration of `base` whose architecture is a copy a test may change.
struct Variant {
  explicit Variant(const arch::NpuConfig& base) : arch(*base.arch), npu(base) { npu.arch = &arch; }
  Variant(const Variant&) = delete;
  Variant& operator=(const Variant&) = delete;
  arch::Architecture arch;
  arch::NpuConfig npu;
};

// Runs `op` (one 8x5x32 OFM block over a 64-deep IFM) on the U55-128 bench as the U55 is and
// with `rule` switched on (an input the MAC array then takes as it streams in), and checks that
// the rule hides the block's MAC work behind the input's arrival: the runs differ by its MAC
// cycles, less what the streamed first word costs as a burst of its own (at most one 64-byte
// burst's data at the flash's 1 B/cycle).
void checkStreamingHidesMac(const cmd::Operation& op, bool arch::Architecture::*rule) {
  const arch::NpuConfig& u55 = test::u55(128);
  Variant streaming(u55);
  streaming.arch.*rule = true;
  test::UnitBench waits = bench(u55), streams = bench(streaming.npu);
  const npu::KernelTiming w = waits.runKernel(op), s = streams.runKernel(op);
  REQUIRE(w.blocks == 1);
  const double mac = npu::simulatedBlockMacCycles(u55, npu::macBlockOf(u55, op, {8, 5, 32}), 64);
  CHECK(w.macCycles == doctest::Approx(mac));
  CHECK(mac > 500);
  CHECK(w.end - s.end <= mac + 1);
  CHECK(w.end - s.end >= mac - 64);
}

} // namespace

TEST_CASE("latency-bound read: one outstanding burst costs latency + data per burst") {
  test::PortBench b;
  b.addMemory({8.0, 100, 100});
  b.addPort({8, 64, 1, 1, 0});
  const uint64_t bursts = 64;
  const double end = b.transfer(0, mem::Direction::Read, 0, {bursts, 64});
  CHECK(end == doctest::Approx(double(bursts) * (100 + 64 / 8.0)));
}

TEST_CASE("a stream's window counts the data beats in flight: a one-word burst takes a beat of it, not a burst's") {
  // A stream read through a 64-byte window on a 64-bit port (8-byte beats, 64-byte bursts), from
  // a memory of 100 cycles' latency: an 8-byte transfer (one beat) and then a 56-byte one (seven
  // beats) fill the window together, so the second goes without waiting for the first and both
  // are in after one round trip; a 64-byte transfer after the 8-byte one (eight beats) does not
  // fit beside it and waits for it: a second round trip.
  const auto second = [](uint64_t bytes) {
    test::PortBench b;
    b.addMemory({8.0, 100, 100});
    b.addPort({8, 64, 8, 8, 0});
    mem::TransferShape head{1, 8, 64};
    head.stream = 1;
    mem::TransferShape rest{1, bytes, 64};
    rest.stream = 1;
    rest.address = 8;
    b.submit(0, mem::Direction::Read, 0, head);
    const size_t id = b.submit(0, mem::Direction::Read, 0, rest);
    b.run();
    return b.done(id);
  };
  CHECK(second(56) < 150);
  CHECK(second(64) > 200);
}

TEST_CASE("outstanding-transaction limit: 4 outstanding reads are ~4x faster than 1, 16 reach bandwidth") {
  const uint64_t bursts = 256;
  auto timeWith = [&](uint32_t outstanding) {
    test::PortBench b;
    b.addMemory({8.0, 100, 100});
    b.addPort({8, 64, outstanding, outstanding, 0});
    return b.transfer(0, mem::Direction::Read, 0, {bursts, 64});
  };
  const double one = timeWith(1), four = timeWith(4), sixteen = timeWith(16);
  CHECK(one / four == doctest::Approx(4.0).epsilon(0.03));
  // Bandwidth bound: first latency, then back-to-back data at 8 bytes/cycle.
  CHECK(sixteen == doctest::Approx(100 + bursts * 64 / 8.0));
}

TEST_CASE("DMA flash -> SRAM: each chunk's flash read (latency + bytes at flash bandwidth), then its SRAM write") {
  test::UnitBench units = bench(test::u55(128));
  cmd::DmaTransfer t;
  t.srcRegion = 0;
  t.dstRegion = 1;
  t.length = 4096;
  const npu::DmaTiming timing = units.runDma(t);
  // One chunk buffer: each 256-byte chunk is read (2 outstanding 64-byte reads cover the 64-cycle
  // latency at 1 byte/cycle: latency + 256 cycles), then written to SRAM (latency + 32 beats).
  const double expected = (4096 / 256) * (64 + 256 / 1.0 + 32 + 256 / 8.0);
  CHECK(timing.end == doctest::Approx(expected).epsilon(0.01));
  CHECK(timing.bytes.read(arch::PortId{1}) == 4096);
  CHECK(timing.bytes.write(arch::PortId{0}) == 4096);
}

TEST_CASE("DMA through a streaming buffer: a burst-sized read whenever that much of the buffer is free") {
  // A 2 KiB buffer, 16 KiB from a 500-cycle memory (16 B/cycle, 256-byte bursts, no outstanding
  // limit) to SRAM (32 cycles, 8 B/cycle). Read whole, then written, a buffer costs the read's
  // latency and data, then the write's; in 256-byte steps, eight reads are in flight and each
  // step's write follows its own read, so a step is free again after one read latency, its data
  // and its write: the buffer moves in about that time (within 6%: the reads of a round share the
  // source's data path).
  const double readLatency = 500, writeLatency = 32, source = 16, sink = 8;
  const uint64_t length = 16384, buffer = 2048, step = 256;
  const auto run = [&](uint32_t stepBytes) {
    test::UnitBench units(test::u85(512), {sink, writeLatency, writeLatency}, {source, readLatency, readLatency},
                          {16, 256, 64, 64, 0}, {16, 256, 64, 64, 0}, buffer, stepBytes);
    cmd::DmaTransfer t;
    t.srcRegion = 0;
    t.dstRegion = 1;
    t.length = length;
    const npu::DmaTiming timing = units.runDma(t);
    CHECK(timing.bytes.read(arch::PortId{1}) == length);
    CHECK(timing.bytes.write(arch::PortId{0}) == length);
    return timing.end - timing.start;
  };
  const double buffers = double(length) / buffer;
  CHECK(run(0) == doctest::Approx(buffers * (readLatency + buffer / source + writeLatency + buffer / sink)).epsilon(0.01));
  const double streamed = run(step);
  CHECK(streamed == doctest::Approx(buffers * (readLatency + step / source + writeLatency + step / sink)).epsilon(0.06));
}

TEST_CASE("MAC cycles follow the micro-block formula per clipped block") {
  const arch::NpuConfig& arch = test::u55(128);
  const cmd::Operation op = pointwiseConv();
  // Full block 9x6x32 -> clipped 9x5x32: nx = 3, ny = 9, nz = 4; max(32, 4*27) per step;
  // two IFM depth blocks of 32 (timing doc §3.9 a gives 864 for the full block).
  CHECK(npu::blockMacCycles(arch, npu::macBlockOf(arch, op, {9, 5, 32})) == doctest::Approx(2 * 4 * 108));
  CHECK(npu::blockMacCycles(arch, npu::macBlockOf(arch, op, {7, 5, 32})) == doctest::Approx(2 * 4 * 84));
  // U55-32 (ublock 1x1x4), full 5x5x32 block: nxy = 25, nz = 8 -> max(16, 100) * 8 * 2 = 1600 (§3.9 a).
  CHECK(npu::blockMacCycles(test::u55(32), npu::macBlockOf(test::u55(32), op, {5, 5, 32})) == doctest::Approx(2 * 8 * 100));
}

TEST_CASE("the simulated 1.x MAC array lays its micro-block's positions out to cover a block with the fewest") {
  const cmd::Operation op = pointwiseConv();
  // U55-128, micro-block 1x2 (H x W): a 9x5 block takes 9 x 3 = 27 micro-blocks as 1x2, 5 x 5 = 25
  // as 2x1: max(32, 4 x 25) per step, two IFM depth blocks (Vela's estimate keeps 27).
  const arch::NpuConfig& u128 = test::u55(128);
  CHECK(npu::simulatedBlockMacCycles(u128, npu::macBlockOf(u128, op, {9, 5, 32}), 64) == doctest::Approx(2 * 4 * 100));
  // An 8x4 block is covered by 16 micro-blocks either way: the configured 1x2 stays (same cycles).
  CHECK(npu::simulatedBlockMacCycles(u128, npu::macBlockOf(u128, op, {8, 4, 32}), 64) ==
        doctest::Approx(npu::blockMacCycles(u128, npu::macBlockOf(u128, op, {8, 4, 32}))));
  // U55-256, micro-block 2x2: a 25x5 block takes 13 x 3 = 39 as 2x2, 25 x 2 = 50 as 1x4, 7 x 5 = 35
  // as 4x1: max(32, 4 x 35) per step.
  const arch::NpuConfig& u256 = test::u55(256);
  CHECK(npu::simulatedBlockMacCycles(u256, npu::macBlockOf(u256, op, {25, 5, 32}), 64) == doctest::Approx(2 * 4 * 140));
  // U55-32, micro-block 1x1: one layout, Vela's cycles.
  const arch::NpuConfig& u32 = test::u55(32);
  CHECK(npu::simulatedBlockMacCycles(u32, npu::macBlockOf(u32, op, {5, 5, 32}), 64) == doctest::Approx(2 * 8 * 100));
}

TEST_CASE("the simulated U85 MAC array packs a part-kernel-first convolution's taps over the IFM block's slices, a quarter step each") {
  // vww4's 1x1 part-kernel-first convolutions on the U85-256: IFM 16x16x32, OFM block 4x16x32 in
  // micro-blocks of 1x4x8, IFM block depth 16 (two 8-channel slices), two IFM depth blocks.
  const arch::NpuConfig& u256 = test::u85(256);
  cmd::Operation op = pointwiseConv();
  op.ifm = test::featureMap(0, {16, 16, 32}, cmd::DataFormat::Nhcwb16);
  op.ofm = test::featureMap(8192, {16, 16, 96}, cmd::DataFormat::Nhcwb16);
  op.ofmBlock = {4, 16, 32};
  op.ublock = {1, 4, 8};
  op.kernel.partKernelFirst = true;
  const npu::MacBlock b = npu::macBlockOf(u256, op, {4, 16, 32});
  REQUIRE(b.ifmBlockDepth == 16);
  REQUIRE(b.ifmDepthBlocks == 2);
  // Per step max(4 x 8, 4 x 16 micro-blocks) = 64 cycles, 4 micro-block depths; the tap of both
  // slices in one step of four taps (Vela's estimate rounds each slice's tap up to four: two).
  CHECK(npu::simulatedBlockMacCycles(u256, b, 32) == doctest::Approx(64 * 1 * 4 * 2));
  CHECK(npu::blockMacCycles(u256, b) >= npu::simulatedBlockMacCycles(u256, b, 32));
  // A 3x3 kernel: 9 taps x 2 slices = 18 quarter steps (Vela's: 3 steps per slice, 6).
  op.kernel.width = op.kernel.height = 3;
  CHECK(npu::simulatedBlockMacCycles(u256, npu::macBlockOf(u256, op, {4, 16, 32}), 32) ==
        doctest::Approx(64 * 18 / 4 * 4 * 2));
  // ad_medium's first convolution: 3x3 over a one-channel IFM (one slice), OFM block 8x16x16 in
  // 1x4x8 micro-blocks: 9 quarter steps of max(32, 4 x 32) cycles, 2 micro-block depths (Vela: 3 steps).
  op.ifm = test::featureMap(0, {32, 32, 1}, cmd::DataFormat::Nhwc);
  op.ofm = test::featureMap(8192, {32, 32, 176}, cmd::DataFormat::Nhcwb16);
  const npu::MacBlock first = npu::macBlockOf(u256, op, {8, 16, 16});
  REQUIRE(first.ifmDepthBlocks == 1);
  CHECK(npu::simulatedBlockMacCycles(u256, first, 1) == doctest::Approx(128 * 9 / 4 * 2));
}

TEST_CASE("the simulated U85 MAC array's weight path floor is 4 cycles per micro-block channel of one weight decoder's share") {
  // kws's second convolution on the U85-512 (two weight decoders): a 10x4 kernel (sub-kernels of
  // 8 and 2 rows: 8 + 2 steps of four taps) over a one-channel IFM, OFM blocks of 24x10x16 in 2x2x16
  // micro-blocks, the last block one row high.
  const arch::NpuConfig& u512 = test::u85(512);
  REQUIRE(u512.weightDecoders == 2);
  cmd::Operation op = pointwiseConv();
  op.ifm = test::featureMap(0, {49, 10, 1}, cmd::DataFormat::Nhwc);
  op.ofm = test::featureMap(8192, {49, 10, 124}, cmd::DataFormat::Nhcwb16);
  op.kernel.height = 10;
  op.kernel.width = 4;
  op.ofmBlock = {24, 10, 16};
  op.ublock = {2, 2, 16};
  op.kernel.partKernelFirst = true;
  // A full block: 12 x 5 micro-blocks, 4 x 60 = 240 cycles a step, above any floor.
  CHECK(npu::simulatedBlockMacCycles(u512, npu::macBlockOf(u512, op, {24, 10, 16}), 1) == doctest::Approx(240 * 10));
  // The one-row block: 5 micro-blocks (20 cycles a step) under the floor: each decoder feeds 8 of
  // the 16 channels, 4 x 8 = 32 cycles a step (Vela's estimate: 4 x 16 = 64).
  CHECK(npu::simulatedBlockMacCycles(u512, npu::macBlockOf(u512, op, {1, 10, 16}), 1) == doctest::Approx(32 * 10));
  // With one decoder (the U85-256) the floor is the whole micro-block's 16 channels.
  const arch::NpuConfig& u256 = test::u85(256);
  REQUIRE(u256.weightDecoders == 1);
  CHECK(npu::simulatedBlockMacCycles(u256, npu::macBlockOf(u256, op, {1, 10, 16}), 1) == doctest::Approx(64 * 10));
}

TEST_CASE("compute-bound convolution takes its MAC time plus pipeline fill and drain") {
  const arch::NpuConfig& arch = test::u55(128);
  cmd::Operation op = pointwiseConv();
  op.kernel = {3, 3, 1, 1, 1, 1, false};
  op.padding = {1, 1, 1, 1};
  op.weights[0].length = 33280;
  op.scales[0].base = op.weights[0].base + op.weights[0].length;
  test::UnitBench units = bench(arch);
  const npu::KernelTiming t = units.runKernel(op);
  // 9 taps per step: blocks of 9, 9 and 7 rows x 5 columns, laid out in 2x1 micro-blocks (25, 25 and
  // 20 of them: fewer than 27, 27, 21 as 1x2) x two OFM depth blocks x two IFM depth blocks.
  const double mac = 2 * (2 * (100 * 9 * 4 * 2) + 80 * 9 * 4 * 2);
  CHECK(t.blocks == 6);
  CHECK(t.macCycles == doctest::Approx(mac));
  CHECK(t.end - t.start >= mac);
  CHECK(t.end - t.start <= 1.10 * mac);
}

TEST_CASE("weights streamed into the MAC array hide its work behind their arrival, waited for they add to it") {
  // One block (the whole 8x5x32 OFM, IFM 64 deep) whose weights come from the flash behind AXI1
  // (region 0, 1 B/cycle): they arrive long after the IFM (~4.4 k cycles against 640 of MAC
  // work). Waiting for them (U55, U65), the MAC array starts when the last has come; streaming
  // them in (macStreamsWeights, the U85's decoders), it works as they come and ends with the last.
  cmd::Operation op = pointwiseConv();
  op.ifm = test::featureMap(0, {8, 5, 64}, cmd::DataFormat::Nhcwb16);
  op.ofm = test::featureMap(8192, {8, 5, 32}, cmd::DataFormat::Nhcwb16);
  op.ofmBlock = {8, 5, 32};
  op.weights[0] = {0, 0, 4096};
  op.scales[0] = {0, 4096, 320};
  checkStreamingHidesMac(op, &arch::Architecture::macStreamsWeights);
}

TEST_CASE("an IFM window streamed into the MAC array hides its work behind its arrival, waited for it adds to it") {
  // One block (the whole 8x5x32 OFM) whose 8x5x64 IFM comes from the flash behind AXI1 (region 0,
  // 1 B/cycle: 2,560 bytes, ~2.6 k cycles), its weights from the SRAM. Taking the window whole
  // (U55, U65), the MAC array starts when its last word has come; streaming it in (macStreamsIfm,
  // the U85's input buffer), it works as the window comes and ends with the last word.
  cmd::Operation op = pointwiseConv();
  op.ifm = test::featureMap(0, {8, 5, 64}, cmd::DataFormat::Nhcwb16, 0);
  op.ofm = test::featureMap(8192, {8, 5, 32}, cmd::DataFormat::Nhcwb16);
  op.ofmBlock = {8, 5, 32};
  checkStreamingHidesMac(op, &arch::Architecture::macStreamsIfm);
}

TEST_CASE("staggered weight streams: an operation's decoders open their streams a round trip apart, at its first block only") {
  // Weights in a memory of 200 cycles' latency and ample bandwidth (256 B/cycle, 8 reads in
  // flight), so that each weight slice is in one round trip after its request. The operation has
  // `streams` weight streams of 64 bytes per block; its MAC work and the IFM (SRAM) are short.
  // Requested at once, every slice of a block is in after one round trip; staggered
  // (weightStreamsStaggered, the U85's decoders), the first block's stream k is requested once
  // stream k-1's first word is in, so its weights are in (streams - 1) round trips later (less
  // the few cycles the requests at once spend queued for the address channel). Later blocks, whose
  // streams are open, are not staggered: with four depth blocks the operation ends less than
  // twice that lag later (staggering each block, two of them double-buffered, would cost at
  // least twice).
  Variant plain(test::u55(128)), staggered(test::u55(128));
  plain.arch.weightStreamsInOrder = false;
  staggered.arch.weightStreamsInOrder = false;
  staggered.arch.weightStreamsStaggered = true;
  constexpr double kLatency = 200;
  const auto run = [&](const arch::NpuConfig& npu, size_t streams, uint32_t depthBlocks) {
    cmd::Operation op = pointwiseConv();
    op.ifm = test::featureMap(0, {2, 2, 16}, cmd::DataFormat::Nhcwb16);
    op.ofm = test::featureMap(8192, {2, 2, 16 * depthBlocks}, cmd::DataFormat::Nhcwb16);
    op.ofmBlock = {2, 2, 16};
    op.weightStreamCount = static_cast<uint8_t>(streams);
    for (size_t k = 0; k < streams; ++k) op.weights[k] = {0, 4096 + 64 * depthBlocks * k, 64 * depthBlocks};
    op.scales[0] = {1, 16384, 160 * depthBlocks};
    test::UnitBench units = latencyBench(npu, kLatency);
    return units.runKernel(op);
  };
  for (const size_t streams : {size_t{2}, size_t{4}}) {
    CAPTURE(streams);
    const npu::KernelTiming p1 = run(plain.npu, streams, 1), s1 = run(staggered.npu, streams, 1);
    const double lag = double(streams - 1) * kLatency;
    CHECK(s1.end - p1.end >= 0.95 * lag);
    CHECK(s1.end - p1.end <= 1.05 * lag);
    const npu::KernelTiming p4 = run(plain.npu, streams, 4), s4 = run(staggered.npu, streams, 4);
    CHECK(s4.end - p4.end >= s1.end - p1.end);
    CHECK(s4.end - p4.end < 2 * (s1.end - p1.end));
  }
}

TEST_CASE("one block's weights per port at a time: a block's weight fetch waits for the previous block's to arrive") {
  // Weights in a memory of 200 cycles' latency and ample bandwidth behind one port, 64 bytes per
  // block (one burst: one round trip each), the IFM in the SRAM and little MAC work. Fetched as
  // soon as a weight buffer is free, the first two blocks' weights are in flight at once (the
  // double buffer), so four blocks take fewer than four round trips; one block per port at a
  // time (weightBlockPerPort, the U85's), each block's fetch starts when the previous block's
  // weights are in: four round trips at least, one more than with the overlap.
  Variant free(test::u55(128)), perPort(test::u55(128));
  perPort.arch.weightBlockPerPort = true;
  constexpr double kLatency = 200;
  constexpr uint32_t kBlocks = 4;
  const auto run = [&](const arch::NpuConfig& npu) {
    cmd::Operation op = pointwiseConv();
    op.ifm = test::featureMap(0, {2, 2, 16}, cmd::DataFormat::Nhcwb16);
    op.ofm = test::featureMap(8192, {2, 2, 16 * kBlocks}, cmd::DataFormat::Nhcwb16);
    op.ofmBlock = {2, 2, 16};
    op.weights[0] = {0, 4096, 64 * kBlocks};
    op.scales[0] = {1, 16384, 160 * kBlocks};
    test::UnitBench units = latencyBench(npu, kLatency);
    return units.runKernel(op);
  };
  const npu::KernelTiming f = run(free.npu), p = run(perPort.npu);
  REQUIRE(f.blocks == kBlocks);
  REQUIRE(p.blocks == kBlocks);
  CHECK(p.end - p.start >= double(kBlocks) * kLatency);
  CHECK(f.end - f.start < (double(kBlocks) - 0.5) * kLatency);
  CHECK(p.end - f.end >= 0.9 * kLatency);
}

TEST_CASE("BLOCKDEP 0 holds an operation's weight fetch until the previous one's output unit is done (U85)") {
  // A compute-bound first operation (the pointwise convolution, all in the SRAM), then a small
  // one, one 2x2x16 block with its 64 bytes of weights behind a memory of 400 cycles' latency.
  // With BLOCKDEP 0 the second waits for the first's OFM either way; fetched when dispatched (the
  // U55's), its weights are in long before and it ends within a round trip of the first's output
  // unit; held (weightsWaitOnBlockdepZero, the U85's), its fetch starts then, a round trip at
  // least before it can end. With BLOCKDEP 1 nothing is held.
  Variant free(test::u55(128)), held(test::u55(128));
  held.arch.weightsWaitOnBlockdepZero = true;
  constexpr double kLatency = 400;
  const auto run = [&](const arch::NpuConfig& npu, uint32_t blockDep, double* firstAoEnd) {
    cmd::Operation b = pointwiseConv();
    b.ifm = test::featureMap(32768, {2, 2, 16}, cmd::DataFormat::Nhcwb16);
    b.ofm = test::featureMap(36864, {2, 2, 16}, cmd::DataFormat::Nhcwb16);
    b.ofmBlock = {2, 2, 16};
    b.weights[0] = {0, 4096, 64};
    b.scales[0] = {1, 40960, 160};
    b.blockDep = blockDep;
    test::UnitBench units = latencyBench(npu, kLatency);
    const std::vector<npu::KernelTiming> t = units.runKernels({pointwiseConv(), b});
    *firstAoEnd = t[0].end - t[0].writeTail;
    CHECK(t[0].end - t[0].start > 4 * kLatency);
    return t[1];
  };
  double aoEnd = 0;
  const npu::KernelTiming prefetched = run(free.npu, 0, &aoEnd);
  CHECK(prefetched.end < aoEnd + kLatency);
  const npu::KernelTiming waited = run(held.npu, 0, &aoEnd);
  CHECK(waited.end >= aoEnd + kLatency);
  const npu::KernelTiming overlapped = run(held.npu, 1, &aoEnd);
  CHECK(overlapped.end < aoEnd + kLatency);
}

TEST_CASE("the weight decoders' rate bounds a block whose weights arrive faster than they decode") {
  // The pointwise convolution's weights from the SRAM (region 1). Each of its 3 x 1 x 2 blocks
  // (OFM 25x5x64 in 9x6x32) decodes the weights of its 32 OFM channels over 64 IFM channels again:
  // 12,288 weights. At one weight per cycle per decoder the kernel cannot take less with one
  // stream, nor more than that and the undecoded run one after the other; the MAC work alone
  // (6 x 864 cycles) is shorter.
  cmd::Operation op = pointwiseConv();
  const arch::NpuConfig& u55 = test::u55(128);
  Variant decoding(u55);
  decoding.arch.weightsDecodedPerCycle = 1;
  test::UnitBench plain = bench(u55), slow = bench(decoding.npu);
  const npu::KernelTiming p = plain.runKernel(op), d = slow.runKernel(op);
  const double weights = 6 * 64.0 * 32.0;
  CHECK(p.end - p.start < 0.6 * weights);
  CHECK(d.end - d.start >= weights);
  CHECK(d.end - d.start <= weights + (p.end - p.start));
  // Two streams (two decoders) halve the bound.
  op.weightStreamCount = 2;
  op.weights[1] = op.weights[0];
  op.weights[0].length = op.weights[1].length = 4752 / 2;
  op.weights[1].base = op.weights[0].base + op.weights[0].length;
  test::UnitBench twoDecoders = bench(decoding.npu);
  const npu::KernelTiming d2 = twoDecoders.runKernel(op);
  CHECK(d2.end - d2.start >= weights / 2);
  CHECK(d2.end - d2.start < 0.75 * (d.end - d.start));
}

TEST_CASE("a DMA overlaps a convolution instead of adding to it") {
  const arch::NpuConfig& arch = test::u55(128);
  auto run = [&](bool withDma, bool withConv, double* dmaEnd, double* convEnd) {
    test::UnitBench units = bench(arch);
    cmd::DmaTransfer t;
    t.srcRegion = 0;
    t.dstRegion = 1;
    t.dst = 65536;
    t.length = 2048;
    const cmd::Operation conv = pointwiseConv();
    if (withDma && withConv) {
      const auto both = units.runBoth(conv, t);
      *convEnd = both.first.end;
      *dmaEnd = both.second.end;
    } else if (withDma) {
      *dmaEnd = units.runDma(t).end;
    } else if (withConv) {
      *convEnd = units.runKernel(conv).end;
    }
  };
  double dmaAlone = 0, convAlone = 0, dmaBoth = 0, convBoth = 0, unused = 0;
  run(true, false, &dmaAlone, &unused);
  run(false, true, &unused, &convAlone);
  run(true, true, &dmaBoth, &convBoth);
  CHECK(convBoth <= 1.05 * convAlone);
  CHECK(dmaBoth <= 1.05 * dmaAlone);
  CHECK(std::max(dmaBoth, convBoth) < 0.8 * (dmaAlone + convAlone));
}

TEST_CASE("a new SHRAM layout waits for the previous operation's output unit, the same layout overlaps (BLOCKDEP)") {
  const arch::NpuConfig& arch = test::u55(128);
  // Two independent pointwise convolutions (the second reads another tensor), BLOCKDEP 3.
  const auto second = [&](uint32_t abStart, double* firstAoEnd, npu::KernelTiming* t2) {
    test::UnitBench units = bench(arch);
    cmd::Operation a = pointwiseConv();
    a.shram = cmd::ShramLayout{6, 6, 0};
    cmd::Operation b = pointwiseConv();
    b.ifm.base[0] = 32768;
    b.blockDep = 3;
    b.shram = cmd::ShramLayout{6, abStart, 0};
    const std::vector<npu::KernelTiming> t = units.runKernels({a, b});
    *firstAoEnd = t[0].end - t[0].writeTail;
    *t2 = t[1];
  };
  double aoEnd = 0;
  npu::KernelTiming same, other;
  second(6, &aoEnd, &same);
  CHECK(same.stallShramReconfig == 0);
  CHECK(same.start < aoEnd);                         // its first blocks run under the first op's tail
  second(8, &aoEnd, &other);
  CHECK(other.start == doctest::Approx(aoEnd));     // AB_START moved: after the last accumulators drained
  CHECK(other.stallShramReconfig > 0);
}

TEST_CASE("BLOCKDEP counts IFM jobs: a convolution's block needs every IFM depth block of its position") {
  // A writes a 25x5xD map; B (BLOCKDEP 2) reads it in 9x6x32 OFM blocks, three positions. On the
  // U55-128 an 8-bit depth-first IFM block is 32 channels deep (timing doc 4.1): with D = 64 B's
  // first block is IFM jobs 0-1 and may start while A's last block is written; with D = 96 it is
  // jobs 0-2, and job 2 >= BLOCKDEP waits for all of A.
  const arch::NpuConfig& arch = test::u55(128);
  const auto run = [&](uint32_t depth) {
    test::UnitBench units = bench(arch);
    cmd::Operation a = pointwiseConv();
    a.ofm = test::featureMap(8192, {25, 5, depth}, cmd::DataFormat::Nhcwb16);
    a.weights[0] = {1, 49152, 4752};
    a.scales[0] = {1, 49152 + 4752, 640};
    cmd::Operation b = a;
    b.ifm = a.ofm;
    b.ofm = test::featureMap(32768, {25, 5, 32}, cmd::DataFormat::Nhcwb16);
    b.blockDep = 2;
    return units.runKernels({a, b});
  };
  const std::vector<npu::KernelTiming> two = run(64), three = run(96);
  CHECK(two[1].start < two[0].end);
  CHECK(three[1].start >= three[0].end);
  CHECK(three[1].stallBlockdep > 0);
}

TEST_CASE("IFM reads: blocks the IFM double buffer still holds are not fetched again at the next depth block") {
  // 1x1 conv, OFM 25x5xD in 9x6x32 blocks: 3 (x, y) positions x D/32 depth blocks. IFM blocks are
  // 32 channels deep (8-bit, depth-first), so 64 IFM channels are two IFM blocks, 96 three.
  const arch::NpuConfig& arch = test::u55(128);
  const auto axi0Reads = [&](uint32_t ifmDepth, uint32_t ofmDepth, uint32_t kernel) {
    cmd::Operation op = pointwiseConv();
    op.ifm = test::featureMap(0, {25, 5, ifmDepth}, cmd::DataFormat::Nhcwb16);
    op.ofm = test::featureMap(16384, {25, 5, ofmDepth}, cmd::DataFormat::Nhcwb16);
    op.kernel = {kernel, 1, 1, 1, 1, 1, false};
    op.padding = {0, (kernel - 1) / 2, 0, kernel / 2};
    op.weights[0] = {0, 0, 0}; // weights and scales from region 0 (AXI1): AXI0 reads are IFM only
    op.scales[0] = {0, 4096, 640};
    test::UnitBench units = bench(arch);
    return units.runKernel(op).bytes.read(test::port("axi0"));
  };
  const uint64_t ifm64 = 25 * 5 * 64, ifm96 = 25 * 5 * 96;
  // Two IFM blocks fit the double buffer: the IFM is read once whatever the OFM depth.
  CHECK(axi0Reads(64, 32, 1) == ifm64);
  CHECK(axi0Reads(64, 128, 1) == ifm64);
  // Three do not: every depth block reads the whole IFM again.
  CHECK(axi0Reads(96, 128, 1) == 4 * ifm96);
  // A kernel wider than 8 (two sub-kernels, one IFM block) fetches its windows at every depth block.
  const uint64_t once = axi0Reads(32, 32, 10);
  CHECK(axi0Reads(32, 128, 10) == 4 * once);
}

TEST_CASE("IFM reads on internal buffers: the next depth block fetches again only the window's bytes beyond the IB") {
  // U85-512 (IB 16 KiB, ethos-u85.md 1.1), 1x1 convolutions in 4x16x64 OFM blocks: one (x, y)
  // position per 4 OFM rows, 16 columns, and four depth blocks of 64 of a 256-channel OFM.
  const arch::NpuConfig& u512 = test::u85(512);
  REQUIRE(u512.buffers.ifm == 16 * 1024);
  const auto ifmBytes = [&](uint32_t ifmDepth) {
    cmd::Operation op = pointwiseConv();
    op.ifm = test::featureMap(0, {4, 16, ifmDepth}, cmd::DataFormat::Nhcwb16);
    op.ofm = test::featureMap(1 << 20, {4, 16, 256}, cmd::DataFormat::Nhcwb16);
    op.ofmBlock = {4, 16, 64};
    op.ublock = {2, 2, 16};
    const npu::BlockPlan plan(u512, op);
    REQUIRE(plan.blockCount() == 4);
    std::array<uint64_t, 4> bytes{};
    for (uint64_t b = 0; b < 4; ++b) bytes[b] = plan.block(b).ifm.bytes();
    return bytes;
  };
  // 192 channels: a 4x16x192 = 12 KiB window fits the IB, fetched once for the four depth blocks.
  const uint64_t window192 = 4 * 16 * 192;
  CHECK(ifmBytes(192) == std::array<uint64_t, 4>{window192, 0, 0, 0});
  // 288 channels: 18 KiB, of which 16 KiB stay; the rows holding the other 2 KiB (a ninth of the
  // window: one of the four rows) are fetched again at each later depth block.
  const uint64_t row288 = 16 * 288;
  CHECK(ifmBytes(288) == std::array<uint64_t, 4>{4 * row288, row288, row288, row288});
  // 1024 channels: 64 KiB, four times the IB: three of the four rows again, every depth block.
  const uint64_t row1024 = 16 * 1024;
  CHECK(ifmBytes(1024) == std::array<uint64_t, 4>{4 * row1024, 3 * row1024, 3 * row1024, 3 * row1024});
}

TEST_CASE("IFM reads on internal buffers: a kernel split into sub-kernels reads the union of their windows once") {
  // kws_micronet_m's first convolutions: a 10x4 kernel (sub-kernels of 8 and 2 rows), stride 1,
  // padding 4 above and 5 below, over a 49x10x16 IFM; OFM block 0 is rows 0-11, all 10 columns.
  cmd::Operation op = pointwiseConv();
  op.ifm = test::featureMap(0, {49, 10, 16}, cmd::DataFormat::Nhcwb16);
  op.ofm = test::featureMap(1 << 20, {49, 10, 16}, cmd::DataFormat::Nhcwb16);
  op.ofmBlock = {12, 10, 16};
  op.ublock = {2, 2, 8};
  op.kernel = {4, 10, 1, 1, 1, 1, false};
  op.padding = {4, 1, 5, 2};
  const auto block0 = [&](const arch::NpuConfig& npu) { return npu::BlockPlan(npu, op).block(0).ifm.bytes(); };
  // Input rows 0-16 feed the block (rows -4..16, the 4 padding rows not read); the sub-kernels'
  // windows are rows 0-14 (taps 0-7) and 4-16 (taps 8-9). Columns 0-9, 16 channels.
  const uint64_t row = 10 * 16;
  REQUIRE(test::u85(256).buffers.ifm > 0);
  CHECK(block0(test::u85(256)) == 17 * row);       // the IB: the union, once
  CHECK(block0(test::u55(256)) == (15 + 13) * row); // the SHRAM: each sub-kernel's window
}

TEST_CASE("output cycles per element follow Vela's tables (first matching rule)") {
  const arch::NpuConfig& arch = test::u55(128);
  cmd::Operation conv = pointwiseConv();
  CHECK(npu::outputCyclesPerElement(arch, npu::outputStageOf(conv)) == doctest::Approx(0.5));  // O7, no activation
  conv.activation = cmd::Activation::clamp(-128, 100);                                     // clamp = ReLU-family
  CHECK(npu::outputCyclesPerElement(arch, npu::outputStageOf(conv)) == doctest::Approx(0.5));  // max(O7, A1 0.5)
  cmd::Operation pool = conv;
  pool.kind = cmd::OpKind::Pool;
  pool.poolMode = cmd::PoolMode::Max;
  pool.activation = cmd::Activation::clamp(-128, 127);
  CHECK(npu::outputCyclesPerElement(arch, npu::outputStageOf(pool)) == doctest::Approx(0.25)); // O6
  cmd::Operation add = conv;
  add.kind = cmd::OpKind::Elementwise;
  add.elementwiseMode = cmd::ElementwiseMode::Add;
  add.activation = cmd::Activation::clamp(-128, 127);
  add.scaling.ifmScaleMode = 2;  // one operand with a 32-bit scale (input scales differ)
  CHECK(npu::outputCyclesPerElement(arch, npu::outputStageOf(add)) == doctest::Approx(1.5));   // O5
  add.scaling.ifmScaleMode = 0;  // both operands with 16-bit scales (equal input scales)
  CHECK(npu::outputCyclesPerElement(arch, npu::outputStageOf(add)) == doctest::Approx(1.0));   // O4
}

TEST_CASE("Ethos-U85 MAC cycles: the worked examples of ethos-u85.md 5.10 (kws, U85-256)") {
  const arch::NpuConfig& u85 = test::u85(256);
  // Depthwise 3x3 over an OFM 25x5x64, block 25x6x16 clipped to 25x5x16, micro-block 1x2x16:
  // U = 25 x 3 x 1, max(4 x 16, 4 x 75) x ceil(9 / 4) = 900.
  npu::MacBlock dw;
  dw.traversal = npu::MacTraversal::Depthwise;
  dw.ublock = {1, 2, 16};
  dw.block = {25, 5, 16};
  dw.kernelWidth = dw.kernelHeight = 3;
  dw.ifmBlockDepth = 16;
  CHECK(npu::blockMacCycles(u85, dw) == 900);
  // 1x1 convolution 64 -> 64 depth first, block 16x4x32, micro-block 2x2x8: U = 8 x 2 x 4,
  // max(32, 64 / 8 x 16) x 1 tap x 4 = 512.
  npu::MacBlock conv;
  conv.traversal = npu::MacTraversal::DepthFirst;
  conv.ublock = {2, 2, 8};
  conv.block = {16, 4, 32};
  conv.ifmBlockDepth = 64;
  conv.ifmDepthBlocks = 1;
  CHECK(npu::blockMacCycles(u85, conv) == 512);
}
