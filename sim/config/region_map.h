// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one mapping from a command-stream region (0-7) to where its bytes are: the Vela memory
// area (arch::AreaId) that holds it under the memory mode, the NPU ports that reach that area and
// the memory in it. The NPU module routes traffic with it, the platform places and checks the
// regions, the bound labels name their memories and the estimator its areas. Plain C++.

#include <array>
#include <cstdint>
#include <vector>

#include "sim/arch/architecture.h"
#include "sim/arch/regions.h"
#include "sim/config/system_params.h"

namespace npusim::config {

class RegionMap {
public:
  // The regions under `params`' memory mode (constants, arena and cache areas) and ports.
  explicit RegionMap(const SystemParams& params);

  // Vela's memory area holding the region (arch::regionUse): memory_mode.const/arena/cache_mem_area.
  arch::AreaId area(uint8_t region) const { return areas_[region & 7]; }
  // The NPU ports the region's traffic may use (REGIONCFG): those of its area.
  const std::vector<arch::PortId>& ports(uint8_t region) const { return portsIn(area(region)); }
  // The NPU ports that reach an area, in PortId order (SystemParams::portsIn).
  const std::vector<arch::PortId>& portsIn(arch::AreaId area) const { return areaPorts_[area.index]; }
  // The memory in that area.
  MemoryKind memory(uint8_t region) const { return memories_[region & 7]; }

private:
  std::array<arch::AreaId, 8> areas_{};
  std::array<MemoryKind, 8> memories_{};
  std::array<std::vector<arch::PortId>, arch::kAreaCount> areaPorts_;
};

} // namespace npusim::config
