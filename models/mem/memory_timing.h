// SPDX-License-Identifier: Apache-2.0
#pragma once
// Burst-level AXI timing in plain C++: a memory's data-bus timeline and an initiator's
// outstanding-transaction window. Times are in NPU clock cycles (double).

#include <cstdint>
#include <map>
#include <vector>

namespace npusim::mem {

enum class Direction : uint8_t { Read, Write };

// The shape of one transfer: `runs` contiguous runs of `runBytes` bytes each.
struct TransferShape {
  uint64_t runs = 1;
  uint64_t runBytes = 0;
  uint64_t bytes() const { return runs * runBytes; }
};

// Timing of one memory device behind the interconnect: a single data path shared by every
// initiator and both directions (bytes per cycle = port width x clock scale), with a fixed
// access latency per burst. The data path is a timeline of busy intervals: a burst takes the
// first free gap at or after the time its data is ready, so transfers booked ahead of time by
// one unit and transfers booked later by another interleave in time order.
class MemoryTiming {
public:
  MemoryTiming(double bytesPerCycle, double readLatency, double writeLatency)
      : bytesPerCycle_(bytesPerCycle), readLatency_(readLatency), writeLatency_(writeLatency) {}

  double latency(Direction d) const { return d == Direction::Read ? readLatency_ : writeLatency_; }
  double bytesPerCycle() const { return bytesPerCycle_; }
  // Reserves the data path for `bytes` no earlier than `ready`; returns when the data is done
  // and adds the wait for a free gap to `contention`.
  double occupy(double ready, uint64_t bytes, double* contention);
  // Forgets busy intervals that end before `horizon` (no caller books earlier than that).
  void retire(double horizon);

private:
  double bytesPerCycle_;
  double readLatency_, writeLatency_;
  std::map<double, double> busy_; // start -> end, disjoint, merged when touching
};

// Counters one initiator port keeps (AXI beats, bursts, stall cycles).
struct PortCounters {
  uint64_t readBytes = 0, writeBytes = 0;
  uint64_t readBeats = 0, writeBeats = 0;
  uint64_t readBursts = 0, writeBursts = 0;
  double readLimitStall = 0, writeLimitStall = 0; // waiting for a free outstanding slot
  double contention = 0;                          // waiting for the memory's data path
};

// One AXI manager port of an initiator: splits transfers into bursts at the burst-split
// alignment, limits outstanding reads and writes, and times each burst on the memory.
class AxiPortTiming {
public:
  AxiPortTiming(uint32_t bytesPerBeat, uint32_t maxBurstBytes, uint32_t maxReads, uint32_t maxWrites);

  // Times a transfer that may start issuing at `start`; returns the completion time of its
  // last burst. Contract: calls are made in non-decreasing simulation time per caller.
  double transfer(MemoryTiming& memory, Direction dir, double start, const TransferShape& shape);

  const PortCounters& counters() const { return counters_; }
  // Forgets bursts that completed before `horizon`.
  void retire(double horizon);

private:
  double issueBurst(MemoryTiming& memory, Direction dir, double ready, uint64_t bytes, double* issued);
  uint32_t bytesPerBeat_;
  uint32_t maxBurstBytes_;
  uint32_t limit_[2];
  struct Burst {
    double issue, done;
  };
  std::vector<Burst> inflight_[2]; // booked bursts not yet retired
  PortCounters counters_;
};

} // namespace npusim::mem
