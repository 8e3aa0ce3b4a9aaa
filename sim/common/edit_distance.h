// SPDX-License-Identifier: Apache-2.0
#pragma once
// "Did you mean" suggestions: Levenshtein edit distance and the nearest of a list of names.

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace npusim {

// Insertions, deletions and substitutions that turn `a` into `b` (case-sensitive).
size_t editDistance(std::string_view a, std::string_view b);

// Nearest candidate by case-insensitive edit distance (the first of equally near ones); empty
// when there are no candidates or the nearest is more than `maxDistance` edits away.
std::string nearestName(std::string_view word, const std::vector<std::string_view>& candidates,
                        size_t maxDistance = std::numeric_limits<size_t>::max());

} // namespace npusim
