// SPDX-License-Identifier: Apache-2.0
#include "models/mem/memory_timing.h"

#include <algorithm>

namespace npusim::mem {

double MemoryTiming::occupy(double ready, uint64_t bytes, double* contention) {
  const double duration = double(bytes) / bytesPerCycle_;
  // 1. Find the first gap of `duration` cycles at or after `ready`.
  double start = ready;
  auto it = busy_.upper_bound(start);
  if (it != busy_.begin()) {
    auto prev = std::prev(it);
    if (prev->second > start) {
      start = prev->second;
    }
  }
  while (it != busy_.end() && it->first < start + duration) {
    start = std::max(start, it->second);
    ++it;
  }
  *contention += start - ready;
  // 2. Insert [start, end) and merge with touching neighbours.
  double end = start + duration;
  double begin = start;
  auto next = busy_.lower_bound(begin);
  if (next != busy_.begin()) {
    auto prev = std::prev(next);
    if (prev->second >= begin) {
      begin = prev->first;
      busy_.erase(prev);
    }
  }
  next = busy_.lower_bound(begin);
  if (next != busy_.end() && next->first <= end) {
    end = std::max(end, next->second);
    busy_.erase(next);
  }
  busy_[begin] = end;
  return start + duration;
}

void MemoryTiming::retire(double horizon) {
  while (!busy_.empty() && busy_.begin()->second < horizon) {
    busy_.erase(busy_.begin());
  }
}

AxiPortTiming::AxiPortTiming(uint32_t bytesPerBeat, uint32_t maxBurstBytes, uint32_t maxReads, uint32_t maxWrites)
    : bytesPerBeat_(bytesPerBeat), maxBurstBytes_(maxBurstBytes), limit_{maxReads, maxWrites} {}

double AxiPortTiming::issueBurst(MemoryTiming& memory, Direction dir, double ready, uint64_t bytes, double* issued) {
  const size_t d = static_cast<size_t>(dir);
  auto& inflight = inflight_[d];
  // 1. Bursts of this direction in flight at `ready` (booked earlier, possibly by another unit).
  std::vector<double> busy;
  for (const Burst& b : inflight) {
    if (b.issue <= ready && b.done > ready) {
      busy.push_back(b.done);
    }
  }
  // 2. With the limit reached, issue when enough of them have completed.
  double issue = ready;
  if (busy.size() >= limit_[d]) {
    const size_t k = busy.size() - limit_[d];
    std::nth_element(busy.begin(), busy.begin() + static_cast<std::ptrdiff_t>(k), busy.end());
    issue = busy[k];
    (dir == Direction::Read ? counters_.readLimitStall : counters_.writeLimitStall) += issue - ready;
  }
  *issued = issue;
  // 3. Address phase -> latency -> data beats on the memory's data path.
  const double done = memory.occupy(issue + memory.latency(dir), bytes, &counters_.contention);
  inflight.push_back({issue, done});
  const uint64_t beats = (bytes + bytesPerBeat_ - 1) / bytesPerBeat_;
  if (dir == Direction::Read) {
    counters_.readBytes += bytes;
    counters_.readBeats += beats;
    ++counters_.readBursts;
  } else {
    counters_.writeBytes += bytes;
    counters_.writeBeats += beats;
    ++counters_.writeBursts;
  }
  return done;
}

void AxiPortTiming::retire(double horizon) {
  for (auto& inflight : inflight_) {
    inflight.erase(std::remove_if(inflight.begin(), inflight.end(), [horizon](const Burst& b) { return b.done < horizon; }),
                   inflight.end());
  }
}

double AxiPortTiming::transfer(MemoryTiming& memory, Direction dir, double start, const TransferShape& shape) {
  double last = start;
  double ready = start;
  for (uint64_t r = 0; r < shape.runs; ++r) {
    for (uint64_t offset = 0; offset < shape.runBytes; offset += maxBurstBytes_) {
      const uint64_t bytes = std::min<uint64_t>(maxBurstBytes_, shape.runBytes - offset);
      double issued = ready;
      last = std::max(last, issueBurst(memory, dir, ready, bytes, &issued));
      // The next burst's address phase follows one cycle after this one's.
      ready = issued + 1.0;
    }
  }
  return last;
}

} // namespace npusim::mem
