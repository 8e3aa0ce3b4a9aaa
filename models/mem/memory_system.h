// SPDX-License-Identifier: Apache-2.0
#pragma once
// The AXI memory system: memory instances behind an address-routing interconnect, with one
// target socket per initiator link (each NPU port, the CPU).

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "models/mem/memory_system_params.h"
#include "models/mem/memory_timing.h"
#include "sim/arch/architecture.h"

namespace npusim::mem {

// Carries a transfer's shape (runs x run bytes) on a TLM generic payload, and the counters of
// the initiator port the transfer's bursts are added to; timing-only transactions carry no data.
struct TransferExtension : tlm::tlm_extension<TransferExtension> {
  TransferShape shape;
  PortCounters* counters = nullptr;
  tlm_extension_base* clone() const override { return new TransferExtension(*this); }
  void copy_from(const tlm_extension_base& other) override {
    const auto& e = static_cast<const TransferExtension&>(other);
    shape = e.shape;
    counters = e.counters;
  }
};

class MemorySystem : public sc_core::sc_module {
public:
  using Socket = tlm_utils::simple_target_socket_tagged<MemorySystem>;
  sc_core::sc_vector<Socket> npuPorts;   // one per NPU port, in arch::PortId order
  Socket cpu;

  MemorySystem(sc_core::sc_module_name name, const MemorySystemParams& params);

  // Reports every burst of NPU port `port` to `observer` (null: none). Call before running.
  void setBurstObserver(arch::PortId port, BurstObserver* observer) { links_.at(port.index).setObserver(observer); }

private:
  void transport(int link, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // The memory instance holding [address, address + bytes).
  MemoryTiming& route(uint64_t address, uint64_t bytes);
  // An instance's address range [base, end).
  struct Range {
    uint64_t base, end;
  };
  sc_core::sc_time period_;
  std::vector<Range> ranges_;            // per instance: the address map
  std::vector<MemoryTiming> memories_;   // per instance
  std::vector<AxiLinkTiming> links_;     // the NPU ports', then the CPU's
  std::vector<TimingAdapter> sharedAdapters_; // adapters several links pass (sized once: links point into it)
};

} // namespace npusim::mem
