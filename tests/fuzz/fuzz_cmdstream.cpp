// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: raw command-stream bytes through the decoder of an Ethos-U55 or U85
// configuration (commands, register file, Operation snapshots, region checks), the listing
// writers and, for an architecture the simulator models, the per-operation work bounds; a
// stream that parses must re-encode to the same bytes.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "harness/report/register_listing.h"
#include "models/npu/npu_cost.h"
#include "models/npu/work_bounds.h"
#include "sim/cmdstream/builder.h"
#include "sim/cmdstream/disassembler.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

// Region sizes of a small model (flash 4 KiB, arena 16 KiB) when the first input byte is odd;
// unchecked regions otherwise, so that both paths get explored.
npusim::cmd::RegionLimits limitsFor(uint8_t selector) {
  npusim::cmd::RegionLimits limits;
  if ((selector & 1) != 0) {
    limits.size = {4096, 16384, 16384, 1024, 1024, 0, 0, 0};
  }
  return limits;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string file = "fuzz.stream";
  const npusim::cmd::StreamOrigin origin{file, 0};
  const npusim::cmd::RegionLimits limits = limitsFor(data[0]);
  const npusim::arch::NpuConfig& hardware = *npusim::arch::findNpuConfig(npusim::fuzz::kCmdstreamConfigs[data[0] >> 1 & 3]);
  const uint8_t* stream = data + 1;
  const size_t streamSize = size - 1;
  npusim::fuzz::acceptOnlyInputError(file, [&] {
    const std::vector<npusim::cmd::Command> commands =
        npusim::cmd::parseCommands(*hardware.arch->commands, stream, streamSize, origin);
    if (npusim::cmd::encodeCommands(commands) != std::vector<uint8_t>(stream, stream + streamSize)) {
      std::fprintf(stderr, "parsed commands do not re-encode to the stream bytes\n");
      std::abort();
    }
    for (const npusim::cmd::Command& c : commands) {
      npusim::cmd::velaLine(c);
      npusim::report::vela5Line(c);
    }
    npusim::cmd::Program program;
    program.commands = commands;
    program.operations = npusim::cmd::decodeOperations(hardware, commands, origin, limits);
    std::ostringstream listing;
    npusim::report::writeVela5Listing(listing, program, {&hardware, (data[0] & 8) != 0});
    for (const npusim::cmd::Operation& op : program.operations) {
      npusim::cmd::describeOperation(op, hardware);
      npusim::npu::operationWork(hardware, op, npusim::npu::BurstCost{});
    }
  });
  return 0;
}
