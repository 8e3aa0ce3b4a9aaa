// SPDX-License-Identifier: Apache-2.0
#pragma once
// Joins the loader and the decoder: every `ethos-u` operator's commands and Operations.

#include <vector>

#include "sim/cmdstream/decoder.h"
#include "sim/io/compiled_network.h"

namespace npusim::io {

// One ethos-u operator's decoded command stream.
struct DecodedNpuOp : cmd::Program {
  size_t operatorIndex = 0;                 // index into CompiledNetwork::operators
  cmd::RegionLimits limits;                 // region sizes the stream was checked against
};

// Byte sizes of regions 0..7 for one ethos-u operator: 0 flash, 1 scratch, 2 scratch_fast, then
// the operator's further inputs and outputs (the driver's base-address order).
cmd::RegionLimits regionLimits(const CompiledNetwork& net, const Operator& op);

// Decodes one ethos-u operator. Throws InputError on any stream error.
DecodedNpuOp decodeNpuOp(const CompiledNetwork& net, const Operator& op);

// Decodes every ethos-u operator in execution order.
std::vector<DecodedNpuOp> decodeAll(const CompiledNetwork& net);

} // namespace npusim::io
