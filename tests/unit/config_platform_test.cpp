// SPDX-License-Identifier: Apache-2.0
// The Corstone_300_FVP platform preset and the timing-adapter keys: values as the ML evaluation
// kit programs them (timing doc 5.4), and their bad-input errors.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "harness/analytic/vela_system.h"
#include "sim/common/error.h"
#include "sim/config/config.h"
#include "support/fixtures.h"
#include "support/hardware.h"

using namespace npusim;
using namespace npusim::config;

namespace {

SystemParams corstone(const std::string& memoryMode, std::vector<std::string> overrides = {},
                      const std::string& accelerator = "") {
  ConfigRequest request;
  request.accelerator = accelerator;
  request.systemConfig = "Corstone_300_FVP";
  request.memoryMode = memoryMode;
  request.overrides = std::move(overrides);
  return resolveConfig(request);
}

std::string errorText(std::vector<std::string> overrides) {
  return test::errorOf([&] { corstone("Shared_Sram", overrides); }).what();
}

// A timing adapter's registers as the kit programs them (ta_config_u55_high_end.cmake,
// ta_config_u65_high_end.cmake): MAXR, MAXW, RLATENCY, WLATENCY, PULSE_ON, PULSE_OFF, BWCAP.
struct Registers {
  uint32_t maxr, maxw, rlatency, wlatency, pulseOn, pulseOff, bwcap;
};

void checkAdapter(const TimingAdapterParams& ta, const Registers& want) {
  CHECK(ta.maxReads == want.maxr);
  CHECK(ta.maxWrites == want.maxw);
  CHECK(ta.readLatency == want.rlatency);
  CHECK(ta.writeLatency == want.wlatency);
  CHECK(ta.pulseOn == want.pulseOn);
  CHECK(ta.pulseOff == want.pulseOff);
  CHECK(ta.bandwidthCap == want.bwcap);
}

// The driver's AXI limits and the kit's burst split, on both ports.
void checkPortLimits(const SystemParams& p, uint32_t reads, uint32_t writes, uint32_t burstBytes) {
  for (const arch::PortId port : {test::port("axi0"), test::port("axi1")}) {
    CHECK(p.port(port).maxOutstandingReads == reads);
    CHECK(p.port(port).maxOutstandingWrites == writes);
    CHECK(p.port(port).maxBurstBytes == burstBytes);
  }
}

} // namespace

TEST_CASE("Corstone_300_FVP + Shared_Sram: the kit's U55 high-end timing adapters and the driver's AXI limits") {
  const SystemParams p = corstone("Shared_Sram");
  CHECK(p.coreClockHz == 500e6);
  CHECK(p.memoryIn(test::area("Axi0")) == MemoryKind::Sram);
  CHECK(p.memoryIn(test::area("Axi1")) == MemoryKind::Dram);
  CHECK(p.commandStreamArea == test::area("Axi1"));
  checkAdapter(p.port(test::port("axi0")).adapter, {8, 8, 32, 32, 3999, 1, 4000});
  checkAdapter(p.port(test::port("axi1")).adapter, {2, 0, 64, 0, 320, 80, 50});
  checkPortLimits(p, 32, 16, 64);
  // The memories answer at the full bus rate; the adapters supply latency and throttling. Reads
  // and writes have separate data paths (the adapter's cap counts both).
  CHECK(p.bytesPerCycle(test::port("axi1")) == 8.0);
  CHECK(p.memory(MemoryKind::Dram).readLatency == 0);
  CHECK(p.memory(MemoryKind::Sram).separateReadWrite);
  CHECK(p.memory(MemoryKind::Dram).separateReadWrite);
  CHECK_FALSE(builtinPreset("Ethos_U55_High_End_Embedded", "Shared_Sram").memory(MemoryKind::Sram).separateReadWrite);
}

TEST_CASE("Corstone_300_FVP with an Ethos-U65: the kit's U65 high-end timing adapters, 128-byte bursts") {
  for (const char* accelerator : {"ethos-u65-256", "ethos-u65-512"}) {
    CAPTURE(accelerator);
    const SystemParams p = corstone("Dedicated_Sram", {}, accelerator);
    CHECK(p.mode.arenaMemArea == test::area("Axi1"));
    CHECK(p.mode.cacheMemArea == test::area("Axi0"));
    CHECK(p.commandStreamArea == test::area("Axi1"));
    checkAdapter(p.port(test::port("axi0")).adapter, {16, 16, 32, 32, 3999, 1, 4000});
    checkAdapter(p.port(test::port("axi1")).adapter, {24, 12, 500, 250, 4000, 1000, 1172});
    checkPortLimits(p, 64, 32, 128);
    CHECK(p.port(test::port("axi0")).dataWidthBits == 128);
    CHECK(p.port(test::port("axi1")).dataWidthBits == 128);
    CHECK(p.bytesPerCycle(test::port("axi1")) == 16.0);
  }
  // The kit's nominal DDR bandwidth, 1172 words of 16 bytes per 5000 cycles (3.75 B/cycle, Vela's
  // Ethos_U65_High_End DRAM).
  const analytic::VelaSystem vela(corstone("Dedicated_Sram", {}, "ethos-u65-256"), test::u65(256));
  CHECK(vela.timing(analytic::MemArea::Dram).bytesPerCycle == doctest::Approx(1172.0 * 16 / 5000));
  // A U55 model gets the U55 values from the same preset.
  CHECK(corstone("Shared_Sram", {}, "ethos-u55-64").port(test::port("axi1")).adapter.maxReads == 2);
  // Without a model: the NPU an accelerator override names.
  CHECK(corstone("Dedicated_Sram", {"accelerator=ethos-u65-256"}).port(test::port("axi0")).adapter.maxReads == 16);
}

TEST_CASE("Corstone_300_FVP + Sram_Only: everything on AXI0, AXI1's adapter programmed like AXI0's") {
  const SystemParams p = corstone("Sram_Only");
  CHECK(p.mode.constMemArea == test::area("Axi0"));
  CHECK(p.commandStreamArea == test::area("Axi0"));
  const TimingAdapterParams& a0 = p.port(test::port("axi0")).adapter;
  const TimingAdapterParams& a1 = p.port(test::port("axi1")).adapter;
  CHECK(a1.maxReads == a0.maxReads);
  CHECK(a1.readLatency == a0.readLatency);
  CHECK(a1.bandwidthCap == a0.bandwidthCap);
  CHECK(a1.pulseOn == a0.pulseOn);
}

TEST_CASE("Corstone_300_FVP: --set overrides a platform value, other system configs have no adapters") {
  CHECK(corstone("Shared_Sram", {"npu.axi1.ta.bwcap=100"}).port(test::port("axi1")).adapter.bandwidthCap == 100);
  CHECK(builtinPreset("Ethos_U55_High_End_Embedded", "Shared_Sram").port(test::port("axi1")).adapter.transparent());
}

TEST_CASE("timing-adapter keys: values outside the register widths name the key and the range") {
  const std::pair<const char*, const char*> cases[] = {{"npu.axi0.ta.maxr=64", "[0, 63]"},
                                                       {"npu.axi1.ta.maxrw=100", "[0, 63]"},
                                                       {"npu.axi0.ta.rlatency=4096", "[0, 4095]"},
                                                       {"npu.axi1.ta.pulse_off=65536", "[0, 65535]"},
                                                       {"npu.axi0.ta.bwcap=-1", "[0, 65535]"}};
  for (const auto& [assignment, range] : cases) {
    CAPTURE(assignment);
    const std::string text = errorText({assignment});
    const std::string key = std::string(assignment).substr(0, std::string(assignment).find('='));
    CHECK(text.find(key) != std::string::npos);
    CHECK(text.find(range) != std::string::npos);
  }
  CHECK(errorText({"npu.axi0.ta.max_reads=3"}).find("did you mean 'npu.axi0.ta.maxr'") != std::string::npos);
}

TEST_CASE("timing-adapter keys: a pulse that never admits and a cap without a pulse cycle are errors") {
  const std::string never = errorText({"npu.axi1.ta.pulse_on=0"});
  CHECK(never.find("npu.axi1.ta.pulse_on") != std::string::npos);
  CHECK(never.find("never admits") != std::string::npos);
  ConfigRequest request;
  request.overrides = {"npu.axi0.ta.bwcap=10"};
  const std::string noPulse = test::errorOf([&] { resolveConfig(request); }).what();
  CHECK(noPulse.find("npu.axi0.ta.bwcap") != std::string::npos);
  CHECK(noPulse.find("pulse cycle") != std::string::npos);
}

TEST_CASE("Corstone_300_FVP: the estimator sees each timing adapter's nominal bandwidth and latencies") {
  const analytic::VelaSystem vela(corstone("Shared_Sram"), test::u55(128));
  // AXI1: BWCAP 50 words per 320 + 80 cycles = 50 x 8 B / 400 = 1 B/cycle (the kit's own
  // derivation, Vela's OffChipFlash clock scale 0.125), RLATENCY 64.
  CHECK(vela.constArea() == analytic::MemArea::Dram);
  CHECK(vela.timing(analytic::MemArea::Dram).bytesPerCycle == doctest::Approx(1.0));
  CHECK(vela.timing(analytic::MemArea::Dram).readLatency == 64);
  // AXI0: 4000 words per 4000 cycles = the full 8 B/cycle, latencies 32.
  CHECK(vela.timing(analytic::MemArea::Sram).bytesPerCycle == doctest::Approx(8.0));
  CHECK(vela.timing(analytic::MemArea::Sram).readLatency == 32);
  CHECK(vela.timing(analytic::MemArea::Sram).writeLatency == 32);
}
