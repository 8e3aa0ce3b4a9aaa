// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela-style estimate of a whole compiled network: one NPU subgraph per ethos-u operator,
// rows grouped as in Vela's per-layer CSV (from the debug database when available).

#include <string>
#include <vector>

#include "harness/analytic/estimator.h"
#include "harness/analytic/layer_builder.h"
#include "harness/analytic/vela_artifacts.h"
#include "harness/analytic/vela_debug_db.h"
#include "sim/config/system_params.h"
#include "sim/io/decoded_network.h"

namespace npusim::analytic {

// Layers and estimates of one NPU subgraph (one ethos-u operator).
struct SubgraphEstimate {
  size_t operatorIndex = 0;               // the ethos-u operator in CompiledNetwork::operators
  std::vector<Layer> layers;              // Vela's rows, in Vela's order
  std::vector<LayerEstimate> estimates;   // one per layer
};

// The whole model's estimate and the configuration it was made for.
struct NetworkEstimate {
  std::string model;
  const npu::NpuConfig* hardware = nullptr; // the configuration the COP1 header names
  std::string systemConfig, memoryMode;
  double coreClockHz = 0;
  bool rowsFromDebugDb = false;           // false: one row per NPU kernel operation
  bool rowsNamed = false;                 // rows carry Vela's names (source model known; may be empty)
  uint64_t fastStorageBytes = 0;          // fast storage the network uses (Vela's "SRAM used"), Peak%'s whole
  std::vector<SubgraphEstimate> subgraphs;
  EstimateTotals totals;
};

// Vela's row grouping for each decoded ethos-u operator (same order as `decoded`), with
// Vela's row names when the source model is given (`source` may be null). Throws InputError
// when the database does not describe these command streams.
std::vector<std::vector<RowSpec>> rowsFromDebugDb(const io::CompiledNetwork& net,
                                                  const std::vector<io::DecodedNpuOp>& decoded,
                                                  const VelaDebugDb& db, const VelaSourceModel* source = nullptr);

// Estimates every ethos-u operator of `net` under `params` (real hardware; Vela's memory-mode
// view is applied internally). `db` and `source` may be null. Throws InputError for a network
// without NPU operators or a MAC configuration the estimator does not know.
NetworkEstimate estimateNetwork(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                                const config::SystemParams& params, const VelaDebugDb* db,
                                const VelaSourceModel* source = nullptr);

} // namespace npusim::analytic
