// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reader for Vela's per-layer CSV (--verbose-performance).

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

// The summary CSV and where Vela's CSVs are found beside a model: sim/config/vela_compile.h.

} // namespace npusim::compare
