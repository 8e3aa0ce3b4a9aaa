// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the eight command-stream regions hold in a Vela-compiled model: the driver sets base
// pointer n to the ethos-u operator's n-th tensor (after the command stream), which is 0 the
// constant tensor (weights, biases, LUTs), 1 the arena (scratch), 2 Vela's fast scratch (the
// NPU's SRAM cache, or the U85's staging area), 3-7 further inputs and outputs, which live in
// the arena (command-stream doc 8; ethos-u85.md 3.6). Plain C++.

#include <cstdint>

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

} // namespace npusim::arch
