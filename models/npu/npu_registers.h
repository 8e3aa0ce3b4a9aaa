// SPDX-License-Identifier: Apache-2.0
#pragma once
// The NPU's host-visible registers as the Ethos-U core driver programs and reads them, laid out
// by the architecture's register map (sim/arch: HostRegisterMap, PmuDesc): ID, STATUS, CMD,
// RESET, QBASE, QREAD, QCONFIG, QSIZE, PROT, CONFIG, REGIONCFG, the AXI limits and memory
// attributes, BASEP0-7, and the PMU's control, counter enables, cycle counter, event types and
// event counters. Plain C++: the SystemC module (EthosU) forwards its APB accesses here, acts on
// what a write asks for, and reports the command processor's state back.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "models/npu/pmu.h"
#include "sim/arch/npu_config.h"

namespace npusim::npu {

// One AXI port's burst split and outstanding-transaction limits.
struct PortLimits {
  uint32_t burstBytes = 64;
  uint32_t reads = 1, writes = 1;
  bool operator==(const PortLimits& o) const {
    return burstBytes == o.burstBytes && reads == o.reads && writes == o.writes;
  }
};

// What the registers hold at power-on: the configured system's view of what the driver's
// initialisation programs (each region's and the command stream's area, each port's limits).
struct RegisterDefaults {
  std::array<arch::AreaId, 8> regionAreas{};
  arch::AreaId commandStreamArea;
  std::vector<PortLimits> portLimits;   // per port, arch::PortId order
};

class NpuRegisters {
public:
  // What a register write asks the NPU to do.
  struct Request {
    bool start = false;      // CMD: transition to running (while stopped)
    bool reset = false;      // RESET: soft reset
    bool limits = false;     // an AXI limit register was written
    bool routing = false;    // REGIONCFG, QCONFIG or a memory attribute was written
    bool pmuEnable = false;  // PMCR's enable bit changed
  };

  // Contract: `pmu` outlives the registers (its events feed the event counters).
  NpuRegisters(const arch::NpuConfig& hardware, const Pmu& pmu, RegisterDefaults defaults);

  // The word at register offset `offset` at NPU cycle `now`; nullopt where the register block
  // has no word (outside it, or not 4-byte aligned): an address error.
  std::optional<uint32_t> read(uint32_t offset, double now) const;
  // Writes the word at `offset` at `now`; nullopt where there is no register. Words of the
  // block the model gives no meaning (the debug, power and command registers) keep their value.
  std::optional<Request> write(uint32_t offset, uint32_t value, double now);

  // The command processor's state, as STATUS and QREAD show it.
  void started();
  // NPU_OP_STOP (`end`) or NPU_OP_IRQ with interrupt mask `mask`: raises the interrupt.
  void interrupt(uint32_t mask, bool end);
  // A transaction was refused (bus abort) on `channel` (STATUS faulting channel: 0 command
  // stream, 1 IFM, 2 weights, 3 scales, 4 DMA read, 8 OFM, 9 DMA write), or the stream could not
  // be parsed: processing stops with the interrupt raised.
  void busFault(uint32_t channel);
  void parseError();
  void setQread(uint32_t offset) { qread_ = offset; }

  bool irqRaised() const { return irqRaised_; }
  bool running() const { return running_; }
  bool pmuEnabled() const;
  uint64_t qbase() const { return qbase_; }
  uint32_t qsize() const { return qsize_; }
  uint64_t basep(uint8_t region) const { return basep_[region & 7]; }
  // The area (port group) region `region`'s traffic goes to (REGIONCFG), and the command
  // stream's (QCONFIG).
  arch::AreaId regionArea(uint8_t region) const;
  arch::AreaId commandStreamArea() const;
  // The limits the AXI limit registers of `area` give its ports (the smallest of them where
  // several do: npusim keeps one outstanding window per port, the 1.x hardware one per memory
  // attribute), once the host has written one of them; nullopt before.
  std::optional<PortLimits> limits(arch::AreaId area) const;

private:
  struct Counter {
    uint32_t event = 0;     // PMEVTYPER (the cycle counter: CYCLE)
    double value = 0;       // counted while counting was on, up to `since`
    double since = 0;       // the event's total when counting last turned on
  };
  void powerOn();
  arch::AreaId attributeArea(uint32_t attribute) const;
  uint32_t status() const;
  // PMU: whether counter k (the cycle counter: counters_.size() - 1) counts; its value at `now`.
  bool counting(size_t k) const;
  double eventTotal(const Counter& c, double now) const { return pmu_.eventTotal(c.event, now); }
  double counterValue(size_t k, double now) const;
  // Applies a change of PMCR, the enables or an event type: folds each counter's count so far.
  template <typename Change>
  void changeCounting(double now, Change&& change);
  std::optional<Request> writePmu(uint32_t offset, uint32_t value, double now);
  std::optional<uint32_t> readPmu(uint32_t offset, double now) const;

  const arch::NpuConfig& hardware_;
  const arch::HostRegisterMap& map_;
  const arch::PmuDesc& pmuDesc_;
  const Pmu& pmu_;
  RegisterDefaults defaults_;
  // Configuration registers (their power-on values: defaults_).
  uint32_t regioncfg_ = 0, qconfig_ = 0;
  std::vector<uint32_t> axiLimits_;           // per HostRegisterMap::axiLimits
  std::vector<bool> axiLimitWritten_;
  std::array<uint32_t, 4> memoryAttributes_{};
  // Run state.
  uint64_t qbase_ = 0;
  uint32_t qsize_ = 0, qread_ = 0;
  std::array<uint64_t, 8> basep_{};
  bool running_ = false, irqRaised_ = false, endReached_ = false, busFault_ = false, parseError_ = false;
  uint32_t faultingChannel_ = 0, irqHistory_ = 0;
  uint32_t cmd_ = 0, reset_ = 0;
  // PMU.
  uint32_t pmcr_ = 0, countEnable_ = 0, overflow_ = 0, interruptEnable_ = 0, cycleCounterConfig_ = 0,
           axiChannel_ = 0;
  std::vector<Counter> counters_;             // the event counters, then the cycle counter
  std::map<uint32_t, uint32_t> other_;        // words without a modelled meaning
};

} // namespace npusim::npu
