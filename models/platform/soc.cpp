// SPDX-License-Identifier: Apache-2.0
#include "models/platform/soc.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/common/int_math.h"
#include "sim/config/region_map.h"

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

uint64_t modelAddress(const config::SystemParams& params, const MemoryMap& map) {
  return map.of(config::RegionMap(params).memory(arch::kConstantRegion)).base;
}

uint64_t arenaAddress(const config::SystemParams& params, const MemoryMap& map) {
  return map.of(config::RegionMap(params).memory(arch::kArenaRegion)).base;
}

DriverJob driverJob(const io::CompiledNetwork& net, const io::Operator& op, const config::SystemParams& params,
                    const MemoryMap& map) {
  if (op.kind != io::OperatorKind::Npu) {
    throw std::logic_error("driverJob: operator " + std::to_string(op.index) + " is not an ethos-u operator");
  }
  const config::RegionMap regions(params);
  const uint64_t modelBase = modelAddress(params, map);
  const uint64_t arenaBase = arenaAddress(params, map);
  DriverJob job;
  job.qbase = modelBase + op.npu.commands.offset;
  job.qsize = static_cast<uint32_t>(op.npu.commands.size);
  auto tensorAddress = [&](int tensor) {
    const auto& t = net.tensors[static_cast<size_t>(tensor)];
    return arenaBase + static_cast<uint64_t>(std::max<int64_t>(t.arenaOffset.value_or(0), 0));
  };
  job.basep.push_back(modelBase + roundUp(op.npu.flash.offset, uint64_t{16}));
  job.basep.push_back(tensorAddress(op.npu.scratchTensorIndex));
  // Vela's fast scratch (region 2) is the NPU's SRAM cache: in the arena when the cache shares the
  // arena's port (Shared_Sram, Sram_Only), else at the start of the cache memory (Dedicated_Sram).
  job.basep.push_back(regions.area(arch::kCacheRegion) == regions.area(arch::kArenaRegion)
                          ? tensorAddress(op.npu.scratchFastTensorIndex)
                          : map.of(regions.memory(arch::kCacheRegion)).base);
  for (size_t i = 4; i < op.inputs.size(); ++i) {
    if (op.inputs[i] >= 0) job.basep.push_back(tensorAddress(op.inputs[i]));
  }
  for (int t : op.outputs) job.basep.push_back(tensorAddress(t));
  const arch::HostRegisterMap& registers = params.architecture().registers;
  std::array<arch::AreaId, 8> areas{};
  for (uint8_t r = 0; r < 8; ++r) areas[r] = regions.area(r);
  job.regioncfg = arch::regionConfigWord(registers, areas);
  job.qconfig = arch::queueConfigWord(registers, params.commandStreamArea);
  return job;
}

} // namespace npusim::platform
