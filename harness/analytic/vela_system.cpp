// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/vela_system.h"

#include <algorithm>
#include <string>

#include "sim/common/error.h"

namespace npusim::analytic {

namespace {

size_t portIndex(config::AxiPort port) { return static_cast<size_t>(port); }

} // namespace

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
  // 1. The memories on the two ports get their configured timing; every other area keeps
  //    Vela's "1 or the equivalent" defaults (scale 1, burst 1, latency 0).
  portArea_ = {memAreaOf(params.memoryOn(config::AxiPort::Axi0)), memAreaOf(params.memoryOn(config::AxiPort::Axi1))};
  //    A timing adapter on the port shows through as the kit describes it to Vela: its
  //    nominal bandwidth (BWCAP bus words per pulse cycle) and its minimum latencies.
  for (config::AxiPort port : {config::AxiPort::Axi0, config::AxiPort::Axi1}) {
    const config::MemoryParams& m = params.memory(params.memoryOn(port));
    const config::TimingAdapterParams& ta = params.port(port).adapter;
    double bytesPerCycle = params.bytesPerCycle(port);
    const double nominal = ta.nominalBytesPerCycle(params.port(port).dataWidthBits / 8);
    if (nominal > 0) {
      bytesPerCycle = std::min(bytesPerCycle, nominal);
    }
    timing_[static_cast<size_t>(portArea_[portIndex(port)])] = {
        bytesPerCycle, m.burstLength, std::max(m.readLatency, ta.readLatency), std::max(m.writeLatency, ta.writeLatency)};
  }
  // 2. Sram_Only quirk: constants on the shared SRAM port move to the other port, renamed
  //    OnChipFlash, with SRAM's timing.
  config::AxiPort constPort = params.mode.constMemArea;
  const bool allOnOnePort =
      params.mode.constMemArea == params.mode.arenaMemArea && params.mode.arenaMemArea == params.mode.cacheMemArea;
  if (portArea_[portIndex(constPort)] == MemArea::Sram && allOnOnePort) {
    constPort = constPort == config::AxiPort::Axi0 ? config::AxiPort::Axi1 : config::AxiPort::Axi0;
    portArea_[portIndex(constPort)] = MemArea::OnChipFlash;
    timing_[static_cast<size_t>(MemArea::OnChipFlash)] = timing_[static_cast<size_t>(MemArea::Sram)];
  }
  // 3. Areas of constants, arena and fast storage.
  constArea_ = portArea_[portIndex(constPort)];
  arenaArea_ = regionArea(arch::kArenaRegion);
  fastArea_ = regionArea(arch::kCacheRegion);
}

MemArea VelaSystem::regionArea(uint8_t region) const {
  switch (arch::regionUse(region)) {
  case arch::RegionUse::Constants: return constArea_;
  case arch::RegionUse::Arena:
  case arch::RegionUse::Cache: return portArea_[portIndex(regions_.area(region))];
  }
  return arenaArea_;
}

} // namespace npusim::analytic
