// SPDX-License-Identifier: Apache-2.0
// Built-in presets against Vela's own vela.ini and the ML evaluation kit's inis (fixtures).
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

#include "sim/arch/architecture.h"

#include "sim/common/error.h"
#include "sim/config/config_builder.h"
#include "sim/config/presets.h"
#include "sim/config/vela_ini.h"
#include "support/config_checks.h"
#include "support/fixtures.h"
#include "support/hardware.h"
#include "support/skip.h"

using namespace npusim;
using namespace npusim::config;

namespace {

// The resolved configuration, or nothing when the pair is invalid (Vela rejects it too).
std::optional<SystemParams> tryResolve(const VelaIni& ini, const std::string& system, const std::string& mode,
                                       const VelaReading& reading = {}) {
  try {
    ConfigBuilder builder;
    applySystemConfig(ini, system, builder, reading);
    applyMemoryMode(ini, mode, builder, reading);
    return builder.finish(system, mode);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

std::string lower(std::string s) {
  for (auto& c : s) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return s;
}

const VelaReading kVela5{VelaVersion::V5_0, "Vela 5.0's file"};

} // namespace

TEST_CASE("vela.ini fixture: every built-in Vela 3.10 preset equals Vela 3.10's vela.ini") {
  const auto path = test::fixtureOrSkip("vela/vela.ini");
  if (!path) {
    return;
  }
  const VelaIni vela = VelaIni::read(path->string());
  // The U65 sees every Vela 3.10 section (the U55's by name: none of theirs is the U65's too).
  const VelaIni& builtin = builtinPresets(&arch::ethosU65());
  // 1. Same sections, same keys, same values as written (npusim's own platforms aside).
  size_t velaSections = 0;
  for (const auto& preset : presetTable()) {
    velaSections += preset.source == PresetSource::VelaIni && preset.vela == VelaVersion::V3_10 ? 1 : 0;
  }
  REQUIRE(vela.sections().size() == velaSections);
  for (const auto& section : vela.sections()) {
    CAPTURE(section.name);
    const VelaIni::Section* mine = builtin.find(section.name);
    REQUIRE(mine != nullptr);
    CHECK(mine->entries.size() == section.entries.size());
    for (const auto& entry : section.entries) {
      CAPTURE(entry.key);
      const VelaIni::Entry* value = mine->find(entry.key);
      REQUIRE(value != nullptr);
      CHECK(lower(value->key) == lower(entry.key));
      CHECK(value->value == entry.value);
    }
  }
  // 2. Same meaning: every system config x memory mode resolves identically (or is rejected by both).
  size_t valid = 0;
  for (const auto& system : vela.names("System_Config")) {
    for (const auto& mode : vela.names("Memory_Mode")) {
      CAPTURE(system);
      CAPTURE(mode);
      const auto fromVela = tryResolve(vela, system, mode);
      const auto fromBuiltin = tryResolve(builtin, system, mode);
      REQUIRE(fromVela.has_value() == fromBuiltin.has_value());
      if (fromVela) {
        ++valid;
        test::checkSameValues(*fromVela, *fromBuiltin);
      }
    }
  }
  // Dedicated_Sram(_512KB) need DRAM on AXI1: valid only with the three U65 DRAM systems.
  CHECK(valid == 6 * 2 + 3 * 2);
}

// Each Ethos-U85 preset against the file it is taken from: same keys, same values as written.
static void checkU85Presets(const VelaIni& file, PresetSource source) {
  size_t checked = 0;
  for (const PresetSection& preset : presetTable()) {
    if (preset.source != source || !preset.describes(arch::ethosU85())) {
      continue;
    }
    CAPTURE(preset.name);
    CHECK(preset.vela == VelaVersion::V5_0);
    const VelaIni::Section* theirs = file.find(preset.name);
    REQUIRE(theirs != nullptr);
    CHECK(preset.values.size() == theirs->entries.size());
    for (const auto& entry : theirs->entries) {
      CAPTURE(entry.key);
      const auto mine = std::find_if(preset.values.begin(), preset.values.end(),
                                     [&](const auto& kv) { return lower(std::string(kv.first)) == lower(entry.key); });
      REQUIRE(mine != preset.values.end());
      CHECK(mine->second == entry.value);
    }
    ++checked;
  }
  CHECK(checked > 0);
}

TEST_CASE("vela.ini fixture: the built-in Ethos-U85 presets equal Vela 5.0's vela.ini and the kit's default ini") {
  const auto vela5 = test::fixtureOrSkip("vela-u85/vela.ini");
  if (vela5) {
    const VelaIni file = VelaIni::read(vela5->string());
    checkU85Presets(file, PresetSource::VelaIni);
    // Every U85 System_Config and every Memory_Mode of Vela 5.0's file is built in, and reads alike
    // (as Vela 5.0 reads it) with every memory mode.
    const VelaIni& builtin = builtinPresets(&arch::ethosU85());
    size_t valid = 0;
    for (const auto& system : file.names("System_Config")) {
      if (system.find("U85") == std::string::npos) {
        continue;
      }
      for (const auto& mode : file.names("Memory_Mode")) {
        CAPTURE(system);
        CAPTURE(mode);
        REQUIRE(findPreset("System_Config." + system, &arch::ethosU85())->describes(arch::ethosU85()));
        REQUIRE(findPreset("Memory_Mode." + mode, &arch::ethosU85())->describes(arch::ethosU85()));
        const auto fromVela = tryResolve(file, system, mode, kVela5);
        const auto fromBuiltin = tryResolve(builtin, system, mode, kVela5);
        REQUIRE(fromVela.has_value() == fromBuiltin.has_value());
        if (fromVela) {
          ++valid;
          test::checkSameValues(*fromVela, *fromBuiltin);
        }
      }
    }
    CHECK(valid > 0);
  }
  const auto kit = test::fixtureOrSkip("fvp/mlek_default_vela.ini");
  if (kit) {
    checkU85Presets(VelaIni::read(kit->string()), PresetSource::KitIni);
  }
}

TEST_CASE("vela.ini fixture: the ML evaluation kit's vela.ini files read with Vela's meaning") {
  const auto dir = test::fixtureOrSkip("mlek/compiled/mlek_ini");
  if (!dir) {
    return;
  }
  size_t files = 0;
  for (const auto& file : std::filesystem::directory_iterator(*dir)) {
    CAPTURE(file.path().string());
    ++files;
    const VelaIni ini = VelaIni::read(file.path().string());
    for (const auto& system : ini.names("System_Config")) {
      const auto fromKit = tryResolve(ini, system, "Shared_Sram");
      const auto fromBuiltin = tryResolve(builtinPresets(&arch::ethosU65()), system, "Shared_Sram");
      REQUIRE(fromKit.has_value());
      REQUIRE(fromBuiltin.has_value());
      for (const auto& key : schema()) {
        if (key.velaSection == VelaSection::SystemConfig && keyApplies(key, *fromKit)) {
          CAPTURE(key.path);
          CHECK(formatValue(key, *fromKit) == formatValue(key, *fromBuiltin));
        }
      }
    }
    for (const auto& mode : ini.names("Memory_Mode")) {
      CHECK(tryResolve(ini, "Ethos_U55_High_End_Embedded", mode).has_value() == (mode == "Shared_Sram"));
    }
  }
  if (files == 0) {
    test::skip("no ini files in " + dir->string());
  }
}

TEST_CASE("vela.ini fixture: Vela 5.0's vela.ini and the kit's default ini read as Vela 5.0 reads them") {
  size_t files = 0, sections = 0;
  for (const char* name : {"vela5/vela.ini", "fvp/mlek_default_vela.ini"}) {
    const auto path = test::fixtureOrSkip(name);
    if (!path) {
      continue;
    }
    ++files;
    CAPTURE(path->string());
    const VelaIni ini = VelaIni::read(path->string());
    for (const auto& system : ini.names("System_Config")) {
      CAPTURE(system);
      // 1. Every section reads, the Ethos-U85 ones (ports_used) included.
      ConfigBuilder builder;
      CHECK_NOTHROW(applySystemConfig(ini, system, builder, kVela5));
      ++sections;
      // 2. The per-memory keys hold the file's values for the memories on a port.
      const VelaIni::Section* section = ini.find("System_Config." + system);
      REQUIRE(section != nullptr);
      for (const MemoryKind kind : kMemoryKinds) {
        const MemoryParams& m = builder.params().memory(kind);
        const std::string prefix(memoryKindName(kind));
        if (const auto* e = section->find(prefix + "_max_reads")) CHECK(std::to_string(m.maxReads) == e->value);
        if (const auto* e = section->find(prefix + "_max_writes")) CHECK(std::to_string(m.maxWrites) == e->value);
        if (const auto* e = section->find(prefix + "_ports_used")) CHECK(std::to_string(m.portsUsed) == e->value);
      }
    }
    // 3. The Ethos-U55 sections resolve, their SRAM limit on AXI0.
    for (const auto& system : ini.names("System_Config")) {
      if (system.rfind("Ethos_U55", 0) != 0) {
        continue;
      }
      const auto params = tryResolve(ini, system, "Shared_Sram", kVela5);
      REQUIRE(params.has_value());
      // A declared Sram_max_reads sets AXI0's read limit; the kit's ini leaves it out, and AXI0
      // keeps the U55's own 8.
      const VelaIni::Entry* given = ini.find("System_Config." + system)->find("Sram_max_reads");
      const uint32_t declared = params->memory(MemoryKind::Sram).maxReads;
      CHECK(declared == (given != nullptr ? std::stoul(given->value) : 0u));
      CHECK(params->port(test::port("axi0")).maxOutstandingReads == (declared > 0 ? declared : 8u));
    }
  }
  if (files == 0) {
    test::skip("no Vela 5.0 vela.ini among the fixtures");
    return;
  }
  MESSAGE(files << " Vela 5.0 ini files, " << sections << " System_Config sections read");
}
