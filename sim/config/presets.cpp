// SPDX-License-Identifier: Apache-2.0
#include "sim/config/presets.h"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <string>

namespace npusim::config {

namespace {

// A string the preset table keeps for the program's life (PlatformValue holds views; a deque
// keeps each string in place).
std::string_view keep(std::string s) {
  static std::deque<std::string> text;
  return text.emplace_back(std::move(s));
}

// A timing adapter's eight registers as the kit programs them (MAXR, MAXW, MAXRW, RLATENCY,
// WLATENCY, PULSE_ON, PULSE_OFF, BWCAP: timing doc 5.4), npu.<port>.ta.* in this order.
using AdapterRegisters = std::array<std::string_view, 8>;
constexpr AdapterRegisters kAdapterFields{"maxr", "maxw", "maxrw", "rlatency", "wlatency", "pulse_on", "pulse_off", "bwcap"};

// The platform values that program `port`'s adapter with `registers` for `npu` (with `macs` MACs,
// minMacs..maxMacs; 0 = any), and, where the kit's Sram_Only builds program it like the SRAM
// one, with `sramOnly` in that memory mode (applied after, so it wins).
void addAdapter(std::vector<PlatformValue>& v, std::string_view port, const AdapterRegisters& registers,
                const AdapterRegisters* sramOnly, const arch::Architecture* npu, uint32_t minMacs = 0,
                uint32_t maxMacs = 0) {
  for (size_t i = 0; i < kAdapterFields.size(); ++i) {
    const std::string_view key = keep("npu." + std::string(port) + ".ta." + std::string(kAdapterFields[i]));
    v.push_back({"", key, registers[i], npu, minMacs, maxMacs});
    if (sramOnly != nullptr) {
      v.push_back({"Sram_Only", key, (*sramOnly)[i], npu, minMacs, maxMacs});
    }
  }
}

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
                  PresetSource::Npusim,
                  {},
                  {&arch::ethosU55(), &arch::ethosU65()}};
  // What the kit sets up per NPU: the burst split and the adapters on AXI0 (SRAM) and AXI1 (the
  // "flash", DDR). Sram_Only builds of the kit program AXI1 like AXI0.
  struct KitNpu {
    const arch::Architecture* npu;
    std::string_view burstBytes;
    AdapterRegisters sram, ddr;
  };
  const KitNpu kit[] = {
      {&arch::ethosU55(), "64", {"8", "8", "0", "32", "32", "3999", "1", "4000"},
       {"2", "0", "0", "64", "0", "320", "80", "50"}},
      {&arch::ethosU65(), "128", {"16", "16", "0", "32", "32", "3999", "1", "4000"},
       {"24", "12", "0", "500", "250", "4000", "1000", "1172"}},
  };
  const auto key = [](std::string_view port, std::string_view field) {
    return keep("npu." + std::string(port) + "." + std::string(field));
  };
  auto& v = p.platform;
  v.push_back({"", "system.sram.separate_read_write", "true", nullptr});
  v.push_back({"", "system.dram.separate_read_write", "true", nullptr});
  for (const KitNpu& k : kit) {
    // The driver's AXI limits (the architecture's AXI_LIMIT maxima) and the kit's burst split, on every port.
    for (const arch::PortDesc& port : k.npu->ports) {
      v.push_back({"", key(port.name, "max_outstanding_reads"), keep(std::to_string(port.maxReads)), k.npu});
      v.push_back({"", key(port.name, "max_outstanding_writes"), keep(std::to_string(port.maxWrites)), k.npu});
      v.push_back({"", key(port.name, "max_burst_bytes"), k.burstBytes, k.npu});
    }
    addAdapter(v, "axi0", k.sram, nullptr, k.npu);
    addAdapter(v, "axi1", k.ddr, &k.sram, k.npu);
  }
  return p;
}

// Arm's Corstone-320 FVP (and MPS4 FPGA) as the ML evaluation kit sets it up for the Ethos-U85
// (ethos-u85.md 7.1): the model and the Dedicated_Sram arena in DDR behind the EXT ports, the SRAM
// (the cache, and the arena of Sram_Only and Shared_Sram) behind the SRAM ports; the platform has
// one SRAM and one EXT timing adapter (one register block each, at 0x50006000 and 0x50006800),
// so each port group passes one adapter (npu.adapter_per_area) with the kit's values
// (ta_config_u85_sys_dram_low for 128 and 256 MACs, _mid for 512 and 1024, _high, equal to _mid,
// for 2048); the driver's AXI limits (the architecture's defaults: SRAM 12 reads and 16 writes,
// EXT 64 and 32) and 256-byte bursts. Assumed where no source says (ethos-u85.md 8): the adapters
// count NPU cycles; the memories answer every port at the full bus rate with
// no latency of their own (as on the Corstone-300 preset); the NPU clock is the kit's Vela system
// config's for the same MAC count (500 MHz for 128 and 256 MACs, else 1 GHz), which only sets how
// host time converts to NPU cycles.
PresetSection corstone320Fvp() {
  const arch::Architecture* u85 = &arch::ethosU85();
  PresetSection p{"System_Config.Corstone_320_FVP",
                  "Arm Corstone-320 FVP/MPS4 as the ML eval kit sets it up: SRAM on the SRAM ports, the model in DDR on "
                  "the EXT ports, behind the kit's U85 timing adapters",
                  {{"core_clock", "1e9"},
                   {"axi0_port", "Sram"},
                   {"axi1_port", "Dram"},
                   {"Sram_clock_scale", "1.0"},
                   {"Sram_ports_used", "4"},
                   {"Sram_burst_length", "64"},
                   {"Sram_read_latency", "0"},
                   {"Sram_write_latency", "0"},
                   {"Dram_clock_scale", "1.0"},
                   {"Dram_ports_used", "2"},
                   {"Dram_burst_length", "128"},
                   {"Dram_read_latency", "0"},
                   {"Dram_write_latency", "0"}},
                  PresetSource::Npusim,
                  {},
                  {u85},
                  VelaVersion::V5_0};
  struct Adapters {
    uint32_t minMacs, maxMacs;
    std::string_view clock;
    AdapterRegisters sram, ext;
  };
  const Adapters kit[] = {
      {128, 256, "500e6", {"8", "8", "0", "16", "16", "3999", "1", "4000"}, {"24", "12", "0", "250", "125", "4000", "1000", "2344"}},
      // The kit's EXT MAXR of 64 does not fit the adapter's 6-bit field: written, it reads 0, no
      // limit (the driver's 64 outstanding EXT reads still hold).
      {512, 2048, "1e9", {"8", "8", "0", "32", "32", "3999", "1", "4000"}, {"0", "32", "0", "500", "250", "4000", "1000", "3750"}},
  };
  auto& v = p.platform;
  v.push_back({"", "system.sram.separate_read_write", "true", u85});
  v.push_back({"", "system.dram.separate_read_write", "true", u85});
  v.push_back({"", "npu.adapter_per_area", "true", u85});
  for (const Adapters& k : kit) {
    v.push_back({"", "system.core_clock", k.clock, u85, k.minMacs, k.maxMacs});
    for (const arch::PortDesc& port : u85->ports) {
      // Sram_Only builds of the kit program the EXT adapter like the SRAM one.
      const bool sram = port.area == arch::AreaId{0};
      v.push_back({"", keep("npu." + std::string(port.name) + ".max_burst_bytes"), "256", u85, k.minMacs, k.maxMacs});
      addAdapter(v, port.name, sram ? k.sram : k.ext, sram ? nullptr : &k.sram, u85, k.minMacs, k.maxMacs);
    }
  }
  return p;
}

using Values = std::vector<std::pair<std::string_view, std::string_view>>;

// Vela 3.10's sections (ethosu/config_files/Arm/vela.ini) for the Ethos-U55 and U65, and the
// Corstone-300 platform. tests/unit/config_vela_fixture_test.cpp checks them against the fixture
// copy of that file.
std::vector<PresetSection> vela310Sections() {
  using V = Values;
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
                       std::vector<const arch::Architecture*> architectures) {
    return PresetSection{name, summary, std::move(values), PresetSource::VelaIni, {}, std::move(architectures)};
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
           {{"const_mem_area", "Axi0"}, {"arena_mem_area", "Axi0"}, {"cache_mem_area", "Axi0"}}, {u55, u65}),
      vela("Memory_Mode.Shared_Sram", "constants on AXI1 (read-only), arena in SRAM on AXI0 shared with the CPU",
           {{"const_mem_area", "Axi1"}, {"arena_mem_area", "Axi0"}, {"cache_mem_area", "Axi0"}}, {u55, u65}),
      vela("Memory_Mode.Dedicated_Sram", "constants and arena on AXI1, 384 KiB NPU-only SRAM cache on AXI0",
           {{"const_mem_area", "Axi1"}, {"arena_mem_area", "Axi1"}, {"cache_mem_area", "Axi0"},
            {"arena_cache_size", "393216"}},
           {u65}),
      vela("Memory_Mode.Dedicated_Sram_512KB", "Dedicated_Sram with a 512 KiB cache",
           {{"inherit", "Memory_Mode.Dedicated_Sram"}, {"arena_cache_size", "524288"}}, {u65}),
  };
}

// The Ethos-U85 sections, read as Vela 5.0 reads them: Vela 5.0.0's (ethosu/config_files/Arm/vela.ini
// at tag 5.0.0, commit 0f8edf7d; the fixture tree vela-u85/vela.ini is that file) and the ML
// evaluation kit's per-MAC-count system configs (its scripts/vela/default_vela.ini, the Corstone-320
// builds' choice; fixture copy fvp/mlek_default_vela.ini). The kit's own memory modes are not here:
// its Dedicated_Sram (with a 384 KiB cache) is Vela 5.0's Dedicated_Sram_384KB.
// tests/unit/config_vela_fixture_test.cpp checks every value against those files.
std::vector<PresetSection> u85Sections() {
  using V = Values;
  // SRAM on AXI0 (burst 64, 8 reads and 8 writes outstanding) and the memory on AXI1.
  const auto system = [](std::string_view clock, std::string_view sramScale, std::string_view sramPorts,
                         std::string_view sramLatency, std::string_view axi1, const V& axi1Values) {
    V v{{"core_clock", clock},           {"axi0_port", "Sram"},          {"axi1_port", axi1},
        {"Sram_clock_scale", sramScale}, {"Sram_ports_used", sramPorts}, {"Sram_burst_length", "64"},
        {"Sram_read_latency", sramLatency}, {"Sram_write_latency", sramLatency}, {"Sram_max_reads", "8"},
        {"Sram_max_writes", "8"}};
    v.insert(v.end(), axi1Values.begin(), axi1Values.end());
    return v;
  };
  // Off-chip flash: clock scale 0.0625, one port, burst 128, read-only, 2 reads outstanding.
  const auto flash = [&system](std::string_view clock, std::string_view sramScale, std::string_view sramLatency,
                               std::string_view flashLatency) {
    return system(clock, sramScale, "2", sramLatency, "OffChipFlash",
                  {{"OffChipFlash_clock_scale", "0.0625"}, {"OffChipFlash_ports_used", "1"},
                   {"OffChipFlash_burst_length", "128"}, {"OffChipFlash_read_latency", flashLatency},
                   {"OffChipFlash_write_latency", "0"}, {"OffChipFlash_max_reads", "2"},
                   {"OffChipFlash_max_writes", "0"}});
  };
  // DRAM: burst 128, latency 500 (read) and 250 (write).
  const auto dram = [&system](std::string_view clock, std::string_view sramPorts, std::string_view sramLatency,
                              std::string_view dramScale, std::string_view dramPorts, std::string_view maxReads,
                              std::string_view maxWrites) {
    return system(clock, "1.0", sramPorts, sramLatency, "Dram",
                  {{"Dram_clock_scale", dramScale}, {"Dram_ports_used", dramPorts}, {"Dram_burst_length", "128"},
                   {"Dram_read_latency", "500"}, {"Dram_write_latency", "250"}, {"Dram_max_reads", maxReads},
                   {"Dram_max_writes", maxWrites}});
  };
  const arch::Architecture* u85 = &arch::ethosU85();
  const auto section = [u85](std::string_view name, std::string_view summary, V values, PresetSource source) {
    return PresetSection{name, summary, std::move(values), source, {}, {u85}, VelaVersion::V5_0};
  };
  const PresetSource vela = PresetSource::VelaIni;
  const PresetSource kit = PresetSource::KitIni;
  const V dedicated{{"inherit", "Memory_Mode.Dedicated_Sram"}};
  const auto withCache = [&dedicated](std::string_view bytes) {
    V v = dedicated;
    v.emplace_back("arena_cache_size", bytes);
    return v;
  };
  return {
      section("System_Config.Ethos_U85_SYS_Flash_Low",
              "200 MHz; SRAM 6.4 GB/s (2 ports) on AXI0, off-chip flash 0.2 GB/s on AXI1 (Vela 5.0)",
              flash("200e6", "1", "8", "32"), vela),
      section("System_Config.Ethos_U85_SYS_Flash_High",
              "500 MHz; SRAM 16 GB/s (2 ports) on AXI0, off-chip flash 0.5 GB/s on AXI1 (Vela 5.0)",
              flash("500e6", "1.0", "32", "64"), vela),
      section("System_Config.Ethos_U85_SYS_DRAM_Low",
              "500 MHz; SRAM 16 GB/s (2 ports) on AXI0, DRAM 3.75 GB/s (1 port) on AXI1 (Vela 5.0)",
              dram("500e6", "2", "16", "0.46875", "1", "24", "12"), vela),
      section("System_Config.Ethos_U85_SYS_DRAM_Mid",
              "1 GHz; SRAM 32 GB/s (2 ports) on AXI0, DRAM 12 GB/s (1 port) on AXI1 (Vela 5.0)",
              dram("1e9", "2", "32", "0.75", "1", "64", "32"), vela),
      section("System_Config.Ethos_U85_SYS_DRAM_High",
              "1 GHz; SRAM 64 GB/s (4 ports) on AXI0, DRAM 24 GB/s (2 ports) on AXI1 (Vela 5.0)",
              dram("1e9", "4", "32", "0.75", "2", "64", "32"), vela),
      section("System_Config.Ethos_U85_SYS_DRAM_Mid_512",
              "1 GHz; SRAM 32 GB/s (2 ports) on AXI0, DRAM 12 GB/s (1 port) on AXI1 (ML eval kit, U85-512)",
              dram("1e9", "2", "32", "0.75", "1", "64", "32"), kit),
      section("System_Config.Ethos_U85_SYS_DRAM_Mid_1024",
              "1 GHz; SRAM 32 GB/s (2 ports) on AXI0, DRAM 24 GB/s (2 ports) on AXI1 (ML eval kit, U85-1024)",
              dram("1e9", "2", "32", "0.75", "2", "64", "32"), kit),
      section("System_Config.Ethos_U85_SYS_DRAM_High_2048",
              "1 GHz; SRAM 64 GB/s (4 ports) on AXI0, DRAM 24 GB/s (2 ports) on AXI1 (ML eval kit, U85-2048)",
              dram("1e9", "4", "32", "0.75", "2", "64", "32"), kit),
      section("Memory_Mode.Sram_Only", "everything (constants, arena, cache) in SRAM on AXI0 (Vela 5.0)",
              {{"const_mem_area", "Axi0"}, {"arena_mem_area", "Axi0"}, {"cache_mem_area", "Axi0"}}, vela),
      section("Memory_Mode.Shared_Sram",
              "constants on AXI1 (read-only), arena in SRAM on AXI0 shared with the CPU (Vela 5.0)",
              {{"const_mem_area", "Axi1"}, {"arena_mem_area", "Axi0"}, {"cache_mem_area", "Axi0"}}, vela),
      section("Memory_Mode.Dedicated_Sram",
              "constants and arena on AXI1, NPU-only SRAM cache on AXI0 with no size limit (Vela 5.0)",
              {{"const_mem_area", "Axi1"}, {"arena_mem_area", "Axi1"}, {"cache_mem_area", "Axi0"}}, vela),
      section("Memory_Mode.Dedicated_Sram_256KB", "Dedicated_Sram with a 256 KiB cache (Vela 5.0)",
              withCache("262144"), vela),
      section("Memory_Mode.Dedicated_Sram_384KB", "Dedicated_Sram with a 384 KiB cache (Vela 5.0)",
              withCache("393216"), vela),
      section("Memory_Mode.Dedicated_Sram_512KB", "Dedicated_Sram with a 512 KiB cache (Vela 5.0)",
              withCache("524288"), vela),
  };
}

std::vector<PresetSection> buildPresetTable() {
  std::vector<PresetSection> table = vela310Sections();
  for (PresetSection& section : u85Sections()) {
    table.push_back(std::move(section));
  }
  table.push_back(corstone320Fvp());
  return table;
}

} // namespace

bool PlatformValue::appliesTo(const arch::NpuConfig* npu) const {
  if (architecture != nullptr && (npu == nullptr || npu->arch != architecture)) {
    return false;
  }
  if (maxMacs == 0) {
    return true;
  }
  return npu != nullptr && npu->macs >= minMacs && npu->macs <= maxMacs;
}

bool PresetSection::describes(const arch::Architecture& architecture) const {
  return architectures.empty() ||
         std::find(architectures.begin(), architectures.end(), &architecture) != architectures.end();
}

const PresetSection* findPreset(std::string_view name, const arch::Architecture* architecture) {
  const PresetSection* first = nullptr;
  for (const PresetSection& preset : presetTable()) {
    if (preset.name != name) {
      continue;
    }
    if (architecture != nullptr && preset.describes(*architecture)) {
      return &preset;
    }
    first = first != nullptr ? first : &preset;
  }
  return first;
}

std::vector<std::string_view> presetNames(std::string_view kind) {
  const std::string prefix = std::string(kind) + ".";
  std::vector<std::string_view> names;
  for (const PresetSection& preset : presetTable()) {
    const std::string_view name = preset.name;
    if (name.substr(0, prefix.size()) == prefix &&
        std::find(names.begin(), names.end(), name.substr(prefix.size())) == names.end()) {
      names.push_back(name.substr(prefix.size()));
    }
  }
  return names;
}

const std::vector<PresetSection>& presetTable() {
  static const std::vector<PresetSection> table = buildPresetTable();
  return table;
}

const VelaIni& builtinPresets(const arch::Architecture* architecture) {
  // One VelaIni per architecture (and one for none), built once.
  static const std::map<const arch::Architecture*, VelaIni> inis = [] {
    std::map<const arch::Architecture*, VelaIni> out;
    std::vector<const arch::Architecture*> keys{nullptr};
    for (const arch::Architecture& a : arch::architectures()) {
      keys.push_back(&a);
    }
    for (const arch::Architecture* a : keys) {
      std::vector<VelaIni::Section> sections;
      for (const PresetSection& preset : presetTable()) {
        if (findPreset(preset.name, a) != &preset) {
          continue;
        }
        VelaIni::Section section{std::string(preset.name), 0, {}};
        for (const auto& [key, value] : preset.values) {
          section.entries.push_back({std::string(key), std::string(value), 0});
        }
        sections.push_back(std::move(section));
      }
      out.emplace(a, VelaIni::fromSections("<builtin>", std::move(sections)));
    }
    return out;
  }();
  return inis.at(architecture);
}

} // namespace npusim::config
