// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the memory system is built from, in plain C++: its memory instances (each an address
// range with its timing: the address map is this list) and one link per initiator port (each
// NPU port, the Cortex-M55's data port). The platform describes them from the configuration.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/system_params.h"

namespace npusim::mem {

// Burst split of the Cortex-M55 data port (64-bit, 32-byte bursts).
constexpr uint32_t kCpuBurstBytes = 32;

// One memory instance: where it sits in the address space and how it times bursts. Several
// links may reach one instance; they share its data paths.
struct MemoryInstanceParams {
  std::string name;                     // for messages ("Sram")
  uint64_t base = 0, size = 0;          // address range [base, base + size)
  double bytesPerCycle = 8;             // data-path bandwidth, NPU cycles
  double readLatency = 0, writeLatency = 0;
  bool separateReadWrite = false;       // reads and writes on separate data paths
};

// One initiator port's link into the memory system: data width, AXI burst split and outstanding
// limits, and the timing adapter between the port and the interconnect (all zero: none).
struct LinkParams {
  std::string name;                     // the port's name ("axi0", "cpu")
  uint32_t bytesPerBeat = 8;
  uint32_t maxBurstBytes = 64;
  uint32_t maxReads = 1, maxWrites = 1;
  config::TimingAdapterParams adapter;
  // Index into MemorySystemParams::sharedAdapters of the adapter the link passes with other
  // links (then `adapter` is unused), or -1: its own.
  int sharedAdapter = -1;
};

struct MemorySystemParams {
  double clockHz = 500e6;
  std::vector<MemoryInstanceParams> memories;  // disjoint address ranges
  std::vector<LinkParams> npuPorts;            // one per NPU port, in arch::PortId order
  std::vector<config::TimingAdapterParams> sharedAdapters;  // adapters several links pass (LinkParams::sharedAdapter)
  // The Cortex-M55 data port: 64-bit, kCpuBurstBytes bursts, a few outstanding accesses.
  LinkParams cpu{"cpu", 8, kCpuBurstBytes, 4, 4, {}, -1};
};

} // namespace npusim::mem
