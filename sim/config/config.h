// SPDX-License-Identifier: Apache-2.0
#pragma once
// Configuration resolution: built-in presets, vela.ini, npusim JSON, --set overrides.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/system_params.h"
#include "sim/config/vela_version.h"

namespace npusim::config {

// What the user asked for on the command line, applied in this order:
// preset (or vela.ini section pair) -> JSON file -> --set overrides.
struct ConfigRequest {
  std::string systemConfig;            // "" = Vela's default for the accelerator (see defaultSections)
  std::string memoryMode;              // "" = likewise
  // Where systemConfig and memoryMode were taken from, for the reports (SystemParams::systemConfigFrom);
  // "" = the option that names them ("--system-config", "--memory-mode"), or kDefaultSection when empty.
  std::string systemConfigFrom, memoryModeFrom;
  std::string accelerator;             // what the model was compiled for ("" = no model)
  std::string velaIni;                 // optional vela.ini path
  // The Vela whose reading of velaIni applies (the values of keys a section leaves out); unset:
  // the Vela that compiled the model (platform::resolveForModel), else the one the file's keys
  // suggest (velaOfFile). A built-in section is read as the Vela whose vela.ini it comes from
  // (Vela 3.10 for the U55 and U65, Vela 5.0 for the U85).
  std::optional<VelaReading> vela;
  std::string jsonFile;                // optional npusim JSON config path
  std::vector<std::string> overrides;  // "key=value"
};

// Vela's default System_Config / Memory_Mode for an accelerator variant (its internal-default,
// timing doc 2.4): Ethos_U55_High_End_Embedded + Shared_Sram for the U55 (and with no model),
// Ethos_U65_Client_Server + Dedicated_Sram for the U65.
std::pair<std::string, std::string> defaultSections(const std::string& accelerator);

// Built-in presets named and valued exactly as Vela's default vela.ini (plus npusim's own
// defaults for keys Vela does not have), the sections the system config's NPU sees (presets.h);
// "internal-default" is Vela's built-in U55 system.
// Throws InputError for an unknown name or a pair Vela rejects (e.g. Dedicated_Sram without DRAM).
SystemParams builtinPreset(const std::string& systemConfig, const std::string& memoryMode);

// Full resolution (see config_builder.h). Throws InputError naming the file and key for any
// bad input: unknown keys (with the nearest valid key), wrong types, out-of-range values,
// impossible memory-area mappings.
SystemParams resolveConfig(const ConfigRequest& request);

} // namespace npusim::config
