// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writers for a NetworkEstimate: readable table, Vela's per-layer CSV, JSON.

#include <ostream>
#include <string>

#include "harness/analytic/network_estimate.h"

namespace npusim::analytic {

// Vela's per-layer CSV header (the same 15 columns, "Network%" twice).
extern const char* const kVelaPerLayerHeader;

// Per-layer rows and network totals as an aligned text table.
void writeEstimateTable(std::ostream& out, const NetworkEstimate& estimate);

// Vela's `<model>_per-layer.csv`: one header row per NPU subgraph, rows in Vela's order.
// Name is Vela's when the source model was found (analytic::findVelaArtifacts), else empty.
void writeVelaPerLayerCsv(std::ostream& out, const NetworkEstimate& estimate);

// Everything the estimate holds, per layer and in total.
void writeEstimateJson(std::ostream& out, const NetworkEstimate& estimate);

// Python's repr() of a float ("21994.0", "58.55072463768116"), as Vela's CSV writes numbers.
std::string pythonFloat(double value);

} // namespace npusim::analytic
