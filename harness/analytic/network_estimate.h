// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela-style estimate of a whole compiled network: one NPU subgraph per ethos-u operator,
// rows grouped as in Vela's per-layer CSV (from the debug database when available).

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/analytic/estimator.h"
#include "harness/analytic/layer_builder.h"
#include "harness/analytic/vela5_estimator.h"
#include "harness/analytic/vela_artifacts.h"
#include "harness/analytic/vela_debug_db.h"
#include "sim/config/system_params.h"
#include "sim/config/vela_version.h"
#include "sim/io/decoded_network.h"

namespace npusim::analytic {

// Layers and estimates of one subgraph in Vela's sense: an NPU subgraph (one ethos-u operator),
// or, in Vela 5.0's model, an operator Vela left on the CPU, which Vela 5.0's per-layer CSV
// lists as one `Passthrough` row (Target CPU, zero in every column). Vela 3.10 lists no CPU
// operators.
struct SubgraphEstimate {
  size_t operatorIndex = 0;               // the ethos-u (or CPU) operator in CompiledNetwork::operators
  bool onCpu = false;                     // a CPU operator: one layer without operations, a zero estimate
  std::vector<Layer> layers;              // Vela's rows, in Vela's order
  std::vector<LayerEstimate> estimates;   // one per layer
  std::vector<vela5::ScheduledOp> vela5;  // Vela 5.0: each layer's scheduled operation, else empty
};

// The whole model's estimate and the configuration it was made for.
struct NetworkEstimate {
  std::string model;
  config::VelaVersion vela = config::VelaVersion::V3_10;   // the Vela whose performance model this estimate reproduces
  const arch::NpuConfig* hardware = nullptr; // the configuration the COP1 header names
  std::string systemConfig, memoryMode;
  std::string systemConfigFrom, memoryModeFrom;   // where each came from (config::SystemParams)
  double coreClockHz = 0;
  bool rowsFromDebugDb = false;           // false: Vela 3.10 one row per kernel operation, Vela 5.0 grouped from the stream
  // Rows carry Vela's names (may be empty): from Vela 5.x's debug database, or from the
  // source model of Vela 3.x's.
  bool rowsNamed = false;
  // The whole the per-layer Peak% divides by: Vela 3.10's fast storage the network uses
  // (its "SRAM used"); Vela 5.0's allocated size of the staging memory.
  uint64_t fastStorageBytes = 0;
  std::vector<SubgraphEstimate> subgraphs;  // in execution order
  EstimateTotals totals;
  // Vela 5.0: the memories the scheduled operations' queries point to.
  std::shared_ptr<const vela5::System> vela5System;
};

// Vela's row grouping for each decoded ethos-u operator (same order as `decoded`), with
// Vela's row names: a Vela 5.x database carries them; a Vela 3.x database's come from its
// source model (`source`, may be null). Throws InputError when the database does not
// describe these command streams.
std::vector<std::vector<RowSpec>> rowsFromDebugDb(const io::CompiledNetwork& net,
                                                  const std::vector<io::DecodedNpuOp>& decoded,
                                                  const VelaDebugDb& db, const VelaSourceModel* source = nullptr);

// Vela 5.0's type of an operator it leaves on the CPU: its per-layer CSV's Target is CPU
// exactly for the rows of this type.
inline constexpr const char* kPassthrough = "Passthrough";

// Estimates every ethos-u operator of `net` under `params` (real hardware; Vela's memory-mode
// view is applied internally) with Vela `vela`'s model; Vela 5.0's also lists the CPU
// operators. `db` and `source` (the source model of a Vela 3.x database, for row names) may be
// null. Throws InputError for a network without NPU operators, a MAC configuration the
// estimator does not know, or a Vela 5.x database that lists another number of CPU operators
// than the model has.
NetworkEstimate estimateNetwork(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                                const config::SystemParams& params, const VelaDebugDb* db, config::VelaVersion vela,
                                const VelaSourceModel* source = nullptr);

} // namespace npusim::analytic
