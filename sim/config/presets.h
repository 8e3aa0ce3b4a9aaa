// SPDX-License-Identifier: Apache-2.0
#pragma once
// Built-in presets: the System_Config and Memory_Mode sections of Vela's default vela.ini
// (Vela 3.10, ethosu/config_files/Arm/vela.ini), held as data and read by the same code as a
// user's --vela-ini file, so they mean exactly what Vela means; plus npusim's platform presets
// (a System_Config section with Vela's keys and the npusim keys Vela has no words for).

#include <string_view>
#include <utility>
#include <vector>

#include "sim/arch/npu_config.h"
#include "sim/config/vela_ini.h"

namespace npusim::config {

// An npusim key a platform preset sets after the memory mode (so that it can depend on it and on
// the NPU the model was compiled for).
struct PlatformValue {
  std::string_view memoryMode; // applies only with this memory mode; "" = with every one
  std::string_view key;        // dotted npusim key path
  std::string_view value;
  const arch::Architecture* architecture = nullptr; // applies only to this NPU generation; null = to every one
};

// One built-in section: full vela.ini name, a one-line summary, its vela.ini keys, and for
// npusim's own platforms (not in Vela's vela.ini) the npusim keys it sets.
struct PresetSection {
  std::string_view name;
  std::string_view summary;
  std::vector<std::pair<std::string_view, std::string_view>> values;
  bool fromVela = true;
  std::vector<PlatformValue> platform;
  std::vector<const arch::Architecture*> architectures; // the NPU generations the section describes; empty = any
  bool describes(const arch::Architecture& architecture) const;
};

const std::vector<PresetSection>& presetTable();
// presetTable() as a VelaIni whose file name is "<builtin>".
const VelaIni& builtinPresets();
// The built-in section named `name` ("System_Config.X"), or nullptr.
const PresetSection* findPreset(std::string_view name);

} // namespace npusim::config
