// SPDX-License-Identifier: Apache-2.0
#pragma once
// An Ethos-U NPU configuration (NpuConfig) as one SystemC module: APB register target, one AXI
// initiator socket per port of its architecture, the interrupt, and its timing (NpuCore: command
// processor, kernel and DMA units, AXI ports, plain C++) which runs each command stream the driver
// starts.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/npu/npu_core.h"
#include "models/npu/npu_observer.h"
#include "models/npu/npu_registers.h"
#include "models/npu/npu_stats.h"
#include "models/npu/pmu.h"
#include "sim/cmdstream/decoder.h"

namespace npusim::npu {

// A decoded command stream the NPU runs when started with QBASE = `qbase`.
struct NpuProgram {
  uint64_t qbase = 0;
  const cmd::Program* program = nullptr;
};

class EthosU : public sc_core::sc_module {
public:
  // The AXI manager ports, one per port of the architecture, in arch::PortId order, each named
  // after its port (axi0, axi1).
  sc_core::sc_vector<tlm_utils::simple_initiator_socket<EthosU>> ports;
  tlm_utils::simple_target_socket<EthosU> apb;
  sc_core::sc_event irq;        // end of stream (NPU_OP_STOP)

  EthosU(sc_core::sc_module_name name, const NpuModuleParams& params);

  void addProgram(const NpuProgram& program) { programs_.push_back(program); }
  // Ends the NPU's thread once the host is done (its stack unwinds, nothing leaks); the caller
  // resumes the simulation to let it return.
  void shutdown();
  const NpuStats& stats() const;
  // Its performance monitor: the driver's counters, each AXI port's counters, the PMU windows.
  const Pmu& pmu() const { return pmu_; }
  // Attaches an observer of blocks and fetch waits (null: none). Call before running.
  void setObserver(NpuObserver* observer) { observer_ = observer; }
  // Reports every burst of port `port` to `observer` (null: none). Call before running.
  void setBurstObserver(arch::PortId port, mem::BurstObserver* observer) { burstObservers_.at(port.index) = observer; }

private:
  SC_HAS_PROCESS(EthosU);
  void registerWrite(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void run();
  double now() const { return sc_core::sc_time_stamp() / period_; }
  // The timing, built at the first start against the memories the ports' target serves.
  NpuCore& core();

  NpuModuleParams params_;
  sc_core::sc_time period_;
  std::array<uint64_t, 8> basep_{};
  uint64_t qbase_ = 0;
  uint32_t qsize_ = 0;
  sc_core::sc_event start_;
  sc_core::sc_event shutdown_;
  bool stopping_ = false;
  std::vector<NpuProgram> programs_;
  Pmu pmu_;
  std::unique_ptr<NpuCore> core_;
  NpuObserver* observer_ = nullptr;
  std::vector<mem::BurstObserver*> burstObservers_;
  uint32_t invocation_ = 0;
};

} // namespace npusim::npu
