// SPDX-License-Identifier: Apache-2.0
#pragma once
// The system as Vela 5.0's performance model sees it (regor's ArchitectureMemory and memory
// roles): named memories with a bandwidth, latencies and burst length, and which of them hold
// the constants, the feature maps, the weight/LUT staging buffers and the LUTs.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "harness/analytic/vela_system.h"
#include "sim/arch/npu_config.h"
#include "sim/config/system_params.h"

namespace npusim::analytic::vela5 {

// One memory as Vela 5.0 sets it up from vela.ini: bandwidth in bytes per NPU cycle (a float,
// as regor keeps it), latencies in cycles, the minimum efficient burst in bytes, the AXI ports it
// is reached through and the transactions each may have outstanding.
struct Memory {
  std::string_view name;             // Vela 5.0's spelling: Sram, Dram, OnChipFlash, OffChipFlash, shram, lutram
  MemArea area = MemArea::Sram;      // the per-layer CSV column it reports to (Shram: none)
  float bandwidth = 1;
  int readLatency = 0;
  int writeLatency = 0;
  int burstLength = 1;
  int portsUsed = 1;
  int maxReads = 1;
  int maxWrites = 1;
};

// The memories of one system config and memory mode.
// Contract: built from real-hardware SystemParams; unlike Vela 3.10 there is no Sram_Only
// renaming (constants in SRAM stay "Sram"), and the AXI width in the bandwidth is Vela 5.0's:
// 8 bytes when the system config's name starts with "Ethos_U55", else 16, whatever the NPU.
class System {
public:
  System(const config::SystemParams& params, const arch::NpuConfig& hardware);

  const arch::NpuConfig& accelerator() const { return *accel_; }
  const Memory& readonly() const { return memories_[readonly_]; }
  const Memory& featureMaps() const { return memories_[featureMaps_]; }
  const Memory& staging() const { return memories_[staging_]; }
  // The NPU-internal memory LUTs are copied to: the SHRAM (U55, U65) or the LUT RAM (U85).
  const Memory& lut() const { return memories_[kShram]; }
  // Memory of a command-stream region: 0 constants, 2 staging (when it differs from the
  // feature-map memory), others feature maps.
  const Memory& region(uint8_t region) const;
  // Memory behind a per-layer CSV column.
  const Memory& memory(MemArea area) const { return memories_[static_cast<size_t>(area)]; }

private:
  static constexpr size_t kShram = static_cast<size_t>(MemArea::Shram);
  const arch::NpuConfig* accel_;
  std::array<Memory, 5> memories_{};   // indexed by MemArea
  size_t readonly_ = 0, featureMaps_ = 0, staging_ = 0;
};

} // namespace npusim::analytic::vela5
