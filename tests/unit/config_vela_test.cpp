// SPDX-License-Identifier: Apache-2.0
// vela.ini reader: ConfigParser syntax and Vela's section semantics.
#include <doctest/doctest.h>


#include "sim/common/error.h"
#include "sim/config/config_builder.h"
#include "sim/arch/architecture.h"
#include "sim/config/presets.h"
#include "sim/config/vela_ini.h"
#include "support/config_checks.h"
#include "support/fixtures.h"
#include "support/hardware.h"

using namespace npusim;
using namespace npusim::config;

namespace {

constexpr const char* kSystem = R"(; comment
# another comment
[System_Config.Base]
core_clock=400e6
axi0_port=Sram
axi1_port=OffChipFlash
Sram_clock_scale=1.0
Sram_burst_length=32
Sram_read_latency=32
Sram_write_latency=32
OffChipFlash_clock_scale=0.25
OffChipFlash_burst_length=64
OffChipFlash_read_latency=100
OffChipFlash_write_latency=100

[System_Config.Child]
inherit=System_Config.Base
CORE_CLOCK : 800e6
offchipflash_READ_latency=   120

[System_Config.Grandchild]
inherit = System_Config.Child
OffChipFlash_write_latency=7

[Memory_Mode.Shared]
const_mem_area=Axi1
arena_mem_area=Axi0
cache_mem_area=Axi0
)";

SystemParams resolve(const VelaIni& ini, const std::string& system, const std::string& mode) {
  ConfigBuilder builder;
  applySystemConfig(ini, system, builder);
  applyMemoryMode(ini, mode, builder);
  return builder.finish(system, mode);
}

SystemParams resolveText(const std::string& text, const std::string& system, const std::string& mode) {
  return resolve(VelaIni::parse(text, "test.ini"), system, mode);
}

} // namespace

TEST_CASE("vela.ini: sections, comments, ':' separators and case-insensitive keys") {
  const VelaIni ini = VelaIni::parse(kSystem, "test.ini");
  CHECK(ini.names("System_Config") == std::vector<std::string>{"Base", "Child", "Grandchild"});
  CHECK(ini.names("Memory_Mode") == std::vector<std::string>{"Shared"});
  const auto* child = ini.find("System_Config.Child");
  REQUIRE(child != nullptr);
  REQUIRE(child->find("core_clock") != nullptr);
  CHECK(child->find("Core_Clock")->value == "800e6");
  CHECK(child->find("OffChipFlash_read_latency")->value == "120");
  CHECK(child->find("core_clock")->line == 18);
  CHECK(ini.find("system_config.child") == nullptr);  // section names are case-sensitive
}

TEST_CASE("vela.ini: inheritance reads the parent first and lets the child win") {
  const SystemParams base = resolveText(kSystem, "Base", "Shared");
  CHECK(base.coreClockHz == 400e6);
  CHECK(base.memory(MemoryKind::OffChipFlash).readLatency == 100);
  const SystemParams grandchild = resolveText(kSystem, "Grandchild", "Shared");
  CHECK(grandchild.coreClockHz == 800e6);
  CHECK(grandchild.memory(MemoryKind::OffChipFlash).readLatency == 120);
  CHECK(grandchild.memory(MemoryKind::OffChipFlash).writeLatency == 7);
  CHECK(grandchild.memory(MemoryKind::OffChipFlash).clockScale == 0.25);
  CHECK(grandchild.memory(MemoryKind::Sram).burstLength == 32);
}

TEST_CASE("vela.ini: a section inheriting itself is an error") {
  const std::string text = std::string(kSystem) + "[Memory_Mode.Loop]\ninherit=Memory_Mode.Loop\n";
  const InputError e = test::errorOf([&] { resolveText(text, "Base", "Loop"); });
  CHECK(e.where().file == "test.ini");
  CHECK(e.where().key == "[Memory_Mode.Loop] inherit");
  CHECK(std::string(e.what()).find("section inherits itself (line 30)") != std::string::npos);
}

TEST_CASE("vela.ini: inheritance cycles and missing parents are errors") {
  const std::string cycle = std::string(kSystem) + "[Memory_Mode.A]\ninherit=Memory_Mode.B\n[Memory_Mode.B]\ninherit=Memory_Mode.A\n";
  CHECK(std::string(test::errorOf([&] { resolveText(cycle, "Base", "A"); }).what())
            .find("inheritance cycle Memory_Mode.A -> Memory_Mode.B -> Memory_Mode.A") != std::string::npos);
  const std::string missing = std::string(kSystem) + "[Memory_Mode.A]\ninherit=Memory_Mode.Gone\n";
  const InputError e = test::errorOf([&] { resolveText(missing, "Base", "A"); });
  CHECK(e.where().key == "[Memory_Mode.A] inherit");
  CHECK(std::string(e.what()).find("inherited section [Memory_Mode.Gone] not found") != std::string::npos);
}

TEST_CASE("vela.ini: unknown keys name file, section, key, line and the nearest valid key") {
  const std::string text = std::string(kSystem) + "[Memory_Mode.Typo]\nconst_mem_area=Axi1\narena_mem_aera=Axi0\n";
  const InputError e = test::errorOf([&] { resolveText(text, "Base", "Typo"); });
  CHECK(e.where().file == "test.ini");
  CHECK(e.where().key == "[Memory_Mode.Typo] arena_mem_aera");
  const std::string what = e.what();
  CHECK(what.find("unknown key in a Memory_Mode section (line 31)") != std::string::npos);
  CHECK(what.find("did you mean 'arena_mem_area'") != std::string::npos);
  // A System_Config key is not valid in a Memory_Mode section.
  const std::string wrongKind = std::string(kSystem) + "[Memory_Mode.Wrong]\ncore_clock=1\n";
  CHECK(test::errorOf([&] { resolveText(wrongKind, "Base", "Wrong"); }).where().key == "[Memory_Mode.Wrong] core_clock");
}

TEST_CASE("vela.ini: unknown section names list the available ones") {
  const InputError e = test::errorOf([] { resolveText(kSystem, "Bas", "Shared"); });
  CHECK(e.where().file == "test.ini");
  const std::string what = e.what();
  CHECK(what.find("section [System_Config.Bas] not found") != std::string::npos);
  CHECK(what.find("available System_Config sections: Base, Child, Grandchild") != std::string::npos);
  CHECK(what.find("did you mean 'Base'") != std::string::npos);
  CHECK(std::string(test::errorOf([] { resolveText(kSystem, "Base", "Shared_Sram"); }).what())
            .find("available Memory_Mode sections: Shared") != std::string::npos);
}

TEST_CASE("vela.ini: missing keys take Vela's fallbacks, memory timings only for memories on a port") {
  const std::string text = "[System_Config.Bare]\naxi1_port=Dram\nSram_burst_length=32\nDram_burst_length=64\n"
                           "[Memory_Mode.Bare]\n";
  const SystemParams p = resolveText(text, "Bare", "Bare");
  CHECK(p.coreClockHz == 1.0);
  CHECK(p.memoryIn(test::area("Axi0")) == MemoryKind::Sram);
  CHECK(p.memory(MemoryKind::Sram).clockScale == 1.0);
  CHECK(p.memory(MemoryKind::Sram).readLatency == 0);
  CHECK(p.memory(MemoryKind::Dram).writeLatency == 0);
  CHECK(p.mode.constMemArea == test::area("Axi0"));
  CHECK(p.mode.arenaMemArea == test::area("Axi0"));
  CHECK(p.mode.cacheMemArea == test::area("Axi0"));
  CHECK(p.mode.arenaCacheSize == 0);
  // Memories on no port keep npusim's defaults.
  CHECK(p.memory(MemoryKind::OffChipFlash).readLatency == 64);
  // Vela's burst-length fallback of 1 byte is not a possible AXI burst.
  const InputError e = test::errorOf([] { resolveText("[System_Config.S]\n[Memory_Mode.M]\n", "S", "M"); });
  CHECK(e.where().key == "[System_Config.S] Sram_burst_length");
  CHECK(std::string(e.what()).find("1 is out of range [8, 4096] bytes (missing, Vela 3.10's value 1") != std::string::npos);
}

TEST_CASE("vela.ini: values are checked like any other key") {
  const std::string text = std::string(kSystem) + "[System_Config.Bad]\ninherit=System_Config.Base\naxi1_port=offchipflash\n";
  const InputError e = test::errorOf([&] { resolveText(text, "Bad", "Shared"); });
  CHECK(e.where().key == "[System_Config.Bad] axi1_port");
  CHECK(std::string(e.what()).find("did you mean 'OffChipFlash'") != std::string::npos);
  CHECK(std::string(e.what()).find("npusim key system.axi1_port") != std::string::npos);
}

TEST_CASE("vela.ini: [DEFAULT] keys are visible in every section and override inherited values") {
  const std::string text = std::string("[DEFAULT]\nSram_read_latency=99\n") + kSystem;
  const SystemParams p = resolveText(text, "Grandchild", "Shared");
  CHECK(p.memory(MemoryKind::Sram).readLatency == 99);
  CHECK(p.memory(MemoryKind::OffChipFlash).readLatency == 120);
}

TEST_CASE("vela.ini: syntax errors name the file and line") {
  const auto check = [](const std::string& text, const std::string& message) {
    CAPTURE(text);
    const InputError e = test::errorOf([&] { VelaIni::parse(text, "s.ini"); });
    CHECK(e.where().file == "s.ini");
    CHECK(std::string(e.what()).find(message) != std::string::npos);
  };
  check("core_clock=1\n", "line 1: 'core_clock=1' before any [section] header");
  check("[A]\njust words\n", "line 2: expected key=value");
  check("[A]\n=5\n", "line 2: expected key=value");
  check("[A]\n[B]\n[A]\n", "line 3: section [A] already defined on line 1");
  check("[A]\nkey=1\nKEY=2\n", "line 3: key 'KEY' already set in [A] on line 2");
}

TEST_CASE("vela.ini: indented lines continue the previous value") {
  const VelaIni ini = VelaIni::parse("[A]\nkey=first\n  second\nother=1\n", "c.ini");
  CHECK(ini.find("A")->find("key")->value == "first\nsecond");
  CHECK(ini.find("A")->find("other")->value == "1");
}

TEST_CASE("vela.ini: the built-in presets read as a vela.ini give the same result") {
  const VelaIni& builtin = builtinPresets(&arch::ethosU65());
  CHECK(builtin.file() == "<builtin>");
  // Vela 3.10's six system configs, npusim's own Corstone-300 platform, Vela 5.0's five Ethos-U85
  // system configs, the kit's three and npusim's Corstone-320 platform: every name once.
  CHECK(builtin.names("System_Config").size() == 7 + 5 + 3 + 1);
  CHECK(builtin.find("System_Config.Corstone_300_FVP") != nullptr);
  CHECK(builtin.find("System_Config.Corstone_320_FVP") != nullptr);
  CHECK(builtin.names("Memory_Mode") == std::vector<std::string>{"Sram_Only", "Shared_Sram", "Dedicated_Sram",
                                                                 "Dedicated_Sram_512KB", "Dedicated_Sram_256KB",
                                                                 "Dedicated_Sram_384KB"});
  // The U65 sees Vela 3.10's Dedicated_Sram (384 KiB), the U85 Vela 5.0's (no size).
  CHECK(builtin.find("Memory_Mode.Dedicated_Sram")->find("arena_cache_size")->value == "393216");
  CHECK(builtinPresets(&arch::ethosU85()).find("Memory_Mode.Dedicated_Sram")->find("arena_cache_size") == nullptr);
  std::string text;
  for (const auto& section : builtin.sections()) {
    text += "[" + section.name + "]\n";
    for (const auto& entry : section.entries) {
      text += entry.key + "=" + entry.value + "\n";
    }
  }
  const VelaIni reparsed = VelaIni::parse(text, "copy.ini");
  const SystemParams a = resolve(builtin, "Ethos_U65_Mid_End", "Dedicated_Sram_512KB");
  const SystemParams b = resolve(reparsed, "Ethos_U65_Mid_End", "Dedicated_Sram_512KB");
  test::checkSameValues(a, b);
}

TEST_CASE("vela.ini: Vela 5.0's per-memory outstanding limits set the port's AXI limits, ports_used its bandwidth") {
  const std::string text = std::string(kSystem) +
                           "[System_Config.Limits]\ninherit=System_Config.Base\nSram_max_reads=4\nSram_max_writes=3\n"
                           "OffChipFlash_max_reads=2\nOffChipFlash_max_writes=0\nSram_ports_used=2\n";
  ConfigBuilder builder;
  const VelaIni ini = VelaIni::parse(text, "test.ini");
  applySystemConfig(ini, "Limits", builder);
  applyMemoryMode(ini, "Shared", builder);
  builder.setText("accelerator", "ethos-u55-128", {"--set", "", ""});
  const SystemParams p = builder.finish("Limits", "Shared");
  CHECK(p.memory(MemoryKind::Sram).maxReads == 4);
  CHECK(p.port(test::port("axi0")).maxOutstandingReads == 4);    // Sram on AXI0
  CHECK(p.port(test::port("axi0")).maxOutstandingWrites == 3);
  CHECK(p.port(test::port("axi1")).maxOutstandingReads == 2);    // OffChipFlash on AXI1
  // 0 (Vela's flash has no writes) leaves the port's own default: the U55 driver's 16.
  CHECK(p.port(test::port("axi1")).maxOutstandingWrites == 16);
  // Two ports: twice the bandwidth of one 64-bit port at clock scale 1.
  CHECK(p.memory(MemoryKind::Sram).portsUsed == 2);
  CHECK(p.bytesPerCycle(test::port("axi0")) == 16.0);
  CHECK(p.bytesPerCycle(test::port("axi1")) == 2.0);
}

TEST_CASE("vela.ini: a limit above the NPU's AXI_LIMIT is capped, an explicit port limit wins over the memory's") {
  const std::string text = std::string(kSystem) + "[System_Config.Big]\ninherit=System_Config.Base\nSram_max_reads=64\n";
  const VelaIni ini = VelaIni::parse(text, "test.ini");
  {
    ConfigBuilder builder;
    applySystemConfig(ini, "Big", builder);
    applyMemoryMode(ini, "Shared", builder);
    builder.setText("accelerator", "ethos-u55-128", {"--set", "", ""});
    CHECK(builder.finish("Big", "Shared").port(test::port("axi0")).maxOutstandingReads == 32);   // U55 AXI_LIMIT
  }
  ConfigBuilder builder;
  applySystemConfig(ini, "Big", builder);
  applyMemoryMode(ini, "Shared", builder);
  builder.setText("accelerator", "ethos-u55-128", {"--set", "", ""});
  builder.setText("npu.axi0.max_outstanding_reads", "6", {"--set", "", ""});
  CHECK(builder.finish("Big", "Shared").port(test::port("axi0")).maxOutstandingReads == 6);
}

TEST_CASE("vela.ini: a misspelt Vela 5.0 key is still an error naming the nearest one") {
  const std::string text = std::string(kSystem) + "[System_Config.Typo]\ninherit=System_Config.Base\nSram_max_read=4\n";
  const InputError e = test::errorOf([&] { resolveText(text, "Typo", "Shared"); });
  CHECK(e.where().key == "[System_Config.Typo] Sram_max_read");
  CHECK(std::string(e.what()).find("did you mean 'Sram_max_reads'") != std::string::npos);
}

TEST_CASE("vela.ini: keys a section leaves out take the values of the Vela it is read as") {
  // A section without latencies, ports or outstanding limits.
  const VelaIni ini = VelaIni::parse(R"([System_Config.Sparse]
core_clock=500e6
axi0_port=Sram
axi1_port=OffChipFlash
Sram_clock_scale=1.0
Sram_burst_length=32
OffChipFlash_clock_scale=0.125
OffChipFlash_burst_length=128

[System_Config.NoBurst]
axi0_port=Sram
axi1_port=OffChipFlash
OffChipFlash_burst_length=128

[Memory_Mode.Shared]
const_mem_area=Axi1
arena_mem_area=Axi0
cache_mem_area=Axi0
)",
                                     "sparse.ini");
  const auto read = [&](const std::string& system, VelaVersion version, std::vector<std::string>& warnings) {
    ConfigBuilder builder;
    const VelaReading reading{version, "a test"};
    applySystemConfig(ini, system, builder, reading, &warnings);
    applyMemoryMode(ini, "Shared", builder, reading, &warnings);
    builder.setText("accelerator", "ethos-u55-128", {"--set", "", ""});
    return builder.finish(system, "Shared");
  };
  // Vela 3.10 (Python front end): latencies 0.
  std::vector<std::string> warnings310;
  const SystemParams v310 = read("Sparse", VelaVersion::V3_10, warnings310);
  CHECK(v310.memory(MemoryKind::Sram).readLatency == 0);
  CHECK(v310.memory(MemoryKind::OffChipFlash).writeLatency == 0);
  // Vela 5.0 (regor.cpp's Memory defaults): latencies 1.
  std::vector<std::string> warnings50;
  const SystemParams v50 = read("Sparse", VelaVersion::V5_0, warnings50);
  CHECK(v50.memory(MemoryKind::Sram).readLatency == 1);
  CHECK(v50.memory(MemoryKind::OffChipFlash).writeLatency == 1);
  // Either way: keys given keep their values, one port per memory, and no outstanding limit
  // declared (regor's 1 for a left-out max_reads is read by its U85 model only), so the ports
  // keep their own limits (U55: AXI0 8 reads and writes, AXI1 2 reads).
  for (const SystemParams* p : {&v310, &v50}) {
    CHECK(p->memory(MemoryKind::Sram).burstLength == 32);
    CHECK(p->memory(MemoryKind::OffChipFlash).clockScale == 0.125);
    CHECK(p->memory(MemoryKind::Sram).portsUsed == 1);
    CHECK(p->memory(MemoryKind::Sram).maxReads == 0);
    CHECK(p->port(test::port("axi0")).maxOutstandingReads == 8);
    CHECK(p->port(test::port("axi0")).maxOutstandingWrites == 8);
    CHECK(p->port(test::port("axi1")).maxOutstandingReads == 2);
  }
  // One warning per section that leaves out keys the two Velas read differently, naming
  // exactly those keys with the values taken (the memory mode's keys read the same in both: no
  // warning).
  const std::string differing50 = "Sram_read_latency=1, Sram_write_latency=1, OffChipFlash_read_latency=1, "
                                  "OffChipFlash_write_latency=1";
  REQUIRE(warnings50.size() == 1);
  CHECK(warnings50[0] == "sparse.ini: [System_Config.Sparse] leaves out keys Vela 3.10 and Vela 5.0 read differently; "
                         "read as Vela 5.0 does (a test; --vela 3.10 for Vela 3.10's values): " + differing50);
  REQUIRE(warnings310.size() == 1);
  CHECK(warnings310[0].find("read as Vela 3.10 does (a test; --vela 5.0 for Vela 5.0's values): Sram_read_latency=0, "
                            "Sram_write_latency=0, OffChipFlash_read_latency=0, OffChipFlash_write_latency=0") !=
        std::string::npos);
  // A left-out burst length: Vela 5.0's 64 bytes; Vela 3.10's 1 is below any AXI burst npusim
  // models, an error naming the key.
  std::vector<std::string> ignored;
  CHECK(read("NoBurst", VelaVersion::V5_0, ignored).memory(MemoryKind::Sram).burstLength == 64);
  const InputError e = test::errorOf([&] { read("NoBurst", VelaVersion::V3_10, ignored); });
  CHECK(e.where().key == "[System_Config.NoBurst] Sram_burst_length");
}

TEST_CASE("vela.ini: without a model or --vela, a file with a key only Vela's C++ back end reads is Vela 5.0's") {
  CHECK(velaOfFile(VelaIni::parse(kSystem, "a.ini")).version == VelaVersion::V3_10);
  const VelaReading reading =
      velaOfFile(VelaIni::parse(std::string(kSystem) + "[System_Config.U85]\nSram_MAX_READS=8\n", "b.ini"));
  CHECK(reading.version == VelaVersion::V5_0);
  CHECK(reading.why == "[System_Config.U85] sets Sram_MAX_READS, a key only Vela's C++ back end reads");
}
