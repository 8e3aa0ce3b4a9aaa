// SPDX-License-Identifier: Apache-2.0
#pragma once
// Text listings of command streams, including Vela's register-level format.

#include <ostream>
#include <string>
#include <vector>

#include "sim/cmdstream/decoder.h"

namespace npusim::cmd {

// Writes the "Register-Level Command Stream: Output" section in the layout of Vela's
// --verbose-register-command-stream: header, one line per command, command count, length.
void writeVelaListing(std::ostream& os, const std::vector<Command>& commands, uint32_t streamBytes);

// One line of that listing (no newline).
std::string velaLine(const Command& command);

// Short human description of an operation of a stream for `hardware`: kind, shapes, block
// config and byte ranges (chaining buffers, scalars, weight formats where the architecture has them).
std::string describeOperation(const Operation& op, const arch::NpuConfig& hardware);

} // namespace npusim::cmd
