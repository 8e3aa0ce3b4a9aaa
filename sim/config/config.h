// SPDX-License-Identifier: Apache-2.0
#pragma once
// Configuration resolution: built-in presets, vela.ini, npusim JSON, --set overrides.

#include <string>
#include <vector>

#include "sim/config/system_params.h"

namespace npusim::config {

// What the user asked for on the command line, applied in this order:
// preset (or vela.ini section pair) -> JSON file -> --set overrides.
struct ConfigRequest {
  std::string systemConfig = "Ethos_U55_High_End_Embedded";
  std::string memoryMode = "Shared_Sram";
  std::string velaIni;                 // optional vela.ini path
  std::string jsonFile;                // optional npusim JSON config path
  std::vector<std::string> overrides;  // "key=value"
};

// Built-in presets named and valued exactly as Vela's default vela.ini (plus npusim's own
// defaults for keys Vela does not have); "internal-default" is Vela's built-in U55 system.
// Throws InputError for an unknown name or a pair Vela rejects (e.g. Dedicated_Sram without DRAM).
SystemParams builtinPreset(const std::string& systemConfig, const std::string& memoryMode);

// Full resolution (see config_builder.h). Throws InputError naming the file and key for any
// bad input: unknown keys (with the nearest valid key), wrong types, out-of-range values,
// impossible memory-area mappings.
SystemParams resolveConfig(const ConfigRequest& request);

} // namespace npusim::config
