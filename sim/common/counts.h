// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one rounding rule of every printed count (cycles, stall cycles): the exact simulated
// value is rounded once, to the nearest integer with halves away from zero, where it is
// written. Text, JSON and CSV therefore print the same integer for the same count; a sum is
// rounded from the exact sum, so it can differ by one from the sum of rounded parts.

#include <cmath>
#include <cstdint>

namespace npusim {

inline int64_t roundCount(double v) { return static_cast<int64_t>(std::llround(v)); }

} // namespace npusim
