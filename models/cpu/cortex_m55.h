// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Cortex-M55 host: runs the network's operators in order; CPU operators take their cost
// model's cycles, ethos-u operators run the Ethos-U driver's register sequence over APB (laid
// out by the NPU's architecture) and wait for the NPU's interrupt.

#include <array>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "sim/arch/architecture.h"
#include "sim/config/system_params.h"

namespace npusim::cpu {

struct HostStep {
  size_t networkOp = 0;
  bool npu = false;
  uint64_t cpuCycles = 0;                 // CPU operator cost (host clock cycles)
  uint64_t dataAddress = 0;               // CPU operator: where its tensors live (arena)
  uint64_t readBytes = 0, writeBytes = 0; // CPU operator: activation bytes read and written
  uint64_t qbase = 0;                     // ethos-u: command stream address and size
  uint32_t qsize = 0;
  std::vector<uint64_t> basep;            // region base addresses (at most 8)
  uint32_t qconfig = 0, regioncfg = 0;    // the command stream's and each region's memory attribute
};

struct HostRecord {
  size_t networkOp = 0;
  double start = 0, end = 0;              // NPU clock cycles
};

// What the host model needs of the system: the NPU clock its times are counted in, the host's
// own parameters (clock, driver overheads) and the NPU's registers (its architecture's).
struct CortexM55Params {
  double npuClockHz = 500e6;
  config::HostParams host;
  const arch::Architecture* npu = nullptr;
};

class CortexM55 : public sc_core::sc_module {
public:
  tlm_utils::simple_initiator_socket<CortexM55> apb;  // to the NPU's registers
  tlm_utils::simple_initiator_socket<CortexM55> axi;  // data port to the memory system
  sc_core::sc_in<bool> npuIrq;                        // the NPU's interrupt

  CortexM55(sc_core::sc_module_name name, const CortexM55Params& params);

  void setProgram(std::vector<HostStep> steps) { steps_ = std::move(steps); }
  const std::vector<HostRecord>& records() const { return records_; }
  bool finished() const { return finished_; }

private:
  SC_HAS_PROCESS(CortexM55);
  void run();
  // The driver's run of one command stream (ethos-u operator).
  void runNpu(const HostStep& step);
  // One NPU register write over APB, charged its bus cycles.
  void writeRegister(uint64_t address, uint32_t value, sc_core::sc_time& delay);
  // A register access whose cost is counted in the driver's or the interrupt's overhead cycles
  // (the soft reset, the profiler's PMCR writes in the inference callbacks, the interrupt
  // handler's CMD and STATUS, and the routing and upper address words the earlier model did
  // not write), now.
  void writeFree(uint64_t address, uint32_t value);
  uint32_t readFree(uint64_t address);
  void access(tlm::tlm_command command, uint64_t address, uint32_t& value, sc_core::sc_time& delay);
  void dataTransfer(uint64_t address, uint64_t bytes, bool write, sc_core::sc_time& delay);
  CortexM55Params params_;
  bool npuReset_ = false;                 // the driver's first power request soft-resets the NPU
  sc_core::sc_time npuPeriod_, hostPeriod_;
  std::vector<HostStep> steps_;
  std::vector<HostRecord> records_;
  bool finished_ = false;
};

} // namespace npusim::cpu
