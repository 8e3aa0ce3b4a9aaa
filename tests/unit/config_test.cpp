// SPDX-License-Identifier: Apache-2.0
// Configuration layer: schema, built-in presets, JSON configs, --set overrides, validation.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "sim/common/error.h"
#include "sim/config/config.h"
#include "sim/config/config_builder.h"
#include "sim/config/config_schema.h"
#include "sim/config/json_config.h"
#include "support/config_checks.h"
#include "support/fixtures.h"
#include "support/hardware.h"

using namespace npusim;
using namespace npusim::config;

namespace {

// The InputError thrown by `f` (fails the check when nothing is thrown).
// A file in the temp directory, removed when the test ends.
class TempFile {
public:
  TempFile(const std::string& name, const std::string& text)
      : path_(std::filesystem::temp_directory_path() /
              ("npusim-config-test-" + std::to_string(::getpid()) + "-" + name)) {
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  std::string path() const { return path_.string(); }

private:
  std::filesystem::path path_;
};

SystemParams withSets(std::vector<std::string> overrides, const std::string& memoryMode = "Shared_Sram") {
  ConfigRequest request;
  request.memoryMode = memoryMode;
  request.overrides = std::move(overrides);
  return resolveConfig(request);
}

SystemParams fromJson(const std::string& text) {
  ConfigBuilder builder;
  applyJsonText(text, "test.json", builder);
  return builder.finish("Ethos_U55_High_End_Embedded", "Shared_Sram");
}

// A request for the sections named `name` of `ini`.
ConfigRequest iniRequest(const TempFile& ini, const std::string& name) {
  ConfigRequest request;
  request.velaIni = ini.path();
  request.systemConfig = name;
  request.memoryMode = name;
  return request;
}

} // namespace

TEST_CASE("config schema: every key has one spelling, a unit column, a default, a description and a source") {
  std::set<std::string_view> paths;
  for (const auto& key : schema()) {
    CAPTURE(key.path);
    CHECK(paths.insert(key.path).second);
    CHECK(findKey(key.path) == &key);
    // A per-port key reaches its field through its port's PortParams, every other key directly.
    CHECK(static_cast<bool>(key.field) != static_cast<bool>(key.portField));
    if (key.portField != nullptr) {
      CHECK(key.path.rfind("npu." + std::string(key.port) + ".", 0) == 0);
      // It is a port of some configuration (U85: sram2, sram3 and ext1 of the larger ones only).
      bool someConfiguration = false;
      for (const npusim::arch::NpuConfig& c : npusim::arch::npuConfigs()) {
        SystemParams bound;
        bound.accelerator = std::string(c.name);
        someConfiguration = someConfiguration || keyApplies(key, bound);
      }
      CHECK(someConfiguration);
    }
    CHECK_FALSE(key.description.empty());
    CHECK_FALSE(key.source.empty());
    CHECK(key.path.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ ") == std::string_view::npos);
    if (keyType(key) == KeyType::Enum) {
      CHECK_FALSE(enumChoices(key).empty());
    }
  }
  CHECK(findKey("system.sram.read_latency") != nullptr);
  CHECK(findKey("System.Sram.Read_Latency") == nullptr);
  CHECK(keyType(*findKey("system.core_clock")) == KeyType::Double);
  CHECK(keyType(*findKey("npu.axi1.max_outstanding_reads")) == KeyType::Int);
  CHECK(keyType(*findKey("host.mve")) == KeyType::Bool);
  CHECK(keyType(*findKey("memory_mode.const_mem_area")) == KeyType::Enum);
}

TEST_CASE("config schema: SystemParams member initializers equal the schema defaults") {
  test::checkSameValues(SystemParams{}, schemaDefaults());
}

TEST_CASE("config schema: the default request resolves to the schema defaults") {
  const SystemParams p = resolveConfig(ConfigRequest{});
  test::checkSameValues(p, schemaDefaults());
  CHECK(p.systemConfig == "Ethos_U55_High_End_Embedded");
  CHECK(p.memoryMode == "Shared_Sram");
}

TEST_CASE("config presets: Ethos_U55_High_End_Embedded + Shared_Sram") {
  const SystemParams p = builtinPreset("Ethos_U55_High_End_Embedded", "Shared_Sram");
  CHECK(p.coreClockHz == 500e6);
  CHECK(p.memoryIn(test::area("Axi0")) == MemoryKind::Sram);
  CHECK(p.memoryIn(test::area("Axi1")) == MemoryKind::OffChipFlash);
  CHECK(p.memory(MemoryKind::Sram).burstLength == 32);
  CHECK(p.memory(MemoryKind::OffChipFlash).clockScale == 0.125);
  CHECK(p.memory(MemoryKind::OffChipFlash).readLatency == 64);
  CHECK(p.mode.constMemArea == test::area("Axi1"));
  CHECK(p.mode.arenaMemArea == test::area("Axi0"));
  CHECK(p.mode.arenaCacheSize == 0);
  CHECK(p.commandStreamArea == test::area("Axi1"));
  CHECK(p.port(test::port("axi0")).maxOutstandingReads == 8);
  CHECK(p.port(test::port("axi1")).maxOutstandingReads == 2);
  CHECK(p.bytesPerCycle(test::port("axi0")) == 8.0);
  CHECK(p.bytesPerCycle(test::port("axi1")) == 1.0);
  CHECK(p.accelerator.empty());  // as compiled into the model
}

TEST_CASE("config presets: Ethos_U55_Deep_Embedded") {
  const SystemParams p = builtinPreset("Ethos_U55_Deep_Embedded", "Shared_Sram");
  CHECK(p.coreClockHz == 200e6);
  CHECK(p.memory(MemoryKind::OffChipFlash).clockScale == 0.0625);
  CHECK(p.systemConfig == "Ethos_U55_Deep_Embedded");
}

TEST_CASE("config presets: Sram_Only keeps constants and the command stream in SRAM on AXI0") {
  const SystemParams p = builtinPreset("Ethos_U55_High_End_Embedded", "Sram_Only");
  CHECK(p.mode.constMemArea == test::area("Axi0"));
  CHECK(p.mode.arenaMemArea == test::area("Axi0"));
  CHECK(p.mode.cacheMemArea == test::area("Axi0"));
  CHECK(p.memoryIn(p.mode.constMemArea) == MemoryKind::Sram);   // no OnChipFlash renaming
  CHECK(p.memoryIn(test::area("Axi1")) == MemoryKind::OffChipFlash);  // the system config is untouched
  CHECK(p.commandStreamArea == test::area("Axi0"));
}

TEST_CASE("config presets: a U55 on a U65 system config keeps 64-bit AXI") {
  const SystemParams p = builtinPreset("Ethos_U65_High_End", "Shared_Sram");
  CHECK(p.coreClockHz == 1e9);
  CHECK(p.memoryIn(test::area("Axi1")) == MemoryKind::Dram);
  CHECK(p.memory(MemoryKind::Dram).clockScale == 0.234375);
  CHECK(p.memory(MemoryKind::Dram).readLatency == 500);
  CHECK(p.memory(MemoryKind::Dram).writeLatency == 250);
  CHECK(p.port(test::port("axi1")).dataWidthBits == 64);
  CHECK(p.bytesPerCycle(test::port("axi1")) == doctest::Approx(8 * 0.234375));
}

TEST_CASE("config presets: Dedicated_Sram and Dedicated_Sram_512KB (inherit)") {
  const SystemParams a = builtinPreset("Ethos_U65_Mid_End", "Dedicated_Sram");
  CHECK(a.mode.arenaMemArea == test::area("Axi1"));
  CHECK(a.mode.arenaCacheSize == 393216);
  const SystemParams b = builtinPreset("Ethos_U65_Mid_End", "Dedicated_Sram_512KB");
  CHECK(b.mode.constMemArea == test::area("Axi1"));
  CHECK(b.mode.arenaMemArea == test::area("Axi1"));
  CHECK(b.mode.cacheMemArea == test::area("Axi0"));
  CHECK(b.mode.arenaCacheSize == 524288);
  CHECK(b.commandStreamArea == test::area("Axi1"));
}

TEST_CASE("config presets: Dedicated_Sram on a flash-only system is rejected as Vela rejects it") {
  const InputError e = test::errorOf([] { builtinPreset("Ethos_U55_High_End_Embedded", "Dedicated_Sram"); });
  CHECK(e.where().file == "<builtin>");
  CHECK(std::string(e.what()).find("arena") != std::string::npos);
  CHECK(std::string(e.what()).find("Sram or Dram") != std::string::npos);
}

TEST_CASE("config presets: internal-default is Vela's U55 built-in system") {
  const SystemParams p = builtinPreset("internal-default", "internal-default");
  test::checkSameValues(p, builtinPreset("Ethos_U55_High_End_Embedded", "Shared_Sram"));
  CHECK(p.systemConfig == "internal-default");
}

TEST_CASE("config presets: unknown names list the available sections") {
  const InputError sys = test::errorOf([] { builtinPreset("Ethos_U55_High_End", "Shared_Sram"); });
  CHECK(sys.where().file == "<builtin>");
  const std::string s = sys.what();
  CHECK(s.find("[System_Config.Ethos_U55_High_End]") != std::string::npos);
  CHECK(s.find("Ethos_U55_Deep_Embedded, Ethos_U55_High_End_Embedded, Ethos_U65_Embedded") != std::string::npos);
  // A U55 model's typo is never matched to a U65 section (Ethos_U65_High_End is the closest by
  // edit distance); the abbreviation is completed.
  CHECK(s.find("did you mean 'Ethos_U55_High_End_Embedded'") != std::string::npos);
  const std::string u65 = test::errorOf([] { builtinPreset("Ethos_U65_High_Endd", "Shared_Sram"); }).what();
  CHECK(u65.find("did you mean 'Ethos_U65") == std::string::npos);
  const std::string m = test::errorOf([] { builtinPreset("Ethos_U55_High_End_Embedded", "SramOnly"); }).what();
  CHECK(m.find("Sram_Only, Shared_Sram, Dedicated_Sram, Dedicated_Sram_512KB") != std::string::npos);
  CHECK(m.find("did you mean 'Sram_Only'") != std::string::npos);
}

TEST_CASE("config --set: overrides any key, the last assignment wins") {
  const SystemParams p = withSets({"system.sram.read_latency=64", "npu.axi1.max_outstanding_reads = 4", "host.mve=false",
                                   "accelerator=ethos-u55-256", "system.core_clock=1e9", "sim.cycle_limit=1e9",
                                   "system.sram.read_latency=100", "memory_mode.arena_cache_size=4194304"});
  CHECK(p.memory(MemoryKind::Sram).readLatency == 100);
  CHECK(p.port(test::port("axi1")).maxOutstandingReads == 4);
  CHECK_FALSE(p.host.mve);
  CHECK(p.hardware()->macs == 256);
  CHECK(p.coreClockHz == 1e9);
  CHECK(p.cycleLimit == 1000000000);
  CHECK(p.mode.arenaCacheSize == 4194304);
}

TEST_CASE("config --set: derived defaults follow their inputs unless set") {
  SUBCASE("command stream follows the constants") {
    CHECK(withSets({"memory_mode.const_mem_area=Axi0", "memory_mode.arena_mem_area=Axi0"}, "Sram_Only").commandStreamArea ==
          test::area("Axi0"));
    CHECK(withSets({}, "Sram_Only").commandStreamArea == test::area("Axi0"));
    CHECK(withSets({"npu.command_stream_port=Axi1"}, "Sram_Only").commandStreamArea == test::area("Axi1"));
  }
  SUBCASE("host costs follow host.mve") {
    const SystemParams helium = withSets({});
    CHECK(helium.host.convCyclesPerMac == 0.75);
    CHECK(helium.host.depthwiseCyclesPerMac == 3.5);
    const SystemParams scalar = withSets({"host.mve=false"});
    CHECK(scalar.host.convCyclesPerMac == 2.7);
    CHECK(scalar.host.depthwiseCyclesPerMac == 8.3);
    CHECK(scalar.host.elementwiseCyclesPerElement == 8.0);
    CHECK(withSets({"host.mve=false", "host.conv_cycles_per_mac=2"}).host.convCyclesPerMac == 2.0);
  }
}

TEST_CASE("config --set: unknown key names the full path and suggests the nearest key") {
  const InputError e = test::errorOf([] { withSets({"system.sram.read_latancy=3"}); });
  CHECK(e.where().file == "--set");
  CHECK(e.where().key == "system.sram.read_latancy");
  CHECK(std::string(e.what()).find("did you mean 'system.sram.read_latency'") != std::string::npos);
  CHECK(std::string(test::errorOf([] { withSets({"npu.axi0.max_outstanding_read=3"}); }).what())
            .find("'npu.axi0.max_outstanding_reads'") != std::string::npos);
  CHECK(test::errorOf([] { withSets({"system.sram=3"}); }).where().key == "system.sram");
}

TEST_CASE("config --set: wrong types name the key") {
  const auto check = [](const std::string& assignment, const std::string& key, const std::string& text) {
    CAPTURE(assignment);
    const InputError e = test::errorOf([&] { withSets({assignment}); });
    CHECK(e.where().file == "--set");
    CHECK(e.where().key == key);
    CHECK(std::string(e.what()).find(text) != std::string::npos);
  };
  check("system.sram.read_latency=fast", "system.sram.read_latency", "expected an integer, got 'fast'");
  check("system.sram.read_latency=32.5", "system.sram.read_latency", "expected an integer, got 32.5");
  check("system.core_clock=", "system.core_clock", "expected a number");
  check("system.core_clock=nan", "system.core_clock", "expected a number");
  check("host.mve=yes", "host.mve", "expected true or false, got 'yes'");
  check("system.axi0_port=sram", "system.axi0_port", "did you mean 'Sram'");
  check("memory_mode.const_mem_area=AXI1", "memory_mode.const_mem_area", "is not one of Axi0 or Axi1");
  check("accelerator=ethos-u65-128", "accelerator",
        "is not one of \"\" (as compiled), ethos-u55-32, ethos-u55-64, ethos-u55-128, ethos-u55-256, ethos-u65-256, "
        "ethos-u65-512, ethos-u85-128, ethos-u85-256, ethos-u85-512, ethos-u85-1024 or ethos-u85-2048");
  check("no-equals-sign", "no-equals-sign", "expected key=value");
}

TEST_CASE("config --set: out-of-range values name the key and the range") {
  const auto check = [](const std::string& assignment, const std::string& text) {
    CAPTURE(assignment);
    const InputError e = test::errorOf([&] { withSets({assignment}); });
    CHECK(e.where().key == assignment.substr(0, assignment.find('=')));
    CHECK(std::string(e.what()).find(text) != std::string::npos);
  };
  check("system.core_clock=0", "out of range (0, 10000000000]");
  check("system.core_clock=1e15", "out of range (0, 10000000000]");
  check("system.sram.clock_scale=0", "out of range (0, 1]");
  check("system.dram.clock_scale=1.5", "out of range (0, 1]");
  check("system.sram.read_latency=-1", "out of range [0, 4294967295]");
  check("system.sram.burst_length=48", "not a power of two in [8, 4096]");
  check("system.sram.burst_length=4", "out of range [8, 4096]");
  // The key's range is the U65's AXI_LIMIT (1..64); a U55 model's 1..32 is checked once it is bound.
  check("npu.axi0.max_outstanding_reads=0", "out of range [1, 64]");
  check("npu.axi0.max_outstanding_reads=65", "out of range [1, 64]");
  check("npu.axi1.max_outstanding_writes=33", "out of range [1, 32]");
  check("npu.axi0.data_width=96", "not a power of two in [64, 128]");
  check("npu.axi0.data_width=256", "out of range [64, 128]");
  check("npu.axi1.max_burst_bytes=32", "out of range [64, 256]");
  check("memory_mode.arena_cache_size=8589934592", "out of range [0, 4294967296]");
  CHECK(withSets({"npu.axi0.data_width=128"}).port(test::port("axi0")).dataWidthBits == 128);
  CHECK(withSets({"system.sram.read_latency=0"}).memory(MemoryKind::Sram).readLatency == 0);
}

TEST_CASE("config: the bound accelerator sets the AXI width, the AXI_LIMIT maxima and Vela's default sections") {
  // Timing doc 1.3 / 5.1: U55 64-bit AXI, AXI_LIMIT up to 32 reads / 16 writes; U65 128-bit,
  // 64 / 32 (the driver's defaults); Vela's U65 internal default is Client_Server + Dedicated_Sram.
  const auto resolved = [](const std::string& accelerator, std::vector<std::string> sets) {
    ConfigRequest request;
    request.accelerator = accelerator;
    request.overrides = std::move(sets);
    return resolveConfig(request);
  };
  const SystemParams u55 = resolved("ethos-u55-128", {});
  CHECK(u55.port(test::port("axi0")).dataWidthBits == 64);
  CHECK(u55.systemConfig == "Ethos_U55_High_End_Embedded");
  const SystemParams u65 = resolved("ethos-u65-512", {});
  CHECK(u65.port(test::port("axi0")).dataWidthBits == 128);
  CHECK(u65.port(test::port("axi1")).dataWidthBits == 128);
  CHECK(u65.port(test::port("axi0")).maxOutstandingReads == 64);
  CHECK(u65.port(test::port("axi1")).maxOutstandingWrites == 32);
  CHECK(u65.systemConfig == "Ethos_U65_Client_Server");
  CHECK(u65.memoryMode == "Dedicated_Sram");
  CHECK(u65.mode.arenaMemArea == test::area("Axi1"));
  CHECK(resolved("ethos-u65-256", {"npu.axi0.max_outstanding_reads=64"}).port(test::port("axi0")).maxOutstandingReads == 64);
  const InputError e = test::errorOf([&] { resolved("ethos-u55-128", {"npu.axi1.max_outstanding_writes=17"}); });
  CHECK(e.where().key == "npu.axi1.max_outstanding_writes");
  CHECK(std::string(e.what()).find("exceeds ethos-u55-128's AXI_LIMIT maximum of 16") != std::string::npos);
}

TEST_CASE("config: with npu.adapter_per_area an area's ports must set their adapter alike") {
  ConfigRequest request;
  request.accelerator = "ethos-u85-256";
  request.systemConfig = "Corstone_320_FVP";
  request.memoryMode = "Dedicated_Sram";
  const SystemParams shared = resolveConfig(request);
  CHECK(shared.adapterPerArea);
  CHECK(shared.port(*shared.findPort("sram1")).adapter.bandwidthCap ==
        shared.port(*shared.findPort("sram0")).adapter.bandwidthCap);
  request.overrides = {"npu.sram1.ta.bwcap=2000"};
  const InputError e = test::errorOf([&] { resolveConfig(request); });
  CHECK(e.where().key == "npu.sram1.ta.bwcap");
  CHECK(std::string(e.what()).find("npu.sram1.ta.bwcap=2000 differs from npu.sram0.ta.bwcap=4000") != std::string::npos);
  request.overrides = {"npu.sram1.ta.bwcap=2000", "npu.adapter_per_area=false"};
  CHECK(resolveConfig(request).port(*shared.findPort("sram1")).adapter.bandwidthCap == 2000);
  // Without a model the accelerator an override names sets the ports the preset programs: the
  // U85-2048's fourth SRAM port behind the kit's mid/high SRAM adapter (latency 32).
  ConfigRequest noModel;
  noModel.systemConfig = "Corstone_320_FVP";
  noModel.memoryMode = "Dedicated_Sram";
  noModel.overrides = {"accelerator=ethos-u85-2048"};
  const SystemParams big = resolveConfig(noModel);
  CHECK(big.port(*big.findPort("sram3")).adapter.readLatency == 32);
}

TEST_CASE("config: npu.adapter_pulse_start reaches every adapter, and is refused where no adapter has a pulse") {
  ConfigRequest request;
  request.accelerator = "ethos-u85-256";
  request.systemConfig = "Corstone_320_FVP";
  request.memoryMode = "Dedicated_Sram";
  request.overrides = {"npu.adapter_pulse_start=2500"};
  CHECK(resolveConfig(request).adapterPulseStart == 2500);
  // The Vela preset sets no timing adapter: the start would move nothing.
  request.systemConfig = "Ethos_U85_SYS_DRAM_Mid";
  const InputError e = test::errorOf([&] { resolveConfig(request); });
  CHECK(e.where().key == "npu.adapter_pulse_start");
  CHECK(std::string(e.what()).find("no port's adapter has one") != std::string::npos);
}

TEST_CASE("config: a section made for the other NPU variant is refused, naming the valid ones") {
  ConfigRequest request;
  request.accelerator = "ethos-u65-256";
  request.systemConfig = "Ethos_U55_High_End_Embedded";
  request.memoryMode = "Shared_Sram";
  InputError e = test::errorOf([&] { resolveConfig(request); });
  CHECK(e.where().file == "--system-config");
  CHECK(std::string(e.what()).find("Ethos-U55 section, but the accelerator is ethos-u65-256; valid for it: "
                                   "Ethos_U65_Embedded, Ethos_U65_Mid_End, Ethos_U65_High_End, "
                                   "Ethos_U65_Client_Server") != std::string::npos);
  request.accelerator = "ethos-u55-128";
  request.systemConfig = "Ethos_U65_High_End";
  e = test::errorOf([&] { resolveConfig(request); });
  CHECK(std::string(e.what()).find("Ethos-U65 section, but the accelerator is ethos-u55-128") != std::string::npos);
  request.systemConfig = "Corstone_300_FVP";
  request.memoryMode = "Dedicated_Sram";
  e = test::errorOf([&] { resolveConfig(request); });
  CHECK(e.where().file == "--memory-mode");
  CHECK(std::string(e.what()).find("valid for it: Sram_Only, Shared_Sram") != std::string::npos);
}

TEST_CASE("config: Ethos-U85 and U55/U65 sections refuse each other's NPU, naming the valid ones") {
  ConfigRequest request;
  request.accelerator = "ethos-u85-256";
  request.systemConfig = "Ethos_U65_High_End";
  request.memoryMode = "Shared_Sram";
  InputError e = test::errorOf([&] { resolveConfig(request); });
  CHECK(e.where().file == "--system-config");
  CHECK(e.where().key == "Ethos_U65_High_End");
  CHECK(std::string(e.what()).find("Ethos-U65 section, but the accelerator is ethos-u85-256; valid for it: "
                                   "Ethos_U85_SYS_Flash_Low, Ethos_U85_SYS_Flash_High, Ethos_U85_SYS_DRAM_Low, "
                                   "Ethos_U85_SYS_DRAM_Mid, Ethos_U85_SYS_DRAM_High, Ethos_U85_SYS_DRAM_Mid_512, "
                                   "Ethos_U85_SYS_DRAM_Mid_1024, Ethos_U85_SYS_DRAM_High_2048") != std::string::npos);
  request.systemConfig = "Corstone_300_FVP";
  e = test::errorOf([&] { resolveConfig(request); });
  CHECK(std::string(e.what()).find("Ethos-U55 and Ethos-U65 section, but the accelerator is ethos-u85-256") !=
        std::string::npos);
  request.accelerator = "ethos-u55-128";
  request.systemConfig = "Ethos_U85_SYS_DRAM_Mid";
  e = test::errorOf([&] { resolveConfig(request); });
  CHECK(std::string(e.what()).find("Ethos-U85 section, but the accelerator is ethos-u55-128; valid for it: "
                                   "Ethos_U55_Deep_Embedded, Ethos_U55_High_End_Embedded, Corstone_300_FVP") !=
        std::string::npos);
  request.systemConfig = "Ethos_U55_High_End_Embedded";
  request.memoryMode = "Dedicated_Sram_384KB";
  e = test::errorOf([&] { resolveConfig(request); });
  CHECK(e.where().file == "--memory-mode");
  CHECK(std::string(e.what()).find("Ethos-U85 section, but the accelerator is ethos-u55-128; valid for it: "
                                   "Sram_Only, Shared_Sram") != std::string::npos);
}

TEST_CASE("config presets: a U85 model reads Vela 5.0's sections, the U65 Vela 3.10's of the same name") {
  ConfigRequest request;
  request.accelerator = "ethos-u85-1024";
  request.systemConfig = "Ethos_U85_SYS_DRAM_High";
  request.memoryMode = "Dedicated_Sram";
  const SystemParams u85 = resolveConfig(request);
  CHECK(u85.coreClockHz == 1e9);
  CHECK(u85.memory(MemoryKind::Sram).portsUsed == 4);
  CHECK(u85.memory(MemoryKind::Dram).portsUsed == 2);
  CHECK(u85.memory(MemoryKind::Dram).maxReads == 64);
  CHECK(u85.mode.arenaMemArea == test::area("Axi1"));
  CHECK(u85.mode.arenaCacheSize == 0); // Vela 5.0's Dedicated_Sram sets no size
  request.memoryMode = "Dedicated_Sram_256KB";
  CHECK(resolveConfig(request).mode.arenaCacheSize == 262144);
  // Without a model: the NPU the system config is for picks the memory mode.
  request.accelerator.clear();
  request.memoryMode = "Dedicated_Sram";
  CHECK(resolveConfig(request).mode.arenaCacheSize == 0);
  request.accelerator = "ethos-u65-256";
  request.systemConfig = "Ethos_U65_Mid_End";
  CHECK(resolveConfig(request).mode.arenaCacheSize == 393216);
}

TEST_CASE("config validation: constants on SRAM only in the Sram_Only arrangement") {
  const InputError e = test::errorOf([] { withSets({"system.axi1_port=Sram"}); });
  CHECK(e.where().file == "--set");
  CHECK(e.where().key == "system.axi1_port");  // the later of the two keys involved
  CHECK(std::string(e.what()).find("constants on Sram") != std::string::npos);
  const InputError m = test::errorOf([] { withSets({"system.axi1_port=Sram", "memory_mode.const_mem_area=Axi1"}); });
  CHECK(m.where().key == "memory_mode.const_mem_area");
  // All three areas on one Sram port: constants genuinely in SRAM.
  const SystemParams p = withSets({"memory_mode.const_mem_area=Axi0"}, "Shared_Sram");
  CHECK(p.memoryIn(p.mode.constMemArea) == MemoryKind::Sram);
  CHECK(p.commandStreamArea == test::area("Axi0"));
  // Constants on DRAM or either flash are fine.
  CHECK(withSets({"system.axi1_port=Dram"}).memoryIn(test::area("Axi1")) == MemoryKind::Dram);
  CHECK(withSets({"system.axi1_port=OnChipFlash"}).memoryIn(test::area("Axi1")) == MemoryKind::OnChipFlash);
}

TEST_CASE("config validation: the arena must be on Sram or Dram, the cache on Sram") {
  const InputError arena = test::errorOf([] { withSets({"memory_mode.arena_mem_area=Axi1"}); });
  CHECK(arena.where().key == "memory_mode.arena_mem_area");
  CHECK(std::string(arena.what()).find("the tensor arena on OffChipFlash") != std::string::npos);
  const InputError cache = test::errorOf([] { withSets({"system.axi1_port=Dram", "memory_mode.cache_mem_area=Axi1"}); });
  CHECK(cache.where().key == "memory_mode.cache_mem_area");
  CHECK(std::string(cache.what()).find("it must be on Sram") != std::string::npos);
  const SystemParams dram = withSets({"system.axi1_port=Dram", "memory_mode.arena_mem_area=Axi1"});
  CHECK(dram.memoryIn(dram.mode.arenaMemArea) == MemoryKind::Dram);
}

TEST_CASE("config JSON: nested objects set keys") {
  const SystemParams p = fromJson(R"({"system": {"sram": {"read_latency": 64, "clock_scale": 0.5}, "axi1_port": "Dram"},
                                      "npu": {"axi0": {"max_outstanding_writes": 4}}, "host": {"mve": false},
                                      "memory_mode": {"arena_cache_size": 64.0}, "accelerator": "ethos-u55-64"})");
  CHECK(p.memory(MemoryKind::Sram).readLatency == 64);
  CHECK(p.memory(MemoryKind::Sram).clockScale == 0.5);
  CHECK(p.memoryIn(test::area("Axi1")) == MemoryKind::Dram);
  CHECK(p.port(test::port("axi0")).maxOutstandingWrites == 4);
  CHECK_FALSE(p.host.mve);
  CHECK(p.host.convCyclesPerMac == 2.7);
  CHECK(p.mode.arenaCacheSize == 64);
  CHECK(p.hardware()->macs == 64);
  CHECK(fromJson("{}").coreClockHz == 500e6);
}

TEST_CASE("config JSON: unknown keys name the full path and suggest the nearest key") {
  const InputError leaf = test::errorOf([] { fromJson(R"({"system": {"sram": {"read_latncy": 64}}})"); });
  CHECK(leaf.where().file == "test.json");
  CHECK(leaf.where().key == "system.sram.read_latncy");
  CHECK(std::string(leaf.what()).find("did you mean 'system.sram.read_latency'") != std::string::npos);
  const InputError group = test::errorOf([] { fromJson(R"({"sytem": {"sram": {}}})"); });
  CHECK(group.where().key == "sytem");
  CHECK(std::string(group.what()).find("did you mean 'system'") != std::string::npos);
  const InputError memory = test::errorOf([] { fromJson(R"({"system": {"flash": {"read_latency": 1}}})"); });
  CHECK(memory.where().key == "system.flash");
  const InputError dotted = test::errorOf([] { fromJson(R"({"system.sram.read_latency": 64})"); });
  CHECK(std::string(dotted.what()).find("nest objects") != std::string::npos);
}

TEST_CASE("config JSON: wrong types name the key") {
  const auto check = [](const std::string& text, const std::string& key, const std::string& message) {
    CAPTURE(text);
    const InputError e = test::errorOf([&] { fromJson(text); });
    CHECK(e.where().file == "test.json");
    CHECK(e.where().key == key);
    CHECK(std::string(e.what()).find(message) != std::string::npos);
  };
  check(R"({"system": {"sram": {"read_latency": "64"}}})", "system.sram.read_latency",
        "expected an integer, got string \"64\"");
  check(R"({"system": {"sram": {"read_latency": 64.5}}})", "system.sram.read_latency", "expected an integer, got 64.5");
  check(R"({"system": {"core_clock": true}})", "system.core_clock", "expected a number, got boolean");
  check(R"({"host": {"mve": 1}})", "host.mve", "expected true or false, got number");
  check(R"({"system": {"axi0_port": 0}})", "system.axi0_port", "expected a string (Sram, Dram, OnChipFlash or OffChipFlash)");
  check(R"({"system": {"sram": 5}})", "system.sram", "is a group of keys; expected an object");
  check(R"({"system": {"core_clock": {"hz": 5}}})", "system.core_clock", "expected a number, got object");
  check(R"({"npu": {"axi0": {"max_outstanding_reads": 65}}})", "npu.axi0.max_outstanding_reads",
        "65 is out of range [1, 64]");
}

TEST_CASE("config JSON: malformed JSON reports the byte offset") {
  const std::string text = "{\"system\": {\"sram\": {\"read_latency\": 64,}}}";
  const InputError e = test::errorOf([&] { fromJson(text); });
  CHECK(e.where().file == "test.json");
  REQUIRE(e.where().byteOffset.has_value());
  CHECK(*e.where().byteOffset == text.find(",}") + 1);
  CHECK(std::string(e.what()).find("malformed JSON") != std::string::npos);
  CHECK(std::string(e.what()).find('\n') == std::string::npos);
  CHECK(*test::errorOf([] { fromJson("{\"a\": "); }).where().byteOffset == 6);
  CHECK(std::string(test::errorOf([] { fromJson("[1, 2]"); }).what()).find("expected a JSON object") != std::string::npos);
}

TEST_CASE("config JSON: toJson output reads back to the same configuration") {
  const SystemParams original = withSets({"host.mve=false", "system.sram.clock_scale=0.3", "npu.axi1.max_burst_bytes=256",
                                          "sim.cycle_limit=123456789"},
                                         "Sram_Only");
  ConfigBuilder builder;
  applyJsonText(toJson(original).dump(2), "show.json", builder);
  const SystemParams copy = builder.finish(original.systemConfig, original.memoryMode);
  test::checkSameValues(copy, original);
  CHECK(toJson(copy) == toJson(original));
}

TEST_CASE("config layers: preset, then JSON file, then --set") {
  const TempFile json("layers.json", R"({"system": {"sram": {"read_latency": 64, "write_latency": 48}}})");
  ConfigRequest request;
  request.systemConfig = "Ethos_U55_Deep_Embedded";
  request.jsonFile = json.path();
  request.overrides = {"system.sram.write_latency=16"};
  const SystemParams p = resolveConfig(request);
  CHECK(p.coreClockHz == 200e6);
  CHECK(p.memory(MemoryKind::Sram).readLatency == 64);
  CHECK(p.memory(MemoryKind::Sram).writeLatency == 16);
}

TEST_CASE("config layers: --vela-ini sections, internal-default, then --set") {
  const TempFile ini("layers.ini", "[System_Config.Mine]\ncore_clock=250e6\naxi0_port=Sram\naxi1_port=Dram\n"
                                   "Sram_burst_length=32\nDram_burst_length=64\nDram_clock_scale=0.5\n"
                                   "[Memory_Mode.Mine]\ninherit=Memory_Mode.Base\n"
                                   "[Memory_Mode.Base]\nconst_mem_area=Axi1\narena_mem_area=Axi1\n");
  ConfigRequest request = iniRequest(ini, "Mine");
  request.overrides = {"accelerator=ethos-u55-64", "accelerator="};
  const SystemParams p = resolveConfig(request);
  CHECK(p.coreClockHz == 250e6);
  CHECK(p.memory(MemoryKind::Dram).clockScale == 0.5);
  CHECK(p.memory(MemoryKind::Dram).readLatency == 0);  // Vela's fallback for a memory on a port
  CHECK(p.mode.arenaMemArea == test::area("Axi1"));
  CHECK(p.mode.cacheMemArea == test::area("Axi0"));         // Vela's fallback
  CHECK(p.accelerator.empty());
  request.memoryMode = "internal-default";             // Vela's reserved name ignores the file
  CHECK(resolveConfig(request).mode.arenaMemArea == test::area("Axi0"));
  request.memoryMode = "Shared_Sram";
  const InputError e = test::errorOf([&] { resolveConfig(request); });
  CHECK(e.where().file == ini.path());
  CHECK(std::string(e.what()).find("available Memory_Mode sections: Mine, Base") != std::string::npos);
}

TEST_CASE("config layers: --vela-ini read as the Vela the request names, else as the file's keys suggest") {
  const TempFile ini("sparse.ini", "[System_Config.Mine]\ncore_clock=250e6\naxi0_port=Sram\naxi1_port=Dram\n"
                                   "Sram_burst_length=32\nDram_burst_length=64\n"
                                   "[Memory_Mode.Mine]\nconst_mem_area=Axi1\narena_mem_area=Axi1\ncache_mem_area=Axi0\n");
  ConfigRequest request = iniRequest(ini, "Mine");
  // No Vela named and no key only Vela's C++ back end reads: Vela 3.10's reading (latency 0), said in
  // a warning.
  const SystemParams guessed = resolveConfig(request);
  CHECK(guessed.memory(MemoryKind::Dram).readLatency == 0);
  REQUIRE(guessed.warnings.size() == 1);
  CHECK(guessed.warnings[0].find("read as Vela 3.10 does (it sets no key only Vela's C++ back end reads; --vela 5.0") !=
        std::string::npos);
  // Named: Vela 5.0's reading (latency 1).
  request.vela = VelaReading{VelaVersion::V5_0, "--vela 5.0"};
  const SystemParams named = resolveConfig(request);
  CHECK(named.memory(MemoryKind::Dram).readLatency == 1);
  REQUIRE(named.warnings.size() == 1);
  CHECK(named.warnings[0].find("Dram_read_latency=1") != std::string::npos);
  // The built-in sections are Vela 3.10's complete file: read as such, nothing to warn about.
  request.velaIni.clear();
  request.systemConfig = "Ethos_U55_High_End_Embedded";
  request.memoryMode = "Shared_Sram";
  const SystemParams builtin = resolveConfig(request);
  CHECK(builtin.memory(MemoryKind::Sram).readLatency == 32);
  CHECK(builtin.warnings.empty());
}

TEST_CASE("config files: errors name the file") {
  ConfigRequest request;
  request.jsonFile = "/nonexistent/npusim.json";
  const InputError missing = test::errorOf([&] { resolveConfig(request); });
  CHECK(missing.where().file == "/nonexistent/npusim.json");
  request.jsonFile = std::filesystem::temp_directory_path().string();
  CHECK(std::string(test::errorOf([&] { resolveConfig(request); }).what()).find("directory") != std::string::npos);
  const TempFile bad("bad.json", R"({"npu": {"axi1": {"max_outstanding_writes": 0}}})");
  request.jsonFile = bad.path();
  const InputError range = test::errorOf([&] { resolveConfig(request); });
  CHECK(range.where().file == bad.path());
  CHECK(range.where().key == "npu.axi1.max_outstanding_writes");
  CHECK(std::string(range.what()).rfind(bad.path() + ": key 'npu.axi1.max_outstanding_writes': 0 is out of range", 0) == 0);
}

TEST_CASE("config files: every configs/*.json loads") {
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(NPUSIM_SOURCE_DIR) + "/configs")) {
    if (entry.path().extension() == ".json") {
      CAPTURE(entry.path().string());
      ConfigRequest request;
      request.jsonFile = entry.path().string();
      CHECK_NOTHROW(resolveConfig(request));
      ++files;
    }
  }
  CHECK(files > 0);
  ConfigRequest example;
  example.jsonFile = std::string(NPUSIM_SOURCE_DIR) + "/configs/example.json";
  const SystemParams p = resolveConfig(example);
  CHECK(p.memory(MemoryKind::OffChipFlash).readLatency == 128);
  CHECK(p.host.depthwiseCyclesPerMac == 8.3);
}
