// SPDX-License-Identifier: Apache-2.0
#pragma once
// Integer rounding helpers shared by the decoder, the simulator and the estimator, for
// unsigned integers (the result has the operands' common type).

#include <type_traits>

namespace npusim {

// ceil(a / b) for b > 0.
template <typename A, typename B> constexpr std::common_type_t<A, B> ceilDiv(A a, B b) {
  static_assert(std::is_unsigned_v<A> && std::is_unsigned_v<B>, "ceilDiv is for unsigned integers");
  return static_cast<std::common_type_t<A, B>>((a + b - 1) / b);
}

// The smallest multiple of m that is >= v, for m > 0.
template <typename A, typename B> constexpr std::common_type_t<A, B> roundUp(A v, B m) {
  return static_cast<std::common_type_t<A, B>>(ceilDiv(v, m) * m);
}

} // namespace npusim
