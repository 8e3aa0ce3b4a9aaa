// SPDX-License-Identifier: Apache-2.0
#include "sim/cli/workload.h"

#include "sim/io/demo_network.h"

namespace npusim::cli {

io::CompiledNetwork loadWorkload(const std::string& path) {
  if (path.empty()) {
    return io::loadNetworkFromBytes(io::buildDemoNetworkTflite(), "<demo>");
  }
  return io::loadNetwork(path);
}

} // namespace npusim::cli
