// SPDX-License-Identifier: Apache-2.0
#pragma once
// How the platform lays out the SoC for a configuration, in plain C++: where each memory sits
// in the address space (the memory map) and the memory system's instances that the SystemC
// platform elaborates from it.

#include <cstdint>
#include <vector>

#include "models/mem/memory_system_params.h"
#include "sim/config/system_params.h"
#include "sim/io/compiled_network.h"

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

// Where TFLM and the Ethos-U driver place an ethos-u operator's command stream and tensors, with
// the model file at the start of the memory that holds the constants (modelAddress) and the tensor
// arena at the start of the arena's memory (arenaAddress): the registers the driver programs.
struct DriverJob {
  uint64_t qbase = 0;                   // QBASE: the command stream's address
  uint32_t qsize = 0;                   // QSIZE: its bytes
  // BASEP0..: the constant tensor, the arena, the fast scratch (Vela's region 2: the NPU's SRAM
  // cache at the start of its memory when that is not the arena's, Dedicated_Sram), then the
  // operator's further tensors; the driver programs at most 8.
  std::vector<uint64_t> basep;
  uint32_t qconfig = 0, regioncfg = 0;  // QCONFIG, REGIONCFG: each region's and the stream's area
};
uint64_t modelAddress(const config::SystemParams& params, const MemoryMap& map);
uint64_t arenaAddress(const config::SystemParams& params, const MemoryMap& map);
// Contract: `op` is an ethos-u operator of `net`.
DriverJob driverJob(const io::CompiledNetwork& net, const io::Operator& op, const config::SystemParams& params,
                    const MemoryMap& map);

} // namespace npusim::platform
