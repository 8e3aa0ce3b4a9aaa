// SPDX-License-Identifier: Apache-2.0
#include "sim/common/text_table.h"

#include <algorithm>

namespace npusim {

void writeAligned(std::ostream& os, const std::vector<std::vector<std::string>>& rows, const std::string& indent) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (size_t c = 0; c < row.size(); ++c) {
      widths[c] = std::max(widths[c], row[c].size());
    }
  }
  for (const auto& row : rows) {
    std::string line = indent;
    for (size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) {
        line += std::string(widths[c] - row[c].size() + 2, ' ');
      }
    }
    os << line << '\n';
  }
}

} // namespace npusim
