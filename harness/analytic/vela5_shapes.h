// SPDX-License-Identifier: Apache-2.0
// Shape and rounding helpers of Vela 5.0's cost models (regor's Shape arithmetic and integer
// division), shared by the Ethos-U55/U65 and Ethos-U85 performance models.
#pragma once

#include <algorithm>
#include <cstdint>

#include "sim/cmdstream/operation.h"
#include "sim/common/int_math.h"
#include "sim/common/shape.h"

namespace npusim::analytic::vela5 {

using Shape = Shape3;

// NHCWB16 stores channels in bricks of 16.
constexpr uint32_t kBrickDepth = 16;

inline Shape minShape(const Shape& a, const Shape& b) {
  return {std::min(a.height, b.height), std::min(a.width, b.width), std::min(a.depth, b.depth)};
}

// Element-wise ceil(a / b).
inline Shape divRoundUp(const Shape& a, const Shape& b) {
  return {static_cast<uint32_t>(ceilDiv(a.height, b.height)), static_cast<uint32_t>(ceilDiv(a.width, b.width)),
          static_cast<uint32_t>(ceilDiv(a.depth, b.depth))};
}

// ceil(a / b) in regor's signed integers.
inline int64_t divUp(int64_t a, int64_t b) { return (a + b - 1) / b; }

inline int64_t elements(const Shape& s) { return static_cast<int64_t>(s.elements()); }
inline int64_t elementsWH(const Shape& s) { return int64_t{s.width} * s.height; }

// Storage rounding of a format: NHCWB16 bricks of 16 channels.
inline Shape storageRounded(const Shape& s, cmd::DataFormat format) {
  return format == cmd::DataFormat::Nhcwb16
             ? Shape{s.height, s.width, static_cast<uint32_t>(roundUp(uint64_t{s.depth}, uint64_t{kBrickDepth}))}
             : s;
}

// int64_t(float(bytes) / bandwidth), as regor divides.
inline int64_t perBandwidth(int64_t bytes, float bandwidth) {
  return static_cast<int64_t>(static_cast<float>(bytes) / bandwidth);
}

} // namespace npusim::analytic::vela5
