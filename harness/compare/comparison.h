// SPDX-License-Identifier: Apache-2.0
#pragma once
// Simulated cycles next to the analytic estimates, per Vela layer and in total.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/analytic/network_estimate.h"
#include "harness/compare/vela_reports.h"
#include "harness/report/layer_map.h"
#include "models/platform/run_result.h"

namespace npusim::compare {

struct LayerComparison {
  size_t subgraph = 0;               // ethos-u operator index in the network
  size_t layer = 0;                  // Vela row within that subgraph
  std::string tfliteOperator, nngOperator, name;
  double simCycles = 0;              // NPU time attributed to the layer (see buildComparison)
  double estimateCycles = 0;         // npusim's Vela-style estimate (Op Cycles)
  std::optional<double> velaCycles;  // Vela's own per-layer Op Cycles
  uint64_t macs = 0;
  std::string bound;                 // the largest share of the layer's operations' summed bound cycles
};

struct ComparisonSummary {
  std::optional<double> geomeanSimOverEstimate, geomeanSimOverVela;
  double shareOver20 = 0;            // share of simulated cycles in layers with |sim/est - 1| > 20%
  std::vector<size_t> worst;         // layer indices, largest |log(sim/est)| first (at most 5)
};

struct ModelComparison {
  std::string model, accelerator, systemConfig, memoryMode;
  std::string systemConfigFrom, memoryModeFrom;  // where each came from (config::SystemParams)
  std::string vela;                  // the Vela performance model the estimate reproduces ("3.10", "5.0")
  std::vector<LayerComparison> layers;
  double simNpuActive = 0, simTotal = 0, estimateTotal = 0;
  std::optional<double> velaTotal;   // Vela summary cycles_total (or the sum of its rows)
  std::string note;                  // e.g. why Vela's rows could not be matched
  ComparisonSummary summary;
};

// Attribution: a layer sums the charged cycles of its operations (platform::chargedIntervals:
// within each ethos-u operator, in order of completion, from the previous one's end or the
// NPU start to its own end; stripes of cascaded layers interleave). Waits for weight DMAs
// count against the operation that waited, and the layer cycles add up to the NPU's active
// time up to the end of the last kernel. Layer names come from `names` (may be null): Vela's
// rows when both used the same debug database, else the layer of each row's first operation.
ModelComparison buildComparison(const platform::RunResult& run, const analytic::NetworkEstimate& estimate,
                                const std::vector<VelaLayerRow>* velaRows, std::optional<double> velaTotal,
                                const report::LayerMap* names = nullptr);

ComparisonSummary summarize(const std::vector<LayerComparison>& layers);

nlohmann::ordered_json comparisonJson(const ModelComparison& c);
ModelComparison comparisonFromJson(const nlohmann::json& j);

} // namespace npusim::compare
