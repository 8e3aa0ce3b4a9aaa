// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything one simulation measured.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/npu/npu_stats.h"
#include "models/platform/bound.h"
#include "sim/config/system_params.h"

namespace npusim::platform {

struct NetworkOpRecord {
  size_t index = 0;
  std::string name;
  bool npu = false;
  double start = 0, end = 0;        // NPU clock cycles
  double npuActive = 0;             // ethos-u: NPU start -> end of stream
  double npuIdle = 0;               // ethos-u: PMU window minus NPU active
  double pmuStart = 0, pmuEnd = 0;  // ethos-u: the driver's inference_begin / inference_end callbacks
};

// Traffic and stalls of one NPU AXI port (the Cortex-M55's data port is not reported).
struct PortReport {
  std::string name;                 // axi0, axi1
  std::string memory;               // memory on that port
  uint64_t readBytes = 0, writeBytes = 0, readBeats = 0, writeBeats = 0, readBursts = 0, writeBursts = 0;
  double readLimitStall = 0, writeLimitStall = 0, contention = 0;
  double bytesPerCycle = 0;         // the port's peak (SystemParams::portPeakBytesPerCycle)
};

// One NPU Operation with the network operator it belongs to and what bound it.
struct OperationReport {
  size_t networkOp = 0;             // index of its ethos-u operator in the network
  npu::OperationRecord record;
  std::string bound;                // kernels: the label of boundCycles' largest share; empty otherwise
  BoundCycles boundCycles;          // kernels: charged cycles by cause (docs/outputs.md)
  double chargedCycles = 0;         // kernels: length of the charged interval (chargedIntervals)
};

// What the invariant checker (run --check) found: models/platform/invariant_checker.h.
struct CheckReport {
  uint64_t bursts = 0, blocks = 0, operations = 0;  // what it checked
  uint64_t violations = 0;                           // all of them
  std::vector<std::string> examples;                 // the first ones, one line each
  bool ok() const { return violations == 0; }
};

struct RunResult {
  std::string model;
  config::SystemParams params;
  double totalCycles = 0;           // whole run, NPU clock
  double npuActive = 0, npuIdle = 0;
  uint64_t macs = 0;
  std::vector<NetworkOpRecord> networkOps;
  std::vector<OperationReport> operations;
  std::vector<PortReport> ports;
  std::map<std::string, uint64_t> pmu;  // driver event names
  npu::NpuStats npuStats;
  std::optional<CheckReport> check;     // when the run was checked
};

} // namespace npusim::platform
