// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading a configuration file into memory.

#include <string>
#include <string_view>

namespace npusim::config {

// Whole file as bytes. Throws InputError naming `path` if it is missing, a directory or
// unreadable; `what` names the kind of file in that message ("vela.ini file").
std::string readTextFile(const std::string& path, std::string_view what);

} // namespace npusim::config
