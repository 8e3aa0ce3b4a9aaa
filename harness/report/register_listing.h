// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 5.0's register listing (`vela --verbose-register-command-stream` with its C++ back end):
// the stream's length in words, a column header, and one line per command with the fields of
// the Ethos-U55/U65 register interface decoded. Vela interleaves `//` annotation lines from its
// compiler state (operator types, chained operations, memory names, IFM blocks) that the
// compiled model does not record; this listing has the command lines only.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/cmdstream/decoder.h"

namespace npusim::report {

// Writes the listing of one command stream of `streamBytes` bytes.
void writeVela5Listing(std::ostream& os, const std::vector<cmd::Command>& commands, uint32_t streamBytes);

// One command's line (no newline): offset, payload, param, code, name, param and fields.
std::string vela5Line(const cmd::Command& command);

} // namespace npusim::report
