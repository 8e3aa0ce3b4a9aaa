// SPDX-License-Identifier: Apache-2.0
#pragma once
// An Ethos-U NPU configuration (NpuConfig) as one SystemC module: APB register target, one AXI
// initiator socket per port of its architecture, a command processor thread that fetches and
// parses the stream and dispatches operations to the kernel and DMA units, and the PMU.

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/npu/command_policy.h"
#include "models/npu/npu_observer.h"
#include "models/npu/npu_registers.h"
#include "models/npu/npu_stats.h"
#include "models/npu/npu_units.h"
#include "models/npu/pmu.h"
#include "sim/cmdstream/decoder.h"
#include "sim/config/region_map.h"
#include "sim/config/system_params.h"

namespace npusim::npu {

// What the NPU module needs of the system: its hardware configuration, its clock and where the
// driver's REGIONCFG / QCONFIG put each region and the command stream (a Vela memory area, whose
// ports the module's sockets are).
struct NpuModuleParams {
  const arch::NpuConfig* hardware = nullptr;
  double clockHz = 500e6;
  config::RegionMap regions;
  arch::AreaId commandStreamArea;

  // The module's view of a bound system configuration.
  static NpuModuleParams of(const config::SystemParams& p) {
    return {p.hardware(), p.coreClockHz, config::RegionMap(p), p.commandStreamArea};
  }
};

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
  // Ends the NPU's threads once the host is done (their stacks unwind, nothing leaks); the
  // caller resumes the simulation to let them return.
  void shutdown();
  const NpuStats& stats() const { return stats_; }
  // Its performance monitor: the driver's counters, each AXI port's counters, the PMU windows.
  const Pmu& pmu() const { return pmu_; }
  // Attaches an observer of blocks and fetch waits (null: none). Call before running.
  void setObserver(NpuObserver* observer) { observer_ = observer; }

private:
  class Transport;
  class Clock;
  class BlockForwarder;
  // Operations dispatched to a unit and not yet fully booked, and the end times of booked ones.
  struct UnitQueue {
    std::vector<std::pair<const cmd::Operation*, size_t>> pending; // operation, record index
    OutstandingOps outstanding;
    sc_core::sc_event queued, progress;
  };
  SC_HAS_PROCESS(EthosU);
  // The ports of each region's area and the port the command stream is fetched through.
  void routePorts();
  void registerWrite(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void commandProcessor();
  void kernelThread();
  void dmaThread();
  // Runs `execute(op, issue, recordIndex) -> end` for each operation queued to `unit`, in order.
  template <typename Execute>
  void serve(UnitQueue& unit, Execute&& execute);
  double now() const { return sc_core::sc_time_stamp() / period_; }
  void syncTo(double t);
  // Blocks the command processor until at most `allowed` operations of `unit` are outstanding.
  void waitOutstanding(UnitQueue& unit, size_t allowed);
  UnitQueue& queueOf(Unit unit) { return unit == Unit::Kernel ? kernels_ : dmas_; }
  double fetchCommands(uint64_t qbase, uint32_t streamBytes, uint32_t upTo, double t);

  NpuModuleParams params_;
  sc_core::sc_time period_;
  std::array<uint64_t, 8> basep_{};
  uint64_t qbase_ = 0;
  uint32_t qsize_ = 0;
  sc_core::sc_event start_;
  sc_core::sc_event shutdown_;
  bool stopping_ = false;
  std::vector<NpuProgram> programs_;
  NpuStats stats_;
  Pmu pmu_;
  std::array<std::vector<arch::PortId>, 8> regionPorts_{};
  std::array<size_t, 8> regionTurn_{};   // the port of its group a region's next transfer takes
  arch::PortId commandPort_;
  NpuObserver* observer_ = nullptr;
  uint32_t invocation_ = 0;
  UnitQueue kernels_, dmas_;
  // Command fetch state of the current stream.
  uint32_t fetchRequested_ = 0;
  std::vector<double> chunkDone_;
};

} // namespace npusim::npu
