// SPDX-License-Identifier: Apache-2.0
#pragma once
// An Ethos-U NPU configuration (NpuConfig) as one SystemC module: the APB target of the driver's
// registers (NpuRegisters, laid out by the architecture), the interrupt output, one AXI initiator
// socket per port of its architecture, and its timing (NpuCore: command processor, kernel and DMA
// units, AXI ports, plain C++) which runs each command stream the driver starts.
//
// Its ports speak the TLM-2.0 base protocol to any target: a generic payload per AXI burst with
// real data, the NPU reading its command stream from QBASE and its DMA moving real bytes. Bound to
// npusim's own memory system (which answers the ignorable DirectTimingExtension), it takes
// npusim's fast path instead: its ports time their bursts against the memories directly, no data
// moves, and the command streams are handed over decoded (addProgram).

#include <array>
#include <cstdint>
#include <memory>
#include <string>
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
#include "models/npu/socket_target.h"
#include "sim/cmdstream/decoder.h"

namespace npusim::npu {

// A decoded command stream the NPU runs when started with QBASE = `qbase` (npusim's fast path,
// whose memories hold no data).
struct NpuProgram {
  uint64_t qbase = 0;
  const cmd::Program* program = nullptr;
};

class EthosU : public sc_core::sc_module {
public:
  // The AXI manager ports, one per port of the architecture, in arch::PortId order, each named
  // after its port (axi0, axi1).
  sc_core::sc_vector<tlm_utils::simple_initiator_socket<EthosU>> ports;
  // The driver's registers: 4-byte words at the architecture's offsets, read and written.
  tlm_utils::simple_target_socket<EthosU> apb;
  // The interrupt: raised at NPU_OP_STOP, NPU_OP_IRQ and on a fault, held until the driver
  // writes CMD's clear_irq bit.
  sc_core::sc_out<bool> irq;

  EthosU(sc_core::sc_module_name name, const NpuModuleParams& params);

  // Hands over a decoded stream (npusim's fast path: its memories hold no bytes to read).
  void addProgram(const NpuProgram& program) { programs_.push_back(program); }
  // Ends the NPU's thread once the host is done (its stack unwinds, nothing leaks); the caller
  // resumes the simulation to let it return.
  void shutdown();
  const NpuStats& stats() const;
  // Its performance monitor: the driver's counters, each AXI port's counters, the PMU windows.
  const Pmu& pmu() const { return pmu_; }
  // Why the last stream stopped before its end (STATUS shows a bus abort or a parse error), or empty.
  const std::string& faultMessage() const { return faultMessage_; }
  // Attaches an observer of blocks and fetch waits (null: none). Call before running.
  void setObserver(NpuObserver* observer) { observer_ = observer; }
  // Reports every burst of port `port` to `observer` (null: none). Call before running.
  void setBurstObserver(arch::PortId port, mem::BurstObserver* observer) { burstObservers_.at(port.index) = observer; }

private:
  SC_HAS_PROCESS(EthosU);
  void registerAccess(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // Acts on what a register write asked for.
  void apply(const NpuRegisters::Request& request, double now);
  // The core's routing and each port's limits from the registers (once it exists).
  void configureCore();
  void run();
  // The one process that writes `irq` (a signal has one writer): the registers' interrupt state.
  void driveIrq();
  double now() const { return sc_core::sc_time_stamp() / period_; }
  void waitUntil(double t);
  // The timing, built at the first start against what the ports are bound to: npusim's memories
  // (the fast path) or any TLM-2.0 target (a socket target per port).
  NpuCore& core();

  NpuModuleParams params_;
  sc_core::sc_time period_;
  sc_core::sc_event start_;
  sc_core::sc_event shutdown_;
  sc_core::sc_event irqUpdate_;
  bool stopping_ = false;
  bool busy_ = false;                 // a stream runs
  std::vector<NpuProgram> programs_;
  Pmu pmu_;
  NpuRegisters registers_;
  std::vector<std::unique_ptr<SocketTarget>> targets_;
  std::unique_ptr<NpuCore> core_;
  NpuObserver* observer_ = nullptr;
  std::vector<mem::BurstObserver*> burstObservers_;
  uint32_t invocation_ = 0;
  std::string faultMessage_;
};

} // namespace npusim::npu
