// SPDX-License-Identifier: Apache-2.0
#pragma once
// The decoder of architecture 2.x streams (Ethos-U85): the register semantics of ethos-u85.md
// 3.2-3.4 (chaining, broadcast and scalar operands, transpose and reverse, resize, branches,
// strided and indexed DMA, LUT loads, weight formats and up to four weight streams) into
// architecture-neutral Operations. Reached through decodeOperations.

#include <vector>

#include "sim/cmdstream/decoder.h"

namespace npusim::cmd {

// decodeOperations for a stream in the CommandSet::Format::EthosU85 format.
std::vector<Operation> decodeU85Operations(const arch::NpuConfig& hardware, const std::vector<Command>& commands,
                                           const StreamOrigin& origin, const RegionLimits& limits);

} // namespace npusim::cmd
