// SPDX-License-Identifier: Apache-2.0
#pragma once
// The model a subcommand works on: a file, or the built-in demo network when none is given.

#include <string>
#include <vector>

#include "sim/config/system_params.h"
#include "sim/io/compiled_network.h"
#include "sim/io/decoded_network.h"

namespace npusim::cli {

// The network's decoded command streams, refused with an InputError when simulating them on
// `params` (bound to the network) would take unreasonable work or leave the memory map
// (platform::checkSimulationWork): inspect and estimate refuse the same files as run. An
// architecture that is estimated but not simulated (the U85) is decoded without that check.
std::vector<io::DecodedNpuOp> decodeChecked(const io::CompiledNetwork& net, const config::SystemParams& params);

} // namespace npusim::cli
