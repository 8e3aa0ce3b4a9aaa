// SPDX-License-Identifier: Apache-2.0
#include "sim/config/config_schema.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <set>

#include <nlohmann/json.hpp>

#include "sim/common/edit_distance.h"
#include "sim/common/error.h"

namespace npusim::config {

namespace {

constexpr double kU32Max = 4294967295.0;
constexpr double kExactIntMax = 9007199254740992.0;  // 2^53: every integer below is a double
constexpr double kU55AddressSpace = 4294967296.0;    // 2^32 bytes
// SystemC counts time in 1 ps units: faster clocks would round their period by more than 1%
// (and to zero past 1 THz, which stops simulated time).
constexpr double kMaxClockHz = 1e10;

// Sources of defaults, shared by several keys.
constexpr std::string_view kSrcU55HighEnd =
    "Vela vela.ini System_Config.Ethos_U55_High_End_Embedded (= Vela's U55 internal-default)";
constexpr std::string_view kSrcU65Dram = "Vela's U65 internal-default DRAM (= vela.ini Ethos_U65_Client_Server)";
constexpr std::string_view kSrcOnChipFlash =
    "copy of SRAM timing, as Vela's Sram_Only rule does (vela.ini has no OnChipFlash preset)";
constexpr std::string_view kSrcSharedSram = "Vela vela.ini Memory_Mode.Shared_Sram (= Vela's U55 internal-default)";
constexpr std::string_view kSrcAxiWidth =
    "the accelerator's AXI data width (timing doc 5.1: U55 64-bit, U65 128-bit); the U55's until a model binds it";
constexpr std::string_view kSrcAxiLimitBurst = "Ethos-U driver AXI_LIMIT default max_beats (timing doc 5.1)";
constexpr std::string_view kSrcOneDataPath =
    "one data path per memory, as Vela's access cycles add reads and writes (timing doc 3.6.4)";
constexpr std::string_view kSrcNoAdapter = "no timing adapter: 0 = transparent (timing doc 5.4)";
// Vela 5.0's values for memory keys a System_Config section leaves out: its C++ back end
// (regor.cpp, struct Memories::Memory) starts every memory at latency 1 and burst 64 bytes
// (clock scale 1.0 and 1 port, as Vela 3.10, which has no port key).
constexpr std::string_view kVela50Latency = "1";
constexpr std::string_view kVela50BurstLength = "64";

MemoryParams& mem(SystemParams& p, MemoryKind kind) { return p.memories[static_cast<size_t>(kind)]; }

// Key texts are views: a deque keeps each generated text in place.
std::string_view keep(std::string text) {
  static std::deque<std::string> texts;
  texts.push_back(std::move(text));
  return texts.back();
}

std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

ConfigKey key(std::string_view path, std::string_view unit, std::string_view defaultText, std::string_view description,
              std::string_view source, ConfigKey::Accessor field) {
  ConfigKey k;
  k.path = path;
  k.unit = unit;
  k.defaultText = defaultText;
  k.description = description;
  k.source = source;
  k.field = field;
  return k;
}

// A key of NPU port `port`: npu.<port>.<field>.
ConfigKey portKey(std::string_view port, std::string_view field, std::string_view unit, std::string_view defaultText,
                  std::string_view description, std::string_view source, ConfigKey::PortAccessor accessor) {
  ConfigKey k = key(keep("npu." + std::string(port) + "." + std::string(field)), unit, defaultText, description, source,
                    nullptr);
  k.port = port;
  k.portField = accessor;
  return k;
}

// One NPU port name with the descriptions of every generation that has it.
struct NamedPort {
  std::string_view name;
  std::vector<std::pair<const arch::Architecture*, const arch::PortDesc*>> descs;
};

// The ports of every configuration, by name in the order the configurations list them (U55 and
// U65: axi0, axi1; U85: sram0..3, ext0..1), each with one description per generation: the schema
// has one set of npu.<port>.* keys per name.
std::vector<NamedPort> configuredPorts() {
  std::vector<NamedPort> out;
  for (const arch::NpuConfig& c : arch::npuConfigs()) {
    for (const arch::PortDesc& d : c.ports()) {
      auto it = std::find_if(out.begin(), out.end(), [&](const NamedPort& n) { return n.name == d.name; });
      if (it == out.end()) {
        out.push_back({d.name, {}});
        it = std::prev(out.end());
      }
      if (std::none_of(it->descs.begin(), it->descs.end(), [&](const auto& e) { return e.first == c.arch; })) {
        it->descs.emplace_back(c.arch, &d);
      }
    }
  }
  return out;
}

// "U55" for the Ethos-U55.
std::string_view shortName(const arch::Architecture& a) {
  constexpr std::string_view prefix = "Ethos-";
  return a.name.substr(a.name.rfind(prefix, 0) == 0 ? prefix.size() : 0);
}

// The bound accelerator's description of the port named `name` (contract: it has one).
const arch::PortDesc& portDescOf(const SystemParams& p, std::string_view name) {
  return p.portDesc(*p.findPort(name));
}

// What the outstanding-limit keys of the U55's and U65's ports say about their defaults (the
// values are the architecture descriptions'; these texts say where each comes from). Ports of
// other generations get a generic text.
struct LimitTexts {
  std::string_view port, readsDescription, readsSource, writesDescription, writesSource;
};
constexpr LimitTexts kLimitTexts[] = {
    {"axi0", "AXI0 outstanding read limit (AXI_LIMIT: U55 1..32, U65 1..64); U55 8, U65 the driver default",
     "U55: Arm FPGA/FVP U55 high-end timing adapter TA0_MAXR=8 (timing doc 5.1); U65: Ethos-U driver AXI_LIMIT default (timing doc 5.1)",
     "AXI0 outstanding write limit (AXI_LIMIT: U55 1..16, U65 1..32); U55 8, U65 the driver default",
     "U55: Arm FPGA/FVP U55 high-end timing adapter TA0_MAXW=8 (timing doc 5.1); U65: Ethos-U driver AXI_LIMIT default (timing doc 5.1)"},
    {"axi1", "AXI1 outstanding read limit (AXI_LIMIT: U55 1..32, U65 1..64); U55 2, U65 the driver default",
     "U55: Arm FPGA/FVP U55 high-end timing adapter TA1_MAXR=2 (timing doc 5.1); U65: Ethos-U driver AXI_LIMIT default (timing doc 5.1)",
     "AXI1 outstanding write limit (AXI_LIMIT: U55 1..16, U65 1..32); U55 16, U65 the driver default",
     "U55: timing adapter TA1_MAXW=0 (no limit), so the U55 maximum = driver AXI_LIMIT default (timing doc 5.1); U65: Ethos-U driver AXI_LIMIT default (timing doc 5.1)"},
};

// An AXI_LIMIT outstanding-transaction key of a port (reads or writes): the key's range is the
// widest AXI_LIMIT of the generations with the port (the bound accelerator's own maximum is
// checked when the configuration is finished), its default the accelerator's port default
// (arch::PortDesc), or the limit the memory on the port declares.
ConfigKey axiLimitKey(const NamedPort& port, bool reads) {
  uint32_t widest = 1;
  std::string limits;
  for (size_t i = 0; i < port.descs.size(); ++i) {
    const auto& [architecture, desc] = port.descs[i];
    const uint32_t max = reads ? desc->maxReads : desc->maxWrites;
    limits += (i == 0 ? "" : ", ") + std::string(shortName(*architecture)) + " 1.." + std::to_string(max);
    widest = std::max(widest, max);
  }
  const auto texts = std::find_if(std::begin(kLimitTexts), std::end(kLimitTexts),
                                  [&](const LimitTexts& t) { return t.port == port.name; });
  std::string description, source;
  if (texts != std::end(kLimitTexts)) {
    description = reads ? texts->readsDescription : texts->writesDescription;
    source = reads ? texts->readsSource : texts->writesSource;
  } else {
    description = upper(port.name) + " outstanding " + (reads ? "read" : "write") + " limit (AXI_LIMIT: " + limits +
                  "); default: the accelerator's";
    source = "the accelerator's port description (sim/arch)";
  }
  ConfigKey k = portKey(port.name, reads ? "max_outstanding_reads" : "max_outstanding_writes", "txns", "=accelerator",
                        keep(description), keep(source),
                        reads ? ConfigKey::PortAccessor([](PortParams& q) -> FieldRef { return &q.maxOutstandingReads; })
                              : ConfigKey::PortAccessor([](PortParams& q) -> FieldRef { return &q.maxOutstandingWrites; }))
                    .range(1, widest);
  return std::move(k).derivedFrom([name = port.name, reads](const SystemParams& p) {
    const arch::PortDesc& desc = portDescOf(p, name);
    // A limit the memory on the port declares (vela.ini <Mem>_max_reads/_max_writes) wins,
    // capped at the port's AXI_LIMIT maximum.
    const MemoryParams& m = p.memory(p.memoryOn(*p.findPort(name)));
    const uint32_t declared = reads ? m.maxReads : m.maxWrites;
    if (declared > 0) {
      return std::to_string(std::min(declared, reads ? desc.maxReads : desc.maxWrites));
    }
    return std::to_string(reads ? desc.defaultReads : desc.defaultWrites);
  });
}

// The data width, outstanding limits and burst split of a port, as npu.<port>.*.
void addPortKeys(std::vector<ConfigKey>& t, const NamedPort& port) {
  std::string widths;
  uint32_t narrowest = UINT32_MAX, widest = 0;
  for (size_t i = 0; i < port.descs.size(); ++i) {
    const auto& [architecture, desc] = port.descs[i];
    widths += (i == 0 ? "" : i + 1 == port.descs.size() ? " or " : ", ") + std::to_string(desc->dataBits) + " (" +
              std::string(shortName(*architecture)) + ")";
    narrowest = std::min(narrowest, desc->dataBits);
    widest = std::max(widest, desc->dataBits);
  }
  t.push_back(portKey(port.name, "data_width", "bits", "=accelerator", keep(upper(port.name) + " data width: " + widths),
                      kSrcAxiWidth, [](PortParams& q) -> FieldRef { return &q.dataWidthBits; })
                  .pow2(narrowest, widest)
                  .derivedFrom([name = port.name](const SystemParams& p) {
                    return std::to_string(portDescOf(p, name).dataBits);
                  }));
  t.push_back(axiLimitKey(port, true));
  t.push_back(axiLimitKey(port, false));
  t.push_back(portKey(port.name, "max_burst_bytes", "bytes", "64",
                      keep(upper(port.name) + " burst split alignment (AXI_LIMIT max_beats: 64|128|256)"),
                      kSrcAxiLimitBurst, [](PortParams& q) -> FieldRef { return &q.maxBurstBytes; })
                  .pow2(64, 256));
}

// The eight timing-adapter registers of one NPU port (timing doc 5.4), as npu.<port>.ta.*. Widths
// from the adapter's register fields: 6-bit pending limits, 12-bit latencies, 16-bit pulse and cap.
void addAdapterKeys(std::vector<ConfigKey>& t, std::string_view port) {
  using Acc = ConfigKey::PortAccessor;
  const auto add = [&](std::string_view field, std::string_view unit, std::string_view description, double max,
                       Acc accessor) {
    t.push_back(portKey(port, keep("ta." + std::string(field)), unit, "0", description, kSrcNoAdapter, accessor)
                    .range(0, max));
  };
  add("maxr", "txns", "timing adapter MAXR: pending reads, 0 = unlimited", 63,
      [](PortParams& q) -> FieldRef { return &q.adapter.maxReads; });
  add("maxw", "txns", "timing adapter MAXW: pending writes, 0 = unlimited", 63,
      [](PortParams& q) -> FieldRef { return &q.adapter.maxWrites; });
  add("maxrw", "txns", "timing adapter MAXRW: pending reads + writes, 0 = unlimited", 63,
      [](PortParams& q) -> FieldRef { return &q.adapter.maxPending; });
  add("rlatency", "cycles", "timing adapter RLATENCY: minimum ARVALID to RVALID", 4095,
      [](PortParams& q) -> FieldRef { return &q.adapter.readLatency; });
  add("wlatency", "cycles", "timing adapter WLATENCY: minimum WVALID&WLAST to BVALID", 4095,
      [](PortParams& q) -> FieldRef { return &q.adapter.writeLatency; });
  add("pulse_on", "cycles", "timing adapter PULSE_ON: cycles of each pulse cycle that admit addresses", 65535,
      [](PortParams& q) -> FieldRef { return &q.adapter.pulseOn; });
  add("pulse_off", "cycles", "timing adapter PULSE_OFF: cycles of each pulse cycle that block addresses", 65535,
      [](PortParams& q) -> FieldRef { return &q.adapter.pulseOff; });
  add("bwcap", "words", "timing adapter BWCAP: bus words (data beats) admitted per pulse cycle, 0 = unlimited", 65535,
      [](PortParams& q) -> FieldRef { return &q.adapter.bandwidthCap; });
}

// The memory of Vela area A, as system.<area>_port (vela.ini axi0_port, axi1_port).
template <size_t A>
ConfigKey areaMemoryKey(std::string_view defaultMemory) {
  const std::string_view name = arch::areaName(arch::kAreas[A]);
  const std::string path = areaKeyPath(arch::kAreas[A]);
  return key(keep(path), "", defaultMemory,
             keep("memory on NPU " + upper(name) + ": Sram|Dram|OnChipFlash|OffChipFlash"), kSrcU55HighEnd,
             [](SystemParams& p) -> FieldRef { return &p.areaMemories[A]; })
      .vela(VelaSection::SystemConfig, keep(path.substr(path.find('.') + 1)), "Sram");
}

// The outstanding-transaction and port-count keys of memory M (Vela 5.0's <Mem>_max_reads,
// <Mem>_max_writes, <Mem>_ports_used), as system.<mem>.*.
template <MemoryKind M>
void addMemoryPortKeys(std::vector<ConfigKey>& t) {
  const auto text = [](std::string value) { return keep(std::move(value)); };
  const std::string group = "system." + std::string(memoryKindKey(M)) + ".";
  const std::string velaName(memoryKindName(M));
  constexpr auto sys = VelaSection::SystemConfig;
  t.push_back(key(text(group + "ports_used"), "ports", "1",
                  text("AXI ports " + velaName + " is reached through; its bandwidth multiplies (" + velaName + "_ports_used)"),
                  "Vela 5.0 vela.ini: 1 when not given (Vela's max(1, ports_used))",
                  [](SystemParams& p) -> FieldRef { return &mem(p, M).portsUsed; })
                  .range(1, 64)
                  .vela(sys, text(velaName + "_ports_used"), "1", M));
  for (const bool reads : {true, false}) {
    const std::string what = reads ? "reads" : "writes";
    t.push_back(key(text(group + "max_" + what), "txns", "0",
                    text("outstanding " + what + " " + velaName + " accepts; sets the AXI " + (reads ? "read" : "write") +
                         " limit of its port, capped at the NPU's AXI_LIMIT maximum; 0 = not given (" + velaName +
                         "_max_" + what + ")"),
                    text("Vela 5.0 vela.ini; 0 = the port keeps its own default (npu.axi*.max_outstanding_" + what +
                         "), also when a section leaves the key out"),
                    reads ? ConfigKey::Accessor([](SystemParams& p) -> FieldRef { return &mem(p, M).maxReads; })
                          : ConfigKey::Accessor([](SystemParams& p) -> FieldRef { return &mem(p, M).maxWrites; }))
                    .range(0, 1024)
                    // Left out: 0, no limit declared, in both Velas' readings. regor gives such a
                    // key 1, but only its Ethos-U85 model reads it (ethos_u85_performance.cpp);
                    // Vela 5.0's U55/U65 model ignores the key, so leaving it out says nothing
                    // about the memory.
                    .vela(sys, text(velaName + "_max_" + what), "0", M));
  }
}

std::vector<ConfigKey> buildConfigKeyTable() {
  using M = MemoryKind;
  constexpr auto sys = VelaSection::SystemConfig;
  constexpr auto mode = VelaSection::MemoryMode;
  std::vector<ConfigKey> t;
  // 1. Accelerator.
  std::vector<std::string_view> accelerators{""};
  for (const arch::NpuConfig& c : arch::npuConfigs()) {
    accelerators.push_back(c.name);
  }
  t.push_back(key("accelerator", "", "", "Ethos-U configuration (Vela's --accelerator-config); \"\" = as compiled into the model",
                  "the model's Vela header (COP1 CONFIG word) says which configuration it was compiled for",
                  [](SystemParams& p) -> FieldRef { return &p.accelerator; })
                  .oneOf(std::move(accelerators)));
  // 2. System config: vela.ini [System_Config.*].
  t.push_back(key("system.core_clock", "Hz", "500e6", "NPU clock (vela.ini core_clock)", kSrcU55HighEnd,
                  [](SystemParams& p) -> FieldRef { return &p.coreClockHz; })
                  .rangeOpenLow(0, kMaxClockHz)
                  .vela(sys, "core_clock", "1"));
  static_assert(arch::kAreaCount == 2, "one system.<area>_port key per Vela memory area");
  t.push_back(areaMemoryKey<0>("Sram"));
  t.push_back(areaMemoryKey<1>("OffChipFlash"));

  t.push_back(key("system.sram.clock_scale", "x clock", "1.0", "SRAM bandwidth as a fraction of core_clock (Sram_clock_scale)",
                  kSrcU55HighEnd, [](SystemParams& p) -> FieldRef { return &mem(p, M::Sram).clockScale; })
                  .rangeOpenLow(0, 1)
                  .vela(sys, "Sram_clock_scale", "1.0", M::Sram));
  t.push_back(key("system.sram.burst_length", "bytes", "32", "SRAM minimum efficient burst (Sram_burst_length)",
                  kSrcU55HighEnd, [](SystemParams& p) -> FieldRef { return &mem(p, M::Sram).burstLength; })
                  .pow2(8, 4096)
                  .vela(sys, "Sram_burst_length", "1", M::Sram)
                  .vela50(kVela50BurstLength));
  t.push_back(key("system.sram.read_latency", "cycles", "32", "SRAM read latency, NPU cycles (Sram_read_latency)",
                  kSrcU55HighEnd, [](SystemParams& p) -> FieldRef { return &mem(p, M::Sram).readLatency; })
                  .range(0, kU32Max)
                  .vela(sys, "Sram_read_latency", "0", M::Sram)
                  .vela50(kVela50Latency));
  t.push_back(key("system.sram.write_latency", "cycles", "32", "SRAM write latency, NPU cycles (Sram_write_latency)",
                  kSrcU55HighEnd, [](SystemParams& p) -> FieldRef { return &mem(p, M::Sram).writeLatency; })
                  .range(0, kU32Max)
                  .vela(sys, "Sram_write_latency", "0", M::Sram)
                  .vela50(kVela50Latency));
  t.push_back(key("system.sram.separate_read_write", "", "false",
                  "SRAM: reads and writes on separate data paths (true) or one shared path (false)",
                  kSrcOneDataPath, [](SystemParams& p) -> FieldRef { return &mem(p, M::Sram).separateReadWrite; }));
  addMemoryPortKeys<M::Sram>(t);

  t.push_back(key("system.dram.clock_scale", "x clock", "0.75", "DRAM bandwidth as a fraction of core_clock (Dram_clock_scale)",
                  kSrcU65Dram, [](SystemParams& p) -> FieldRef { return &mem(p, M::Dram).clockScale; })
                  .rangeOpenLow(0, 1)
                  .vela(sys, "Dram_clock_scale", "1.0", M::Dram));
  t.push_back(key("system.dram.burst_length", "bytes", "128", "DRAM minimum efficient burst (Dram_burst_length)", kSrcU65Dram,
                  [](SystemParams& p) -> FieldRef { return &mem(p, M::Dram).burstLength; })
                  .pow2(8, 4096)
                  .vela(sys, "Dram_burst_length", "1", M::Dram)
                  .vela50(kVela50BurstLength));
  t.push_back(key("system.dram.read_latency", "cycles", "500", "DRAM read latency, NPU cycles (Dram_read_latency)",
                  kSrcU65Dram, [](SystemParams& p) -> FieldRef { return &mem(p, M::Dram).readLatency; })
                  .range(0, kU32Max)
                  .vela(sys, "Dram_read_latency", "0", M::Dram)
                  .vela50(kVela50Latency));
  t.push_back(key("system.dram.write_latency", "cycles", "250", "DRAM write latency, NPU cycles (Dram_write_latency)",
                  kSrcU65Dram, [](SystemParams& p) -> FieldRef { return &mem(p, M::Dram).writeLatency; })
                  .range(0, kU32Max)
                  .vela(sys, "Dram_write_latency", "0", M::Dram)
                  .vela50(kVela50Latency));
  t.push_back(key("system.dram.separate_read_write", "", "false",
                  "DRAM: reads and writes on separate data paths (true) or one shared path (false)",
                  kSrcOneDataPath, [](SystemParams& p) -> FieldRef { return &mem(p, M::Dram).separateReadWrite; }));
  addMemoryPortKeys<M::Dram>(t);

  t.push_back(key("system.on_chip_flash.clock_scale", "x clock", "1.0",
                  "on-chip flash bandwidth as a fraction of core_clock (OnChipFlash_clock_scale)", kSrcOnChipFlash,
                  [](SystemParams& p) -> FieldRef { return &mem(p, M::OnChipFlash).clockScale; })
                  .rangeOpenLow(0, 1)
                  .vela(sys, "OnChipFlash_clock_scale", "1.0", M::OnChipFlash));
  t.push_back(key("system.on_chip_flash.burst_length", "bytes", "32",
                  "on-chip flash minimum efficient burst (OnChipFlash_burst_length)", kSrcOnChipFlash,
                  [](SystemParams& p) -> FieldRef { return &mem(p, M::OnChipFlash).burstLength; })
                  .pow2(8, 4096)
                  .vela(sys, "OnChipFlash_burst_length", "1", M::OnChipFlash)
                  .vela50(kVela50BurstLength));
  t.push_back(key("system.on_chip_flash.read_latency", "cycles", "32",
                  "on-chip flash read latency, NPU cycles (OnChipFlash_read_latency)", kSrcOnChipFlash,
                  [](SystemParams& p) -> FieldRef { return &mem(p, M::OnChipFlash).readLatency; })
                  .range(0, kU32Max)
                  .vela(sys, "OnChipFlash_read_latency", "0", M::OnChipFlash)
                  .vela50(kVela50Latency));
  t.push_back(key("system.on_chip_flash.write_latency", "cycles", "32",
                  "on-chip flash write latency, NPU cycles (OnChipFlash_write_latency)", kSrcOnChipFlash,
                  [](SystemParams& p) -> FieldRef { return &mem(p, M::OnChipFlash).writeLatency; })
                  .range(0, kU32Max)
                  .vela(sys, "OnChipFlash_write_latency", "0", M::OnChipFlash)
                  .vela50(kVela50Latency));
  t.push_back(key("system.on_chip_flash.separate_read_write", "", "false",
                  "on-chip flash: reads and writes on separate data paths (true) or one shared path (false)",
                  kSrcOneDataPath, [](SystemParams& p) -> FieldRef { return &mem(p, M::OnChipFlash).separateReadWrite; }));
  addMemoryPortKeys<M::OnChipFlash>(t);

  t.push_back(key("system.off_chip_flash.clock_scale", "x clock", "0.125",
                  "off-chip flash bandwidth as a fraction of core_clock (OffChipFlash_clock_scale)", kSrcU55HighEnd,
                  [](SystemParams& p) -> FieldRef { return &mem(p, M::OffChipFlash).clockScale; })
                  .rangeOpenLow(0, 1)
                  .vela(sys, "OffChipFlash_clock_scale", "1.0", M::OffChipFlash));
  t.push_back(key("system.off_chip_flash.burst_length", "bytes", "128",
                  "off-chip flash minimum efficient burst (OffChipFlash_burst_length)", kSrcU55HighEnd,
                  [](SystemParams& p) -> FieldRef { return &mem(p, M::OffChipFlash).burstLength; })
                  .pow2(8, 4096)
                  .vela(sys, "OffChipFlash_burst_length", "1", M::OffChipFlash)
                  .vela50(kVela50BurstLength));
  t.push_back(key("system.off_chip_flash.read_latency", "cycles", "64",
                  "off-chip flash read latency, NPU cycles (OffChipFlash_read_latency)", kSrcU55HighEnd,
                  [](SystemParams& p) -> FieldRef { return &mem(p, M::OffChipFlash).readLatency; })
                  .range(0, kU32Max)
                  .vela(sys, "OffChipFlash_read_latency", "0", M::OffChipFlash)
                  .vela50(kVela50Latency));
  t.push_back(key("system.off_chip_flash.write_latency", "cycles", "64",
                  "off-chip flash write latency, NPU cycles (OffChipFlash_write_latency)", kSrcU55HighEnd,
                  [](SystemParams& p) -> FieldRef { return &mem(p, M::OffChipFlash).writeLatency; })
                  .range(0, kU32Max)
                  .vela(sys, "OffChipFlash_write_latency", "0", M::OffChipFlash)
                  .vela50(kVela50Latency));
  t.push_back(key("system.off_chip_flash.separate_read_write", "", "false",
                  "off-chip flash: reads and writes on separate data paths (true) or one shared path (false)",
                  kSrcOneDataPath, [](SystemParams& p) -> FieldRef { return &mem(p, M::OffChipFlash).separateReadWrite; }));
  addMemoryPortKeys<M::OffChipFlash>(t);

  // 3. Memory mode: vela.ini [Memory_Mode.*].
  //    Areas by Vela's names (arch::areaName): Shared_Sram's constants in the second, arena and
  //    cache in the first; Vela's fallback is the first.
  const std::string_view first = arch::areaName(arch::kAreas[0]), second = arch::areaName(arch::kAreas[1]);
  const std::string areas = std::string(first) + "|" + std::string(second);
  t.push_back(key("memory_mode.const_mem_area", "", second, keep("port holding constants (weights, biases, LUTs): " + areas),
                  kSrcSharedSram, [](SystemParams& p) -> FieldRef { return &p.mode.constMemArea; })
                  .vela(mode, "const_mem_area", first));
  t.push_back(key("memory_mode.arena_mem_area", "", first, keep("port holding the tensor arena: " + areas), kSrcSharedSram,
                  [](SystemParams& p) -> FieldRef { return &p.mode.arenaMemArea; })
                  .vela(mode, "arena_mem_area", first));
  t.push_back(key("memory_mode.cache_mem_area", "", first, keep("port of the NPU-dedicated SRAM cache: " + areas),
                  kSrcSharedSram, [](SystemParams& p) -> FieldRef { return &p.mode.cacheMemArea; })
                  .vela(mode, "cache_mem_area", first));
  t.push_back(key("memory_mode.arena_cache_size", "bytes", "0",
                  "arena budget in SRAM (Dedicated_Sram: cache size); 0 = no limit (Vela: unset = 2^32)", kSrcSharedSram,
                  [](SystemParams& p) -> FieldRef { return &p.mode.arenaCacheSize; })
                  .range(0, kU55AddressSpace)
                  .vela(mode, "arena_cache_size", "0"));

  // 4. NPU AXI ports (npusim only; Vela has no keys for them): one set per port name of the
  //    simulated generations, then the command stream's area, then each port's timing adapter.
  const std::vector<NamedPort> ports = configuredPorts();
  for (const NamedPort& port : ports) {
    addPortKeys(t, port);
  }
  t.push_back(key("npu.command_stream_port", "", "=memory_mode.const_mem_area",
                  keep("AXI port the command stream is fetched from: " + areas),
                  "with the constants, as Vela places it: driver QCONFIG=2 (AXI1) for Shared_Sram, CMSIS-Ethos-U FVP "
                  "QCONFIG=1 (AXI0) for Sram_Only (timing doc 2.2, 5.1)",
                  [](SystemParams& p) -> FieldRef { return &p.commandStreamArea; })
                  .derivedFrom([](const SystemParams& p) { return std::string(arch::areaName(p.mode.constMemArea)); }));
  for (const NamedPort& port : ports) {
    addAdapterKeys(t, port.name);
  }
  t.push_back(key("npu.adapter_per_area", "", "false",
                  "one timing adapter for all the NPU ports of an area, with the area's first port's ta.* "
                  "registers (true), or one per port (false)",
                  "npusim: the Corstone-320 has one SRAM and one EXT adapter for the U85's port groups "
                  "(ethos-u85.md 7.1); the U55 and U65 have one port per area",
                  [](SystemParams& p) -> FieldRef { return &p.adapterPerArea; }));
  t.push_back(key("npu.adapter_pulse_start", "cycles", "0",
                  "cycles the timing adapters' pulse counters have run at time 0 (they count from the platform's "
                  "reset): each adapter's pulse cycle stands at this modulo PULSE_ON + PULSE_OFF when the "
                  "simulation starts",
                  "npusim: a pulse cycle begins at time 0; on a real platform or FVP the position at the "
                  "inference's start depends on what ran before it",
                  [](SystemParams& p) -> FieldRef { return &p.adapterPulseStart; })
                  .range(0, 1e12));

  // 5. Host CPU (npusim only).
  t.push_back(key("host.clock", "Hz", "0", "host CPU clock (Cortex-M55; Cortex-M85 with the U85); 0 = same as the NPU clock", "npusim: one clock for CPU and NPU",
                  [](SystemParams& p) -> FieldRef { return &p.host.clockHz; })
                  .range(0, kMaxClockHz));
  t.push_back(key("host.driver_overhead_cycles", "cpu cycles", "2000",
                  "per ethos-u invoke before the NPU starts (TFLM Eval, reserve, soft reset, register setup)",
                  "npusim estimate of the timing doc 6.2 sequence; uncalibrated",
                  [](SystemParams& p) -> FieldRef { return &p.host.driverOverheadCycles; })
                  .range(0, kExactIntMax));
  t.push_back(key("host.irq_overhead_cycles", "cpu cycles", "500",
                  "NPU IRQ to driver return (handler, semaphore, PMU readout, power release)",
                  "npusim estimate of the timing doc 6.2 sequence; uncalibrated",
                  [](SystemParams& p) -> FieldRef { return &p.host.irqOverheadCycles; })
                  .range(0, kExactIntMax));
  t.push_back(key("host.mve", "", "true", "Helium (MVE) available to CPU operators; selects the host cost defaults",
                  "Cortex-M55 with Helium, as in Arm's Corstone-300 (timing doc 6.3)",
                  [](SystemParams& p) -> FieldRef { return &p.host.mve; }));
  t.push_back(key("host.conv_cycles_per_mac", "cpu cycles/MAC", "0.75 (2.7 if host.mve=false)",
                  "CPU CONV_2D / FULLY_CONNECTED cost per MAC",
                  "timing doc 6.3: CMSIS-NN Helium network average ~0.75; DSP-only pointwise 2.7",
                  [](SystemParams& p) -> FieldRef { return &p.host.convCyclesPerMac; })
                  .derivedFrom([](const SystemParams& p) { return std::string(p.host.mve ? "0.75" : "2.7"); }));
  t.push_back(key("host.depthwise_cycles_per_mac", "cpu cycles/MAC", "3.5 (8.3 if host.mve=false)",
                  "CPU DEPTHWISE_CONV_2D cost per MAC", "timing doc 6.3: Helium ~3-4 (Alif E8 3.8); DSP-only 8.3",
                  [](SystemParams& p) -> FieldRef { return &p.host.depthwiseCyclesPerMac; })
                  .derivedFrom([](const SystemParams& p) { return std::string(p.host.mve ? "3.5" : "8.3"); }));
  t.push_back(key("host.elementwise_cycles_per_element", "cpu cycles/elem", "1.5 (8 if host.mve=false)",
                  "CPU elementwise/pooling/other kernels, per output element",
                  "npusim estimate from CMSIS-NN s8 loop structure; uncalibrated",
                  [](SystemParams& p) -> FieldRef { return &p.host.elementwiseCyclesPerElement; })
                  .derivedFrom([](const SystemParams& p) { return std::string(p.host.mve ? "1.5" : "8"); }));
  t.push_back(key("host.per_operator_cycles", "cpu cycles", "500", "fixed cost per CPU operator (TFLM dispatch, kernel setup)",
                  "npusim estimate; uncalibrated (timing doc 6.2: calibrate on hardware)",
                  [](SystemParams& p) -> FieldRef { return &p.host.perOperatorCycles; })
                  .range(0, kExactIntMax));

  // 6. Simulation control.
  t.push_back(key("sim.cycle_limit", "cycles", "0", "stop the simulation after this many NPU cycles; 0 = no limit", "npusim",
                  [](SystemParams& p) -> FieldRef { return &p.cycleLimit; })
                  .range(0, kExactIntMax));
  t.push_back(key("sim.transport", "", "fast",
                  "how the NPU's ports reach the memory: fast (npusim's whole transfers, no data) or tlm (TLM-2.0 "
                  "base-protocol bursts with data, the NPU's own AXI links, as in any platform)",
                  "npusim", [](SystemParams& p) -> FieldRef { return &p.transport; })
                  .oneOf({"fast", "tlm"}));
  return t;
}

// The field behind `k` in `params` (contract: keyApplies).
FieldRef fieldOf(const ConfigKey& k, SystemParams& params) {
  if (k.portField == nullptr) {
    return k.field(params);
  }
  return k.portField(params.port(*params.findPort(k.port)));
}

// The field's type, read from a default SystemParams or PortParams.
FieldRef probeField(const ConfigKey& k) {
  static SystemParams system;
  static PortParams port;
  return k.portField == nullptr ? k.field(system) : k.portField(port);
}

// Reads through an accessor that is only used to look (the accessor signature is non-const so
// that one function serves both reading and writing).
FieldRef readField(const ConfigKey& k, const SystemParams& params) {
  return fieldOf(k, const_cast<SystemParams&>(params));
}

std::string inQuotes(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string rangeText(const ConfigKey& k) {
  std::string text = (k.minExclusive ? "(" : "[") + formatNumber(k.min) + ", ";
  text += std::isinf(k.max) ? std::string("inf)") : formatNumber(k.max) + "]";
  return text;
}

// The allowed values in plain words: "Sram, Dram, OnChipFlash or OffChipFlash".
std::string choicesText(const std::vector<std::string_view>& choices) {
  std::string text;
  for (size_t i = 0; i < choices.size(); ++i) {
    const std::string c = choices[i].empty() ? std::string("\"\" (as compiled)") : std::string(choices[i]);
    text += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + c;
  }
  return text;
}

std::string jsonTypeText(const nlohmann::json& v) {
  std::string dump = v.dump();
  if (dump.size() > 40) {
    dump = dump.substr(0, 37) + "...";
  }
  return std::string(v.type_name()) + " " + dump;
}

void checkNumber(const ConfigKey& k, double v, double typeMax, const Origin& origin) {
  const double hi = std::min(k.max, typeMax);
  const bool low = k.minExclusive ? v <= k.min : v < k.min;
  const std::string unit = k.unit.empty() ? std::string() : " " + std::string(k.unit);
  if (low || v > hi) {
    ConfigKey shown = k;
    shown.max = hi;
    throwAt(origin, k.path, formatNumber(v) + " is out of range " + rangeText(shown) + unit);
  }
  if (k.powerOfTwo && (v < 1 || std::exp2(std::round(std::log2(v))) != v)) {
    throwAt(origin, k.path, formatNumber(v) + " is not a power of two in " + rangeText(k) + unit);
  }
}

template <typename Int>
void storeInt(const ConfigKey& k, const Value& value, Int* field, const Origin& origin) {
  const double v = std::get<double>(value);
  if (v != std::floor(v)) {
    throwAt(origin, k.path, "expected an integer, got " + formatNumber(v));
  }
  checkNumber(k, v, std::min(static_cast<double>(std::numeric_limits<Int>::max()), kExactIntMax), origin);
  *field = static_cast<Int>(v);
}

template <typename Enum, size_t N>
void storeEnum(const ConfigKey& k, const Value& value, Enum* field, const std::array<Enum, N>& all,
               std::string_view (*name)(Enum), const Origin& origin) {
  const auto& text = std::get<std::string>(value);
  for (const Enum e : all) {
    if (name(e) == text) {
      *field = e;
      return;
    }
  }
  const auto choices = enumChoices(k);
  throwAt(origin, k.path,
          inQuotes(text) + " is not one of " + choicesText(choices) + " (did you mean " + inQuotes(nearestName(text, choices)) + "?)");
}

// Type-directed visitor helper.
template <class... Fs>
struct Overload : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overload(Fs...) -> Overload<Fs...>;

} // namespace

ConfigKey ConfigKey::range(double lo, double hi) && {
  min = lo;
  max = hi;
  return std::move(*this);
}

ConfigKey ConfigKey::above(double lo) && {
  min = lo;
  minExclusive = true;
  return std::move(*this);
}

ConfigKey ConfigKey::rangeOpenLow(double lo, double hi) && {
  min = lo;
  max = hi;
  minExclusive = true;
  return std::move(*this);
}

ConfigKey ConfigKey::pow2(double lo, double hi) && {
  min = lo;
  max = hi;
  powerOfTwo = true;
  return std::move(*this);
}

ConfigKey ConfigKey::oneOf(std::vector<std::string_view> values) && {
  choices = std::move(values);
  return std::move(*this);
}

ConfigKey ConfigKey::vela(VelaSection section, std::string_view name, std::string_view fallback,
                          std::optional<MemoryKind> readIf) && {
  velaSection = section;
  velaKey = name;
  vela310Fallback = fallback;
  vela50Fallback = fallback;
  velaReadIf = readIf;
  return std::move(*this);
}

ConfigKey ConfigKey::vela50(std::string_view fallback) && {
  vela50Fallback = fallback;
  return std::move(*this);
}

ConfigKey ConfigKey::derivedFrom(DerivedDefault rule) && {
  derived = rule;
  return std::move(*this);
}

std::string_view keyTypeName(KeyType type) {
  switch (type) {
  case KeyType::Double: return "double";
  case KeyType::Int: return "int";
  case KeyType::Bool: return "bool";
  case KeyType::Enum: return "enum";
  }
  return "?";
}

const std::vector<ConfigKey>& schema() {
  static const std::vector<ConfigKey> table = buildConfigKeyTable();
  return table;
}

const ConfigKey* findKey(std::string_view path) {
  for (const auto& k : schema()) {
    if (k.path == path) {
      return &k;
    }
  }
  return nullptr;
}

const std::vector<std::string>& keyGroups() {
  static const std::vector<std::string> groups = [] {
    std::set<std::string> all;
    for (const auto& k : schema()) {
      for (size_t dot = k.path.find('.'); dot != std::string_view::npos; dot = k.path.find('.', dot + 1)) {
        all.insert(std::string(k.path.substr(0, dot)));
      }
    }
    return std::vector<std::string>(all.begin(), all.end());
  }();
  return groups;
}

size_t keyIndex(const ConfigKey& k) { return static_cast<size_t>(&k - schema().data()); }

KeyType keyType(const ConfigKey& k) {
  return std::visit(Overload{[](double*) { return KeyType::Double; }, [](uint32_t*) { return KeyType::Int; },
                             [](uint64_t*) { return KeyType::Int; }, [](bool*) { return KeyType::Bool; },
                             [](MemoryKind*) { return KeyType::Enum; }, [](arch::AreaId*) { return KeyType::Enum; },
                             [](std::string*) { return KeyType::Enum; }},
                    probeField(k));
}

std::vector<std::string_view> enumChoices(const ConfigKey& k) {
  return std::visit(Overload{[](MemoryKind*) {
                               std::vector<std::string_view> names;
                               for (const auto m : kMemoryKinds) {
                                 names.push_back(memoryKindName(m));
                               }
                               return names;
                             },
                             [](arch::AreaId*) {
                               std::vector<std::string_view> names;
                               for (const auto a : arch::kAreas) {
                                 names.push_back(arch::areaName(a));
                               }
                               return names;
                             },
                             [&k](std::string*) { return k.choices; },
                             [](auto*) { return std::vector<std::string_view>{}; }},
                    probeField(k));
}

Value parseText(const ConfigKey& k, std::string_view text, const Origin& origin) {
  const std::string s(text);
  switch (keyType(k)) {
  case KeyType::Double:
  case KeyType::Int: {
    char* end = nullptr;
    const double v = s.empty() ? 0.0 : std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v) || std::isspace(static_cast<unsigned char>(s[0]))) {
      throwAt(origin, k.path, std::string("expected ") + (keyType(k) == KeyType::Int ? "an integer" : "a number") +
                                  ", got " + inQuotes(text));
    }
    return v;
  }
  case KeyType::Bool:
    if (s == "true" || s == "false") {
      return s == "true";
    }
    throwAt(origin, k.path, "expected true or false, got " + inQuotes(text));
  case KeyType::Enum: return s;
  }
  return s;
}

Value parseJson(const ConfigKey& k, const nlohmann::json& v, const Origin& origin) {
  switch (keyType(k)) {
  case KeyType::Double:
  case KeyType::Int:
    if (!v.is_number()) {
      throwAt(origin, k.path, std::string("expected ") + (keyType(k) == KeyType::Int ? "an integer" : "a number") +
                                  ", got " + jsonTypeText(v));
    }
    return v.get<double>();
  case KeyType::Bool:
    if (!v.is_boolean()) {
      throwAt(origin, k.path, "expected true or false, got " + jsonTypeText(v));
    }
    return v.get<bool>();
  case KeyType::Enum:
    if (!v.is_string()) {
      throwAt(origin, k.path, "expected a string (" + choicesText(enumChoices(k)) + "), got " + jsonTypeText(v));
    }
    return v.get<std::string>();
  }
  return v.dump();
}

std::string areaKeyPath(arch::AreaId area) { return "system." + lower(arch::areaName(area)) + "_port"; }

bool keyApplies(const ConfigKey& k, const SystemParams& params) {
  return k.portField == nullptr || params.findPort(k.port).has_value();
}

void storeValue(const ConfigKey& k, const Value& value, SystemParams& params, const Origin& origin) {
  if (!keyApplies(k, params)) {
    std::string names;
    for (const arch::PortDesc& d : params.portDescs()) {
      names += (names.empty() ? "" : ", ") + std::string(d.name);
    }
    throwAt(origin, k.path, "the " + std::string(params.architecture().name) + " has no NPU port " +
                                std::string(k.port) + " (its ports: " + names + ")");
  }
  std::visit(Overload{[&](double* f) {
                        const double v = std::get<double>(value);
                        checkNumber(k, v, std::numeric_limits<double>::infinity(), origin);
                        *f = v;
                      },
                      [&](uint32_t* f) { storeInt(k, value, f, origin); },
                      [&](uint64_t* f) { storeInt(k, value, f, origin); },
                      [&](bool* f) { *f = std::get<bool>(value); },
                      [&](MemoryKind* f) { storeEnum(k, value, f, kMemoryKinds, memoryKindName, origin); },
                      [&](arch::AreaId* f) { storeEnum(k, value, f, arch::kAreas, arch::areaName, origin); },
                      [&](std::string* f) {
                        const auto& text = std::get<std::string>(value);
                        if (std::find(k.choices.begin(), k.choices.end(), text) == k.choices.end()) {
                          throwAt(origin, k.path,
                                  inQuotes(text) + " is not one of " + choicesText(k.choices) + " (did you mean " +
                                      inQuotes(nearestName(text, k.choices)) + "?)");
                        }
                        *f = text;
                      }},
             fieldOf(k, params));
}

std::string formatNumber(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", value);
    return buf;
  }
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) {
      break;
    }
  }
  return buf;
}

std::string allowedText(const ConfigKey& key) {
  switch (keyType(key)) {
  case KeyType::Enum: return choicesText(enumChoices(key));
  case KeyType::Bool: return "true or false";
  case KeyType::Double:
  case KeyType::Int: return (key.powerOfTwo ? "power of two in " : "") + rangeText(key);
  }
  return "";
}

std::string formatValue(const ConfigKey& k, const SystemParams& params) {
  return std::visit(Overload{[](double* f) { return formatNumber(*f); },
                             [](uint32_t* f) { return std::to_string(*f); },
                             [](uint64_t* f) { return std::to_string(*f); },
                             [](bool* f) { return std::string(*f ? "true" : "false"); },
                             [](MemoryKind* f) { return std::string(memoryKindName(*f)); },
                             [](arch::AreaId* f) { return std::string(arch::areaName(*f)); },
                             [](std::string* f) { return *f; }},
                    readField(k, params));
}

nlohmann::ordered_json jsonValue(const ConfigKey& k, const SystemParams& params) {
  return std::visit(Overload{[](double* f) { return nlohmann::ordered_json(*f); },
                             [](uint32_t* f) { return nlohmann::ordered_json(*f); },
                             [](uint64_t* f) { return nlohmann::ordered_json(*f); },
                             [](bool* f) { return nlohmann::ordered_json(*f); },
                             [](MemoryKind* f) { return nlohmann::ordered_json(memoryKindName(*f)); },
                             [](arch::AreaId* f) { return nlohmann::ordered_json(arch::areaName(*f)); },
                             [](std::string* f) { return nlohmann::ordered_json(*f); }},
                    readField(k, params));
}

SystemParams schemaDefaults() {
  SystemParams p;
  const Origin origin{"<builtin>", "", "schema default"};
  for (const auto& k : schema()) {
    if (!k.derived && keyApplies(k, p)) {
      storeValue(k, parseText(k, k.defaultText, origin), p, origin);
    }
  }
  for (const auto& k : schema()) {
    if (k.derived && keyApplies(k, p)) {
      storeValue(k, parseText(k, k.derived(p), origin), p, origin);
    }
  }
  return p;
}

std::string nearestName(std::string_view word, const std::vector<std::string_view>& candidates, size_t maxDistance) {
  return npusim::nearestName(word, candidates, maxDistance);
}

std::string nearestKey(std::string_view path, bool includeGroups) {
  std::vector<std::string_view> candidates;
  for (const auto& k : schema()) {
    candidates.push_back(k.path);
  }
  if (includeGroups) {
    for (const auto& g : keyGroups()) {
      candidates.push_back(g);
    }
  }
  return nearestName(path, candidates);
}

void throwAt(const Origin& origin, std::string_view path, const std::string& message) {
  throwForKey(origin.file, origin.key.empty() ? std::string(path) : origin.key,
              origin.detail.empty() ? message : message + " (" + origin.detail + ")");
}

} // namespace npusim::config
