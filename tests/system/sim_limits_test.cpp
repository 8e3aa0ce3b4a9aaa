// SPDX-License-Identifier: Apache-2.0
// Guards against absurd work: the pre-simulation check refuses streams that would take
// unreasonable time or memory or leave the memory map, real models pass it, and the
// simulated-cycle limit (sim.cycle_limit) stops a run without changing a run it does not stop.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/common/error.h"
#include "sim/config/config.h"
#include "sim/io/decoded_network.h"
#include "models/platform/platform.h"
#include "support/fixtures.h"
#include "support/npu_model.h"

namespace npusim {
namespace {

constexpr const char* kFile = "limits.tflite";

struct Model {
  io::CompiledNetwork net;
  std::vector<io::DecodedNpuOp> decoded;
};

Model load(const std::vector<uint8_t>& bytes) {
  Model m{io::loadNetworkFromBytes(bytes, kFile), {}};
  m.decoded = io::decodeAll(m.net);
  return m;
}

// checkSimulationWork with the default configuration plus `overrides`.
void check(const Model& m, const std::vector<std::string>& overrides = {}) {
  config::ConfigRequest request;
  request.overrides = overrides;
  platform::checkSimulationWork(m.net, m.decoded, platform::resolveForModel(request, m.net));
}

// The error names the file, the command of the last operation in `ops` and `text`.
void checkRefusedAt(const Model& m, const std::vector<cmd::Operation>& ops, const std::string& text,
                    const std::vector<std::string>& overrides = {}) {
  const InputError e = test::errorOf([&] { check(m, overrides); });
  const std::string what = e.what();
  INFO(what);
  CHECK(e.where().file == kFile);
  const cmd::Operation& last = m.decoded.at(0).operations.at(ops.size() - 1);
  REQUIRE(e.where().byteOffset.has_value());
  CHECK(*e.where().byteOffset == m.net.operators[0].npu.commands.offset + last.byteOffset);
  CHECK(e.where().commandIndex == last.commandIndex);
  CHECK(what.find(text) != std::string::npos);
  CHECK(what.find('\n') == std::string::npos);
}

double totalCycles(const std::vector<std::string>& extra) {
  const test::TempDir dir;
  std::vector<std::string> args{"run", "--json", (dir.path() / "run.json").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const test::ProcessResult r = test::runNpusim(args);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return nlohmann::json::parse(test::readText(dir.path() / "run.json")).at("total_cycles").get<double>();
}

} // namespace

TEST_CASE("work guard: the sample operations pass") {
  const std::vector<cmd::Operation> ops{test::sampleDma(), test::sampleConv(), test::sampleDepthwise(),
                                        test::samplePool(), test::sampleElementwise(), test::sampleLutDma()};
  CHECK_NOTHROW(check(load(test::buildNpuModelWithStream(test::encodeOps(ops)))));
}

TEST_CASE("work guard: a corrupted huge OFM with zero strides is refused before simulation") {
  // Zero strides keep the footprint inside the region, so the decoder accepts it.
  cmd::Operation conv = test::sampleConv();
  conv.ofm.shape = {65536, 65536, 64};
  conv.ofm.width0 = 65536;
  conv.ofm.height0 = conv.ofm.height1 = 65536;
  conv.ofm.strideX = conv.ofm.strideY = conv.ofm.strideC = 0;
  conv.ifm.strideX = conv.ifm.strideY = conv.ifm.strideC = 0;
  const std::vector<cmd::Operation> ops{test::sampleDma(), conv};
  const Model m = load(test::buildNpuModelWithStream(test::encodeOps(ops)));
  checkRefusedAt(m, ops, "refusing a command stream of unreasonable size");
}

TEST_CASE("work guard: a transfer into a region without a tensor is refused") {
  cmd::Operation conv = test::sampleConv();
  conv.ofm.region = 6;  // the test model provides regions 0..4
  const std::vector<cmd::Operation> ops{test::sampleDma(), conv};
  const Model m = load(test::buildNpuModelWithStream(test::encodeOps(ops)));
  checkRefusedAt(m, ops, "the OFM is in region 6, but operator 0 (ethos-u) has tensors for regions 0..4 only");
}

TEST_CASE("work guard: a transfer past the end of its memory's address window is refused") {
  // A 2 GiB scratch tensor: the decoder accepts an OFM 256 MiB into it, the SRAM window ends.
  test::ModelLayout layout;
  layout.scratchBytes = 0x7FFFFFFF;
  cmd::Operation conv = test::sampleConv();
  conv.ofm.base[0] = 0x1000'0000;
  const std::vector<cmd::Operation> ops{conv};
  const Model m = load(test::buildNpuModelWithStream(test::encodeOps(ops), layout));
  checkRefusedAt(m, ops, "the OFM reaches offset");
  checkRefusedAt(m, ops, "past its end");
}

TEST_CASE("work guard: configurations whose simulated time would overflow SystemC's range are refused") {
  const std::vector<cmd::Operation> ops{test::sampleConv()};
  const Model m = load(test::buildNpuModelWithStream(test::encodeOps(ops)));
  CHECK_NOTHROW(check(m));
  const InputError e = test::errorOf([&] { check(m, {"host.clock=1e-300"}); });
  CHECK(std::string(e.what()).find("that SystemC can simulate") != std::string::npos);
}

TEST_CASE("work guard: a memory timing no memory has is refused at its key, not blamed on the model") {
  // One 64-byte burst (the U55's axi0 bursts) at clock_scale 1e-9 of 8 bytes per cycle: 8e9
  // cycles; at 1e-4, 8e4 cycles: slow, but a memory.
  for (const std::string set : {"system.sram.clock_scale=1e-9", "system.sram.clock_scale=1e-300"}) {
    CAPTURE(set);
    const test::ProcessResult r = test::runNpusim({"run", "--set", set});
    test::checkOneErrorLine(r, "--set: key 'system.sram.clock_scale': system.sram.clock_scale=1e-");
    CHECK(r.err.find(" makes one 64-byte burst of axi0 on Sram take ") != std::string::npos);
  }
  test::checkOneErrorLine(test::runNpusim({"run", "--set", "system.sram.read_latency=4000000000"}),
                          "--set: key 'system.sram.read_latency': system.sram.read_latency=4000000000 makes one "
                          "64-byte burst of axi0 on Sram take 4e+09 NPU cycles");
  CHECK(test::runNpusim({"run", "--set", "system.sram.clock_scale=1e-4"}).exitCode == 0);
}

TEST_CASE("work guard: every fixture model passes") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) {
    return;
  }
  for (const test::VelaFolder& folder : test::velaFoldersOrSkip(*root)) {
    INFO(folder.name());
    const io::CompiledNetwork net = test::loadModel(folder);
    const Model m{net, io::decodeAll(net)};
    CHECK_NOTHROW(check(m));
  }
}

TEST_CASE("cycle limit: a limit the run does not reach changes nothing, one it reaches stops it") {
  const double unlimited = totalCycles({});
  CHECK(unlimited > 1000);
  // A limit above the run used to report the limit as the run's cycle count.
  CHECK(totalCycles({"--set", "sim.cycle_limit=100000000"}) == unlimited);
  // A limit past SystemC's time range is no limit.
  CHECK(totalCycles({"--set", "sim.cycle_limit=9007199254740992"}) == unlimited);
  const test::ProcessResult stopped = test::runNpusim({"run", "--set", "sim.cycle_limit=1000"});
  CHECK(stopped.exitCode == 2);
  CHECK(stopped.err ==
        "npusim: error: <demo>: key 'sim.cycle_limit': simulation stopped at the limit of 1000 cycles before the "
        "network finished\n");
}

} // namespace npusim
