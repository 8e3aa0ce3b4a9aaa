// SPDX-License-Identifier: Apache-2.0
#pragma once
// Output files written by subcommands.

#include <fstream>
#include <string>

namespace npusim::cli {

// Opens `path` for writing; throws InputError naming it when that is not possible.
std::ofstream openOutput(const std::string& path);

} // namespace npusim::cli
