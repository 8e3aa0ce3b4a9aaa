// SPDX-License-Identifier: Apache-2.0
#pragma once
// The model's own rules checked on what it did, in plain C++ (in the spirit of a TLM-2.0
// protocol checker or a DRAM simulator's command checker): it sees every AXI burst of every NPU
// port and every OFM block, and after the run checks them, independently of the code that
// scheduled them, against the configuration:
//   per port and direction: bursts in flight never above the outstanding limit, at most one data
//   beat per cycle (any window: its length in beats plus one burst);
//   per memory data path: bursts never overlapping, none faster than the path's bandwidth, none
//   before its data was ready (latency);
//   per timing adapter (a port's own, or a port group's): pending transactions within MAXR, MAXW,
//   MAXRW; addresses admitted only while the pulse is on; the words of a pulse cycle below BWCAP
//   before its last admission; RLATENCY and WLATENCY kept;
//   per operation: dispatched only when its unit's queue and the stream's waits allowed it, a
//   kernel operation's blocks reading their IFM only after the previous operation's OFM blocks
//   BLOCKDEP names were written, one DMA at a time.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/mem/memory_timing.h"
#include "models/npu/npu_observer.h"
#include "models/platform/platform.h"
#include "models/platform/run_result.h"
#include "sim/config/system_params.h"
#include "sim/io/decoded_network.h"

namespace npusim::platform {

class InvariantChecker {
public:
  explicit InvariantChecker(const config::SystemParams& params);
  InvariantChecker(const InvariantChecker&) = delete;
  InvariantChecker& operator=(const InvariantChecker&) = delete;

  // The observers to attach to the run: one per NPU port, and the NPU's.
  RunObservers observers();

  // Checks everything seen against `run` (its operations and their streams in `decoded`).
  CheckReport check(const RunResult& run, const std::vector<io::DecodedNpuOp>& decoded) const;

  // Where a memory's data paths are (a test may build a checker for its own ports and memories).
  struct MemoryDesc {
    double bytesPerCycle = 8;
    uint32_t lanes = 1;
    bool separateReadWrite = false;
    double readLatency = 0, writeLatency = 0;
  };
  struct PortDesc {
    std::string name;
    uint32_t bytesPerBeat = 8, maxBurstBytes = 64, maxReads = 1, maxWrites = 1, lane = 0;
    int adapter = -1;   // index into adapters, -1: none
  };
  // A checker of bursts only (no operations), for explicit ports, adapters and memories; port p's
  // bursts go to observers().ports[p].
  InvariantChecker(std::vector<PortDesc> ports, std::vector<config::TimingAdapterParams> adapters,
                   std::vector<MemoryDesc> memories);
  // Checks the bursts alone.
  CheckReport checkBursts() const;

private:
  class PortLog : public mem::BurstObserver {
  public:
    void burst(const mem::BurstEvent& event) override { bursts.push_back(event); }
    std::vector<mem::BurstEvent> bursts;
  };
  class BlockLog : public npu::NpuObserver {
  public:
    void block(size_t record, const npu::BlockEvent& event) override { blocks.push_back({record, event}); }
    void commandFetchWait(double, double) override {}
    std::vector<std::pair<size_t, npu::BlockEvent>> blocks;
  };
  void checkBursts(CheckReport& report) const;
  void checkOperations(const RunResult& run, const std::vector<io::DecodedNpuOp>& decoded, CheckReport& report) const;

  std::vector<PortDesc> portDescs_;
  std::vector<config::TimingAdapterParams> adapters_;
  std::vector<MemoryDesc> memories_;
  const arch::NpuConfig* hardware_ = nullptr;
  std::vector<PortLog> ports_;
  BlockLog blocks_;
};

} // namespace npusim::platform
