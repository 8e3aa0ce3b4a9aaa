// SPDX-License-Identifier: Apache-2.0
#include "models/platform/soc.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace npusim::platform {

const MemoryMap& MemoryMap::standard() {
  using config::MemoryKind;
  constexpr uint64_t kWindow = 0x1000'0000;
  static const MemoryMap map({{MemoryKind::Sram, 0x2000'0000, kWindow},
                              {MemoryKind::Dram, 0x6000'0000, kWindow},
                              {MemoryKind::OnChipFlash, 0x0000'0000, kWindow},
                              {MemoryKind::OffChipFlash, 0x1000'0000, kWindow}});
  return map;
}

const MemoryInstance& MemoryMap::of(config::MemoryKind kind) const {
  for (const MemoryInstance& m : instances_) {
    if (m.kind == kind) {
      return m;
    }
  }
  throw std::logic_error("the memory map has no " + std::string(config::memoryKindName(kind)));
}

mem::MemorySystemParams memorySystemParams(const config::SystemParams& params, const MemoryMap& map) {
  mem::MemorySystemParams out;
  out.clockHz = params.coreClockHz;
  for (const MemoryInstance& m : map.instances()) {
    const auto holding = std::find_if(arch::kAreas.begin(), arch::kAreas.end(),
                                      [&](arch::AreaId a) { return params.memoryIn(a) == m.kind; });
    const arch::AreaId area = holding != arch::kAreas.end() ? *holding : arch::kAreas[0];
    const config::MemoryParams& timing = params.memory(m.kind);
    // The memory serves `ports_used` ports at once (Vela 5.0's bandwidth: port width x clock scale
    // x ports used; 1 on the U55's and U65's sections).
    const uint32_t width = params.port(params.portsIn(area).at(0)).dataWidthBits;
    out.memories.push_back({std::string(config::memoryKindName(m.kind)), m.base, m.size,
                            width / 8.0 * timing.clockScale * timing.portsUsed, double(timing.readLatency),
                            double(timing.writeLatency), timing.separateReadWrite, timing.portsUsed});
  }
  return out;
}

} // namespace npusim::platform
