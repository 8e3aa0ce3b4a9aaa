// SPDX-License-Identifier: Apache-2.0
#pragma once
// A memory of this platform: an array of bytes behind a TLM-2.0 target socket, loosely timed. A
// burst's data is ready `latency` cycles after the time annotated on it (sc_time_stamp() +
// delay) and moves at `bytesPerCycle` in the first gap of the memory's data path from then that
// holds it; the answer's delay says when its last byte has moved. Reads and writes share one data
// path unless `separatePaths`. Bursts arrive in the order their addresses are accepted, but with
// a shorter write than read latency a later burst's data can be ready first: the path is a table
// of reservations rather than one "busy until" time, so that it does not wait behind it.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace own {

struct MemoryTiming {
  double bytesPerCycle = 8;
  double readLatency = 0, writeLatency = 0;   // cycles
  bool separatePaths = false;
};

class Memory : public sc_core::sc_module {
public:
  tlm_utils::simple_target_socket<Memory> socket{"socket"};

  Memory(sc_core::sc_module_name name, uint64_t size, sc_core::sc_time clock, MemoryTiming timing)
      : sc_module(name), size_(size), clock_(clock), timing_(timing),
        bytes_(static_cast<uint8_t*>(std::calloc(size, 1)), &std::free) {  // calloc: untouched pages cost nothing
    if (!bytes_) throw std::bad_alloc();
    socket.register_b_transport(this, &Memory::b_transport);
    socket.register_transport_dbg(this, &Memory::transport_dbg);
  }

private:
  // The bytes of `trans` if they lie in the array, else an address error.
  bool move(tlm::tlm_generic_payload& trans) {
    const uint64_t address = trans.get_address();
    const unsigned int length = trans.get_data_length();
    if (address >= size_ || length > size_ - address) {
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return false;
    }
    if (trans.get_byte_enable_ptr() != nullptr || trans.get_streaming_width() < length) {
      trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
      return false;
    }
    if (trans.is_write()) {
      std::memcpy(bytes_.get() + address, trans.get_data_ptr(), length);
    } else if (trans.is_read()) {
      std::memcpy(trans.get_data_ptr(), bytes_.get() + address, length);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
  }

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    if (!move(trans)) return;
    const bool write = trans.is_write();
    const double asked = (sc_core::sc_time_stamp() + delay) / clock_;
    const double done = reserve(paths_[timing_.separatePaths && write ? 1 : 0],
                                asked + (write ? timing_.writeLatency : timing_.readLatency),
                                trans.get_data_length() / timing_.bytesPerCycle);
    delay = std::max(clock_ * done, sc_core::sc_time_stamp() + delay) - sc_core::sc_time_stamp();
  }

  // Reserves `duration` cycles of `path` in its first gap from `ready` on; returns the end.
  double reserve(std::map<double, double>& path, double ready, double duration) const {
    const double now = sc_core::sc_time_stamp() / clock_;
    while (!path.empty() && path.begin()->second < now) path.erase(path.begin());  // nobody books before now
    double start = ready;
    auto next = path.upper_bound(start);
    if (next != path.begin() && std::prev(next)->second > start) start = std::prev(next)->second;
    for (; next != path.end() && next->first < start + duration; ++next) start = std::max(start, next->second);
    path.emplace(start, start + duration);
    return start + duration;
  }

  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) {
    return move(trans) ? trans.get_data_length() : 0;
  }

  uint64_t size_;
  sc_core::sc_time clock_;
  MemoryTiming timing_;
  std::unique_ptr<uint8_t, decltype(&std::free)> bytes_;
  std::map<double, double> paths_[2];  // the data path's (reads' and writes' when separate) reservations: start -> end
};

} // namespace own
