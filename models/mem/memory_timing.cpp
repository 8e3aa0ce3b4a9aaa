// SPDX-License-Identifier: Apache-2.0
#include "models/mem/memory_timing.h"

#include <algorithm>
#include <cmath>

#include "models/mem/event_queue.h"

namespace npusim::mem {

MemoryTiming::MemoryTiming(double bytesPerCycle, double readLatency, double writeLatency, bool separateReadWrite,
                           uint32_t lanes)
    : bytesPerCycle_(bytesPerCycle), latency_{readLatency, writeLatency}, separate_(separateReadWrite),
      lanes_(std::max<uint32_t>(lanes, 1)), paths_(size_t{lanes_} * (separate_ ? 2 : 1)) {}

size_t MemoryTiming::path(Direction d, uint32_t lane) const {
  return size_t{lane % lanes_} * (separate_ ? 2 : 1) + (separate_ ? static_cast<size_t>(d) : 0);
}

double MemoryTiming::occupy(Direction d, uint32_t lane, double ready, uint64_t bytes, uint64_t beats, double* end) {
  Path& p = paths_[path(d, lane)];
  if (ready < p.lastReady) {
    ++outOfOrder_;
  }
  p.lastReady = std::max(p.lastReady, ready);
  const double start = std::max(ready, p.free);
  p.free = start + std::max(double(bytes) * double(lanes_) / bytesPerCycle_, double(beats));
  *end = p.free;
  return start;
}

bool TimingAdapter::admit(Direction dir, double t, uint64_t words, double* retry) {
  *retry = EventQueue::kNever;
  const uint32_t dirLimit = dir == Direction::Read ? p_.maxReads : p_.maxWrites;
  if ((dirLimit > 0 && pending_[static_cast<size_t>(dir)] >= dirLimit) ||
      (p_.maxPending > 0 && pending_[0] + pending_[1] >= p_.maxPending)) {
    return false;
  }
  const double period = double(p_.pulseOn) + double(p_.pulseOff);
  if (period > 0) {
    const double cycle = std::floor((t + phase_) / period);
    if (t + phase_ - cycle * period >= p_.pulseOn) {
      *retry = (cycle + 1) * period - phase_; // pulse off: the next pulse cycle opens the gate
      return false;
    }
    const uint64_t c = static_cast<uint64_t>(cycle);
    if (c != cycle_) {
      cycle_ = c;
      words_ = 0;
    }
    if (p_.bandwidthCap > 0 && words_ >= p_.bandwidthCap) {
      *retry = (cycle + 1) * period - phase_; // cap reached: the counter restarts with the next pulse cycle
      return false;
    }
    words_ += words;
  }
  ++pending_[static_cast<size_t>(dir)];
  return true;
}

void TimingAdapter::release(Direction dir) {
  uint32_t& n = pending_[static_cast<size_t>(dir)];
  if (n > 0) {
    --n;
  }
}

} // namespace npusim::mem
