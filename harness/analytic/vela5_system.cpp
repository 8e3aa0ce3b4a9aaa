// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/vela5_system.h"

#include <algorithm>

namespace npusim::analytic::vela5 {

namespace {

// Vela 5.0 (regor.cpp, regor_set_system_config) takes the AXI width from the system config's
// name: 8 bytes for "Ethos_U55*", 16 for every other name.
int axiWidthBytes(const std::string& systemConfig) {
  return systemConfig.rfind("Ethos_U55", 0) == 0 ? 8 : 16;
}

} // namespace

System::System(const config::SystemParams& params, const arch::NpuConfig& hardware) : accel_(&hardware) {
  // 1. Every memory kind with its vela.ini timing; regor's memory is bandwidth = clock scale x
  //    AXI width x ports used, as a float.
  const float width = static_cast<float>(axiWidthBytes(params.systemConfig));
  for (config::MemoryKind kind : config::kMemoryKinds) {
    const config::MemoryParams& m = params.memory(kind);
    Memory& mem = memories_[static_cast<size_t>(memAreaOf(kind))];
    mem.name = config::memoryKindName(kind);
    mem.area = memAreaOf(kind);
    mem.bandwidth = static_cast<float>(m.clockScale) * width * static_cast<float>(m.portsUsed);
    mem.readLatency = static_cast<int>(m.readLatency);
    mem.writeLatency = static_cast<int>(m.writeLatency);
    mem.burstLength = static_cast<int>(m.burstLength);
    mem.portsUsed = static_cast<int>(m.portsUsed);
    // An outstanding-transaction key vela.ini leaves unset is 1 in regor (regor.cpp, Memories).
    mem.maxReads = m.maxReads > 0 ? static_cast<int>(m.maxReads) : 1;
    mem.maxWrites = m.maxWrites > 0 ? static_cast<int>(m.maxWrites) : 1;
  }
  //    A timing adapter on a port shows through as for Vela 3.10 (vela_system.cpp): its nominal
  //    bandwidth and minimum latencies bound the memory behind it (an area's first port: the
  //    U55's and U65's only one).
  for (arch::AreaId area : arch::kAreas) {
    const arch::PortId port = params.portsIn(area).at(0);
    const config::TimingAdapterParams& ta = params.port(port).adapter;
    Memory& mem = memories_[static_cast<size_t>(memAreaOf(params.memoryIn(area)))];
    const double nominal = ta.nominalBytesPerCycle(params.port(port).dataWidthBits / 8);
    if (nominal > 0) {
      mem.bandwidth = std::min(mem.bandwidth, static_cast<float>(nominal));
    }
    mem.readLatency = std::max(mem.readLatency, static_cast<int>(ta.readLatency));
    mem.writeLatency = std::max(mem.writeLatency, static_cast<int>(ta.writeLatency));
    //    Behind an adapter, the outstanding transactions vela.ini leaves unset are the port's (its
    //    AXI limit, at most the adapter's pending limit), not regor's 1: a platform preset
    //    describes the adapter, not Vela's keys.
    if (!ta.transparent()) {
      const config::MemoryParams& m = params.memory(params.memoryIn(area));
      const auto limit = [](uint32_t axi, uint32_t adapter) {
        return static_cast<int>(adapter > 0 ? std::min(axi, adapter) : axi);
      };
      if (m.maxReads == 0) mem.maxReads = limit(params.port(port).maxOutstandingReads, ta.maxReads);
      if (m.maxWrites == 0) mem.maxWrites = limit(params.port(port).maxOutstandingWrites, ta.maxWrites);
    }
  }
  // 2. The NPU-internal memory LUTs go to, as regor sets it up (ethos_u55.cpp, ethos_u85.cpp): 1 byte
  //    per cycle, no latency, burst 1, 1000 transactions outstanding either way.
  const bool shram = hardware.arch->buffers == arch::BufferModel::Shram;
  memories_[kShram] = Memory{shram ? "shram" : "lutram", MemArea::Shram, 1.0f, 0, 0, 1, 1, 1000, 1000};
  // 3. Roles from the memory mode's areas.
  const auto on = [&](arch::AreaId area) { return static_cast<size_t>(memAreaOf(params.memoryIn(area))); };
  readonly_ = on(params.mode.constMemArea);
  featureMaps_ = on(params.mode.arenaMemArea);
  staging_ = on(params.mode.cacheMemArea);
}

const Memory& System::region(uint8_t region) const {
  switch (region) {
  case 0: return readonly();
  case 2: return staging();
  default: return featureMaps();
  }
}

} // namespace npusim::analytic::vela5
