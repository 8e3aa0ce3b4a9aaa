// SPDX-License-Identifier: Apache-2.0
#include "harness/cli/output.h"

#include "sim/common/error.h"

namespace npusim::cli {

std::ofstream openOutput(const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    InputError::Location loc;
    loc.file = path;
    throw InputError(loc, "cannot open output file for writing");
  }
  return out;
}

} // namespace npusim::cli
