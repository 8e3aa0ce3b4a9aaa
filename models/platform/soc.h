// SPDX-License-Identifier: Apache-2.0
#pragma once
// How the platform lays out the SoC for a configuration, in plain C++: where each memory sits
// in the address space (the memory map) and the memory system's instances that the SystemC
// platform elaborates from it.

#include <cstdint>
#include <vector>

#include "models/mem/memory_system_params.h"
#include "sim/config/system_params.h"

namespace npusim::platform {

// One memory of the platform: a memory kind (whose timing SystemParams holds) at an address range.
struct MemoryInstance {
  config::MemoryKind kind = config::MemoryKind::Sram;
  uint64_t base = 0;
  uint64_t size = 0;
  uint64_t end() const { return base + size; }
};

// The platform's address map: its memory instances, one per memory kind.
class MemoryMap {
public:
  explicit MemoryMap(std::vector<MemoryInstance> instances) : instances_(std::move(instances)) {}
  // npusim's map: each memory kind in its own 256 MiB window (on-chip flash at 0, off-chip flash
  // at 0x1000'0000, SRAM at 0x2000'0000, DRAM at 0x6000'0000), whether a port reaches it or not.
  static const MemoryMap& standard();

  const std::vector<MemoryInstance>& instances() const { return instances_; }
  // The instance of memory kind `kind` (contract: the map has one; std::logic_error otherwise).
  const MemoryInstance& of(config::MemoryKind kind) const;

private:
  std::vector<MemoryInstance> instances_;
};

// The memory system for `params` over `map`: each instance with its kind's timing. A memory's
// bandwidth follows Vela: bytes per cycle = AXI width / 8 x clock scale x ports used, the width of
// the first port of the first area holding it (the first area when none does), served as one lane
// per port used.
mem::MemorySystemParams memorySystemParams(const config::SystemParams& params, const MemoryMap& map);

} // namespace npusim::platform
