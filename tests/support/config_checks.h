// SPDX-License-Identifier: Apache-2.0
#pragma once
// Comparing two resolved configurations key by key, for the config tests.

#include <doctest/doctest.h>

#include "sim/config/config_schema.h"
#include "sim/config/system_params.h"

namespace npusim::test {

// The same keys apply to `a` and `b` (the same ports), each with the same value.
inline void checkSameValues(const config::SystemParams& a, const config::SystemParams& b) {
  for (const auto& key : config::schema()) {
    CAPTURE(key.path);
    REQUIRE(config::keyApplies(key, a) == config::keyApplies(key, b));
    if (config::keyApplies(key, a)) CHECK(config::formatValue(key, a) == config::formatValue(key, b));
  }
}

} // namespace npusim::test
