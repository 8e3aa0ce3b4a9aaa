// SPDX-License-Identifier: Apache-2.0
#include "sim/config/config.h"

#include "sim/config/config_builder.h"
#include "sim/config/json_config.h"
#include "sim/config/presets.h"
#include "sim/config/vela_ini.h"

namespace npusim::config {

namespace {

// Vela's internal-default for a U55 equals these built-in sections (timing doc 2.4; Vela's
// "no limit" arena_cache_size is npusim's 0).
constexpr std::string_view kInternalSystem = "Ethos_U55_High_End_Embedded";
constexpr std::string_view kInternalMemoryMode = "Shared_Sram";

void applyOverride(const std::string& assignment, ConfigBuilder& builder) {
  const Origin origin{"--set", "", ""};
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos) {
    throwAt(origin, assignment, "expected key=value");
  }
  const auto trim = [](std::string s) {
    const size_t first = s.find_first_not_of(" \t");
    const size_t last = s.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
  };
  builder.setText(trim(assignment.substr(0, eq)), trim(assignment.substr(eq + 1)), origin);
}

} // namespace

SystemParams builtinPreset(const std::string& systemConfig, const std::string& memoryMode) {
  ConfigRequest request;
  request.systemConfig = systemConfig;
  request.memoryMode = memoryMode;
  return resolveConfig(request);
}

SystemParams resolveConfig(const ConfigRequest& request) {
  ConfigBuilder builder;
  // 1. System config and memory mode: built-in presets, or the sections of --vela-ini.
  const VelaIni userIni = request.velaIni.empty() ? VelaIni() : VelaIni::read(request.velaIni);
  const VelaIni& ini = request.velaIni.empty() ? builtinPresets() : userIni;
  if (request.systemConfig == kVelaInternalDefault) {
    applySystemConfig(builtinPresets(), std::string(kInternalSystem), builder);
  } else {
    applySystemConfig(ini, request.systemConfig, builder);
  }
  if (request.memoryMode == kVelaInternalDefault) {
    applyMemoryMode(builtinPresets(), std::string(kInternalMemoryMode), builder);
  } else {
    applyMemoryMode(ini, request.memoryMode, builder);
  }
  // 2. A built-in platform's npusim keys (after the memory mode: they may depend on it).
  if (request.velaIni.empty()) {
    if (const PresetSection* preset = findPreset("System_Config." + request.systemConfig)) {
      const Origin origin{"<builtin>", "", std::string(preset->name)};
      for (const PlatformValue& v : preset->platform) {
        if (v.memoryMode.empty() || v.memoryMode == request.memoryMode) {
          builder.setText(v.key, v.value, origin);
        }
      }
    }
  }
  // 3. npusim JSON file.
  if (!request.jsonFile.empty()) {
    applyJsonFile(request.jsonFile, builder);
  }
  // 4. --set overrides, in command-line order.
  for (const auto& assignment : request.overrides) {
    applyOverride(assignment, builder);
  }
  // 5. Derived defaults and cross-key checks.
  return builder.finish(request.systemConfig, request.memoryMode);
}

} // namespace npusim::config
