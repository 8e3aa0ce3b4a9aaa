// SPDX-License-Identifier: Apache-2.0
// Vela's tensor live ranges rebuilt from addresses (live_ranges), and Vela 5.0's Staging Usage
// over them (vela5_staging_usage), on hand-made tensors and streams whose figures are derived
// by hand in the comments.

#include <doctest/doctest.h>

#include <utility>

#include "harness/analytic/live_ranges.h"
#include "harness/analytic/vela5_estimator.h"
#include "harness/analytic/vela5_staging_usage.h"
#include "sim/config/config.h"
#include "support/hardware.h"
#include "support/streams.h"

using namespace npusim;
using namespace npusim::analytic;

namespace {

constexpr uint8_t kArena = 1;

// A box of `shape` at `base` in a tensor of `tensor` (NHCWB16 strides of the whole tensor).
cmd::FeatureMap boxOf(uint64_t base, Shape3 shape, Shape3 tensor) {
  cmd::FeatureMap fm = cmd::denseFeatureMap(kArena, base, tensor, cmd::DataFormat::Nhcwb16);
  fm.shape = shape;
  return fm;
}

// The arena is the memory counted (the unused feature maps of an operation stay in region 0).
const auto kArenaOnly = [](uint8_t region) { return region == kArena; };

cmd::Operation pool(cmd::PoolMode mode, cmd::FeatureMap ifm, cmd::FeatureMap ofm) {
  cmd::Operation op = test::kernelOp(cmd::OpKind::Pool, ifm, ofm, {4, 4, 16});
  op.poolMode = mode;
  return op;
}

} // namespace

TEST_CASE("live ranges: a read of a whole tensor written in parts makes one range from the first part's write") {
  // Rows 0-1 and rows 2-3 of a 4x4x16 NHWC tensor (128 bytes each), written at steps 0 and 2 by
  // two operations, read whole at step 4: Vela's one tensor of 256 bytes, live from step 0.
  LiveRanges ranges;
  const cmd::FeatureMap whole = cmd::denseFeatureMap(kArena, 0x100, {4, 4, 16}, cmd::DataFormat::Nhwc);
  cmd::FeatureMap top = whole;
  top.shape.height = 2;
  cmd::FeatureMap bottom = top;
  bottom.base[0] = 0x180;
  cmd::Operation first, second, reader;
  first.ofm = top;
  second.ofm = bottom;
  reader.ifm = whole;
  ranges.markOperation(first, 0, {Writer::Kind::Operation, 0, 0}, kArenaOnly);
  ranges.markOperation(second, 2, {Writer::Kind::Operation, 0, 1}, kArenaOnly);
  ranges.markOperation(reader, 4, {Writer::Kind::Operation, 0, 2}, kArenaOnly);
  CHECK(ranges.usage(0) == 256);
  CHECK(ranges.usage(2) == 256);
  CHECK(ranges.usage(5) == 256);
  CHECK(ranges.usage(6) == 0);
}

TEST_CASE("live ranges: a part of a new tensor over a dead one of the same layout does not join it") {
  // A 4x4x64 NHCWB16 tensor at 0x1040 (1024 bytes) written in depth slices of 16, 16 and 32
  // channels at step 0 and read whole at step 2. At step 4 another operation writes channels
  // 0-15 of a tensor of the same layout one brick lower, at 0x1000: seen from it the old slices
  // hold channels 16-31, 32-47 and 48-79, beyond a pixel's 64, so it is a new tensor (footprint 0x1000 .. 0x1000 + 3 x 256 + 3 x 16 + 16 = 832
  // bytes), and the old one is dead after step 3.
  LiveRanges ranges;
  const Shape3 tensor{4, 4, 64};
  for (const auto& [channel, depth] : {std::pair<uint32_t, uint32_t>{0, 16}, {16, 16}, {32, 32}}) {
    cmd::Operation op;
    op.ofm = boxOf(0x1040 + channel / 16 * 64, {4, 4, depth}, tensor);
    ranges.markOperation(op, 0, {Writer::Kind::Operation, 0, 0}, kArenaOnly);
  }
  cmd::Operation reader;
  reader.ifm = boxOf(0x1040, tensor, tensor);
  ranges.markOperation(reader, 2, {Writer::Kind::Operation, 0, 1}, kArenaOnly);
  cmd::Operation part;
  part.ofm = boxOf(0x1000, {4, 4, 16}, tensor);
  ranges.markOperation(part, 4, {Writer::Kind::Operation, 0, 2}, kArenaOnly);
  CHECK(ranges.usage(2) == 1024);
  CHECK(ranges.usage(4) == 832);
}

TEST_CASE("Vela 5.0 Staging Usage: feature maps, a concatenation's parts and a double weight buffer per step") {
  // One ethos-u operator on ethos-u55-128, Shared_Sram (the arena is the staging memory):
  //  A: a conv in two 16-channel depth slices from the network input (4x4x16 NHWC at 0x0, 256
  //     bytes) to a 4x4x32 NHCWB16 tensor at 0x100 (512 bytes); its weight slices (96 and 80
  //     bytes) are DMA'd to two buffers: regor's double buffer of 96 + 80 bytes.
  //  B, C: copies of A's output into channels 0-31 and 32-63 of a 4x4x64 NHCWB16 tensor at
  //     0x400 (1024 bytes): a concatenation.
  //  D: a max pool of the concatenation into the network output (4x4x16 NHWC at 0x0), with a
  //     chained activation after it.
  // Steps 0, 2, 4, 6 (regor's first operation is at step 0):
  //  A: input 256 + A's output 512 (read at 2 and 4) + buffer 176             = 944
  //  B: A's output 512 + the concatenation 1024 (live from its first part)     = 1536
  //  C: the same                                                               = 1536
  //  D: the concatenation 1024 + the output 256                                = 1280
  //  the chained activation: 0, as Vela reports it.
  const config::SystemParams params = config::builtinPreset("Ethos_U55_High_End_Embedded", "Shared_Sram");
  const vela5::System system(params, test::u55(128));
  const std::unique_ptr<vela5::ArchitecturePerformance> arch = vela5::makeArchitecturePerformance(system);
  const vela5::Estimator estimator(system, *arch);

  const cmd::FeatureMap input = cmd::denseFeatureMap(kArena, 0x0, {4, 4, 16}, cmd::DataFormat::Nhwc);
  const Shape3 aShape{4, 4, 32}, concat{4, 4, 64};
  const auto slice = [&](uint64_t ofm, uint64_t buffer, uint64_t bytes) {
    cmd::Operation op = test::kernelOp(cmd::OpKind::Conv, input, boxOf(ofm, {4, 4, 16}, aShape), {4, 4, 16});
    op.scales = {kArena, buffer, 32};
    op.weights = {kArena, buffer + 32, bytes - 32};
    return op;
  };
  const cmd::FeatureMap aOut = boxOf(0x100, aShape, aShape);
  const std::vector<cmd::Operation> ops = test::roundTrip({
      test::dma(0x0, 0x800, 96), slice(0x100, 0x800, 96), test::dma(0x60, 0x900, 80), slice(0x140, 0x900, 80),
      pool(cmd::PoolMode::Average, aOut, boxOf(0x400, aShape, concat)),
      pool(cmd::PoolMode::Average, aOut, boxOf(0x480, aShape, concat)),
      pool(cmd::PoolMode::Max, boxOf(0x400, concat, concat), input)});
  std::vector<vela5::ScheduledOp> rows = estimator.build(ops, vela5::operationSpecs(ops, nullptr, 0, "<builder>", 0), nullptr);
  REQUIRE(rows.size() == 4);
  REQUIRE(rows[0].spec.operations.size() == 2);
  vela5::ScheduledOp chained;
  chained.spec.chained = true;
  rows.push_back(chained);

  io::CompiledNetwork net;
  net.tensors.resize(6);
  for (size_t i = 0; i < net.tensors.size(); ++i) net.tensors[i].index = static_cast<int>(i);
  net.tensors[4].shape = net.tensors[5].shape = {1, 4, 4, 16};
  net.tensors[4].arenaOffset = net.tensors[5].arenaOffset = 0x0;
  net.operators.resize(1);
  net.operators[0].kind = io::OperatorKind::Npu;
  net.operators[0].inputs = {0, 1, 2, 3, 4};
  net.operators[0].outputs = {5};
  net.operators[0].npu = {{}, {}, {}, 0, 1, 2, 3, {}, 0x200, 0x1000, 0x1000};
  net.inputs = {4};
  net.outputs = {5};
  io::DecodedNpuOp decoded;
  decoded.operations = ops;

  const vela5::StagingUsage usage = vela5::stagingUsage(net, {decoded}, {&rows}, system);
  REQUIRE(usage.perRow.size() == 1);
  CHECK(usage.perRow[0] == std::vector<uint64_t>{944, 1536, 1536, 1280, 0});
  CHECK(usage.allocatedBytes == 0x1000);   // the arena

  // Sram_Only: regor allocates the constants in the same SRAM, as read-only data: Peak%'s
  // whole is the arena plus the constants.
  const vela5::System sramOnly(config::builtinPreset("Ethos_U55_Deep_Embedded", "Sram_Only"), test::u55(128));
  CHECK(vela5::stagingUsage(net, {decoded}, {&rows}, sramOnly).allocatedBytes == 0x1000 + 0x200);
}
