// SPDX-License-Identifier: Apache-2.0
#pragma once
// Upper bounds of the work the simulator does for one NPU operation and of the addresses it
// touches, computed without simulating (and without walking the OFM blocks), so that a stream
// whose operations would take unreasonable time, memory or simulated time can be refused
// before elaboration. Plain C++.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/npu_config.h"
#include "sim/cmdstream/operation.h"

namespace npusim::npu {

// The memory timing the bounds assume: the smallest burst split and the slowest burst.
struct BurstCost {
  uint32_t maxBurstBytes = 64;   // bursts are at most this long (smallest AXI burst split)
  double cyclesPerBurst = 1;     // upper bound on one burst: latency + data beats + issue
};

// One transfer target of an operation: region and the end (exclusive) of the byte range that
// any single transfer of the operation reaches, as the memory system checks it.
struct RegionAccess {
  std::string what;        // "IFM", "OFM", "weight stream", "DMA source", ...
  uint8_t region = 0;
  uint64_t end = 0;
};

// Work of one operation; doubles because corrupted dimensions overflow 64-bit products.
struct WorkBound {
  double blocks = 0;        // OFM blocks the kernel unit walks
  double bursts = 0;        // AXI bursts booked
  double cycles = 0;        // NPU cycles the operation takes at most once started
  std::vector<RegionAccess> accesses;  // external-memory ranges its transfers reach
};

// Bounds for a CONV / DEPTHWISE / POOL / ELEMENTWISE or DMA_START operation (zero for the
// others). Contract: simulating `op` walks no more blocks and books no more bursts than
// returned, takes no more cycles once started (waits for other units aside), and its
// transfers stay inside `accesses`. O(1) in the operation's size.
WorkBound operationWork(const arch::NpuConfig& npu, const cmd::Operation& op, const BurstCost& burst);

} // namespace npusim::npu
