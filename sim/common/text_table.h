// SPDX-License-Identifier: Apache-2.0
#pragma once
// Plain-text tables for terminal reports.

#include <ostream>
#include <string>
#include <vector>

namespace npusim {

// Writes rows of cells, each line starting with `indent`, columns padded to their widest cell
// (the last column is not padded).
void writeAligned(std::ostream& os, const std::vector<std::vector<std::string>>& rows, const std::string& indent);

} // namespace npusim
