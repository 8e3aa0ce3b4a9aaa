// SPDX-License-Identifier: Apache-2.0
#include "models/mem/memory_system.h"

#include <algorithm>
#include <stdexcept>

namespace npusim::mem {

MemorySystem::MemorySystem(sc_core::sc_module_name name, const MemorySystemParams& params, size_t npuPortCount)
    : sc_module(name), npuPorts("npu"), cpu("cpu"), period_(sc_core::sc_time(1.0 / params.clockHz, sc_core::SC_SEC)) {
  for (const MemoryInstanceParams& m : params.memories) {
    memories_.emplace_back(m.bytesPerCycle, m.readLatency, m.writeLatency, m.separateReadWrite, m.lanes);
    router_.add(m.base, m.base + m.size, memories_.back());
  }
  cpuPort_ = std::make_unique<AxiPort>(cpuQueue_, params.cpu, router_, cpuCounters_);
  npuPorts.init(npuPortCount);
  storeData_ = params.storeData;
  for (size_t i = 0; i < npuPorts.size(); ++i) {
    npuPorts[i].register_transport_dbg(this, &MemorySystem::debug, static_cast<int>(i));
    if (storeData_) {
      npuPorts[i].register_b_transport(this, &MemorySystem::burstTransport, static_cast<int>(i));
    }
  }
  cpu.register_b_transport(this, &MemorySystem::cpuTransport, 0);
  cpu.register_transport_dbg(this, &MemorySystem::debug, 0);
  if (storeData_) {
    data_.resize(memories_.size());
  }
}

unsigned int MemorySystem::debug(int, tlm::tlm_generic_payload& trans) {
  // The fast path's question: npusim's memories, unless the NPU's ports are to send bursts with
  // data (storeData). Otherwise a debug read or write of the memories' bytes.
  DirectTimingExtension* ext = nullptr;
  trans.get_extension(ext);
  if (ext != nullptr) {
    ext->memories = storeData_ ? nullptr : &router_;
    return 0;
  }
  if (!storeData_) {
    return 0;
  }
  try {
    router_.route(trans.get_address(), trans.get_data_length());
  } catch (const std::out_of_range&) {
    return 0;
  }
  moveData(trans);
  return trans.get_data_length();
}

void MemorySystem::load(uint64_t address, const uint8_t* data, size_t bytes) {
  if (!storeData_) {
    throw std::out_of_range("MemorySystem::load: the memories keep no data");
  }
  const size_t i = router_.route(address, bytes);
  data_[i].write(address - router_.base(i), data, bytes);
}

void MemorySystem::moveData(tlm::tlm_generic_payload& trans) {
  if (!storeData_ || trans.get_data_ptr() == nullptr) {
    return;
  }
  const size_t i = router_.route(trans.get_address(), trans.get_data_length());
  const uint64_t offset = trans.get_address() - router_.base(i);
  if (trans.is_write()) {
    data_[i].write(offset, trans.get_data_ptr(), trans.get_data_length());
  } else if (trans.is_read()) {
    data_[i].read(offset, trans.get_data_ptr(), trans.get_data_length());
  }
}

void MemorySystem::burstTransport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  // The base protocol's target duties: refuse what this target does not do, in the response.
  const uint64_t bytes = trans.get_data_length();
  size_t i = 0;
  try {
    i = router_.route(trans.get_address(), bytes);
  } catch (const std::out_of_range&) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (bytes == 0) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (trans.get_byte_enable_ptr() != nullptr) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (trans.get_streaming_width() < bytes) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (!trans.is_read() && !trans.is_write()) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);  // TLM_IGNORE_COMMAND
    return;
  }
  // The data starts after the memory's latency (and a timing adapter's minimum latency, when the
  // initiator says it has one) from the burst's address, on its port's lane.
  BurstTimingExtension* exact = nullptr;
  trans.get_extension(exact);
  const Direction dir = trans.is_write() ? Direction::Write : Direction::Read;
  const double start = (sc_core::sc_time_stamp() + delay) / period_;
  const double issue = exact != nullptr ? exact->issue : start;
  MemoryTiming& memory = memories_[i];
  const double latency = std::max(exact != nullptr ? exact->minLatency : 0.0, memory.latency(dir));
  double end = 0;
  const double dataStart = memory.occupy(dir, exact != nullptr ? exact->lane : 0, issue + latency, bytes,
                                         exact != nullptr ? exact->beats : 0, &end);
  moveData(trans);
  if (exact != nullptr) {
    exact->answered = true;
    exact->dataStart = dataStart;
    exact->done = end;
    exact->contention = dataStart - (issue + latency);
    exact->memory = i;
  }
  delay += period_ * std::max(0.0, end - start);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void MemorySystem::cpuTransport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const double start = std::max((sc_core::sc_time_stamp() + delay) / period_, cpuQueue_.now());
  cpuQueue_.advanceTo(start);
  Done done(cpuQueue_);
  const Direction dir = trans.is_write() ? Direction::Write : Direction::Read;
  cpuPort_->transfer(dir, start, {1, trans.get_data_length(), 0, trans.get_address()}, done, 0);
  cpuQueue_.run();
  moveData(trans);  // the CPU's transfers (npusim's host model moves none)
  delay += period_ * (done.at - start);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace npusim::mem
