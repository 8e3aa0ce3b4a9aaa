// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the NPU module measured, per operation and per invocation: plain C++, so that run
// results and the harness that reads them need no SystemC.

#include <cstdint>
#include <vector>

#include "models/npu/npu_units.h"
#include "sim/cmdstream/operation.h"

namespace npusim::npu {

// What happened to one NPU operation.
struct OperationRecord {
  uint32_t invocation = 0;      // which start of the NPU (one per ethos-u operator run)
  uint32_t index = 0;           // index in the program's operations
  cmd::OpKind kind = cmd::OpKind::Stop;
  uint32_t commandOffset = 0;
  double issue = 0, start = 0, end = 0;
  double macCycles = 0, outputCycles = 0;
  uint64_t blocks = 0, macs = 0;
  double stallIfm = 0, stallWeights = 0, stallOutput = 0, stallBlockdep = 0, stallShramReconfig = 0;
  double ccWait = 0;            // command processor stalled before dispatching it
  double fetchWait = 0;         // command processor waiting for command-stream fetch since the previous operation
  double writeTail = 0;         // kernel: end minus the last block's output-unit end (final OFM write)
  PortBytes bytes;
};

struct NpuStats {
  std::vector<OperationRecord> operations;
  std::vector<double> activeCycles; // per invocation: start -> end of stream
  double commandFetchBytes = 0;
};

} // namespace npusim::npu
