// SPDX-License-Identifier: Apache-2.0
#include "sim/cli/workload.h"

#include "sim/io/demo_network.h"
#include "sim/platform/platform.h"

namespace npusim::cli {

io::CompiledNetwork loadWorkload(const std::string& path) {
  if (path.empty()) {
    return io::loadNetworkFromBytes(io::buildDemoNetworkTflite(), "<demo>");
  }
  return io::loadNetwork(path);
}

std::vector<io::DecodedNpuOp> decodeChecked(const io::CompiledNetwork& net, const config::SystemParams& params) {
  std::vector<io::DecodedNpuOp> decoded = io::decodeAll(net);
  platform::checkSimulationWork(net, decoded, params);
  return decoded;
}

} // namespace npusim::cli
