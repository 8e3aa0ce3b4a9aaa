// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/vela_system.h"

#include <algorithm>
#include <string>

#include "sim/common/error.h"

namespace npusim::analytic {

MemArea memAreaOf(config::MemoryKind kind) {
  switch (kind) {
  case config::MemoryKind::Sram: return MemArea::Sram;
  case config::MemoryKind::Dram: return MemArea::Dram;
  case config::MemoryKind::OnChipFlash: return MemArea::OnChipFlash;
  case config::MemoryKind::OffChipFlash: return MemArea::OffChipFlash;
  }
  return MemArea::Sram;
}

std::string_view memAreaName(MemArea area) {
  switch (area) {
  case MemArea::Sram: return "SRAM";
  case MemArea::Dram: return "DRAM";
  case MemArea::OnChipFlash: return "OnChipFlash";
  case MemArea::OffChipFlash: return "OffChipFlash";
  case MemArea::Shram: return "SHRAM";
  }
  return "?";
}

VelaSystem::VelaSystem(const config::SystemParams& params, const arch::NpuConfig& hardware)
    : accel_(&hardware), regions_(params), coreClockHz_(params.coreClockHz) {
  // 1. The memories of the two areas get their configured timing; every other area keeps
  //    Vela's "1 or the equivalent" defaults (scale 1, burst 1, latency 0). An area's bandwidth
  //    and timing adapter are those of its port (the U55 and U65 have one per area).
  //    A timing adapter on the port shows through as the kit describes it to Vela: its
  //    nominal bandwidth (BWCAP bus words per pulse cycle) and its minimum latencies.
  for (arch::AreaId area : arch::kAreas) {
    const arch::PortId port = params.portsIn(area).at(0);
    portArea_[area.index] = memAreaOf(params.memoryIn(area));
    const config::MemoryParams& m = params.memory(params.memoryIn(area));
    const config::TimingAdapterParams& ta = params.port(port).adapter;
    double bytesPerCycle = params.bytesPerCycle(port);
    const double nominal = ta.nominalBytesPerCycle(params.port(port).dataWidthBits / 8);
    if (nominal > 0) {
      bytesPerCycle = std::min(bytesPerCycle, nominal);
    }
    timing_[static_cast<size_t>(portArea_[area.index])] = {
        bytesPerCycle, m.burstLength, std::max(m.readLatency, ta.readLatency), std::max(m.writeLatency, ta.writeLatency)};
  }
  // 2. Sram_Only quirk: constants on the shared SRAM area move to the other area, renamed
  //    OnChipFlash, with SRAM's timing.
  arch::AreaId constArea = params.mode.constMemArea;
  const bool allInOneArea =
      params.mode.constMemArea == params.mode.arenaMemArea && params.mode.arenaMemArea == params.mode.cacheMemArea;
  if (portArea_[constArea.index] == MemArea::Sram && allInOneArea) {
    constArea = arch::AreaId{static_cast<uint8_t>(1 - constArea.index)};
    portArea_[constArea.index] = MemArea::OnChipFlash;
    timing_[static_cast<size_t>(MemArea::OnChipFlash)] = timing_[static_cast<size_t>(MemArea::Sram)];
  }
  // 3. Areas of constants, arena and fast storage.
  constArea_ = portArea_[constArea.index];
  arenaArea_ = regionArea(arch::kArenaRegion);
  fastArea_ = regionArea(arch::kCacheRegion);
}

MemArea VelaSystem::regionArea(uint8_t region) const {
  switch (arch::regionUse(region)) {
  case arch::RegionUse::Constants: return constArea_;
  case arch::RegionUse::Arena:
  case arch::RegionUse::Cache: return portArea_[regions_.area(region).index];
  }
  return arenaArea_;
}

} // namespace npusim::analytic
