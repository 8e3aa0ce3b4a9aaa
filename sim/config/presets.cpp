// SPDX-License-Identifier: Apache-2.0
#include "sim/config/presets.h"

#include <algorithm>
#include <array>
#include <deque>
#include <string>

namespace npusim::config {

namespace {

// Arm's Corstone-300 FVP (and MPS3 FPGA) as the ML evaluation kit sets it up for its Ethos-U55 and
// Ethos-U65 "high end" systems (timing doc 5.4, ethos-u85.md 7.2): 500 MHz; the tensor arena in SRAM
// on AXI0 (in DDR on AXI1 for Dedicated_Sram, the SRAM then being the cache) and the model in DDR
// on AXI1, each port behind a timing adapter with the kit's register values for the NPU
// (ta_config_u55_high_end.cmake / ta_config_u65_high_end.cmake); the Ethos-U driver's AXI limits
// (U55: 32 reads, 16 writes, 64-byte bursts; U65: 64 reads, 32 writes, and the kit's 128-byte
// bursts, AXI_LIMITn_MAX_BEATS_BYTES=1 for the U65 in its npu CMakeLists). The memories answer at
// the full bus rate (64 or 128 bits a cycle) with no latency of their own: on this platform the
// timing adapters alone delay and throttle NPU traffic (their purpose, timing doc 5.4). Reads and
// writes have separate data paths (AXI's read and write channels; the FVP's memories behind the
// adapters are transaction-level models with no shared data path), and the adapter's BWCAP counts
// both directions against one cap (docs/timing-model.md has the evidence from the FVP points).
PresetSection corstone300Fvp() {
  PresetSection p{"System_Config.Corstone_300_FVP",
                  "Arm Corstone-300 FVP/MPS3 as the ML eval kit sets it up: 500 MHz, SRAM on AXI0 and the model in "
                  "DDR on AXI1, behind the kit's U55 or U65 high-end timing adapters",
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
                  {&arch::ethosU55(), &arch::ethosU65()}};
  // The adapters' registers (MAXR, MAXW, MAXRW, RLATENCY, WLATENCY, PULSE_ON, PULSE_OFF, BWCAP):
  // AXI0 (SRAM), and AXI1 (the "flash", DDR). Sram_Only builds of the kit program AXI1 like AXI0.
  const std::array<std::string_view, 8> fields{"maxr", "maxw", "maxrw", "rlatency", "wlatency", "pulse_on", "pulse_off",
                                                "bwcap"};
  using Registers = std::array<std::string_view, 8>;
  // What the kit sets up per NPU: the burst split and the adapters on SRAM and DDR.
  struct KitNpu {
    const arch::Architecture* npu;
    std::string_view burstBytes;
    Registers sram, ddr;
  };
  const KitNpu kit[] = {
      {&arch::ethosU55(), "64", {"8", "8", "0", "32", "32", "3999", "1", "4000"},
       {"2", "0", "0", "64", "0", "320", "80", "50"}},
      {&arch::ethosU65(), "128", {"16", "16", "0", "32", "32", "3999", "1", "4000"},
       {"24", "12", "0", "500", "250", "4000", "1000", "1172"}},
  };
  static std::deque<std::string> text; // PlatformValue holds views: a deque keeps each string in place
  const auto keep = [](std::string s) -> std::string_view { return text.emplace_back(std::move(s)); };
  const auto key = [&keep](std::string_view port, std::string_view field, bool adapter) {
    return keep("npu." + std::string(port) + (adapter ? ".ta." : ".") + std::string(field));
  };
  auto& v = p.platform;
  v.push_back({"", "system.sram.separate_read_write", "true", nullptr});
  v.push_back({"", "system.dram.separate_read_write", "true", nullptr});
  for (const KitNpu& k : kit) {
    // The driver's AXI limits (the architecture's AXI_LIMIT maxima) and the kit's burst split, on every port.
    for (const arch::PortDesc& port : k.npu->ports) {
      v.push_back({"", key(port.name, "max_outstanding_reads", false), keep(std::to_string(port.maxReads)), k.npu});
      v.push_back({"", key(port.name, "max_outstanding_writes", false), keep(std::to_string(port.maxWrites)), k.npu});
      v.push_back({"", key(port.name, "max_burst_bytes", false), k.burstBytes, k.npu});
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      v.push_back({"", key("axi0", fields[i], true), k.sram[i], k.npu});
      v.push_back({"", key("axi1", fields[i], true), k.ddr[i], k.npu});
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      v.push_back({"Sram_Only", key("axi1", fields[i], true), k.sram[i], k.npu}); // applied after, so it wins
    }
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
                       std::vector<const arch::Architecture*> architectures = {}) {
    return PresetSection{name, summary, std::move(values), true, {}, std::move(architectures)};
  };
  const arch::Architecture* u55 = &arch::ethosU55();
  const arch::Architecture* u65 = &arch::ethosU65();
  return {
      vela("System_Config.Ethos_U55_Deep_Embedded", "200 MHz; SRAM 1.6 GB/s on AXI0, off-chip flash 0.1 GB/s on AXI1",
           flash("200e6", "0.0625"), {u55}),
      vela("System_Config.Ethos_U55_High_End_Embedded", "500 MHz; SRAM 4 GB/s on AXI0, off-chip flash 0.5 GB/s on AXI1",
           flash("500e6", "0.125"), {u55}),
      vela("System_Config.Ethos_U65_Embedded", "500 MHz; SRAM 8 GB/s on AXI0, off-chip flash 0.5 GB/s on AXI1",
           flash("500e6", "0.0625"), {u65}),
      vela("System_Config.Ethos_U65_Mid_End", "500 MHz; SRAM 8 GB/s on AXI0, DRAM 3.75 GB/s on AXI1",
           dram("500e6", "0.46875"), {u65}),
      vela("System_Config.Ethos_U65_High_End", "1 GHz; SRAM 16 GB/s on AXI0, DRAM 3.75 GB/s on AXI1",
           dram("1e9", "0.234375"), {u65}),
      vela("System_Config.Ethos_U65_Client_Server", "1 GHz; SRAM 16 GB/s on AXI0, DRAM 12 GB/s on AXI1",
           dram("1e9", "0.75"), {u65}),
      corstone300Fvp(),
      vela("Memory_Mode.Sram_Only", "everything (constants, arena, cache) in SRAM on AXI0",
           {{"const_mem_area", "Axi0"}, {"arena_mem_area", "Axi0"}, {"cache_mem_area", "Axi0"}}),
      vela("Memory_Mode.Shared_Sram", "constants on AXI1 (read-only), arena in SRAM on AXI0 shared with the CPU",
           {{"const_mem_area", "Axi1"}, {"arena_mem_area", "Axi0"}, {"cache_mem_area", "Axi0"}}),
      vela("Memory_Mode.Dedicated_Sram", "constants and arena on AXI1, 384 KiB NPU-only SRAM cache on AXI0",
           {{"const_mem_area", "Axi1"}, {"arena_mem_area", "Axi1"}, {"cache_mem_area", "Axi0"},
            {"arena_cache_size", "393216"}},
           {u65}),
      vela("Memory_Mode.Dedicated_Sram_512KB", "Dedicated_Sram with a 512 KiB cache",
           {{"inherit", "Memory_Mode.Dedicated_Sram"}, {"arena_cache_size", "524288"}}, {u65}),
  };
}

} // namespace

bool PresetSection::describes(const arch::Architecture& architecture) const {
  return architectures.empty() ||
         std::find(architectures.begin(), architectures.end(), &architecture) != architectures.end();
}

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
