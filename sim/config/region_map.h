// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one mapping from a command-stream region (0-7) to where its bytes are: the Vela memory
// area (Axi0/Axi1) that holds it under the memory mode, the NPU port it travels through and the
// memory on that port. The NPU module routes traffic with it, the platform places and checks
// the regions, the bound labels name their memories and the estimator its areas. Plain C++.

#include <array>
#include <cstdint>

#include "sim/arch/architecture.h"
#include "sim/arch/regions.h"
#include "sim/config/system_params.h"

namespace npusim::config {

class RegionMap {
public:
  // The regions under `params`' memory mode (constants, arena and cache areas) and ports.
  explicit RegionMap(const SystemParams& params);

  // Vela's memory area holding the region (arch::regionUse): memory_mode.const/arena/cache_mem_area.
  AxiPort area(uint8_t region) const { return areas_[region & 7]; }
  // The NPU port the region's traffic uses (REGIONCFG).
  arch::PortId port(uint8_t region) const { return hardwarePort(area(region)); }
  // The memory on that port.
  MemoryKind memory(uint8_t region) const { return memories_[region & 7]; }

private:
  std::array<AxiPort, 8> areas_{};
  std::array<MemoryKind, 8> memories_{};
};

} // namespace npusim::config
