// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whole-file outputs written atomically: a reader (or a crash) sees the old file or the new one,
// never a partly written one.

#include <string>

namespace npusim {

// Writes `content` to `path` + ".tmp", then renames it over `path`. Throws InputError naming the
// file when either step fails (the old file is then left as it was).
void writeFileAtomically(const std::string& path, const std::string& content);

} // namespace npusim
