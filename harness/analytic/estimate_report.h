// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writers for a NetworkEstimate: readable table, Vela's per-layer CSV, JSON.

#include <ostream>
#include <string>

#include "harness/analytic/network_estimate.h"

namespace npusim::analytic {

// Vela 3.10's per-layer CSV header (the same 15 columns, "Network%" twice).
extern const char* const kVelaPerLayerHeader;
// Vela 5.0's per-layer CSV header (16 columns).
extern const char* const kVela5PerLayerHeader;

// Per-layer rows and network totals as an aligned text table.
void writeEstimateTable(std::ostream& out, const NetworkEstimate& estimate);

// Vela's `<model>_per-layer.csv` in the format of the Vela whose model the estimate reproduces
// (its header row tells which): Vela 3.10's has one header row per NPU subgraph, Vela 5.0's one
// in all, with the CPU operators' rows (Target CPU). Rows in Vela's order. Vela 3.10's SRAM
// Usage and Peak% come from the live ranges of the fast-storage tensors (analytic::sramUsage),
// Vela 5.0's Staging Usage and Peak% (Staging) from those of the staging memory
// (vela5::stagingUsage). Name is Vela's: from Vela 5.x's debug database, or for Vela 3.x's from
// the source model (analytic::findVelaArtifacts); empty when unknown.
void writeVelaPerLayerCsv(std::ostream& out, const NetworkEstimate& estimate);

// Everything the estimate holds, per layer and in total.
void writeEstimateJson(std::ostream& out, const NetworkEstimate& estimate);

// Python's repr() of a float ("21994.0", "58.55072463768116"), as Vela's CSV writes numbers.
std::string pythonFloat(double value);

} // namespace npusim::analytic
