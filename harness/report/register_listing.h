// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 5.0's register listing (`vela --verbose-register-command-stream` with its C++ back end),
// for any architecture: the stream's length in words, a column header, and one line per command
// with the fields of the architecture's register interface decoded (its command set's field
// table, sim/arch/command_fields). Vela writes a `//` annotation before each kernel and DMA
// operation's commands from its compiler state; npusim writes one at the same place with what the
// stream and the model determine (the operation's kind and mode, kernel size, stride, dilation and
// padding, OFM block, micro-block, traversal and accumulator; a DMA's regions and what Vela keeps
// there, addresses, sizes and length) and leaves out what only Vela's compiler knew (the TFLite
// operator, fused operators, the IFM block, the memories' names: docs/outputs.md).

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/arch/npu_config.h"
#include "sim/cmdstream/decoder.h"

namespace npusim::report {

// What the listing needs to know beside the stream: the configuration it was compiled for, and
// whether the model's staging area is its arena (input 3 repeats input 2: Vela then calls region
// 1 "FeatureMap|Staging").
struct ListingContext {
  const arch::NpuConfig* hardware = nullptr;
  bool stagingInArena = false;
};

// Writes the listing of one command stream.
void writeVela5Listing(std::ostream& os, const cmd::Program& program, const ListingContext& context);

// The annotation line of a kernel or DMA operation (no newline).
std::string vela5Annotation(const cmd::Operation& op, const ListingContext& context);

// One command's line (no newline): offset, payload, param, code, name, param and fields.
std::string vela5Line(const cmd::Command& command);

} // namespace npusim::report
