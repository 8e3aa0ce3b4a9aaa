// SPDX-License-Identifier: Apache-2.0
#include "models/mem/memory_system.h"

#include <stdexcept>

namespace npusim::mem {

namespace {

AxiLinkTiming linkTiming(const LinkParams& p) {
  return AxiLinkTiming(p.bytesPerBeat, p.maxBurstBytes, p.maxReads, p.maxWrites, p.adapter);
}

} // namespace

MemorySystem::MemorySystem(sc_core::sc_module_name name, const MemorySystemParams& params)
    : sc_module(name), npuPorts("npu"), cpu("cpu"), period_(sc_core::sc_time(1.0 / params.clockHz, sc_core::SC_SEC)) {
  // 1. One address range and timing per memory instance, one link per initiator port.
  memories_.reserve(params.memories.size());
  for (const MemoryInstanceParams& m : params.memories) {
    ranges_.push_back({m.base, m.base + m.size});
    memories_.emplace_back(m.bytesPerCycle, m.readLatency, m.writeLatency, m.separateReadWrite);
  }
  links_.reserve(params.npuPorts.size() + 1);
  for (const LinkParams& p : params.npuPorts) {
    links_.push_back(linkTiming(p));
  }
  links_.push_back(linkTiming(params.cpu));
  sharedAdapters_.reserve(params.sharedAdapters.size());
  for (const config::TimingAdapterParams& a : params.sharedAdapters) {
    sharedAdapters_.emplace_back(a);
  }
  for (size_t i = 0; i < params.npuPorts.size(); ++i) {
    const int shared = params.npuPorts[i].sharedAdapter;
    if (shared >= 0) {
      links_[i].shareAdapter(sharedAdapters_.at(static_cast<size_t>(shared)));
    }
  }
  // 2. One socket per link, named after its port; the tag is the link's index.
  npuPorts.init(params.npuPorts.size(), [&params](const char*, size_t i) {
    return new Socket(("npu_" + params.npuPorts[i].name).c_str());
  });
  for (size_t i = 0; i < npuPorts.size(); ++i) {
    npuPorts[i].register_b_transport(this, &MemorySystem::transport, static_cast<int>(i));
  }
  cpu.register_b_transport(this, &MemorySystem::transport, static_cast<int>(params.npuPorts.size()));
}

MemoryTiming& MemorySystem::route(uint64_t address, uint64_t bytes) {
  for (size_t i = 0; i < ranges_.size(); ++i) {
    if (address >= ranges_[i].base && address + bytes <= ranges_[i].end) {
      return memories_[i];
    }
  }
  throw std::out_of_range("address " + std::to_string(address) + " is not mapped to a memory");
}

void MemorySystem::transport(int link, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  TransferExtension* ext = nullptr;
  trans.get_extension(ext);
  const TransferShape shape = ext ? ext->shape : TransferShape{1, trans.get_data_length()};
  MemoryTiming& memory = route(trans.get_address(), shape.bytes());
  const Direction dir = trans.is_write() ? Direction::Write : Direction::Read;
  const double start = (sc_core::sc_time_stamp() + delay) / period_;
  AxiLinkTiming& l = links_[static_cast<size_t>(link)];
  memory.retire(sc_core::sc_time_stamp() / period_);
  l.retire(sc_core::sc_time_stamp() / period_);
  const double done = l.transfer(memory, dir, start, shape, ext ? ext->counters : nullptr);
  delay += period_ * (done - start);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace npusim::mem
