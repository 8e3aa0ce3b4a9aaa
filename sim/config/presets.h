// SPDX-License-Identifier: Apache-2.0
#pragma once
// Built-in presets: the System_Config and Memory_Mode sections of Vela's default vela.ini
// (Vela 3.10, ethosu/config_files/Arm/vela.ini), held as data and read by the same code as a
// user's --vela-ini file, so they mean exactly what Vela means.

#include <string_view>
#include <utility>
#include <vector>

#include "sim/config/vela_ini.h"

namespace npusim::config {

// One built-in section: full vela.ini name, a one-line summary and its vela.ini keys.
struct PresetSection {
  std::string_view name;
  std::string_view summary;
  std::vector<std::pair<std::string_view, std::string_view>> values;
};

const std::vector<PresetSection>& presetTable();
// presetTable() as a VelaIni whose file name is "<builtin>".
const VelaIni& builtinPresets();

} // namespace npusim::config
