// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host of this platform: a thread that loads a Vela-compiled model into memory as TFLM would
// find it (the model file in flash, the tensor arena in its memory) and runs each ethos-u
// operator through the Ethos-U core driver's register sequence (ethosu_driver.c and
// ethosu_device_*.c): soft reset and AXI set-up on first use, the profiler's PMU set-up, QBASE,
// QSIZE, QCONFIG, BASEPn, REGIONCFG and CMD, the interrupt handler's CMD and STATUS, and the
// PMU read-out. Register offsets and fields are the NPU architecture's (npusim's sim/arch).

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/platform/soc.h"
#include "sim/arch/architecture.h"
#include "sim/config/system_params.h"
#include "sim/io/compiled_network.h"

namespace own {

class Driver : public sc_core::sc_module {
public:
  tlm_utils::simple_initiator_socket<Driver> apb{"apb"};  // the NPU's registers
  tlm_utils::simple_initiator_socket<Driver> bus{"bus"};  // the memories (loading)
  sc_core::sc_in<bool> irq{"irq"};

  // What the PMU counted over all ethos-u operators: NPU_ACTIVE and the events of its other
  // counters (as many per-port beat events as it has counters for).
  uint64_t npuActive = 0;
  std::vector<std::pair<std::string, uint64_t>> events;

  Driver(sc_core::sc_module_name name, const npusim::io::CompiledNetwork& net, const npusim::config::SystemParams& params,
         const npusim::platform::MemoryMap& map)
      : sc_module(name), net_(net), params_(params), map_(map), arch_(params.architecture()) {
    SC_THREAD(run);
  }

private:
  SC_HAS_PROCESS(Driver);

  uint32_t access(tlm::tlm_command command, uint64_t offset, uint32_t value = 0) {
    tlm::tlm_generic_payload t;
    t.set_command(command);
    t.set_address(offset);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    t.set_data_length(4);
    t.set_streaming_width(4);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    apb->b_transport(t, delay);
    if (t.is_response_error()) throw std::runtime_error("NPU register " + std::to_string(offset) + ": " + t.get_response_string());
    return value;
  }
  uint32_t read(uint64_t offset) { return access(tlm::TLM_READ_COMMAND, offset); }
  void write(uint64_t offset, uint32_t value) { access(tlm::TLM_WRITE_COMMAND, offset, value); }
  void write64(uint64_t offset, uint64_t value) {
    write(offset, static_cast<uint32_t>(value));
    if (arch_.registers.addressBits > 32) write(offset + 4, static_cast<uint32_t>(value >> 32));
  }

  // The model file at the start of the memory that holds the constants (debug transport).
  void load() {
    const uint64_t base = npusim::platform::modelAddress(params_, map_);
    std::vector<uint8_t> bytes = net_.bytes;
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_address(base);
    t.set_data_ptr(bytes.data());
    t.set_data_length(static_cast<unsigned int>(bytes.size()));
    t.set_streaming_width(static_cast<unsigned int>(bytes.size()));
    if (bus->transport_dbg(t) != bytes.size()) throw std::runtime_error("the model does not fit its memory");
  }

  // ethosu_dev_soft_reset and ethosu_dev_axi_init, the AXI limits configured to the system's.
  void resetAndSetUp() {
    const npusim::arch::HostRegisterMap& r = arch_.registers;
    write(r.reset, r.resetBits.privilege.place(1));
    while (r.statusBits.resetStatus.read(read(r.status)) != 0) {
    }
    if (read(r.prot) != r.resetBits.privilege.place(1)) throw std::runtime_error("PROT after the soft reset");
    for (const npusim::arch::AxiLimitRegister& l : r.axiLimits) {
      const npusim::config::PortParams& p = params_.port(params_.portsIn(l.area).front());
      uint32_t code = 0;
      while ((64u << code) < p.maxBurstBytes) ++code;
      write(l.offset, l.maxBeats.place(code) | l.readsM1.place(p.maxOutstandingReads - 1) |
                          l.writesM1.place(p.maxOutstandingWrites - 1));
    }
    const npusim::arch::MemoryAttributes& attributes = r.memoryAttributes;
    if (attributes.offset != 0) {
      for (uint32_t i = 0; i < attributes.areas.size(); ++i) {
        write(attributes.offset + 4 * i, attributes.area.place(attributes.areas[i].index));
      }
    }
  }

  // The events of the PMU's counters: NPU_ACTIVE, then each port's read and write beats while
  // counters last.
  std::vector<std::pair<std::string, uint32_t>> counterEvents() const {
    std::vector<std::pair<std::string, uint32_t>> out{{"NPU_ACTIVE", arch_.pmuEvent("NPU_ACTIVE").number}};
    const auto& ports = params_.hardware()->ports();
    for (const char* suffix : {"RD_DATA_BEAT_RECEIVED", "WR_DATA_BEAT_WRITTEN"}) {
      for (const npusim::arch::PortDesc& port : ports) {
        for (const npusim::arch::PmuEvent& e : arch_.pmu.portEvents) {
          if (e.name == suffix && out.size() < arch_.pmu.eventCounters) {
            out.push_back({arch_.pmuPortEventName(port, suffix), port.pmuEventBase + e.number});
          }
        }
      }
    }
    return out;
  }

  void run() {
    const npusim::arch::HostRegisterMap& r = arch_.registers;
    const npusim::arch::PmuDesc& pmu = arch_.pmu;
    const npusim::arch::PmuRegisters& pr = pmu.registers;
    load();
    resetAndSetUp();
    const auto counters = counterEvents();
    std::vector<uint64_t> totals(counters.size(), 0);
    for (const npusim::io::Operator& op : net_.operators) {
      if (op.kind != npusim::io::OperatorKind::Npu) continue;
      const npusim::platform::DriverJob job = npusim::platform::driverJob(net_, op, params_, map_);
      // inference_begin: the profiler enables the PMU, picks the events, clears and starts the counters.
      write(pmu.controlRegister, pr.enable.place(1));
      for (size_t k = 0; k < counters.size(); ++k) write(pr.eventType + 4 * k, counters[k].second);
      write(pmu.controlRegister, read(pmu.controlRegister) | pr.resetEvents.place(1) | pr.resetCycles.place(1));
      write(pr.countEnableSet, ((1u << counters.size()) - 1) | (1u << pr.cycleCounterBit));
      // ethosu_dev_run_command_stream.
      write64(r.qbase, job.qbase);
      write(r.qsize, job.qsize);
      write(r.qconfig, job.qconfig);
      for (size_t i = 0; i < job.basep.size() && i < r.basepCount; ++i) write64(r.basep + 8 * i, job.basep[i]);
      write(r.regioncfg, job.regioncfg);
      const uint32_t keep = r.cmdBits.clockQ.place(1) | r.cmdBits.powerQ.place(1);
      write(r.cmd, (read(r.cmd) & keep) | r.cmdBits.start.place(1));
      // ethosu_irq_handler / ethosu_dev_handle_interrupt until the end of the stream.
      for (;;) {
        if (!irq.read()) wait(irq.posedge_event());
        write(r.cmd, (read(r.cmd) & keep) | r.cmdBits.clearIrq.place(1));
        const uint32_t status = read(r.status);
        if (r.statusBits.busStatus.read(status) != 0 || r.statusBits.cmdParseError.read(status) != 0) {
          throw std::runtime_error("the NPU stopped with a fault: STATUS " + std::to_string(status));
        }
        if (r.statusBits.cmdEndReached.read(status) != 0) break;
        // An NPU_OP_IRQ before the end: the line drops a delta after the clear; until then it
        // still reads high with no interrupt pending.
        while (irq.read() && r.statusBits.irqRaised.read(read(r.status)) == 0) wait(sc_core::SC_ZERO_TIME);
      }
      // inference_end: read the counters, disable the PMU.
      for (size_t k = 0; k < counters.size(); ++k) totals[k] += read(pr.eventCounter + 4 * k);
      write(pmu.controlRegister, 0);
    }
    npuActive = totals[0];
    for (size_t k = 1; k < counters.size(); ++k) events.push_back({counters[k].first, totals[k]});
    sc_core::sc_stop();
  }

  const npusim::io::CompiledNetwork& net_;
  const npusim::config::SystemParams& params_;
  const npusim::platform::MemoryMap& map_;
  const npusim::arch::Architecture& arch_;
};

} // namespace own
