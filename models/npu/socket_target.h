// SPDX-License-Identifier: Apache-2.0
#pragma once
// An NPU port's bursts as TLM-2.0 base-protocol transactions on its socket (mem::BurstTarget),
// loosely timed: each burst is one generic payload through blocking transport, with its address,
// at most the port's burst split of bytes, a pointer to its real bytes, TLM_READ_COMMAND or
// TLM_WRITE_COMMAND and the time its address was accepted as the annotated delay. The target's
// returned delay (and any time it waited) is the burst's latency and data time. A response other
// than TLM_OK_RESPONSE is a bus abort: the port moves nothing more. Each payload carries an
// ignorable mem::BurstTimingExtension, which npusim's memory system answers with exact times.

#include <cstdint>
#include <optional>

#include <systemc>
#include <tlm>

#include "models/mem/axi_port.h"
#include "models/mem/memory_system.h"

namespace npusim::npu {

class SocketTarget final : public mem::BurstTarget {
public:
  // `socket` outlives the target; times are counted in cycles of `period`.
  SocketTarget(tlm::tlm_initiator_socket<>& socket, sc_core::sc_time period);
  ~SocketTarget() override;
  SocketTarget(const SocketTarget&) = delete;
  SocketTarget& operator=(const SocketTarget&) = delete;

  mem::BurstAnswer burst(mem::Direction dir, uint64_t address, uint64_t bytes, uint64_t beats, uint8_t* data,
                         double issue, uint32_t lane, double minLatency) override;
  bool refused() const override { return fault_.has_value(); }

  // The first burst the target refused: its address and response status.
  struct Fault {
    uint64_t address = 0;
    tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  };
  const std::optional<Fault>& fault() const { return fault_; }
  // Forgets the fault (the driver's soft reset).
  void clearFault() { fault_.reset(); }

private:
  tlm::tlm_initiator_socket<>& socket_;
  sc_core::sc_time period_;
  tlm::tlm_generic_payload payload_;
  mem::BurstTimingExtension exact_;
  std::optional<Fault> fault_;
};

} // namespace npusim::npu
