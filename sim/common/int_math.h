// SPDX-License-Identifier: Apache-2.0
#pragma once
// Integer rounding helpers shared by the decoder, the simulator and the estimator.

#include <cstdint>

namespace npusim {

// ceil(a / b) for b > 0.
constexpr uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// The smallest multiple of m that is >= v, for m > 0.
constexpr uint64_t roundUp(uint64_t v, uint64_t m) { return ceilDiv(v, m) * m; }

} // namespace npusim
