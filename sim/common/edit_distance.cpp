// SPDX-License-Identifier: Apache-2.0
#include "sim/common/edit_distance.h"

#include <algorithm>
#include <cctype>

namespace npusim {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

} // namespace

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      const size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string nearestName(std::string_view word, const std::vector<std::string_view>& candidates, size_t maxDistance) {
  const std::string w = lower(word);
  std::string_view best;
  size_t bestDistance = std::numeric_limits<size_t>::max();
  for (const auto c : candidates) {
    const size_t d = editDistance(w, lower(c));
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return bestDistance <= maxDistance ? std::string(best) : std::string();
}

} // namespace npusim
