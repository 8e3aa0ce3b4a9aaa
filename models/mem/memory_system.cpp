// SPDX-License-Identifier: Apache-2.0
#include "models/mem/memory_system.h"

#include <algorithm>

namespace npusim::mem {

MemorySystem::MemorySystem(sc_core::sc_module_name name, const MemorySystemParams& params, size_t npuPortCount)
    : sc_module(name), npuPorts("npu"), cpu("cpu"), period_(sc_core::sc_time(1.0 / params.clockHz, sc_core::SC_SEC)) {
  for (const MemoryInstanceParams& m : params.memories) {
    memories_.emplace_back(m.bytesPerCycle, m.readLatency, m.writeLatency, m.separateReadWrite, m.lanes);
    router_.add(m.base, m.base + m.size, memories_.back());
  }
  cpuPort_ = std::make_unique<AxiPort>(cpuQueue_, params.cpu, router_, cpuCounters_);
  npuPorts.init(npuPortCount);
  for (size_t i = 0; i < npuPorts.size(); ++i) {
    npuPorts[i].register_transport_dbg(this, &MemorySystem::debug, static_cast<int>(i));
  }
  cpu.register_b_transport(this, &MemorySystem::cpuTransport, 0);
}

unsigned int MemorySystem::debug(int, tlm::tlm_generic_payload& trans) {
  DirectTimingExtension* ext = nullptr;
  trans.get_extension(ext);
  if (ext != nullptr) {
    ext->memories = &router_;
  }
  return 0;
}

void MemorySystem::cpuTransport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const double start = std::max((sc_core::sc_time_stamp() + delay) / period_, cpuQueue_.now());
  cpuQueue_.advanceTo(start);
  Done done(cpuQueue_);
  const Direction dir = trans.is_write() ? Direction::Write : Direction::Read;
  cpuPort_->transfer(dir, start, {1, trans.get_data_length(), 0, trans.get_address()}, done, 0);
  cpuQueue_.run();
  delay += period_ * (done.at - start);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace npusim::mem
