// SPDX-License-Identifier: Apache-2.0
#pragma once
// Built-in presets: the System_Config and Memory_Mode sections of Vela's default vela.ini
// (ethosu/config_files/Arm/vela.ini: Vela 3.10's for the Ethos-U55 and U65, Vela 5.0's for the
// Ethos-U85) and of the ML evaluation kit's, held as data and read by the same code as a user's
// --vela-ini file, as the Vela they come from reads them, so they mean exactly what Vela means;
// plus npusim's platform presets (a System_Config section with Vela's keys and the npusim keys
// Vela has no words for). Sections for different NPUs may share a name (Vela 3.10's and 5.0's
// Dedicated_Sram differ); each NPU sees one section per name.

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/arch/npu_config.h"
#include "sim/config/vela_ini.h"
#include "sim/config/vela_version.h"

namespace npusim::config {

// An npusim key a platform preset sets after the memory mode (so that it can depend on it and on
// the NPU the model was compiled for).
struct PlatformValue {
  std::string_view memoryMode; // applies only with this memory mode; "" = with every one
  std::string_view key;        // dotted npusim key path
  std::string_view value;
  const arch::Architecture* architecture = nullptr; // applies only to this NPU generation; null = to every one
  uint32_t minMacs = 0, maxMacs = 0;                // applies only to configurations with this many MACs; 0 = any
  bool appliesTo(const arch::NpuConfig* npu) const;
};

// The file a built-in section's values are taken from.
enum class PresetSource : uint8_t {
  VelaIni, // Vela's own vela.ini (of the Vela `PresetSection::vela` names)
  KitIni,  // the ML evaluation kit's scripts/vela/default_vela.ini
  Npusim,  // none: npusim's own platform
};

// One built-in section: full vela.ini name, a one-line summary, its vela.ini keys, and for
// npusim's own platforms (not in Vela's vela.ini) the npusim keys it sets.
struct PresetSection {
  std::string_view name;
  std::string_view summary;
  std::vector<std::pair<std::string_view, std::string_view>> values;
  PresetSource source = PresetSource::VelaIni;
  std::vector<PlatformValue> platform;
  std::vector<const arch::Architecture*> architectures; // the NPU generations the section describes; empty = any
  VelaVersion vela = VelaVersion::V3_10; // the Vela whose reading applies (the values of keys left out)
  bool describes(const arch::Architecture& architecture) const;
};

const std::vector<PresetSection>& presetTable();
// The built-in sections an NPU generation sees, as a VelaIni whose file name is "<builtin>": per
// name, the section describing `architecture`, else the first of that name in presetTable()
// (null architecture: the first of each name).
const VelaIni& builtinPresets(const arch::Architecture* architecture = nullptr);
// The built-in section named `name` ("System_Config.X") that `architecture` sees (as above), or nullptr.
const PresetSection* findPreset(std::string_view name, const arch::Architecture* architecture = nullptr);
// The distinct names after "<kind>." ("System_Config", "Memory_Mode") of the built-in sections, in table order.
std::vector<std::string_view> presetNames(std::string_view kind);

} // namespace npusim::config
