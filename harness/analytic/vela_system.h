// SPDX-License-Identifier: Apache-2.0
#pragma once
// The system as Vela 3.10's performance model sees it: accelerator tables and memory areas.

#include <array>
#include <cstdint>
#include <string_view>

#include "sim/arch/npu_config.h"
#include "sim/cmdstream/operation.h"
#include "sim/config/region_map.h"
#include "sim/config/system_params.h"

namespace npusim::analytic {

// Vela's memory areas. Shram is the NPU-internal buffer (target of LUT DMAs).
enum class MemArea : uint8_t { Sram, Dram, OnChipFlash, OffChipFlash, Shram };

constexpr std::array<MemArea, 4> kAccessAreas{MemArea::Sram, MemArea::Dram, MemArea::OnChipFlash,
                                              MemArea::OffChipFlash};

std::string_view memAreaName(MemArea area);
// The area of a memory kind.
MemArea memAreaOf(config::MemoryKind kind);

// Per-MAC-configuration constants of an Ethos-U55 (timing doc 1.1, 1.2).
// Vela's timing of one memory area.
struct AreaTiming {
  double bytesPerCycle = 8.0;
  uint32_t burstLength = 1;
  uint32_t readLatency = 0;
  uint32_t writeLatency = 0;
};

// Accelerator plus memory system with Vela's view of the memory mode applied.
// Contract: built from real-hardware SystemParams; when constants, arena and cache all sit on
// the same SRAM port (Sram_Only), constants move to a virtual OnChipFlash area with SRAM
// timing on the other port, exactly as Vela does.
class VelaSystem {
public:
  // `hardware` is the configuration the stream was compiled for (COP1 header).
  VelaSystem(const config::SystemParams& params, const arch::NpuConfig& hardware);

  const arch::NpuConfig& accelerator() const { return *accel_; }
  const AreaTiming& timing(MemArea area) const { return timing_[static_cast<size_t>(area)]; }
  MemArea constArea() const { return constArea_; }
  MemArea arenaArea() const { return arenaArea_; }
  MemArea fastArea() const { return fastArea_; }
  double coreClockHz() const { return coreClockHz_; }
  // Memory area of a command-stream region: where the region map puts it, except that the
  // constants follow Vela's Sram_Only quirk.
  MemArea regionArea(uint8_t region) const;

private:
  const arch::NpuConfig* accel_;
  config::RegionMap regions_;
  std::array<MemArea, arch::kAreaCount> portArea_{};  // by arch::AreaId, after the Sram_Only quirk
  std::array<AreaTiming, 5> timing_{};
  MemArea constArea_ = MemArea::OffChipFlash;
  MemArea arenaArea_ = MemArea::Sram;
  MemArea fastArea_ = MemArea::Sram;
  double coreClockHz_ = 0;
};

} // namespace npusim::analytic
