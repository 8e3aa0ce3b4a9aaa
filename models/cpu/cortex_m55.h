// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Cortex-M55 host: runs the network's operators in order; CPU operators take their cost
// model's cycles, ethos-u operators run the Ethos-U driver sequence over APB and wait for the
// NPU interrupt.

#include <array>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

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
};

struct HostRecord {
  size_t networkOp = 0;
  double start = 0, end = 0;              // NPU clock cycles
};

// What the host model needs of the system: the NPU clock its times are counted in, the host's
// own parameters (clock, driver overheads) and where the NPU's PMU control register is.
struct CortexM55Params {
  double npuClockHz = 500e6;
  config::HostParams host;
  uint64_t pmuControl = 0;                // PMCR offset (arch::PmuDesc)
};

class CortexM55 : public sc_core::sc_module {
public:
  tlm_utils::simple_initiator_socket<CortexM55> apb;  // to the NPU's registers
  tlm_utils::simple_initiator_socket<CortexM55> axi;  // data port to the memory system

  CortexM55(sc_core::sc_module_name name, const CortexM55Params& params, sc_core::sc_event& npuIrq);

  void setProgram(std::vector<HostStep> steps) { steps_ = std::move(steps); }
  const std::vector<HostRecord>& records() const { return records_; }
  bool finished() const { return finished_; }

private:
  SC_HAS_PROCESS(CortexM55);
  void run();
  // One NPU register write over APB, charged its bus cycles.
  void writeRegister(uint64_t address, uint32_t value, sc_core::sc_time& delay);
  // The profiler's PMCR write in the driver's inference_begin / inference_end callback, now: its
  // cost is part of the driver and interrupt overheads.
  void writePmuControl(uint32_t value);
  void transportRegister(uint64_t address, uint32_t value, sc_core::sc_time& delay);
  void dataTransfer(uint64_t address, uint64_t bytes, bool write, sc_core::sc_time& delay);
  CortexM55Params params_;
  sc_core::sc_event& npuIrq_;
  sc_core::sc_time npuPeriod_, hostPeriod_;
  std::vector<HostStep> steps_;
  std::vector<HostRecord> records_;
  bool finished_ = false;
};

} // namespace npusim::cpu
