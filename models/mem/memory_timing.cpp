// SPDX-License-Identifier: Apache-2.0
#include "models/mem/memory_timing.h"

#include <algorithm>
#include <cmath>

namespace npusim::mem {

double BusyTimeline::reserve(double ready, double duration) {
  // 1. After every burst whose data was ready no later than this one's (the last of them ends
  //    last: the intervals are in ready order and do not overlap).
  const auto later = busy_.upper_bound({ready, UINT64_MAX});
  double start = ready;
  if (later != busy_.begin()) {
    start = std::max(start, std::prev(later)->second.end);
  }
  // 2. Bursts ready later that now overlap move back, each behind the previous one, until one
  //    no longer overlaps.
  double end = start + duration;
  for (auto it = later; it != busy_.end() && it->second.start < end; ++it) {
    const double length = it->second.end - it->second.start;
    it->second = {end, end + length};
    end += length;
  }
  busy_.emplace_hint(later, std::make_pair(ready, sequence_++), Interval{start, start + duration});
  return start;
}

void BusyTimeline::retire(double horizon) {
  while (!busy_.empty() && busy_.begin()->second.end < horizon) {
    busy_.erase(busy_.begin());
  }
}

double MemoryTiming::occupy(Direction d, double ready, uint64_t bytes, double* contention) {
  const double duration = double(bytes) / bytesPerCycle_;
  BusyTimeline& path = path_[separate_ ? static_cast<size_t>(d) : 0];
  const double start = path.reserve(ready, duration);
  *contention += start - ready;
  return start + duration;
}

void MemoryTiming::retire(double horizon) {
  path_[0].retire(horizon);
  path_[1].retire(horizon);
}

double TimingAdapter::slotFree(double t, uint32_t limit, const Direction* dir) const {
  std::vector<double> done;
  for (const Pending& p : pending_) {
    if ((dir == nullptr || p.dir == *dir) && p.admitted <= t && p.done > t) {
      done.push_back(p.done);
    }
  }
  if (done.size() < limit) {
    return t;
  }
  // The (count - limit + 1)-th completion leaves limit - 1 pending: a slot is free.
  const size_t k = done.size() - limit;
  std::nth_element(done.begin(), done.begin() + static_cast<std::ptrdiff_t>(k), done.end());
  return done[k];
}

double TimingAdapter::admit(Direction dir, double ready, uint64_t words) {
  const double period = double(p_.pulseOn) + double(p_.pulseOff);
  const uint32_t dirLimit = dir == Direction::Read ? p_.maxReads : p_.maxWrites;
  double t = ready;
  // Each rule can only move t later; repeat until one pass moves it no more.
  for (bool moved = true; moved;) {
    const double before = t;
    if (dirLimit > 0) {
      t = slotFree(t, dirLimit, &dir);
    }
    if (p_.maxPending > 0) {
      t = slotFree(t, p_.maxPending, nullptr);
    }
    if (period > 0) {
      const double cycle = std::floor(t / period);
      if (t - cycle * period >= p_.pulseOn) {
        t = (cycle + 1) * period; // pulse off: the next pulse cycle opens the gate
      } else if (p_.bandwidthCap > 0) {
        const auto it = words_.find(static_cast<uint64_t>(cycle));
        if (it != words_.end() && it->second >= p_.bandwidthCap) {
          t = (cycle + 1) * period; // cap reached: the counter restarts with the next pulse cycle
        }
      }
    }
    moved = t > before;
  }
  if (period > 0 && p_.bandwidthCap > 0) {
    words_[static_cast<uint64_t>(std::floor(t / period))] += words;
  }
  return t;
}

void TimingAdapter::complete(Direction dir, double admitted, double done) {
  if (p_.maxReads > 0 || p_.maxWrites > 0 || p_.maxPending > 0) {
    pending_.push_back({admitted, done, dir});
  }
}

void TimingAdapter::retire(double horizon) {
  pending_.erase(std::remove_if(pending_.begin(), pending_.end(), [horizon](const Pending& p) { return p.done < horizon; }),
                 pending_.end());
  const double period = double(p_.pulseOn) + double(p_.pulseOff);
  while (!words_.empty() && (double(words_.begin()->first) + 1) * period < horizon) {
    words_.erase(words_.begin());
  }
}

AxiPortTiming::AxiPortTiming(uint32_t bytesPerBeat, uint32_t maxBurstBytes, uint32_t maxReads, uint32_t maxWrites,
                             const TimingAdapterParams& adapter)
    : bytesPerBeat_(bytesPerBeat), maxBurstBytes_(maxBurstBytes), limit_{maxReads, maxWrites},
      hasAdapter_(!adapter.transparent()), adapter_(adapter) {}

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
  // 2. With the port's limit reached, issue when enough of them have completed.
  double issue = ready;
  if (busy.size() >= limit_[d]) {
    const size_t k = busy.size() - limit_[d];
    std::nth_element(busy.begin(), busy.begin() + static_cast<std::ptrdiff_t>(k), busy.end());
    issue = busy[k];
    (dir == Direction::Read ? counters_.readLimitStall : counters_.writeLimitStall) += issue - ready;
  }
  const uint64_t beats = (bytes + bytesPerBeat_ - 1) / bytesPerBeat_;
  // 3. Address phase -> (timing adapter) -> latency -> data beats on the memory's data path.
  double done = 0;
  if (hasAdapter_) {
    const double admitted = adapter_.admit(dir, issue, beats);
    counters_.adapterStall += admitted - issue;
    issue = admitted;
    if (dir == Direction::Read) {
      const double latency = std::max(adapter_.minimumLatency(dir), memory.latency(dir));
      done = memory.occupy(dir, admitted + latency, bytes, &counters_.contention);
    } else {
      done = memory.occupy(dir, admitted + memory.latency(dir), bytes, &counters_.contention) +
             adapter_.minimumLatency(dir);
    }
    adapter_.complete(dir, admitted, done);
  } else {
    done = memory.occupy(dir, issue + memory.latency(dir), bytes, &counters_.contention);
  }
  *issued = issue;
  inflight.push_back({issue, done});
  if (dir == Direction::Read) {
    counters_.readBytes += bytes;
    counters_.readBeats += beats;
    ++counters_.readBursts;
  } else {
    counters_.writeBytes += bytes;
    counters_.writeBeats += beats;
    ++counters_.writeBursts;
  }
  if (observer_ != nullptr) {
    observer_->burst({dir, bytes, beats, ready, issue, done});
  }
  return done;
}

void AxiPortTiming::retire(double horizon) {
  for (auto& inflight : inflight_) {
    inflight.erase(std::remove_if(inflight.begin(), inflight.end(), [horizon](const Burst& b) { return b.done < horizon; }),
                   inflight.end());
  }
  adapter_.retire(horizon);
}

double AxiPortTiming::transfer(MemoryTiming& memory, Direction dir, double start, const TransferShape& shape) {
  double last = start;
  double ready = start;
  for (uint64_t r = 0; r < shape.runs; ++r) {
    for (uint64_t offset = 0; offset < shape.runBytes; offset += maxBurstBytes_) {
      const uint64_t bytes = std::min<uint64_t>(maxBurstBytes_, shape.runBytes - offset);
      double issued = ready;
      last = std::max(last, issueBurst(memory, dir, ready, bytes, &issued));
      // The next burst's address phase follows one cycle after this one's was accepted.
      ready = issued + 1.0;
    }
  }
  return last;
}

} // namespace npusim::mem
