// SPDX-License-Identifier: Apache-2.0
#pragma once
// The AXI memory system: memory instances behind an address-routing interconnect, with one
// target socket per NPU port and one for the CPU.

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "models/mem/axi_port.h"
#include "models/mem/event_queue.h"
#include "models/mem/memory_system_params.h"
#include "models/mem/memory_timing.h"

namespace npusim::mem {

// Asks a target for npusim's memory timing, an ignorable extension (the TLM-2.0 idiom) on a debug
// transport: npusim's MemorySystem fills in its memories, so that the NPU times its bursts against
// them on its own event queue; a target that does not know the extension leaves it empty.
struct DirectTimingExtension : tlm::tlm_extension<DirectTimingExtension> {
  MemoryRouter* memories = nullptr;
  tlm_extension_base* clone() const override { return new DirectTimingExtension(*this); }
  void copy_from(const tlm_extension_base& other) override {
    memories = static_cast<const DirectTimingExtension&>(other).memories;
  }
};

class MemorySystem : public sc_core::sc_module {
public:
  using Socket = tlm_utils::simple_target_socket_tagged<MemorySystem>;
  sc_core::sc_vector<Socket> npuPorts;   // one per NPU port, in arch::PortId order
  Socket cpu;

  // `npuPorts` sockets for the NPU's ports.
  MemorySystem(sc_core::sc_module_name name, const MemorySystemParams& params, size_t npuPortCount);

private:
  // The CPU's accesses: whole transfers, timed on the CPU port at once (the CPU runs while the NPU
  // is idle, so nothing else is in flight).
  void cpuTransport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int debug(int, tlm::tlm_generic_payload& trans);
  // Records when the CPU's transfer completed.
  struct Done : TransferSink {
    explicit Done(const EventQueue& q) : queue(q) {}
    void transferDone(uint64_t) override { at = queue.now(); }
    const EventQueue& queue;
    double at = 0;
  };
  sc_core::sc_time period_;
  std::deque<MemoryTiming> memories_;   // per instance (stable addresses: the router points into it)
  MemoryRouter router_;
  EventQueue cpuQueue_;
  PortCounters cpuCounters_;
  std::unique_ptr<AxiPort> cpuPort_;
};

} // namespace npusim::mem
