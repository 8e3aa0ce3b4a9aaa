// SPDX-License-Identifier: Apache-2.0
#include "sim/config/vela_compile.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "sim/common/csv.h"
#include "sim/common/error.h"
#include "sim/config/presets.h"

namespace npusim::config {
namespace {

namespace fs = std::filesystem;

constexpr char kVelaModelSuffix[] = "_vela.tflite";

// "<network>" of "<network>_vela.tflite" (Vela's output name), else the file's stem.
std::string networkOf(const fs::path& model) {
  const std::string name = model.filename().string();
  const size_t n = sizeof kVelaModelSuffix - 1;
  if (name.size() > n && name.compare(name.size() - n, n, kVelaModelSuffix) == 0) return name.substr(0, name.size() - n);
  return model.stem().string();
}

std::vector<std::string> csvsIn(const fs::path& dir, const std::string& network, const std::string& suffix) {
  std::error_code ec;
  std::vector<std::string> exact, containing;
  for (const auto& e : fs::directory_iterator(dir.empty() ? fs::path(".") : dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".csv" || name.find(suffix) == std::string::npos) continue;
    (name.rfind(network + suffix, 0) == 0 ? exact : containing).push_back(e.path().string());
  }
  std::sort(exact.begin(), exact.end());
  if (!exact.empty()) return exact;
  return containing.size() == 1 ? containing : std::vector<std::string>{};
}

// "Ethos_U55_128" (Vela's accelerator_configuration column) -> "ethos-u55-128".
std::string acceleratorName(std::string vela) {
  for (char& c : vela) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return vela;
}

} // namespace

std::map<std::string, std::string> readVelaSummaryCsv(const std::string& path) {
  const std::vector<CsvLine> lines = readCsvFile(path);
  if (lines.size() < 2 || lines[0].fields.size() != lines[1].fields.size()) {
    throwForKey(path, "line 2", "expected a header row and one data row of the same width");
  }
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < lines[0].fields.size(); ++i) out[lines[0].fields[i]] = lines[1].fields[i];
  return out;
}

std::vector<std::string> velaCsvsBeside(const std::string& modelPath, const std::string& suffix) {
  const fs::path model(modelPath);
  std::vector<std::string> found = csvsIn(model.parent_path(), networkOf(model), suffix);
  std::error_code ec;
  if (found.empty() && fs::is_symlink(model, ec)) {
    const fs::path target = fs::canonical(model, ec);
    if (!ec) found = csvsIn(target.parent_path(), networkOf(target), suffix);
  }
  return found;
}

std::optional<SectionNames> sectionsInFolderName(const std::string& folder) {
  const size_t accelEnd = folder.find('_');
  if (accelEnd == std::string::npos) return std::nullopt;
  const std::string rest = folder.substr(accelEnd + 1);
  std::optional<SectionNames> best;
  for (const std::string_view system : presetNames("System_Config")) {
    for (const std::string_view mode : presetNames("Memory_Mode")) {
      const std::string pair = std::string(system) + "_" + std::string(mode);
      const bool fits = rest.rfind(pair, 0) == 0 && (rest.size() == pair.size() || rest[pair.size()] == '_');
      if (fits && (!best || pair.size() > best->systemConfig.size() + best->memoryMode.size() + 1)) {
        best = SectionNames{std::string(system), std::string(mode)};
      }
    }
  }
  return best;
}

std::optional<CompileSections> compileSections(const std::string& modelPath, const std::string& accelerator,
                                               std::vector<std::string>* warnings) {
  std::error_code ec;
  if (!fs::is_regular_file(modelPath, ec)) return std::nullopt;
  const auto warn = [warnings](const std::string& w) {
    if (warnings != nullptr) warnings->push_back(w);
  };
  // 1. Vela's summary CSVs: the sections of the compile they describe, when they agree.
  std::optional<CompileSections> fromCsv;
  for (const std::string& csv : velaCsvsBeside(modelPath, "_summary_")) {
    std::map<std::string, std::string> row;
    try {
      row = readVelaSummaryCsv(csv);
    } catch (const InputError& e) {
      warn(std::string(e.what()) + "; the system config and memory mode are not taken from it");
      continue;
    }
    const std::string system = row["system_config"], mode = row["memory_mode"];
    if (system.empty() || mode.empty()) {
      warn(csv + ": no system_config and memory_mode columns; the sections are not taken from it");
      continue;
    }
    const std::string compiledFor = acceleratorName(row["accelerator_configuration"]);
    if (!accelerator.empty() && compiledFor != accelerator) {
      warn(csv + ": describes a compile for " + compiledFor + ", but the model is compiled for " + accelerator +
           "; its system config and memory mode are not taken");
      continue;
    }
    CompileSections s{{system, mode}, fs::path(csv).filename().string(), csv};
    if (fromCsv && (fromCsv->names.systemConfig != system || fromCsv->names.memoryMode != mode)) {
      warn(csv + " and " + fromCsv->summaryCsv + " name different system configs or memory modes (" + system + ", " +
           mode + " and " + fromCsv->names.systemConfig + ", " + fromCsv->names.memoryMode +
           "); neither is taken as the model's compile");
      fromCsv.reset();
      break;
    }
    if (!fromCsv) fromCsv = s;
  }
  if (fromCsv) return fromCsv;
  // 2. The folder's name, when its accelerator is the model's.
  const std::string folder = fs::absolute(modelPath, ec).parent_path().filename().string();
  const std::optional<SectionNames> named = sectionsInFolderName(folder);
  if (!named || (!accelerator.empty() && folder.rfind(accelerator + "_", 0) != 0)) return std::nullopt;
  return CompileSections{*named, "folder " + folder, ""};
}

} // namespace npusim::config
