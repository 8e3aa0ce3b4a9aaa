// SPDX-License-Identifier: Apache-2.0
#pragma once
// The decoder of architecture 1.x streams (Ethos-U55, U65): the register semantics of the
// command-stream doc, into architecture-neutral Operations. Reached through decodeOperations.

#include <vector>

#include "sim/cmdstream/decoder.h"

namespace npusim::cmd {

// decodeOperations for a stream in the CommandSet::Format::EthosU55 format.
std::vector<Operation> decodeU55Operations(const arch::NpuConfig& hardware, const std::vector<Command>& commands,
                                           const StreamOrigin& origin, const RegionLimits& limits);

} // namespace npusim::cmd
