// SPDX-License-Identifier: Apache-2.0
#pragma once
// This platform's interconnect: one target socket per NPU AXI port and one for the host, one
// initiator socket per memory; a transaction goes to the memory whose address range holds it,
// with the address made relative to the memory. It counts each NPU port's AXI data beats (of
// the port's width, from the beat holding a burst's first byte to the one holding its last).

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace own {

class Router : public sc_core::sc_module {
public:
  struct Range {
    uint64_t base, size;
  };
  using TargetSocket = tlm_utils::simple_target_socket_tagged<Router>;
  using InitiatorSocket = tlm_utils::simple_initiator_socket<Router>;
  sc_core::sc_vector<TargetSocket> npuPorts{"npu_port"};
  tlm_utils::simple_target_socket<Router> host{"host"};
  sc_core::sc_vector<InitiatorSocket> memories{"memory"};

  // Per NPU port: its data width in bytes; per memory: its address range.
  Router(sc_core::sc_module_name name, const std::vector<uint32_t>& beatBytes, std::vector<Range> ranges)
      : sc_module(name), beatBytes_(beatBytes), ranges_(std::move(ranges)), readBeats_(beatBytes.size()),
        writeBeats_(beatBytes.size()) {
    npuPorts.init(beatBytes.size());
    memories.init(ranges_.size());
    for (size_t i = 0; i < npuPorts.size(); ++i) {
      npuPorts[i].register_b_transport(this, &Router::b_transport, static_cast<int>(i));
    }
    host.register_transport_dbg(this, &Router::transport_dbg);
  }

  uint64_t readBeats(size_t port) const { return readBeats_.at(port); }
  uint64_t writeBeats(size_t port) const { return writeBeats_.at(port); }

private:
  // The memory holding the transaction's bytes (its address made relative to it), or -1.
  int route(tlm::tlm_generic_payload& trans) const {
    const uint64_t address = trans.get_address();
    for (size_t i = 0; i < ranges_.size(); ++i) {
      if (address >= ranges_[i].base && address + trans.get_data_length() <= ranges_[i].base + ranges_[i].size) {
        trans.set_address(address - ranges_[i].base);
        return static_cast<int>(i);
      }
    }
    return -1;
  }

  void b_transport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    const uint64_t address = trans.get_address();
    const uint64_t beat = beatBytes_[port];
    const uint64_t beats = (address % beat + trans.get_data_length() + beat - 1) / beat;
    (trans.is_read() ? readBeats_ : writeBeats_)[port] += beats;
    const int memory = route(trans);
    if (memory < 0) {
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    memories[memory]->b_transport(trans, delay);
    trans.set_address(address);
  }

  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) {
    const uint64_t address = trans.get_address();
    const int memory = route(trans);
    const unsigned int n = memory < 0 ? 0 : memories[memory]->transport_dbg(trans);
    trans.set_address(address);
    return n;
  }

  std::vector<uint32_t> beatBytes_;
  std::vector<Range> ranges_;
  std::vector<uint64_t> readBeats_, writeBeats_;
};

} // namespace own
