// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 3.10's names for the operators it makes from a source operator: the `Name` column of
// its per-layer CSV. Vela names an operator after its first output tensor and gives the parts
// of a rewritten operator suffixes (`x_fc`, `x0_avgpool`, `x_sub1`, `x_lut_sigmoid`, ...).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npusim::analytic {

// A source operator as Vela's debug database and the source model describe it.
struct SourceOperator {
  std::string type;                  // Vela operator type (debug database), e.g. "ConcatTFLite"
  std::string name;                  // its first output tensor's name in the source model
  size_t inputCount = 0;             // inputs in the source model (the parts of a Concatenation or Pack)
  std::array<int64_t, 4> padding{};  // a Pad's top, left, bottom, right padding (zero when unknown)
};

// The name of each operator Vela made from `source`, given their types in the order the
// debug database lists them (optimised table, ids ascending).
std::vector<std::string> velaOperatorNames(const SourceOperator& source, const std::vector<std::string>& optimisedTypes);

} // namespace npusim::analytic
