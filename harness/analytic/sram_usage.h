// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 3.10's per-operation "SRAM Usage": the bytes of fast storage (the SRAM the scheduler
// places feature maps and weight buffers in) that are live while each scheduled operation
// runs, from the live ranges of every tensor there over the whole network.

#include <cstdint>
#include <vector>

#include "harness/analytic/layer_builder.h"
#include "harness/analytic/vela_system.h"
#include "sim/io/decoded_network.h"

namespace npusim::analytic {

// Fast-storage use per layer of every NPU subgraph, and Vela's denominator for Peak%.
struct SramUsage {
  std::vector<std::vector<uint64_t>> perLayer;   // [subgraph][layer], bytes
  uint64_t fastStorageBytes = 0;                 // the fast-storage tensor's size (Vela's SRAM used)
};

// `layers[s]` are the layers (Vela's rows, in Vela's order) of `decoded[s]`.
SramUsage sramUsage(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                    const std::vector<const std::vector<Layer>*>& layers, const VelaSystem& system);

} // namespace npusim::analytic
