// SPDX-License-Identifier: Apache-2.0
#include "models/npu/pmu.h"

#include <algorithm>

#include "sim/common/counts.h"

namespace npusim::npu {

Pmu::Count Pmu::count(std::string_view event) const { return {std::string(architecture_.pmuEvent(event).name), 0}; }

Pmu::Pmu(const arch::NpuConfig& hardware)
    : architecture_(*hardware.arch), portDescs_(hardware.ports()), cycle_(count("CYCLE")), npuActive_(count("NPU_ACTIVE")), npuIdle_(count("NPU_IDLE")),
      macActive_(count("MAC_ACTIVE")), aoActive_(count("AO_ACTIVE")), macStalledByIb_(count("MAC_STALLED_BY_IB")),
      macStalledByWd_(count(hardware.arch->pmu.macStalledByWeights)), macStalledByAcc_(count("MAC_STALLED_BY_ACC")),
      ccStalledOnBlockdep_(count("CC_STALLED_ON_BLOCKDEP")),
      ccStalledOnShramReconfig_(count("CC_STALLED_ON_SHRAM_RECONFIG")), ports_(hardware.ports().size()) {}

void Pmu::setEnabled(bool enabled, double t) {
  if (enabled && !enabled_) {
    enabledAt_ = t;
    streamActive_ = 0;
  } else if (!enabled && enabled_) {
    PmuWindow w{enabledAt_, t, streamActive_, 0};
    w.idle = std::max(0.0, w.end - w.start - w.active);
    npuActive_.value += w.active;
    npuIdle_.value += w.idle;
    windows_.push_back(w);
  }
  enabled_ = enabled;
}

void Pmu::kernelDone(const KernelTiming& k) {
  macActive_.value += k.macCycles;
  aoActive_.value += k.outputCycles;
  macStalledByIb_.value += k.stallIfm;
  macStalledByWd_.value += k.stallWeights;
  macStalledByAcc_.value += k.stallOutput;
  ccStalledOnBlockdep_.value += k.stallBlockdep;
  ccStalledOnShramReconfig_.value += k.stallShramReconfig;
}

std::map<std::string, uint64_t> Pmu::counts() const {
  std::map<std::string, uint64_t> out;
  const auto put = [&out](const std::string& name, double value) { out[name] = static_cast<uint64_t>(roundCount(value)); };
  put(cycle_.name, npuActive_.value + npuIdle_.value);
  for (const Count* c : {&npuActive_, &npuIdle_, &macActive_, &aoActive_, &macStalledByIb_, &macStalledByWd_,
                         &macStalledByAcc_, &ccStalledOnBlockdep_, &ccStalledOnShramReconfig_}) {
    put(c->name, c->value);
  }
  // Each port's events, and a port group's (U85: every SRAM port's) the sum of its ports'.
  std::map<std::string, double> groups;
  for (size_t i = 0; i < ports_.size(); ++i) {
    const arch::PortDesc& desc = portDescs_.at(i);
    for (const PortEvent& e : portEvents()) {
      const double value = e.value(ports_[i]);
      put(architecture_.pmuPortEventName(desc, e.suffix), value);
      const std::string group = architecture_.pmuGroupEventName(desc.pmuGroup, e.suffix);
      if (!group.empty()) {
        groups[group] += value;
      }
    }
  }
  for (const auto& [name, value] : groups) {
    put(name, value);
  }
  return out;
}

const std::vector<Pmu::PortEvent>& Pmu::portEvents() {
  static const std::vector<PortEvent> events{
      {"RD_DATA_BEAT_RECEIVED", [](const mem::PortCounters& c) { return double(c.readBeats); }},
      {"WR_DATA_BEAT_WRITTEN", [](const mem::PortCounters& c) { return double(c.writeBeats); }},
      {"RD_TRANS_ACCEPTED", [](const mem::PortCounters& c) { return double(c.readBursts); }},
      {"WR_TRANS_ACCEPTED", [](const mem::PortCounters& c) { return double(c.writeBursts); }},
      {"RD_STALL_LIMIT", [](const mem::PortCounters& c) { return c.readLimitStall; }},
      {"WR_STALL_LIMIT", [](const mem::PortCounters& c) { return c.writeLimitStall; }},
  };
  return events;
}

double Pmu::eventTotal(uint32_t number, double now) const {
  const std::string name = architecture_.pmuEventName(number, portDescs_);
  const double active = activeBefore_ + std::max(0.0, (running_ ? now : std::min(now, lastEnd_)) - lastStart_);
  if (name == cycle_.name) return now;
  if (name == npuActive_.name) return active;
  if (name == npuIdle_.name) return now - active;
  for (const Count* c : {&macActive_, &aoActive_, &macStalledByIb_, &macStalledByWd_, &macStalledByAcc_,
                         &ccStalledOnBlockdep_, &ccStalledOnShramReconfig_}) {
    if (name == c->name) return c->value;
  }
  // A port's event, or its group's (the sum over the group's ports).
  double total = 0;
  for (size_t i = 0; i < ports_.size(); ++i) {
    const arch::PortDesc& desc = portDescs_[i];
    for (const PortEvent& e : portEvents()) {
      if (name == architecture_.pmuPortEventName(desc, e.suffix)) return e.value(ports_[i]);
      if (name == architecture_.pmuGroupEventName(desc.pmuGroup, e.suffix)) total += e.value(ports_[i]);
    }
  }
  return total;
}

} // namespace npusim::npu
