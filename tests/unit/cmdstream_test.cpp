// SPDX-License-Identifier: Apache-2.0
#include <doctest/doctest.h>

#include "sim/cmdstream/builder.h"

TEST_CASE("placeholder builds") { CHECK(npusim::cmd::u55ConfigWord(128) == 0x1807); }
