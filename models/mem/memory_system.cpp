// SPDX-License-Identifier: Apache-2.0
#include "models/mem/memory_system.h"

#include <stdexcept>

namespace npusim::mem {

uint64_t memoryBase(config::MemoryKind kind) {
  switch (kind) {
  case config::MemoryKind::Sram: return 0x2000'0000;
  case config::MemoryKind::Dram: return 0x6000'0000;
  case config::MemoryKind::OnChipFlash: return 0x0000'0000;
  case config::MemoryKind::OffChipFlash: return 0x1000'0000;
  }
  return 0;
}

MemorySystem::MemorySystem(sc_core::sc_module_name name, const MemorySystemParams& params)
    : sc_module(name), npuAxi0("npu_axi0"), npuAxi1("npu_axi1"), cpu("cpu"),
      period_(sc_core::sc_time(1.0 / params.clockHz, sc_core::SC_SEC)) {
  const auto memoryOn = [&params](config::AxiPort p) { return params.ports[static_cast<size_t>(p)].memory; };
  const auto port = [&params](config::AxiPort p) -> const config::AxiPortParams& {
    return params.ports[static_cast<size_t>(p)];
  };
  // A memory's bandwidth follows Vela: bytes/cycle = AXI width / 8 x clock scale, using the
  // width of the port it sits on (AXI0 when it is on both or neither).
  for (config::MemoryKind kind : config::kMemoryKinds) {
    const config::AxiPort on = memoryOn(config::AxiPort::Axi1) == kind && memoryOn(config::AxiPort::Axi0) != kind
                                   ? config::AxiPort::Axi1
                                   : config::AxiPort::Axi0;
    const config::MemoryParams& m = params.memories[static_cast<size_t>(kind)];
    memories_[static_cast<size_t>(kind)] = std::make_unique<MemoryTiming>(
        port(on).dataWidthBits / 8.0 * m.clockScale, m.readLatency, m.writeLatency, m.separateReadWrite);
  }
  auto linkFor = [&](config::AxiPort p) {
    const config::AxiPortParams& a = port(p);
    return std::make_unique<AxiPortTiming>(a.dataWidthBits / 8, a.maxBurstBytes, a.maxOutstandingReads,
                                           a.maxOutstandingWrites, a.adapter);
  };
  links_[0] = linkFor(config::AxiPort::Axi0);
  links_[1] = linkFor(config::AxiPort::Axi1);
  // The Cortex-M55 data port: 64-bit, kCpuBurstBytes bursts, a few outstanding accesses.
  links_[2] = std::make_unique<AxiPortTiming>(8, kCpuBurstBytes, 4, 4);
  npuAxi0.register_b_transport(this, &MemorySystem::transport, static_cast<int>(Link::NpuAxi0));
  npuAxi1.register_b_transport(this, &MemorySystem::transport, static_cast<int>(Link::NpuAxi1));
  cpu.register_b_transport(this, &MemorySystem::transport, static_cast<int>(Link::Cpu));
}

MemoryTiming& MemorySystem::route(uint64_t address, uint64_t bytes) {
  for (config::MemoryKind kind : config::kMemoryKinds) {
    const uint64_t base = memoryBase(kind);
    if (address >= base && address + bytes <= base + kMemoryWindow) {
      return *memories_[static_cast<size_t>(kind)];
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
  memory.retire(sc_core::sc_time_stamp() / period_);
  links_[static_cast<size_t>(link)]->retire(sc_core::sc_time_stamp() / period_);
  const double done = links_[static_cast<size_t>(link)]->transfer(memory, dir, start, shape);
  delay += period_ * (done - start);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace npusim::mem
