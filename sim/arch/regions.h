// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the eight command-stream regions hold in a Vela-compiled model: the driver sets base
// pointer n to the ethos-u operator's n-th tensor (after the command stream), which is 0 the
// constant tensor (weights, biases, LUTs), 1 the arena (scratch), 2 Vela's fast scratch (the
// NPU's SRAM cache, or the U85's staging area), 3-7 further inputs and outputs, which live in
// the arena (command-stream doc 8; ethos-u85.md 3.6). Plain C++.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace npusim::arch {

enum class RegionUse : uint8_t { Constants, Arena, Cache };

constexpr uint8_t kConstantRegion = 0;
constexpr uint8_t kArenaRegion = 1;
constexpr uint8_t kCacheRegion = 2;

constexpr RegionUse regionUse(uint8_t region) {
  switch (region & 7) {
  case kConstantRegion: return RegionUse::Constants;
  case kCacheRegion: return RegionUse::Cache;
  default: return RegionUse::Arena;
  }
}

// One of Vela's two memory areas, Axi0 and Axi1: the memory behind a group of NPU ports, which
// vela.ini's axi0_port / axi1_port name and memory_mode.*_mem_area picks for the constants,
// the arena and the cache. On the U55 and U65 an area is one AXI port; on the U85 Axi0 is the
// SRAM ports and Axi1 the EXT ports (ethos-u85.md 1.2, 3.6). Each architecture's port list says
// which area each port serves (PortDesc::area).
struct AreaId {
  uint8_t index = 0;
  constexpr bool operator==(AreaId other) const { return index == other.index; }
  constexpr bool operator!=(AreaId other) const { return index != other.index; }
};

constexpr size_t kAreaCount = 2;
constexpr std::array<AreaId, kAreaCount> kAreas{AreaId{0}, AreaId{1}};

// Vela's name of an area: Axi0, Axi1.
constexpr std::string_view areaName(AreaId area) {
  constexpr std::array<std::string_view, kAreaCount> names{"Axi0", "Axi1"};
  return names[area.index % kAreaCount];
}

} // namespace npusim::arch
