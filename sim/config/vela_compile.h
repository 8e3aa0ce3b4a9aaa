// SPDX-License-Identifier: Apache-2.0
#pragma once
// What Vela's files beside a compiled model say about the system it was compiled for: its
// summary CSV names the system config and memory mode (the .tflite records neither), and a
// folder laid out like the fixture trees (<accelerator>_<system config>_<memory mode>[_<suffix>])
// names them too.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npusim::config {

// Vela's summary CSV (`<network>_summary_<system config>.csv`): header -> value of its data row.
// Throws InputError naming the file when it is not a header row and a data row of equal width.
std::map<std::string, std::string> readVelaSummaryCsv(const std::string& path);

// The CSV files Vela wrote beside the compiled model `<network>_vela.tflite` whose names begin
// "<network><suffix>" (suffix "_summary_", "_per-layer"), sorted. When none does (a renamed
// model), the one CSV whose name contains `suffix`, if there is exactly one. Looks beside the
// model, then beside the file a symlink to it points to.
std::vector<std::string> velaCsvsBeside(const std::string& modelPath, const std::string& suffix);

// A system config and memory mode by name.
struct SectionNames {
  std::string systemConfig, memoryMode;
};

// The built-in system config and memory mode a folder name "<accelerator>_<system
// config>_<memory mode>[_<suffix>]" names (the longest pair that fits), or nullopt.
std::optional<SectionNames> sectionsInFolderName(const std::string& folder);

// The sections the compile of the model at `modelPath` names, and where that was read.
struct CompileSections {
  SectionNames names;
  std::string from;        // "kws_summary_Ethos_U55_Deep_Embedded.csv", "folder ethos-u55-128_..."
  std::string summaryCsv;  // the summary CSV's path; empty when the folder name told
};

// Vela's summary CSV beside the model (velaCsvsBeside), else the name of the model's folder.
// A summary CSV made for another accelerator than `accelerator` ("ethos-u55-128"; empty: any),
// or several naming different sections, tell nothing: each adds a sentence to `warnings` and
// the folder name is asked. nullopt when `modelPath` is not a file or nothing tells. Throws
// InputError for a malformed summary CSV.
std::optional<CompileSections> compileSections(const std::string& modelPath, const std::string& accelerator,
                                               std::vector<std::string>* warnings);

} // namespace npusim::config
