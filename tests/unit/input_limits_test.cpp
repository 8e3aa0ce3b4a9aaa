// SPDX-License-Identifier: Apache-2.0
// Regression tests for the input-robustness fixes (fuzzing and the bad-input review): one-line
// error messages, bounded nesting, inheritance depth and parse cost of config files, clock
// ranges, tensor sizes, and the per-operation work bounds that the pre-simulation guard uses.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "models/mem/memory_timing.h"
#include "models/npu/npu_cost.h"
#include "models/npu/npu_units.h"
#include "models/npu/work_bounds.h"
#include "support/hardware.h"
#include "sim/cmdstream/operation.h"
#include "sim/common/error.h"
#include "sim/config/config.h"
#include "sim/config/config_builder.h"
#include "sim/config/json_config.h"
#include "sim/config/vela_ini.h"
#include "sim/io/compiled_network.h"
#include "sim/io/tflite_writer.h"
#include "support/fixtures.h"
#include "support/npu_model.h"
#include "support/timing_bench.h"

namespace npusim {
namespace {

void checkOneLine(const InputError& e) {
  const std::string what = e.what();
  INFO(what);
  CHECK(what.find('\n') == std::string::npos);
  CHECK(what.find('\r') == std::string::npos);
}

} // namespace

TEST_CASE("error messages: control characters from the input are escaped") {
  InputError::Location loc;
  loc.file = "cfg\n.json";
  loc.key = "sys\ntem";
  const InputError e(loc, "got 'a\r\x01'");
  checkOneLine(e);
  CHECK(std::string(e.what()) == "cfg\\n.json: key 'sys\\ntem': got 'a\\r\\x01'");
  CHECK(e.message() == "got 'a\r\x01'");

  // Found by fuzz_json_config: a key with an escaped newline, echoed in "unknown key".
  config::ConfigBuilder builder;
  checkOneLine(test::errorOf([&] { config::applyJsonText("{\"sys\\ntem\": 1}", "c.json", builder); }));
  // A vela.ini continuation line makes a two-line value, echoed in "expected a number".
  const config::VelaIni ini = config::VelaIni::parse("[System_Config.S]\ncore_clock=1\n  2\n", "v.ini");
  checkOneLine(test::errorOf([&] { config::applySystemConfig(ini, "S", builder); }));
}

TEST_CASE("config JSON: deeply nested values are refused at the first bracket too deep") {
  // 200000 nested arrays used to overflow the stack in nlohmann's recursive dump().
  const std::string deep = "{\"accelerator\": " + std::string(200000, '[') + std::string(200000, ']') + "}";
  config::ConfigBuilder builder;
  const InputError e = test::errorOf([&] { config::applyJsonText(deep, "deep.json", builder); });
  REQUIRE(e.where().byteOffset.has_value());
  CHECK(*e.where().byteOffset == 16 + 63);  // '{' is level 1, the 64th '[' level 65
  CHECK(std::string(e.what()).find("nest more than 64 levels") != std::string::npos);
  // Brackets inside strings do not count, and 64 levels are fine for the parser.
  const std::string quoted = "{\"accelerator\": \"" + std::string(100, '[') + "\"}";
  CHECK(std::string(test::errorOf([&] { config::applyJsonText(quoted, "q.json", builder); }).what()).find("is not one of") !=
        std::string::npos);
}

TEST_CASE("config: clocks past 10 GHz are refused (SystemC's 1 ps time resolution)") {
  for (const char* set : {"system.core_clock=1e15", "host.clock=2e10"}) {
    CAPTURE(set);
    config::ConfigRequest request;
    request.overrides = {set};
    const InputError e = test::errorOf([&] { config::resolveConfig(request); });
    CHECK(std::string(e.what()).find("10000000000]") != std::string::npos);
  }
  config::ConfigRequest ok;
  ok.overrides = {"system.core_clock=1e10", "host.clock=1e10"};
  CHECK(config::resolveConfig(ok).coreClockHz == 1e10);
}

TEST_CASE("vela.ini: an inheritance chain longer than 64 sections is refused") {
  std::string text;
  for (int i = 0; i < 100; ++i) {
    text += "[System_Config.C" + std::to_string(i) + "]\ninherit=System_Config.C" + std::to_string(i + 1) + "\n";
  }
  text += "[System_Config.C100]\ncore_clock=1e9\naxi0_port=Sram\naxi1_port=OffChipFlash\nSram_burst_length=32\n"
          "OffChipFlash_burst_length=128\n";
  const config::VelaIni ini = config::VelaIni::parse(text, "chain.ini");
  config::ConfigBuilder builder;
  const InputError e = test::errorOf([&] { config::applySystemConfig(ini, "C0", builder); });
  CHECK(std::string(e.what()).find("longer than 64 sections") != std::string::npos);
  CHECK(e.where().file == "chain.ini");
  // 64 levels are fine.
  config::ConfigBuilder again;
  CHECK_NOTHROW(config::applySystemConfig(ini, "C37", again));
}

TEST_CASE("vela.ini: duplicate checks over 30000 keys and sections (indexed, no longer quadratic)") {
  std::string keys = "[DEFAULT]\nk=1\n[System_Config.K]\n";
  std::string sections;
  for (int i = 0; i < 30000; ++i) {
    keys += "key" + std::to_string(i) + "=1\n";
    sections += "[Memory_Mode.M" + std::to_string(i) + "]\n";
  }
  const InputError dupKey = test::errorOf([&] { config::VelaIni::parse(keys + "KEY17=2\n", "keys.ini"); });
  CHECK(std::string(dupKey.what()).find("line 30004: key 'KEY17' already set in [System_Config.K] on line 21") !=
        std::string::npos);
  const InputError dupSection =
      test::errorOf([&] { config::VelaIni::parse(sections + "[Memory_Mode.M42]\n", "sections.ini"); });
  CHECK(std::string(dupSection.what()).find("section [Memory_Mode.M42] already defined on line 43") !=
        std::string::npos);
  // A [DEFAULT] key set again in a second [DEFAULT] block is still a duplicate.
  CHECK(std::string(test::errorOf([&] { config::VelaIni::parse(keys + "[DEFAULT]\nK=2\n", "keys.ini"); }).what())
            .find("key 'K' already set in [DEFAULT] on line 2") != std::string::npos);
}

TEST_CASE("loader: a tensor larger than the 4 GiB address space is refused") {
  io::ModelSpec spec;
  spec.tensors = {{"small", {16}, 3, {}, 0}, {"huge", {1, 65536, 65536, 2}, 9, {}, 0}};
  spec.inputs = {0};
  spec.outputs = {1};
  const InputError e = test::errorOf([&] { io::loadNetworkFromBytes(io::writeTflite(spec), "huge.tflite"); });
  CHECK(e.where().byteOffset.has_value());
  CHECK(std::string(e.what()).find("tensor 1 'huge' of shape [1, 65536, 65536, 2] (INT8) is larger than the 4 GiB") !=
        std::string::npos);
  // The largest shape that fits: 2^32 bytes.
  spec.tensors[1].shape = {65536, 65536};
  spec.tensors[1].type = 3;
  const std::string what = test::errorOf([&] { io::loadNetworkFromBytes(io::writeTflite(spec), "ok.tflite"); }).what();
  CHECK(what.find("4 GiB") == std::string::npos);
}

TEST_CASE("MAC cycles: a 65536-wide pooling kernel costs 8192 times an 8x8 one, in O(1)") {
  // A corrupted 65536x65536 kernel made the estimator list 4e9 sub-kernels (17 GB); the cost
  // models now take each of the (at most four) sub-kernel sizes once.
  // Pooling on U55-128 (ublock W2 x H1 x D8), block H4 x W8 x D16: nxy = 4 * 4 = 16, nz = 2;
  // one 8x8 sub-kernel costs max(4, 64) * nxy * nz = 2048 cycles (timing doc 3.3 step 5). A
  // 65536-wide kernel is 8192 such sub-kernels, a 65536x65536 one 8192^2.
  cmd::Operation pool = test::samplePool();
  const arch::NpuConfig& arch = test::u55(128);
  pool.kernel.width = pool.kernel.height = 8;
  CHECK(npu::blockMacCycles(arch, npu::macBlockOf(arch, pool, pool.ofmBlock)) == 2048);
  pool.kernel.width = 65536;
  CHECK(npu::blockMacCycles(arch, npu::macBlockOf(arch, pool, pool.ofmBlock)) == 8192.0 * 2048);
  pool.kernel.height = 65536;
  CHECK(npu::blockMacCycles(arch, npu::macBlockOf(arch, pool, pool.ofmBlock)) == doctest::Approx(8192.0 * 8192.0 * 2048));
}

TEST_CASE("work bounds: a sample convolution bounds its simulation") {
  // The contract of operationWork, checked against the kernel unit itself: simulating the
  // operation walks no more blocks, books no more bursts and takes no more cycles than the
  // bounds (bursts of at most 64 bytes, each at most 100 cycles; the transport's take 40),
  // and every transfer ends inside an access range of its region.
  const arch::NpuConfig& arch = test::u55(128);
  const cmd::Operation conv = test::sampleConv();
  const npu::WorkBound w = npu::operationWork(arch, conv, npu::BurstCost{64, 100});
  // One AXI port per memory (64-byte bursts, one outstanding) to memories with a 32-cycle latency
  // at 8 bytes/cycle, so each burst takes at most 32 + 64 / 8 = 40 cycles.
  test::UnitBench units(arch, {8.0, 32, 32}, {8.0, 32, 32}, {8, 64, 1, 1, 0}, {8, 64, 1, 1, 0});
  const npu::KernelTiming t = units.runKernel(conv);
  const uint64_t bursts = units.counters(0).readBursts + units.counters(0).writeBursts +
                          units.counters(1).readBursts + units.counters(1).writeBursts;

  // Hand-derived: OFM H8 x W8 x D16 in blocks of H4 x W8 x D16 is 2 blocks. Part-kernel-first
  // 3x3 conv on U55-128 (timing doc 3.3): nxy = (8 / 2) * (4 / 1) = 16, nz = 16 / 8 = 2, steps =
  // ceil(9 / 4) = 3, IFM block depth 16 -> ceil(16 / 8) = 2: max(32, 4 * 16) * 3 * 2 * 2 = 768
  // MAC cycles per block.
  CHECK(w.blocks == 2);
  CHECK(t.blocks == 2);
  CHECK(t.macCycles == 2 * 768);
  // Every byte moves in bursts of at most 64 bytes: IFM 1024, OFM 1024, weights 2048, scales
  // 160 bytes need at least 16 + 16 + 32 + 3 bursts.
  CHECK(w.bursts >= 67);
  CHECK(bursts <= w.bursts);
  CHECK(t.end - t.start <= w.cycles);
  REQUIRE(w.accesses.size() == 4);  // IFM, OFM, weights, scales
  CHECK(std::string(w.accesses[0].what) == "IFM");
  CHECK(std::string(w.accesses[2].what) == "weight stream");
  CHECK(w.accesses[2].end >= 160 + 2048);  // the whole weight stream is read
  CHECK(units.ranges().size() >= 2 * 4);  // per block: IFM, scales, weights, OFM
  for (const test::UnitBench::Range& r : units.ranges()) {
    CAPTURE(int(r.region));
    CAPTURE(r.end);
    CHECK(std::any_of(w.accesses.begin(), w.accesses.end(),
                      [&](const npu::RegionAccess& a) { return a.region == r.region && r.end <= a.end; }));
  }
}

TEST_CASE("work bounds: a corrupted 65536^3 OFM is bounded without walking its blocks") {
  cmd::Operation conv = test::sampleConv();
  conv.ofm.shape = {65536, 65536, 65536};
  conv.ofmBlock = {1, 1, 1};
  const npu::WorkBound w = npu::operationWork(test::u55(128), conv, npu::BurstCost{64, 10});
  CHECK(w.blocks == doctest::Approx(281474976710656.0));
  CHECK(w.bursts >= w.blocks);
  CHECK(w.cycles > w.bursts * 10);
}

TEST_CASE("sub-kernel groups: the 8x8 split in at most four sizes, also for 16-bit kernel sizes") {
  // Brute force: every limit x limit piece, row-major, as the MAC array runs them.
  const auto bruteForce = [](uint32_t w, uint32_t h, uint32_t limit) {
    std::map<uint32_t, uint64_t> sizes;
    for (uint32_t y = 0; y < h; y += limit) {
      for (uint32_t x = 0; x < w; x += limit) {
        ++sizes[std::min(limit, h - y) * std::min(limit, w - x)];
      }
    }
    return sizes;
  };
  for (const auto& [w, h, limit] : std::vector<std::array<uint32_t, 3>>{
           {1, 1, 8}, {3, 3, 8}, {8, 8, 8}, {9, 1, 8}, {17, 10, 8}, {64, 64, 8}, {1001, 1, 8}, {5, 7, 1}}) {
    INFO(w, "x", h, " limit ", limit);
    std::map<uint32_t, uint64_t> grouped;
    for (const cmd::SubKernelGroup& g : cmd::subKernelGroups(w, h, limit)) grouped[g.elements] += g.count;
    CHECK(grouped == bruteForce(w, h, limit));
  }
  const auto huge = cmd::subKernelGroups(65536, 65535, 8);
  CHECK(huge.size() == 2);
  uint64_t taps = 0;
  for (const cmd::SubKernelGroup& g : huge) taps += g.elements * g.count;
  CHECK(taps == uint64_t{65536} * 65535);
}

TEST_CASE("work bounds: DMA chunks and SHRAM destinations") {
  const arch::NpuConfig& arch = test::u55(128);
  const npu::WorkBound dma = npu::operationWork(arch, test::sampleDma(), npu::BurstCost{64, 10});
  CHECK(dma.bursts == 2 * 2 * 4);  // 352 bytes: 2 chunks of <= 256 bytes, 4 bursts each way
  CHECK(dma.cycles == dma.bursts * 10);
  REQUIRE(dma.accesses.size() == 2);
  CHECK(dma.accesses[1].end == 8192 + 352);
  const npu::WorkBound lut = npu::operationWork(arch, test::sampleLutDma(), npu::BurstCost{64, 10});
  CHECK(lut.accesses.size() == 1);  // no AXI write into SHRAM
}

} // namespace npusim
