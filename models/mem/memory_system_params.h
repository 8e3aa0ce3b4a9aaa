// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the memory system is built from, in plain C++: its memory instances (each an address
// range with its timing: the address map is this list) and the link of the Cortex-M55's data
// port. The platform describes them from the configuration; the NPU's ports are the NPU's own.

#include <cstdint>
#include <string>
#include <vector>

#include "models/mem/axi_port.h"

namespace npusim::mem {

// Burst split of the Cortex-M55 data port (64-bit, 32-byte bursts).
constexpr uint32_t kCpuBurstBytes = 32;

// One memory instance: where it sits in the address space and how it times bursts. Several
// ports may reach one instance; they share its data paths, `lanes` at a time.
struct MemoryInstanceParams {
  std::string name;                     // for messages ("Sram")
  uint64_t base = 0, size = 0;          // address range [base, base + size)
  double bytesPerCycle = 8;             // data-path bandwidth, NPU cycles, all lanes together
  double readLatency = 0, writeLatency = 0;
  bool separateReadWrite = false;       // reads and writes on separate data paths
  uint32_t lanes = 1;                   // ports served at once (Vela 5.0's ports used)
};

struct MemorySystemParams {
  double clockHz = 500e6;
  std::vector<MemoryInstanceParams> memories;  // disjoint address ranges
  // The Cortex-M55 data port: 64-bit, kCpuBurstBytes bursts, a few outstanding accesses.
  AxiPortParams cpu{8, kCpuBurstBytes, 4, 4, 0};
  // The memories keep the bytes written to them and the NPU's sockets take standard TLM-2.0
  // bursts with data; off on npusim's fast path, where the NPU times its bursts against the
  // memories directly and moves no data.
  bool storeData = false;
};

} // namespace npusim::mem
