// SPDX-License-Identifier: Apache-2.0
#pragma once
// The model a subcommand works on: a file, or the built-in demo network when none is given.

#include <string>

#include "sim/io/compiled_network.h"

namespace npusim::cli {

io::CompiledNetwork loadWorkload(const std::string& path);

} // namespace npusim::cli
