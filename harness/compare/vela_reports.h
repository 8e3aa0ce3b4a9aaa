// SPDX-License-Identifier: Apache-2.0
#pragma once
// Readers for Vela's CSV outputs: the per-layer CSV (--verbose-performance) and the network
// summary CSV.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npusim::compare {

// One row of `<model>_per-layer.csv`.
struct VelaLayerRow {
  std::string tfliteOperator, nngOperator, name;
  double opCycles = 0, npu = 0, sramAc = 0, dramAc = 0, onFlashAc = 0, offFlashAc = 0;
  double macs = 0;
};

// Rows of every NPU subgraph, in file order (repeated header rows are skipped). Throws
// InputError naming the file and line for a malformed row.
std::vector<VelaLayerRow> readVelaPerLayerCsv(const std::string& path);

// Header -> value of `<model>_summary_<system_config>.csv`.
std::map<std::string, std::string> readVelaSummaryCsv(const std::string& path);

// The first (sorted) CSV beside a model whose name contains `pattern` ("_per-layer",
// "_summary_"), if any.
std::optional<std::string> findBeside(const std::string& modelPath, const std::string& pattern);

} // namespace npusim::compare
