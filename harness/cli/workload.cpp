// SPDX-License-Identifier: Apache-2.0
#include "harness/cli/workload.h"

#include "models/platform/platform.h"

namespace npusim::cli {

std::vector<io::DecodedNpuOp> decodeChecked(const io::CompiledNetwork& net, const config::SystemParams& params) {
  std::vector<io::DecodedNpuOp> decoded = io::decodeAll(net);
  platform::checkSimulationWork(net, decoded, params);
  return decoded;
}

} // namespace npusim::cli
