// SPDX-License-Identifier: Apache-2.0
#pragma once
// The AXI memory system: SRAM, DRAM and flash devices behind an address-routing interconnect
// with one target socket per initiator link (NPU AXI0, NPU AXI1, CPU).

#include <array>
#include <memory>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "models/mem/memory_timing.h"
#include "sim/config/system_params.h"

namespace npusim::mem {

// Burst split of the Cortex-M55 data port (64-bit, 32-byte bursts).
constexpr uint32_t kCpuBurstBytes = 32;

// Address windows of the memory devices (256 MiB each).
uint64_t memoryBase(config::MemoryKind kind);
constexpr uint64_t kMemoryWindow = 0x1000'0000;

// Carries a transfer's shape (runs x run bytes) on a TLM generic payload; timing-only
// transactions carry no data.
struct TransferExtension : tlm::tlm_extension<TransferExtension> {
  TransferShape shape;
  tlm_extension_base* clone() const override { return new TransferExtension(*this); }
  void copy_from(const tlm_extension_base& other) override {
    shape = static_cast<const TransferExtension&>(other).shape;
  }
};

enum class Link : uint8_t { NpuAxi0, NpuAxi1, Cpu };

// What the memory system needs of the system: the clock, each memory's timing and the two NPU
// ports (which memory each reaches, width, limits, timing adapter).
struct MemorySystemParams {
  double clockHz = 500e6;
  std::array<config::MemoryParams, 4> memories{};   // indexed by MemoryKind
  std::array<config::AxiPortParams, 2> ports{};     // indexed by AxiPort
};

class MemorySystem : public sc_core::sc_module {
public:
  tlm_utils::simple_target_socket_tagged<MemorySystem> npuAxi0;
  tlm_utils::simple_target_socket_tagged<MemorySystem> npuAxi1;
  tlm_utils::simple_target_socket_tagged<MemorySystem> cpu;

  MemorySystem(sc_core::sc_module_name name, const MemorySystemParams& params);

  const PortCounters& counters(Link link) const { return links_[static_cast<size_t>(link)]->counters(); }
  // Reports every burst of `link` to `observer` (null: none). Call before running.
  void setBurstObserver(Link link, BurstObserver* observer) { links_[static_cast<size_t>(link)]->setObserver(observer); }

private:
  void transport(int link, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  MemoryTiming& route(uint64_t address, uint64_t bytes);
  sc_core::sc_time period_;
  std::array<std::unique_ptr<MemoryTiming>, 4> memories_;
  std::array<std::unique_ptr<AxiPortTiming>, 3> links_;
};

} // namespace npusim::mem
