// SPDX-License-Identifier: Apache-2.0
#include "sim/config/presets.h"

#include <string>

namespace npusim::config {

namespace {

// Values as in Vela's vela.ini; tests/unit/config_vela_fixture_test.cpp checks them against the
// fixture copy of that file.
std::vector<PresetSection> buildTable() {
  using V = std::vector<std::pair<std::string_view, std::string_view>>;
  const V sram{{"Sram_clock_scale", "1.0"}, {"Sram_burst_length", "32"}, {"Sram_read_latency", "32"},
               {"Sram_write_latency", "32"}};
  const auto flash = [&sram](std::string_view clock, std::string_view scale) {
    V v{{"core_clock", clock}, {"axi0_port", "Sram"}, {"axi1_port", "OffChipFlash"}};
    v.insert(v.end(), sram.begin(), sram.end());
    v.insert(v.end(), {{"OffChipFlash_clock_scale", scale}, {"OffChipFlash_burst_length", "128"},
                       {"OffChipFlash_read_latency", "64"}, {"OffChipFlash_write_latency", "64"}});
    return v;
  };
  const auto dram = [&sram](std::string_view clock, std::string_view scale) {
    V v{{"core_clock", clock}, {"axi0_port", "Sram"}, {"axi1_port", "Dram"}};
    v.insert(v.end(), sram.begin(), sram.end());
    v.insert(v.end(), {{"Dram_clock_scale", scale}, {"Dram_burst_length", "128"}, {"Dram_read_latency", "500"},
                       {"Dram_write_latency", "250"}});
    return v;
  };
  return {
      {"System_Config.Ethos_U55_Deep_Embedded", "200 MHz; SRAM 1.6 GB/s on AXI0, off-chip flash 0.1 GB/s on AXI1",
       flash("200e6", "0.0625")},
      {"System_Config.Ethos_U55_High_End_Embedded", "500 MHz; SRAM 4 GB/s on AXI0, off-chip flash 0.5 GB/s on AXI1",
       flash("500e6", "0.125")},
      {"System_Config.Ethos_U65_Embedded", "500 MHz; SRAM + off-chip flash (U65 figures; a U55 keeps 64-bit AXI)",
       flash("500e6", "0.0625")},
      {"System_Config.Ethos_U65_Mid_End", "500 MHz; SRAM + DRAM (U65 figures; a U55 keeps 64-bit AXI)",
       dram("500e6", "0.46875")},
      {"System_Config.Ethos_U65_High_End", "1 GHz; SRAM + DRAM (U65 figures; a U55 keeps 64-bit AXI)",
       dram("1e9", "0.234375")},
      {"System_Config.Ethos_U65_Client_Server", "1 GHz; SRAM + fast DRAM (U65 figures; a U55 keeps 64-bit AXI)",
       dram("1e9", "0.75")},
      {"Memory_Mode.Sram_Only", "everything (constants, arena, cache) in SRAM on AXI0",
       {{"const_mem_area", "Axi0"}, {"arena_mem_area", "Axi0"}, {"cache_mem_area", "Axi0"}}},
      {"Memory_Mode.Shared_Sram", "constants on AXI1 (read-only), arena in SRAM on AXI0 shared with the CPU",
       {{"const_mem_area", "Axi1"}, {"arena_mem_area", "Axi0"}, {"cache_mem_area", "Axi0"}}},
      {"Memory_Mode.Dedicated_Sram", "constants and arena on AXI1, 384 KiB NPU-only SRAM cache on AXI0",
       {{"const_mem_area", "Axi1"}, {"arena_mem_area", "Axi1"}, {"cache_mem_area", "Axi0"},
        {"arena_cache_size", "393216"}}},
      {"Memory_Mode.Dedicated_Sram_512KB", "Dedicated_Sram with a 512 KiB cache",
       {{"inherit", "Memory_Mode.Dedicated_Sram"}, {"arena_cache_size", "524288"}}},
  };
}

} // namespace

const std::vector<PresetSection>& presetTable() {
  static const std::vector<PresetSection> table = buildTable();
  return table;
}

const VelaIni& builtinPresets() {
  static const VelaIni ini = [] {
    std::vector<VelaIni::Section> sections;
    for (const auto& preset : presetTable()) {
      VelaIni::Section section{std::string(preset.name), 0, {}};
      for (const auto& [key, value] : preset.values) {
        section.entries.push_back({std::string(key), std::string(value), 0});
      }
      sections.push_back(std::move(section));
    }
    return VelaIni::fromSections("<builtin>", std::move(sections));
  }();
  return ini;
}

} // namespace npusim::config
