// SPDX-License-Identifier: Apache-2.0
#include "models/npu/npu_registers.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/common/counts.h"

namespace npusim::npu {
namespace {

// The burst split code of AXI limit registers: 64 << code bytes.
uint32_t burstCode(uint32_t bytes) {
  uint32_t code = 0;
  while ((64u << code) < bytes && code < 3) {
    ++code;
  }
  return code;
}

} // namespace

NpuRegisters::NpuRegisters(const arch::NpuConfig& hardware, const Pmu& pmu, RegisterDefaults defaults)
    : hardware_(hardware), map_(hardware.arch->registers), pmuDesc_(hardware.arch->pmu), pmu_(pmu),
      defaults_(std::move(defaults)) {
  if (defaults_.portLimits.size() != hardware.ports().size()) {
    throw std::logic_error("NpuRegisters: " + std::to_string(defaults_.portLimits.size()) + " port limits for " +
                           std::to_string(hardware.ports().size()) + " ports");
  }
  const uint32_t cycleEvent = hardware.arch->pmuEvent("CYCLE").number;
  counters_.assign(pmuDesc_.eventCounters + 1, Counter{});
  counters_.back().event = cycleEvent;
  powerOn();
}

void NpuRegisters::powerOn() {
  // The configuration registers as the driver's initialisation leaves them for the configured
  // system: the driver's memory attributes, each region and the command stream on an attribute
  // of its area, each AXI limit register with the limits of the first port it limits.
  const arch::MemoryAttributes& attributes = map_.memoryAttributes;
  for (size_t i = 0; i < memoryAttributes_.size(); ++i) {
    memoryAttributes_[i] = attributes.area.place(attributes.areas[i].index);
  }
  regioncfg_ = arch::regionConfigWord(map_, defaults_.regionAreas);
  qconfig_ = arch::queueConfigWord(map_, defaults_.commandStreamArea);
  axiLimits_.clear();
  for (const arch::AxiLimitRegister& reg : map_.axiLimits) {
    PortLimits l;
    for (size_t p = 0; p < hardware_.ports().size(); ++p) {
      if (hardware_.ports()[p].area == reg.area) {
        l = defaults_.portLimits[p];
        break;
      }
    }
    axiLimits_.push_back(reg.maxBeats.place(burstCode(l.burstBytes)) | reg.readsM1.place(l.reads - 1) |
                         reg.writesM1.place(l.writes - 1));
  }
  axiLimitWritten_.assign(map_.axiLimits.size(), false);
  qbase_ = 0;
  qsize_ = qread_ = 0;
  basep_.fill(0);
  running_ = irqRaised_ = endReached_ = busFault_ = parseError_ = false;
  faultingChannel_ = irqHistory_ = 0;
  cmd_ = map_.cmdBits.clockQ.place(1) | map_.cmdBits.powerQ.place(1);
  other_.clear();
}

arch::AreaId NpuRegisters::attributeArea(uint32_t attribute) const {
  const arch::MemoryAttributes& a = map_.memoryAttributes;
  if (a.offset == 0) {
    return a.areas.at(attribute & 3);
  }
  return arch::AreaId{static_cast<uint8_t>(a.area.read(memoryAttributes_.at(attribute & 3)) % arch::kAreaCount)};
}

arch::AreaId NpuRegisters::regionArea(uint8_t region) const {
  return attributeArea(map_.regionAttribute.read(regioncfg_ >> (2 * (region & 7))));
}

arch::AreaId NpuRegisters::commandStreamArea() const { return attributeArea(map_.regionAttribute.read(qconfig_)); }

std::optional<PortLimits> NpuRegisters::limits(arch::AreaId area) const {
  std::optional<PortLimits> out;
  bool written = false;
  for (size_t i = 0; i < map_.axiLimits.size(); ++i) {
    const arch::AxiLimitRegister& reg = map_.axiLimits[i];
    if (reg.area != area) continue;
    written = written || axiLimitWritten_[i];
    const PortLimits l{64u << std::min<uint32_t>(reg.maxBeats.read(axiLimits_[i]), 2), reg.readsM1.read(axiLimits_[i]) + 1,
                       reg.writesM1.read(axiLimits_[i]) + 1};
    if (!out) {
      out = l;
    } else {
      out->burstBytes = std::min(out->burstBytes, l.burstBytes);
      out->reads = std::min(out->reads, l.reads);
      out->writes = std::min(out->writes, l.writes);
    }
  }
  return written ? out : std::nullopt;
}

uint32_t NpuRegisters::status() const {
  const arch::StatusFields& f = map_.statusBits;
  return f.running.place(running_) | f.irqRaised.place(irqRaised_) | f.busStatus.place(busFault_) |
         f.cmdParseError.place(parseError_) | f.cmdEndReached.place(endReached_) |
         f.faultingChannel.place(faultingChannel_) | f.irqHistory.place(irqHistory_);
}

void NpuRegisters::started() {
  running_ = true;
  endReached_ = false;
  qread_ = 0;
}

void NpuRegisters::interrupt(uint32_t mask, bool end) {
  irqRaised_ = true;
  irqHistory_ |= mask;
  if (end) {
    endReached_ = true;
    running_ = false;
  }
}

void NpuRegisters::busFault(uint32_t channel) {
  busFault_ = true;
  faultingChannel_ = channel;
  running_ = false;
  irqRaised_ = true;
}

void NpuRegisters::parseError() {
  parseError_ = true;
  running_ = false;
  irqRaised_ = true;
}

std::optional<uint32_t> NpuRegisters::read(uint32_t offset, double now) const {
  if (offset % 4 != 0 || offset >= map_.size) {
    return std::nullopt;
  }
  if (std::optional<uint32_t> v = readPmu(offset, now)) {
    return v;
  }
  const auto in = [offset](uint32_t base, size_t words) { return offset >= base && offset < base + 4 * words; };
  if (offset == map_.id) return map_.idValue;
  if (offset == map_.status) return status();
  if (offset == map_.cmd) return cmd_;
  if (offset == map_.reset) return reset_;
  if (offset == map_.qbase) return static_cast<uint32_t>(qbase_);
  if (offset == map_.qbase + 4) return static_cast<uint32_t>(qbase_ >> 32);
  if (offset == map_.qread) return qread_;
  if (offset == map_.qconfig) return qconfig_;
  if (offset == map_.qsize) return qsize_;
  if (offset == map_.prot) return reset_ & (map_.resetBits.privilege.place(1) | map_.resetBits.security.place(1));
  if (offset == map_.config) return arch::configWord(hardware_);
  if (offset == map_.regioncfg) return regioncfg_;
  for (size_t i = 0; i < map_.axiLimits.size(); ++i) {
    if (offset == map_.axiLimits[i].offset) return axiLimits_[i];
  }
  if (map_.memoryAttributes.offset != 0 && in(map_.memoryAttributes.offset, memoryAttributes_.size())) {
    return memoryAttributes_[(offset - map_.memoryAttributes.offset) / 4];
  }
  if (in(map_.basep, 2 * map_.basepCount)) {
    const uint64_t base = basep_[(offset - map_.basep) / 8];
    return static_cast<uint32_t>((offset - map_.basep) % 8 == 0 ? base : base >> 32);
  }
  const auto it = other_.find(offset);
  return it == other_.end() ? 0 : it->second;
}

std::optional<NpuRegisters::Request> NpuRegisters::write(uint32_t offset, uint32_t value, double now) {
  if (offset % 4 != 0 || offset >= map_.size) {
    return std::nullopt;
  }
  if (std::optional<Request> r = writePmu(offset, value, now)) {
    return r;
  }
  Request r;
  const auto in = [offset](uint32_t base, size_t words) { return offset >= base && offset < base + 4 * words; };
  const auto setLow = [value](uint64_t& reg) { reg = (reg & ~uint64_t{0xFFFF'FFFF}) | value; };
  const auto setHigh = [value](uint64_t& reg) { reg = (reg & uint64_t{0xFFFF'FFFF}) | uint64_t{value} << 32; };
  const arch::CommandFields& cmd = map_.cmdBits;
  if (offset == map_.cmd) {
    // Start, clear the interrupt and the history bits named; the clock and power Q bits stay.
    if (cmd.clearIrq.read(value) != 0) {
      irqRaised_ = false;
    }
    irqHistory_ &= ~cmd.clearIrqHistory.read(value);
    cmd_ = (value & (cmd.clockQ.place(1) | cmd.powerQ.place(1))) | cmd.stopRequest.place(cmd.stopRequest.read(value));
    r.start = cmd.start.read(value) != 0 && !running_;
  } else if (offset == map_.reset) {
    powerOn();
    reset_ = value;
    r.reset = r.limits = r.routing = true;
  } else if (offset == map_.qbase) {
    setLow(qbase_);
  } else if (offset == map_.qbase + 4) {
    setHigh(qbase_);
  } else if (offset == map_.qsize) {
    qsize_ = value;
  } else if (offset == map_.qconfig) {
    qconfig_ = value;
    r.routing = true;
  } else if (offset == map_.regioncfg) {
    regioncfg_ = value;
    r.routing = true;
  } else if (in(map_.basep, 2 * map_.basepCount)) {
    uint64_t& base = basep_[(offset - map_.basep) / 8];
    if ((offset - map_.basep) % 8 == 0) {
      setLow(base);
    } else {
      setHigh(base);
    }
  } else if (map_.memoryAttributes.offset != 0 && in(map_.memoryAttributes.offset, memoryAttributes_.size())) {
    memoryAttributes_[(offset - map_.memoryAttributes.offset) / 4] = value;
    r.routing = true;
  } else if (offset == map_.id || offset == map_.status || offset == map_.qread || offset == map_.prot ||
             offset == map_.config) {
    // Read-only registers.
  } else {
    bool limit = false;
    for (size_t i = 0; i < map_.axiLimits.size(); ++i) {
      if (offset == map_.axiLimits[i].offset) {
        axiLimits_[i] = value;
        axiLimitWritten_[i] = true;
        limit = r.limits = true;
      }
    }
    if (!limit) {
      other_[offset] = value;
    }
  }
  return r;
}

// ---- PMU ----

bool NpuRegisters::pmuEnabled() const { return pmuDesc_.registers.enable.read(pmcr_) != 0; }

bool NpuRegisters::counting(size_t k) const {
  const uint32_t bit = k + 1 == counters_.size() ? pmuDesc_.registers.cycleCounterBit : static_cast<uint32_t>(k);
  return pmuEnabled() && ((countEnable_ >> bit) & 1) != 0;
}

double NpuRegisters::counterValue(size_t k, double now) const {
  const Counter& c = counters_[k];
  return c.value + (counting(k) ? eventTotal(c, now) - c.since : 0.0);
}

template <typename Change>
void NpuRegisters::changeCounting(double now, Change&& change) {
  // Fold each counter's count up to now under the old settings, apply the change, and restart
  // the counters that count under the new ones.
  for (size_t k = 0; k < counters_.size(); ++k) {
    counters_[k].value = counterValue(k, now);
  }
  change();
  for (Counter& c : counters_) {
    c.since = eventTotal(c, now);
  }
}

std::optional<NpuRegisters::Request> NpuRegisters::writePmu(uint32_t offset, uint32_t value, double now) {
  const arch::PmuRegisters& p = pmuDesc_.registers;
  const size_t events = pmuDesc_.eventCounters;
  Request r;
  const auto in = [offset](uint32_t base, size_t words) { return offset >= base && offset < base + 4 * words; };
  if (offset == pmuDesc_.controlRegister) {
    const bool before = pmuEnabled();
    changeCounting(now, [&] {
      pmcr_ = value & ~p.counterCount.place(~0u);
      if (p.resetEvents.read(value) != 0) {
        for (size_t k = 0; k < events; ++k) counters_[k].value = 0;
      }
      if (p.resetCycles.read(value) != 0) {
        counters_.back().value = 0;
      }
    });
    r.pmuEnable = pmuEnabled() != before;
  } else if (offset == p.countEnableSet) {
    changeCounting(now, [&] { countEnable_ |= value; });
  } else if (offset == p.countEnableClear) {
    changeCounting(now, [&] { countEnable_ &= ~value; });
  } else if (offset == p.overflowSet) {
    overflow_ |= value;
  } else if (offset == p.overflowClear) {
    overflow_ &= ~value;
  } else if (offset == p.interruptSet) {
    interruptEnable_ |= value;
  } else if (offset == p.interruptClear) {
    interruptEnable_ &= ~value;
  } else if (offset == p.cycleCounter || offset == p.cycleCounter + 4) {
    changeCounting(now, [&] {
      const uint64_t old = static_cast<uint64_t>(roundCount(counters_.back().value));
      const uint64_t v = offset == p.cycleCounter ? (old & ~uint64_t{0xFFFF'FFFF}) | value
                                                  : (old & uint64_t{0xFFFF'FFFF}) | uint64_t{value} << 32;
      counters_.back().value = double(v & ((uint64_t{1} << p.cycleCounterBits) - 1));
    });
  } else if (offset == p.cycleCounterConfig) {
    cycleCounterConfig_ = value;
  } else if (offset == p.axiChannel) {
    axiChannel_ = value;
  } else if (in(p.eventCounter, events)) {
    changeCounting(now, [&] { counters_[(offset - p.eventCounter) / 4].value = value; });
  } else if (in(p.eventType, events)) {
    changeCounting(now, [&] { counters_[(offset - p.eventType) / 4].event = p.event.read(value); });
  } else {
    return std::nullopt;
  }
  return r;
}

std::optional<uint32_t> NpuRegisters::readPmu(uint32_t offset, double now) const {
  const arch::PmuRegisters& p = pmuDesc_.registers;
  const size_t events = pmuDesc_.eventCounters;
  const auto in = [offset](uint32_t base, size_t words) { return offset >= base && offset < base + 4 * words; };
  // A counter's integer value: its exact count rounded once (sim/common/counts.h), wrapped at the
  // counter's width.
  const auto counter = [&](size_t k) { return static_cast<uint64_t>(roundCount(counterValue(k, now))); };
  if (offset == pmuDesc_.controlRegister) {
    return pmcr_ | p.counterCount.place(static_cast<uint32_t>(events));
  }
  if (offset == p.countEnableSet || offset == p.countEnableClear) return countEnable_;
  if (offset == p.overflowSet || offset == p.overflowClear) return overflow_;
  if (offset == p.interruptSet || offset == p.interruptClear) return interruptEnable_;
  if (offset == p.cycleCounter) return static_cast<uint32_t>(counter(events));
  if (offset == p.cycleCounter + 4) {
    return static_cast<uint32_t>((counter(events) & ((uint64_t{1} << p.cycleCounterBits) - 1)) >> 32);
  }
  if (offset == p.cycleCounterConfig) return cycleCounterConfig_;
  if (offset == p.axiChannel) return axiChannel_;
  if (in(p.eventCounter, events)) return static_cast<uint32_t>(counter((offset - p.eventCounter) / 4));
  if (in(p.eventType, events)) return counters_[(offset - p.eventType) / 4].event;
  return std::nullopt;
}

} // namespace npusim::npu
