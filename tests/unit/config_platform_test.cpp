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

SystemParams corstone(const std::string& memoryMode, std::vector<std::string> overrides = {}) {
  ConfigRequest request;
  request.systemConfig = "Corstone_300_FVP";
  request.memoryMode = memoryMode;
  request.overrides = std::move(overrides);
  return resolveConfig(request);
}

std::string errorText(std::vector<std::string> overrides) {
  return test::errorOf([&] { corstone("Shared_Sram", overrides); }).what();
}

} // namespace

TEST_CASE("Corstone_300_FVP + Shared_Sram: the kit's U55 high-end timing adapters and the driver's AXI limits") {
  const SystemParams p = corstone("Shared_Sram");
  CHECK(p.coreClockHz == 500e6);
  CHECK(p.memoryIn(test::area("Axi0")) == MemoryKind::Sram);
  CHECK(p.memoryIn(test::area("Axi1")) == MemoryKind::Dram);
  CHECK(p.commandStreamArea == test::area("Axi1"));
  const TimingAdapterParams& sram = p.port(test::port("axi0")).adapter;
  CHECK(sram.maxReads == 8);
  CHECK(sram.maxWrites == 8);
  CHECK(sram.readLatency == 32);
  CHECK(sram.writeLatency == 32);
  CHECK(sram.pulseOn == 3999);
  CHECK(sram.pulseOff == 1);
  CHECK(sram.bandwidthCap == 4000);
  const TimingAdapterParams& ddr = p.port(test::port("axi1")).adapter;
  CHECK(ddr.maxReads == 2);
  CHECK(ddr.maxWrites == 0);
  CHECK(ddr.readLatency == 64);
  CHECK(ddr.pulseOn == 320);
  CHECK(ddr.pulseOff == 80);
  CHECK(ddr.bandwidthCap == 50);
  for (const arch::PortId port : {test::port("axi0"), test::port("axi1")}) {
    CHECK(p.port(port).maxOutstandingReads == 32);
    CHECK(p.port(port).maxOutstandingWrites == 16);
    CHECK(p.port(port).maxBurstBytes == 64);
  }
  // The memories answer at the full bus rate; the adapters supply latency and throttling.
  CHECK(p.bytesPerCycle(test::port("axi1")) == 8.0);
  CHECK(p.memory(MemoryKind::Dram).readLatency == 0);
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
