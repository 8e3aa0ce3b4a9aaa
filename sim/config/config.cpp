// SPDX-License-Identifier: Apache-2.0
#include "sim/config/config.h"

#include <algorithm>

#include "sim/config/config_builder.h"
#include "sim/config/json_config.h"
#include "sim/config/presets.h"
#include "sim/config/vela_ini.h"

namespace npusim::config {

namespace {

std::string trim(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t");
  const size_t last = s.find_last_not_of(" \t");
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

void applyOverride(const std::string& assignment, ConfigBuilder& builder) {
  const Origin origin{"--set", "", ""};
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos) {
    throwAt(origin, assignment, "expected key=value");
  }
  builder.setText(trim(assignment.substr(0, eq)), trim(assignment.substr(eq + 1)), origin);
}

// The accelerator a request names: the model's, else the last `accelerator=` override's ("" = none).
std::string requestAccelerator(const ConfigRequest& request) {
  std::string accelerator = request.accelerator;
  for (const std::string& assignment : request.overrides) {
    const size_t eq = assignment.find('=');
    if (request.accelerator.empty() && eq != std::string::npos && trim(assignment.substr(0, eq)) == "accelerator") {
      accelerator = trim(assignment.substr(eq + 1));
    }
  }
  return accelerator;
}

// The NPU generation whose built-in sections apply: the request's accelerator's, or the first the
// named built-in system config describes (null: it describes any, or is not built in).
const arch::Architecture* requestArchitecture(const ConfigRequest& request, const std::string& systemConfig) {
  if (const arch::NpuConfig* hw = arch::findNpuConfig(requestAccelerator(request))) {
    return hw->arch;
  }
  const PresetSection* preset = findPreset("System_Config." + systemConfig);
  return preset == nullptr || preset->architectures.empty() ? nullptr : preset->architectures.front();
}

// How a built-in section reads: as the Vela whose vela.ini it comes from.
VelaReading builtinReading(const PresetSection* section) {
  const VelaVersion version = section != nullptr ? section->vela : VelaVersion::V3_10;
  return {version, "npusim's built-in sections for this NPU are Vela " + std::string(velaVersionName(version)) +
                       "'s vela.ini"};
}

} // namespace

std::pair<std::string, std::string> defaultSections(const std::string& accelerator) {
  // Vela's internal-default equals these built-in sections (timing doc 2.4; Vela's "no limit"
  // arena_cache_size is npusim's 0).
  const arch::NpuConfig* hw = arch::findNpuConfig(accelerator);
  const arch::Architecture& a = hw != nullptr ? *hw->arch : arch::ethosU55();
  return {std::string(a.defaultSystemConfig), std::string(a.defaultMemoryMode)};
}

SystemParams builtinPreset(const std::string& systemConfig, const std::string& memoryMode) {
  ConfigRequest request;
  request.systemConfig = systemConfig;
  request.memoryMode = memoryMode;
  return resolveConfig(request);
}

SystemParams resolveConfig(const ConfigRequest& request) {
  ConfigBuilder builder;
  // 1. System config and memory mode: built-in presets, or the sections of --vela-ini.
  const auto [internalSystem, internalMode] = defaultSections(requestAccelerator(request));
  const std::string systemConfig = request.systemConfig.empty() ? internalSystem : request.systemConfig;
  const std::string memoryMode = request.memoryMode.empty() ? internalMode : request.memoryMode;
  const VelaIni userIni = request.velaIni.empty() ? VelaIni() : VelaIni::read(request.velaIni);
  //    The built-in sections the NPU sees (Vela 3.10's for the U55 and U65, Vela 5.0's for the U85).
  const arch::Architecture* npu = requestArchitecture(request, systemConfig);
  const VelaIni& builtins = builtinPresets(npu);
  const VelaIni& ini = request.velaIni.empty() ? builtins : userIni;
  //    The user's file is read as the Vela it is for (ConfigRequest::vela); the keys its sections
  //    leave out that the two Velas read differently are reported. A built-in section is read as
  //    the Vela whose vela.ini it comes from, and leaves out none.
  const auto sectionReading = [&](const std::string& prefix, const std::string& name) {
    return request.velaIni.empty() ? builtinReading(findPreset(prefix + name, npu))
           : request.vela          ? *request.vela
                                   : velaOfFile(userIni);
  };
  std::vector<std::string> warnings;
  std::vector<std::string>* userWarnings = request.velaIni.empty() ? nullptr : &warnings;
  if (systemConfig == kVelaInternalDefault) {
    applySystemConfig(builtins, internalSystem, builder, builtinReading(findPreset("System_Config." + internalSystem, npu)));
  } else {
    applySystemConfig(ini, systemConfig, builder, sectionReading("System_Config.", systemConfig), userWarnings);
  }
  if (memoryMode == kVelaInternalDefault) {
    applyMemoryMode(builtins, internalMode, builder, builtinReading(findPreset("Memory_Mode." + internalMode, npu)));
  } else {
    applyMemoryMode(ini, memoryMode, builder, sectionReading("Memory_Mode.", memoryMode), userWarnings);
  }
  // 2. The model's accelerator (without a model: the one an accelerator override names), so that
  //    the layers below name its ports (U85: 3 to 6 ports): a layer that names another than the
  //    model's is refused at step 5.
  if (!request.accelerator.empty()) {
    builder.setText("accelerator", request.accelerator, Origin{"<model>", "", "compiled for"});
  } else if (const std::string named = requestAccelerator(request); !named.empty()) {
    builder.setText("accelerator", named, Origin{"--set", "", ""});
  }
  //    A built-in platform's npusim keys (after the memory mode: they may depend on it), for the
  //    NPU the model was compiled for (without a model: the one an accelerator override names,
  //    else the first the platform describes).
  if (request.velaIni.empty()) {
    // The configuration: the model's (or the override's), else the generation's first.
    const arch::NpuConfig* hardware = arch::findNpuConfig(requestAccelerator(request));
    if (hardware == nullptr) {
      const auto& configs = arch::npuConfigs();
      const auto first = std::find_if(configs.begin(), configs.end(), [npu](const arch::NpuConfig& c) { return c.arch == npu; });
      hardware = first != configs.end() ? &*first : nullptr;
    }
    if (const PresetSection* preset = findPreset("System_Config." + systemConfig, npu)) {
      const Origin origin{"<builtin>", "", std::string(preset->name)};
      for (const PlatformValue& v : preset->platform) {
        const ConfigKey* key = findKey(v.key);
        const bool hasPort = key == nullptr || keyApplies(*key, builder.params());   // a port the configuration has
        if ((v.memoryMode.empty() || v.memoryMode == memoryMode) && v.appliesTo(hardware) && hasPort) {
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
  // 5. A layer that named another accelerator than the model's (step 2) is refused; then
  //    derived defaults and cross-key checks.
  if (!request.accelerator.empty() && builder.params().accelerator != request.accelerator) {
    Origin origin;
    builder.blame("accelerator", "accelerator", origin);
    throwAt(origin, "accelerator",
            "the model was compiled for " + request.accelerator + "; it cannot run on " + builder.params().accelerator +
                " (recompile it with Vela)");
  }
  //    Built-in sections made for some NPUs (Vela's U55, U65 and U85 systems and memory modes,
  //    the Corstone-300 platform) refuse the others.
  if (const arch::NpuConfig* hw = builder.params().hardware(); hw != nullptr && request.velaIni.empty()) {
    const auto check = [hw](const char* option, const std::string& prefix, const std::string& name) {
      const PresetSection* section = findPreset(prefix + name, hw->arch);
      if (section == nullptr || section->describes(*hw->arch)) {
        return;
      }
      std::string valid, made;
      for (const std::string_view p : presetNames(prefix.substr(0, prefix.size() - 1))) {
        const PresetSection* mine = findPreset(prefix + std::string(p), hw->arch);
        if (mine->describes(*hw->arch)) {
          valid += (valid.empty() ? "" : ", ") + std::string(p);
        }
      }
      for (const PresetSection& p : presetTable()) {
        if (p.name != prefix + name) {
          continue;
        }
        for (const arch::Architecture* a : p.architectures) {
          made += (made.empty() ? "" : " and ") + std::string(a->name);
        }
      }
      throwAt(Origin{option, "", ""}, name,
              name + " is an " + made + " section, but the accelerator is " + std::string(hw->name) +
                  "; valid for it: " + valid);
    };
    check("--system-config", "System_Config.", systemConfig);
    check("--memory-mode", "Memory_Mode.", memoryMode);
  }
  SystemParams params = builder.finish(systemConfig, memoryMode);
  params.warnings = std::move(warnings);
  const auto from = [](const std::string& given, const std::string& name, const char* option) {
    return !given.empty() ? given : name.empty() ? std::string(kDefaultSection) : std::string(option);
  };
  params.systemConfigFrom = from(request.systemConfigFrom, request.systemConfig, "--system-config");
  params.memoryModeFrom = from(request.memoryModeFrom, request.memoryMode, "--memory-mode");
  return params;
}

} // namespace npusim::config
