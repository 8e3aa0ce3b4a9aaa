// SPDX-License-Identifier: Apache-2.0
#pragma once
// The AXI memory system: memory instances behind an address-routing interconnect, with one
// target socket per NPU port and one for the CPU. On npusim's fast path the NPU times its bursts
// against the memories itself (DirectTimingExtension) and no data moves. With
// MemorySystemParams::storeData the memories keep the bytes written to them and the NPU sockets
// are standard TLM-2.0 targets instead: each transaction one burst, timed on its memory.

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "models/mem/axi_port.h"
#include "models/mem/backing_store.h"
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

// Optional on a standard TLM-2.0 burst (an ignorable extension, which other targets leave alone):
// npusim's exact times and the port's memory lane, which SystemC's time grid would round or the
// payload does not carry. The initiator sets the cycle the burst's address was accepted (`issue`,
// on the grid as the annotated delay), its port's lane, its data beats and the minimum latency a
// timing adapter in front of the memory imposes; npusim's memory system times the burst from them
// as the NPU's own ports time it on the fast path and sets when it completes (`done`) and how long
// it waited for a busy data path (`contention`).
struct BurstTimingExtension : tlm::tlm_extension<BurstTimingExtension> {
  double issue = 0, minLatency = 0;   // set by the initiator
  uint32_t lane = 0;
  uint64_t beats = 0;
  bool answered = false;              // set by npusim's memory system, with:
  double dataStart = 0, done = 0, contention = 0;
  size_t memory = 0;                  // the memory instance's index
  tlm_extension_base* clone() const override { return new BurstTimingExtension(*this); }
  void copy_from(const tlm_extension_base& other) override {
    const auto& e = static_cast<const BurstTimingExtension&>(other);
    issue = e.issue;
    minLatency = e.minLatency;
    lane = e.lane;
    beats = e.beats;
    answered = e.answered;
    dataStart = e.dataStart;
    done = e.done;
    contention = e.contention;
    memory = e.memory;
  }
};

class MemorySystem : public sc_core::sc_module {
public:
  using Socket = tlm_utils::simple_target_socket_tagged<MemorySystem>;
  sc_core::sc_vector<Socket> npuPorts;   // one per NPU port, in arch::PortId order
  Socket cpu;

  // `npuPorts` sockets for the NPU's ports.
  MemorySystem(sc_core::sc_module_name name, const MemorySystemParams& params, size_t npuPortCount);

  // Writes `bytes` at `address` (a loader placing a model), in no time. Contract: storeData, and
  // the range lies in one memory (std::out_of_range otherwise).
  void load(uint64_t address, const uint8_t* data, size_t bytes);

private:
  // One AXI burst of a standard TLM-2.0 initiator (storeData): its memory's timing and data.
  void burstTransport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // The data of a transaction to or from the memories' bytes (none without storeData or data).
  void moveData(tlm::tlm_generic_payload& trans);
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
  bool storeData_ = false;
  std::vector<BackingStore> data_;      // per instance, with storeData
  EventQueue cpuQueue_;
  PortCounters cpuCounters_;
  std::unique_ptr<AxiPort> cpuPort_;
};

} // namespace npusim::mem
