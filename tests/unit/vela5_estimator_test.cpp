// SPDX-License-Identifier: Apache-2.0
// Vela 5.0's model on builder-made command streams (worked examples derived by hand from the
// formulas in docs/estimator.md), its system view, the chaining of weight DMAs through the
// previous operation's slack, the Vela that compiled a file, Vela 5.0's weight encoder and its
// register listing.

#include <doctest/doctest.h>

#include <memory>
#include <random>

#include "harness/analytic/network_estimate.h"
#include "harness/analytic/vela5_estimator.h"
#include "harness/report/register_listing.h"
#include "sim/cmdstream/builder.h"
#include "sim/cmdstream/weight_codec.h"
#include "sim/config/config.h"
#include "models/platform/compile_target.h"
#include "support/hardware.h"
#include "support/streams.h"

using namespace npusim;
using namespace npusim::analytic;

namespace {

using test::dma;
using test::kernelOp;

constexpr uint8_t kArena = 1;
constexpr size_t kSram = 0;
constexpr size_t kOffFlash = 3;

// Vela 5.0's system, cost model and estimator for one configuration.
struct Model {
  config::SystemParams params;
  vela5::System system;
  std::unique_ptr<vela5::ArchitecturePerformance> arch;
  vela5::Estimator estimator;
  Model(const std::string& systemConfig, const std::string& memoryMode, const arch::NpuConfig& hw)
      : params(config::builtinPreset(systemConfig, memoryMode)), system(params, hw),
        arch(vela5::makeArchitecturePerformance(system)), estimator(system, *arch) {}
};

// Scheduled operations of a builder stream (one per kernel operation) and their estimates.
struct Run {
  std::vector<vela5::ScheduledOp> ops;
  std::vector<LayerEstimate> estimates;
};

Run estimate(const Model& m, const std::vector<cmd::Operation>& stream) {
  const std::vector<cmd::Operation> ops = test::roundTrip(stream);
  Run run;
  run.ops = m.estimator.build(ops, vela5::operationSpecs(ops, nullptr, 0, "<builder>", 0), nullptr);
  run.estimates = m.estimator.estimate(run.ops);
  return run;
}

} // namespace

TEST_CASE("Vela 5.0 system: bandwidth = clock scale x AXI width x ports, the width from the system config's name") {
  const Model u55("Ethos_U55_High_End_Embedded", "Shared_Sram", test::u55(128));
  CHECK(u55.system.memory(MemArea::Sram).bandwidth == 8.0f);
  CHECK(u55.system.memory(MemArea::OffChipFlash).bandwidth == 1.0f);   // 0.125 x 8
  CHECK(u55.system.readonly().name == "OffChipFlash");
  CHECK(u55.system.featureMaps().name == "Sram");
  CHECK(u55.system.staging().name == "Sram");
  CHECK(u55.system.region(2).name == "Sram");
  const Model u65("Ethos_U65_High_End", "Dedicated_Sram", test::u65(256));
  CHECK(u65.system.memory(MemArea::Dram).bandwidth == 3.75f);   // 0.234375 x 16
  CHECK(u65.system.featureMaps().name == "Dram");
  CHECK(u65.system.staging().name == "Sram");
  CHECK(u65.system.region(2).name == "Sram");
  // Sram_Only: the constants stay in SRAM (Vela 3.10 renamed them OnChipFlash).
  const Model sramOnly("Ethos_U55_Deep_Embedded", "Sram_Only", test::u55(128));
  CHECK(sramOnly.system.readonly().name == "Sram");
  // Any other system config name takes the 16-byte width, also for an Ethos-U55.
  config::SystemParams renamed = config::builtinPreset("Ethos_U55_High_End_Embedded", "Shared_Sram");
  renamed.systemConfig = "My_Sys_Cfg";
  CHECK(vela5::System(renamed, test::u55(128)).memory(MemArea::Sram).bandwidth == 16.0f);
  // Vela 5.0's memory-to-memory time adds the source's write latency to the destination side.
  CHECK(u55.arch->memToMemCycles(u55.system.staging(), u55.system.readonly(), 1120) == 1120 + 64);
  CHECK(u55.arch->memToMemCycles(u55.system.lut(), u55.system.readonly(), 1024) == 1024 + 64);
}

TEST_CASE("Vela 5.0: AvgPool 5x25 over 25x5x64 NHCWB16 on U55-128") {
  // IFM block: 8 rows (min(25, 8) sub-kernel rows) x 6 columns (1 + 5 - 1, rounded to the
  // micro-block's 2) x 64. MAC cycles per block: OFM block 1x1x64 = 8 micro-blocks, sub-kernels
  // of 40, 40, 40 and 5 taps: (3 x 40 + 5) x 8 x (8-bit IFM / 2) = 4000. Output unit: max(O7 0.5,
  // A0 1.0) x 64 = 64. Command floor: IFM 8x5x64 = 2560 bytes (NHCWB16 runs of 16 x 6 bytes,
  // no penalty) 32 + 320, OFM 64 bytes 32 + 8: (392 + 4000 + 64) / 4 = 1114. Fractional blocks:
  // 1. Cycles 4000 x 1 + 1114 = 5114. Access: 4 sub-kernels x 40 x 64 IFM bytes + 64 OFM bytes
  // = 10304 at 8 bytes per cycle = 1288.
  cmd::Operation pool = kernelOp(cmd::OpKind::Pool, cmd::denseFeatureMap(kArena, 0x0, {25, 5, 64}, cmd::DataFormat::Nhcwb16),
                                 cmd::denseFeatureMap(kArena, 0x1f40, {1, 1, 64}, cmd::DataFormat::Nhcwb16), {1, 2, 64});
  pool.poolMode = cmd::PoolMode::Average;
  pool.kernel.width = 5;
  pool.kernel.height = 25;
  const Run run = estimate(Model("Ethos_U55_High_End_Embedded", "Shared_Sram", test::u55(128)), {pool});
  REQUIRE(run.estimates.size() == 1);
  CHECK(run.ops[0].query.config.ifmBlock == Shape3{8, 6, 64});
  CHECK(run.estimates[0].npuCycles == 5114);
  CHECK(run.estimates[0].accessCycles[kSram] == 1288);
  CHECK(run.estimates[0].totalCycles == 5114);
  CHECK(run.estimates[0].macs == 8000);
}

TEST_CASE("Vela 5.0: elementwise Sub of two 1x1x16 NHWC tensors on U55-128") {
  // Output unit: max(O5 "advanced add/sub" 1.5, A0 1.0) x 16 = 24. Command floor per block: each
  // input 16 bytes in one 32-byte run, 32 + 2; the OFM the same: 68 cycles per 1x2x16 block,
  // (68 / 32 + 1.5) / 4 x 16 = 14.5 -> 15. Cycles max(15, 24) = 24; 48 bytes at 8 per cycle = 6.
  const Shape3 shape{1, 1, 16};
  cmd::Operation sub = kernelOp(cmd::OpKind::Elementwise, cmd::denseFeatureMap(kArena, 0x0, shape, cmd::DataFormat::Nhwc),
                                cmd::denseFeatureMap(kArena, 0x40, shape, cmd::DataFormat::Nhwc), {1, 2, 16});
  sub.elementwiseMode = cmd::ElementwiseMode::Sub;
  sub.ifm2 = cmd::denseFeatureMap(kArena, 0x20, shape, cmd::DataFormat::Nhwc);
  const Run run = estimate(Model("Ethos_U55_High_End_Embedded", "Shared_Sram", test::u55(128)), {sub});
  REQUIRE(run.estimates.size() == 1);
  CHECK(run.estimates[0].npuCycles == 24);
  CHECK(run.estimates[0].accessCycles[kSram] == 6);
  CHECK(run.estimates[0].macs == 0);
}

TEST_CASE("Vela 5.0: a buffered weight DMA hides under the previous operation's slack, its scales are charged to flash, "
          "its first slice pre-buffered unless its buffer overlaps what that operation uses") {
  const Model m("Ethos_U55_High_End_Embedded", "Shared_Sram", test::u55(128));
  const Shape3 shape{25, 5, 64};
  const auto conv = [&](uint64_t ifm, uint64_t ofm, uint64_t buffer) {
    cmd::Operation op = kernelOp(cmd::OpKind::Conv, cmd::denseFeatureMap(kArena, ifm, shape, cmd::DataFormat::Nhcwb16),
                                 cmd::denseFeatureMap(kArena, ofm, shape, cmd::DataFormat::Nhcwb16), {9, 6, 32});
    op.scales = {kArena, buffer, 640};
    op.weights = {kArena, buffer + 640, 4112};
    return op;
  };
  const Run run = estimate(m, {dma(0x0, 0x8000, 4752), conv(0x0, 0x2000, 0x8000), dma(0x2000, 0x9400, 4752),
                               conv(0x2000, 0x4000, 0x9400)});
  REQUIRE(run.estimates.size() == 2);
  const int64_t dmaCycles = m.arch->memToMemCycles(m.system.staging(), m.system.readonly(), 4752);
  CHECK(dmaCycles == 4752 + 64);
  const LayerEstimate& first = run.estimates[0];
  const LayerEstimate& second = run.estimates[1];
  // The first operation has no slack before it: its whole DMA shows.
  CHECK(first.npuCycles == std::max<double>(static_cast<double>(dmaCycles) + first.slackCycles,
                                            static_cast<double>(first.computeCycles + dmaCycles)));
  // The second: the DMA less the first's slack, or the stream bound.
  const double hidden = std::max<double>(static_cast<double>(dmaCycles) - first.slackCycles, 0);
  CHECK(second.npuCycles == std::max<double>(static_cast<double>(dmaCycles) - first.slackCycles + second.slackCycles,
                                             static_cast<double>(second.computeCycles) + hidden));
  // Access: the first operation's weights all stream from flash (4112 bytes) and its scales are
  // read there once per OFM block column (3 x 1 blocks of 9x6: 3 x 640); the second's were
  // pre-buffered under the first, so only its scales.
  const vela5::ElementAccess access = m.arch->measureElementAccess(run.ops[1].query);
  CHECK(access.weightsRefetch == 3);
  CHECK(first.accessCycles[kOffFlash] == 4112 + 3 * 640);
  CHECK(second.accessCycles[kOffFlash] == 3 * 640);
  CHECK(!run.ops[0].weights.preBuffered);   // the first operation of the stream
  CHECK(run.ops[1].weights.preBuffered);
  // A buffer over memory the first operation uses (here its IFM) cannot have been filled under
  // it (regor allocates a pre-filled buffer apart from it): the second's weights stream too.
  const Run over = estimate(m, {dma(0x0, 0x8000, 4752), conv(0x0, 0x2000, 0x8000), dma(0x2000, 0x0, 4752),
                                conv(0x2000, 0x4000, 0x0)});
  REQUIRE(over.estimates.size() == 2);
  CHECK(!over.ops[1].weights.preBuffered);
  CHECK(over.estimates[1].accessCycles[kOffFlash] == 4112 + 3 * 640);
  CHECK(over.estimates[1].npuCycles == second.npuCycles);   // the DMA still hides under the first's slack
}

TEST_CASE("the Vela that compiled a model: its C++ back end names the command stream \"ethos_u_command_stream\"") {
  io::CompiledNetwork net;
  net.tensors.resize(2);
  net.tensors[1].name = "ethos_u_command_stream";
  io::Operator npuOp;
  npuOp.kind = io::OperatorKind::Npu;
  npuOp.npu.commandStreamTensorIndex = 1;
  net.operators = {io::Operator{}, npuOp};
  net.description = "Vela Optimised";
  CHECK(platform::compiledBy(net) == config::VelaVersion::V5_0);
  // Python Vela up to 3.2 also wrote "Vela Optimised" without a version; its stream tensor names
  // the split subgraph.
  net.tensors[1].name = "main_split_1_command_stream";
  CHECK(platform::compiledBy(net) == config::VelaVersion::V3_10);
  net.description = "Vela 5.0.0 Optimised";   // Vela 5's legacy Python core
  net.velaVersion = "5.0.0";
  CHECK(platform::compiledBy(net) == config::VelaVersion::V3_10);
  net.tensors[1].name = "ethos_u_command_stream";   // a version in the metadata: the Python writer
  CHECK(platform::compiledBy(net) == config::VelaVersion::V3_10);
  net.operators.clear();   // no NPU operator (npusim's builder, other tools)
  net.velaVersion.clear();
  CHECK(platform::compiledBy(net) == config::VelaVersion::V3_10);
  CHECK(config::parseVelaVersion("5.0") == config::VelaVersion::V5_0);
  CHECK_FALSE(config::parseVelaVersion("4.0").has_value());
}

TEST_CASE("weight encoder: Vela 5.0 codes single zeros as weights where Vela 3.10 codes zero runs") {
  // Every other weight zero, the others spread over 12 values: zero is 6x the most common
  // other value (Vela 3.10 needs more than 4x for zero runs), but no zero run is 2 long
  // (Vela 5.0 needs half of the zeros in such runs).
  cmd::WeightValues w;
  for (int i = 0; i < 240; ++i) {
    w.push_back(static_cast<int16_t>(i % 2 == 0 ? 0 : (i / 2) % 12 + 1));
  }
  const std::vector<uint8_t> v310 = cmd::encodeWeightStream(w, cmd::WeightEncoder::Vela310);
  const std::vector<uint8_t> v50 = cmd::encodeWeightStream(w, cmd::WeightEncoder::Vela50);
  constexpr uint8_t kNoZeroRuns = 6;   // ZDIV, the first slice header's bits 0-2
  CHECK((v310[0] & 7) != kNoZeroRuns);
  CHECK((v50[0] & 7) == kNoZeroRuns);
  CHECK(cmd::decodeWeightStream(v310.data(), v310.size(), "<310>", 0) == w);
  CHECK(cmd::decodeWeightStream(v50.data(), v50.size(), "<50>", 0) == w);
  // Random weights of every size round-trip through Vela 5.0's encoder.
  std::mt19937 rng(5);
  for (size_t n : {1u, 7u, 1000u, 40000u}) {
    cmd::WeightValues r(n);
    for (auto& x : r) {
      x = static_cast<int16_t>(static_cast<int>(rng() % 511) - 255);
    }
    const std::vector<uint8_t> s = cmd::encodeWeightStream(r, cmd::WeightEncoder::Vela50);
    CHECK(s.size() % 16 == 0);
    CHECK(cmd::decodeWeightStream(s.data(), s.size(), "<random>", 0) == r);
  }
}

namespace {

// A decoded command as the listing reads it.
cmd::Command command(uint32_t offset, uint16_t key, uint16_t param, uint32_t payload = 0) {
  cmd::Command c;
  c.offset = offset;
  c.key = key;
  c.param = param;
  c.payload = payload;
  c.info = arch::ethosU55CommandSet().find(key);
  return c;
}

} // namespace

TEST_CASE("Vela 5.0 register listing: fields of the Ethos-U55/U65 register interface") {
  CHECK(report::vela5Line(command(0, 0x0105, 0x41)) ==
        "0x000000:          0041 0105 - NPU_SET_IFM_PRECISION             65, activation_type = ACTIVATION_TYPE_SIGNED, "
        "activation_precision = ACTIVATION_PRECISION_B8, activation_format = ACTIVATION_FORMAT_NHCWB16, "
        "scale_mode = IFM_SCALE_MODE_OPA_OPB_16, round_mode = ROUND_MODE_DBL");
  CHECK(report::vela5Line(command(0x1c, 0x4000, 0, 0x31d0)) ==
        "0x00001c: 000031d0 0000 4000 - NPU_SET_IFM_BASE0                  0, addr = 0x31d0");
  // TABLE_1, clip range FORCE_INT8
  CHECK(report::vela5Line(command(0x40, 0x0125, 0x3011)) ==
        "0x000040:          3011 0125 - NPU_SET_ACTIVATION             12305, activation_function = "
        "ACTIVATION_FUNCTION_TABLE_1, activation_clip_range = ACTIVATION_CLIP_RANGE_FORCE_INT8");
}
