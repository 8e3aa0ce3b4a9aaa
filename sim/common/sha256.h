// SPDX-License-Identifier: Apache-2.0
#pragma once
// SHA-256 digests of files (libmd, the BSD message-digest library, computes them), used to record
// which model bytes a regression baseline was taken from.

#include <string>

namespace npusim {

// Lower-case hex SHA-256 of the file's bytes; throws InputError naming `path` when it cannot be
// read.
std::string sha256OfFile(const std::string& path);

} // namespace npusim
