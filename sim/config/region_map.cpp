// SPDX-License-Identifier: Apache-2.0
#include "sim/config/region_map.h"

namespace npusim::config {

RegionMap::RegionMap(const SystemParams& params) {
  for (uint8_t region = 0; region < 8; ++region) {
    switch (arch::regionUse(region)) {
    case arch::RegionUse::Constants: areas_[region] = params.mode.constMemArea; break;
    case arch::RegionUse::Arena: areas_[region] = params.mode.arenaMemArea; break;
    case arch::RegionUse::Cache: areas_[region] = params.mode.cacheMemArea; break;
    }
    memories_[region] = params.memoryIn(areas_[region]);
  }
  for (arch::AreaId area : arch::kAreas) {
    areaPorts_[area.index] = params.portsIn(area);
  }
}

} // namespace npusim::config
