// SPDX-License-Identifier: Apache-2.0
#include "sim/config/presets.h"

#include <string>

namespace npusim::config {

namespace {

// Arm's Corstone-300 FVP (and MPS3 FPGA) as the ML evaluation kit sets it up for an Ethos-U55
// "high end" system (timing doc 5.4): 500 MHz; the tensor arena in SRAM on AXI0 and the model in
// DDR on AXI1, each port behind a timing adapter with the kit's register values
// (ta_config_u55_high_end.cmake); the Ethos-U driver's AXI limits (32 reads, 16 writes, 64-byte
// bursts). The memories answer at the full 64-bit bus rate with no latency of their own: on this
// platform the timing adapters alone delay and throttle NPU traffic (their purpose, timing doc
// 5.4). Reads and writes share each memory's data path: with separate paths the write-heavy
// vww4 point runs 6% faster than the FVP measured (docs/timing-model.md has the evidence).
PresetSection corstone300Fvp() {
  PresetSection p{"System_Config.Corstone_300_FVP",
                  "Arm Corstone-300 FVP/MPS3 as the ML eval kit sets it up: 500 MHz, SRAM on AXI0 and the model in "
                  "DDR on AXI1, behind the kit's U55 high-end timing adapters",
                  {{"core_clock", "500e6"},
                   {"axi0_port", "Sram"},
                   {"axi1_port", "Dram"},
                   {"Sram_clock_scale", "1.0"},
                   {"Sram_burst_length", "32"},
                   {"Sram_read_latency", "0"},
                   {"Sram_write_latency", "0"},
                   {"Dram_clock_scale", "1.0"},
                   {"Dram_burst_length", "128"},
                   {"Dram_read_latency", "0"},
                   {"Dram_write_latency", "0"}},
                  false,
                  {},
                  &arch::ethosU55()};
  auto& v = p.platform;
  v = {{"", "npu.axi0.max_outstanding_reads", "32"},
       {"", "npu.axi0.max_outstanding_writes", "16"},
       {"", "npu.axi1.max_outstanding_reads", "32"},
       {"", "npu.axi1.max_outstanding_writes", "16"},
       {"", "npu.axi0.ta.maxr", "8"},
       {"", "npu.axi0.ta.maxw", "8"},
       {"", "npu.axi0.ta.maxrw", "0"},
       {"", "npu.axi0.ta.rlatency", "32"},
       {"", "npu.axi0.ta.wlatency", "32"},
       {"", "npu.axi0.ta.pulse_on", "3999"},
       {"", "npu.axi0.ta.pulse_off", "1"},
       {"", "npu.axi0.ta.bwcap", "4000"}};
  // AXI1: the "flash" timing adapter; Sram_Only builds of the kit program it like AXI0's.
  const std::pair<std::string_view, std::string_view> flash[] = {
      {"npu.axi1.ta.maxr", "2"},       {"npu.axi1.ta.maxw", "0"},       {"npu.axi1.ta.maxrw", "0"},
      {"npu.axi1.ta.rlatency", "64"},  {"npu.axi1.ta.wlatency", "0"},   {"npu.axi1.ta.pulse_on", "320"},
      {"npu.axi1.ta.pulse_off", "80"}, {"npu.axi1.ta.bwcap", "50"}};
  const std::pair<std::string_view, std::string_view> sram[] = {
      {"npu.axi1.ta.maxr", "8"},         {"npu.axi1.ta.maxw", "8"},        {"npu.axi1.ta.maxrw", "0"},
      {"npu.axi1.ta.rlatency", "32"},    {"npu.axi1.ta.wlatency", "32"},   {"npu.axi1.ta.pulse_on", "3999"},
      {"npu.axi1.ta.pulse_off", "1"},    {"npu.axi1.ta.bwcap", "4000"}};
  for (const auto& [key, value] : flash) {
    v.push_back({"Shared_Sram", key, value});
  }
  for (const auto& [key, value] : sram) {
    v.push_back({"Sram_Only", key, value});
  }
  return p;
}

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
  const auto vela = [](std::string_view name, std::string_view summary, V values,
                       const arch::Architecture* architecture = nullptr) {
    return PresetSection{name, summary, std::move(values), true, {}, architecture};
  };
  const arch::Architecture* u55 = &arch::ethosU55();
  const arch::Architecture* u65 = &arch::ethosU65();
  return {
      vela("System_Config.Ethos_U55_Deep_Embedded", "200 MHz; SRAM 1.6 GB/s on AXI0, off-chip flash 0.1 GB/s on AXI1",
           flash("200e6", "0.0625"), u55),
      vela("System_Config.Ethos_U55_High_End_Embedded", "500 MHz; SRAM 4 GB/s on AXI0, off-chip flash 0.5 GB/s on AXI1",
           flash("500e6", "0.125"), u55),
      vela("System_Config.Ethos_U65_Embedded", "500 MHz; SRAM 8 GB/s on AXI0, off-chip flash 0.5 GB/s on AXI1",
           flash("500e6", "0.0625"), u65),
      vela("System_Config.Ethos_U65_Mid_End", "500 MHz; SRAM 8 GB/s on AXI0, DRAM 3.75 GB/s on AXI1",
           dram("500e6", "0.46875"), u65),
      vela("System_Config.Ethos_U65_High_End", "1 GHz; SRAM 16 GB/s on AXI0, DRAM 3.75 GB/s on AXI1",
           dram("1e9", "0.234375"), u65),
      vela("System_Config.Ethos_U65_Client_Server", "1 GHz; SRAM 16 GB/s on AXI0, DRAM 12 GB/s on AXI1",
           dram("1e9", "0.75"), u65),
      corstone300Fvp(),
      vela("Memory_Mode.Sram_Only", "everything (constants, arena, cache) in SRAM on AXI0",
           {{"const_mem_area", "Axi0"}, {"arena_mem_area", "Axi0"}, {"cache_mem_area", "Axi0"}}),
      vela("Memory_Mode.Shared_Sram", "constants on AXI1 (read-only), arena in SRAM on AXI0 shared with the CPU",
           {{"const_mem_area", "Axi1"}, {"arena_mem_area", "Axi0"}, {"cache_mem_area", "Axi0"}}),
      vela("Memory_Mode.Dedicated_Sram", "constants and arena on AXI1, 384 KiB NPU-only SRAM cache on AXI0",
           {{"const_mem_area", "Axi1"}, {"arena_mem_area", "Axi1"}, {"cache_mem_area", "Axi0"},
            {"arena_cache_size", "393216"}},
           u65),
      vela("Memory_Mode.Dedicated_Sram_512KB", "Dedicated_Sram with a 512 KiB cache",
           {{"inherit", "Memory_Mode.Dedicated_Sram"}, {"arena_cache_size", "524288"}}, u65),
  };
}

} // namespace

const PresetSection* findPreset(std::string_view name) {
  for (const PresetSection& preset : presetTable()) {
    if (preset.name == name) {
      return &preset;
    }
  }
  return nullptr;
}

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
