// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 5.0's per-operation "Staging Usage": the bytes of the staging memory (where regor stages
// weights and, when it is also the feature-map memory or holds cached feature maps, the feature
// maps) live at each scheduled operation's time step, from regor's live ranges over the whole
// network, and the whole its "Peak% (Staging)" divides by.

#include <cstdint>
#include <vector>

#include "harness/analytic/vela5_estimator.h"
#include "harness/analytic/vela5_system.h"
#include "sim/io/decoded_network.h"

namespace npusim::analytic::vela5 {

struct StagingUsage {
  std::vector<std::vector<uint64_t>> perRow;   // [subgraph][row], bytes; 0 for chained activations
  // The staging memory's allocated size: every region regor allocates in it (the arena when it
  // holds the feature maps, the staging area otherwise, the constants when they are there too).
  uint64_t allocatedBytes = 0;
};

// `ops[s]` are the scheduled operations (rows, in Vela's order) of `decoded[s]`.
StagingUsage stagingUsage(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                          const std::vector<const std::vector<ScheduledOp>*>& ops, const System& system);

} // namespace npusim::analytic::vela5
