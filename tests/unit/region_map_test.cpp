// SPDX-License-Identifier: Apache-2.0
// The region map: each of the eight regions goes to the port and memory its memory mode names
// (Vela's vela.ini memory modes: constants, arena, cache areas).
#include <doctest/doctest.h>

#include "sim/config/config.h"
#include "sim/config/region_map.h"
#include "support/hardware.h"

namespace npusim::config {

namespace {

SystemParams preset(const char* accelerator, const char* systemConfig, const char* memoryMode) {
  ConfigRequest request;
  request.accelerator = accelerator;
  request.systemConfig = systemConfig;
  request.memoryMode = memoryMode;
  return resolveConfig(request);
}

} // namespace

TEST_CASE("region map: Shared_Sram, Sram_Only and Dedicated_Sram") {
  // Shared_Sram: constants on AXI1 (flash), arena and cache on AXI0 (SRAM).
  const RegionMap shared(preset("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Shared_Sram"));
  CHECK(shared.ports(0) == std::vector<arch::PortId>{test::port("axi1")});
  CHECK(shared.memory(0) == MemoryKind::OffChipFlash);
  for (uint8_t region = 1; region < 8; ++region) {
    INFO("region " << int{region});
    CHECK(shared.ports(region) == std::vector<arch::PortId>{test::port("axi0")});
    CHECK(shared.memory(region) == MemoryKind::Sram);
  }
  // Sram_Only: every region in SRAM on AXI0.
  const RegionMap sramOnly(preset("ethos-u55-128", "Ethos_U55_High_End_Embedded", "Sram_Only"));
  for (uint8_t region = 0; region < 8; ++region) {
    CHECK(sramOnly.area(region) == test::area("Axi0"));
    CHECK(sramOnly.memory(region) == MemoryKind::Sram);
  }
  // Dedicated_Sram: constants and arena (regions 0, 1, 3-7) in DRAM on AXI1; the cache (region 2)
  // in SRAM on AXI0.
  const RegionMap dedicated(preset("ethos-u65-256", "Ethos_U65_Client_Server", "Dedicated_Sram"));
  for (uint8_t region = 0; region < 8; ++region) {
    INFO("region " << int{region});
    const bool cache = region == 2;
    CHECK(dedicated.area(region) == (cache ? test::area("Axi0") : test::area("Axi1")));
    CHECK(dedicated.ports(region) == std::vector<arch::PortId>{test::port(cache ? "axi0" : "axi1")});
    CHECK(dedicated.memory(region) == (cache ? MemoryKind::Sram : MemoryKind::Dram));
  }
}

} // namespace npusim::config
