// SPDX-License-Identifier: Apache-2.0
#pragma once
// `npusim run` output: human summary, JSON and per-operation CSV of a RunResult.

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/report/layer_map.h"
#include "models/platform/run_result.h"

namespace npusim::report {

// One layer's simulated time: the charged cycles and bound split of its kernel operations.
struct LayerTime {
  size_t layer = 0;                 // index in LayerMap::layers
  double cycles = 0;
  platform::BoundCycles bound;
  uint64_t operations = 0;
};
// Kernel-operation time per layer, in layer order (layers without kernel operations omitted).
std::vector<LayerTime> layerTimes(const platform::RunResult& r, const LayerMap& layers);

// The whole run's cycles split two ways (docs/outputs.md), each adding up to the run: the kernel
// operations' charged cycles by NPU operation kind ("CONV", ...) or by bound label ("compute",
// ...), then the CPU operators' cycles and the rest (driver, command fetch, DMA and waits outside
// the charged intervals). Rows in kind and label order, those with cycles only.
struct NetworkBreakdown {
  std::vector<std::pair<std::string, double>> byKind, byBound;
  double cpuOperators = 0, other = 0, total = 0;
};
NetworkBreakdown networkBreakdown(const platform::RunResult& r);

// Field names, units and the rounding rule: docs/outputs.md.
void writeRunSummary(std::ostream& os, const platform::RunResult& r, const LayerMap& layers, size_t slowest = 10);
nlohmann::ordered_json runJson(const platform::RunResult& r, const LayerMap& layers);
void writeRunCsv(std::ostream& os, const platform::RunResult& r, const LayerMap& layers);

} // namespace npusim::report
