// SPDX-License-Identifier: Apache-2.0
#pragma once
// The NPU's performance monitor unit, owned by the NPU module: the events of the architecture's
// PMU table (sim/arch) that npusim models, counted under the driver's names. The driver's PMCR
// writes open and close the counting windows (CYCLE, NPU_IDLE); the command processor adds each
// command stream's active cycles, the kernel unit each operation's busy and stall cycles, and
// every AXI port its beats, transactions and limit stalls (the port's counters, which the
// memory system's links add each burst to). Plain C++.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/mem/memory_timing.h"
#include "models/npu/npu_units.h"
#include "sim/arch/npu_config.h"

namespace npusim::npu {

// One counting window: the driver's PMU enable to its disable.
struct PmuWindow {
  double start = 0, end = 0;  // NPU cycles
  double active = 0;          // command streams run in it (NPU_ACTIVE)
  double idle = 0;            // the rest of it, at least 0 (NPU_IDLE)
};

class Pmu {
public:
  // The PMU of `hardware`, with counters for each of its ports. Contract: its architecture has
  // every event npusim counts (std::logic_error otherwise: the model would count an event its
  // hardware does not have).
  explicit Pmu(const arch::NpuConfig& hardware);

  // PMCR bit 0 written at `t`: 1 opens a counting window, 0 closes the open one.
  void setEnabled(bool enabled, double t);
  // A command stream started at `t`; the one started last ran for `cycles`, NPU start to the end
  // of the stream (known when the NPU has run it, possibly ahead of the time).
  void streamStarted(double t) {
    activeBefore_ += lastEnd_ - lastStart_;
    lastStart_ = lastEnd_ = t;
    running_ = true;
  }
  void streamDone(double cycles) {
    streamActive_ += cycles;
    lastEnd_ = lastStart_ + cycles;
    running_ = false;
  }
  // A kernel operation's MAC and output-unit cycles and stalls.
  void kernelDone(const KernelTiming& k);
  // The AXI counters of NPU port `port`, which its transfers add their bursts to.
  mem::PortCounters& port(arch::PortId port) { return ports_.at(port.index); }
  const mem::PortCounters& port(arch::PortId port) const { return ports_.at(port.index); }

  // The closed windows, in order (one per ethos-u operator the driver ran).
  const std::vector<PmuWindow>& windows() const { return windows_; }
  // Every counted event under its driver name, rounded once (sim/common/counts.h). CYCLE is the
  // windows' NPU_ACTIVE + NPU_IDLE.
  std::map<std::string, uint64_t> counts() const;
  // What an event counter counting event `number` (the architecture's PMEVTYPER numbering) from
  // time 0 holds at `now`: CYCLE and NPU_IDLE by the clock, NPU_ACTIVE by the streams run so far,
  // the others as the units and ports have booked them (ahead of `now` while they run); 0 for an
  // event npusim does not count. The PMU's event counter registers take differences of it.
  double eventTotal(uint32_t number, double now) const;

private:
  // An event of the architecture's table and its exact count.
  struct Count {
    std::string name;
    double value = 0;
  };
  Count count(std::string_view event) const;
  // The AXI events counted per port: the suffix of their names and the counter of PortCounters.
  struct PortEvent {
    std::string_view suffix;
    double (*value)(const mem::PortCounters&);
  };
  static const std::vector<PortEvent>& portEvents();

  const arch::Architecture& architecture_;
  const std::vector<arch::PortDesc>& portDescs_;
  Count cycle_, npuActive_, npuIdle_, macActive_, aoActive_, macStalledByIb_, macStalledByWd_, macStalledByAcc_,
      ccStalledOnBlockdep_, ccStalledOnShramReconfig_;
  std::vector<mem::PortCounters> ports_;
  bool enabled_ = false;
  double enabledAt_ = 0;
  double streamActive_ = 0;  // command streams since the window opened
  double activeBefore_ = 0;  // the command streams before the last one
  double lastStart_ = 0, lastEnd_ = 0;  // the last one's start and end (its end unknown while running_)
  bool running_ = false;
  std::vector<PmuWindow> windows_;
};

} // namespace npusim::npu
