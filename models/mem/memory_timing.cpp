// SPDX-License-Identifier: Apache-2.0
#include "models/mem/memory_timing.h"

#include <algorithm>
#include <cmath>

namespace npusim::mem {

namespace {

// Drops the retired prefix [0, head) of a vector kept from `head` on, once it is at least half
// of the vector (amortised O(1) per element).
template <typename T>
void compact(std::vector<T>& v, size_t& head) {
  constexpr size_t kMinDrop = 64;
  if (head >= kMinDrop && 2 * head >= v.size()) {
    v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(head));
    head = 0;
  }
}

} // namespace

double BusyTimeline::reserve(double ready, double duration) {
  const auto first = busy_.begin() + static_cast<std::ptrdiff_t>(head_);
  // 1. After every burst whose data was ready no later than this one's. Serving in ready order
  //    keeps the intervals in ready order too, without overlaps, so those bursts are a prefix
  //    and the last of them ends last.
  const auto later = std::upper_bound(first, busy_.end(), ready, [](double r, const Interval& i) { return r < i.ready; });
  const double start = later == first ? ready : std::max(ready, std::prev(later)->end);
  // 2. Bursts ready later that now overlap move back, each behind the previous one, in order,
  //    until one no longer overlaps; they keep their order, so they move in place and the new
  //    interval goes in front of them.
  double end = start + duration;
  for (auto next = later; next != busy_.end() && next->start < end; ++next) {
    const double length = next->end - next->start;
    next->start = end;
    next->end = end + length;
    end += length;
  }
  busy_.insert(later, {start, start + duration, ready});
  return start;
}

void BusyTimeline::retire(double horizon) {
  while (head_ < busy_.size() && busy_[head_].end < horizon) {
    ++head_;
  }
  compact(busy_, head_);
}

void CompletionWindow::add(double start, double done) {
  const auto at = std::upper_bound(entries_.begin() + static_cast<std::ptrdiff_t>(head_), entries_.end(), done,
                                   [](double d, const Entry& e) { return d < e.done; });
  entries_.insert(at, {start, done});
  longest_ = std::max(longest_, done - start);
}

void CompletionWindow::retire(double horizon) {
  while (head_ < entries_.size() && entries_[head_].done < horizon) {
    ++head_;
  }
  const size_t before = entries_.size();
  compact(entries_, head_);
  if (entries_.size() != before) {
    // Compacted: the bound shrinks to the entries kept (amortised with the compaction).
    longest_ = 0;
    for (const Entry& e : entries_) {
      longest_ = std::max(longest_, e.done - e.start);
    }
  }
}

size_t CompletionWindow::walkEnd(double t) const {
  // One cycle of margin keeps the bound safe from rounding in done - start.
  const double last = t + longest_ + 1;
  return static_cast<size_t>(std::upper_bound(entries_.begin() + static_cast<std::ptrdiff_t>(head_), entries_.end(), last,
                                              [](double d, const Entry& e) { return d < e.done; }) -
                             entries_.begin());
}

double CompletionWindow::slotFree(double t, uint32_t limit, const CompletionWindow& a, const CompletionWindow* b) {
  // From the latest completion that can have started by t backwards (merging both windows; the
  // later ones started after t and do not count): the limit-th transaction in flight at t is the
  // one whose completion frees a slot. Completions at or before t end the walk: nothing earlier
  // is in flight.
  size_t i = a.walkEnd(t);
  size_t j = b == nullptr ? 0 : b->walkEnd(t);
  const size_t jEnd = b == nullptr ? 0 : b->head_;
  uint32_t inFlight = 0;
  for (;;) {
    const Entry* e = nullptr;
    if (i > a.head_ && (j <= jEnd || a.entries_[i - 1].done >= b->entries_[j - 1].done)) {
      e = &a.entries_[--i];
    } else if (j > jEnd) {
      e = &b->entries_[--j];
    } else {
      return t;
    }
    if (e->done <= t) {
      return t;
    }
    if (e->start <= t && ++inFlight == limit) {
      return e->done;
    }
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

size_t TimingAdapter::pulseIndex(uint64_t cycle) const {
  const auto it = std::lower_bound(words_.begin() + static_cast<std::ptrdiff_t>(wordsHead_), words_.end(), cycle,
                                   [](const PulseWords& w, uint64_t c) { return w.cycle < c; });
  return static_cast<size_t>(it - words_.begin());
}

double TimingAdapter::admit(Direction dir, double ready, uint64_t words) {
  const double period = double(p_.pulseOn) + double(p_.pulseOff);
  const uint32_t dirLimit = dir == Direction::Read ? p_.maxReads : p_.maxWrites;
  double t = ready;
  // Each rule can only move t later; repeat until one pass moves it no more.
  for (bool moved = true; moved;) {
    const double before = t;
    if (dirLimit > 0) {
      t = CompletionWindow::slotFree(t, dirLimit, pending_[static_cast<size_t>(dir)]);
    }
    if (p_.maxPending > 0) {
      t = CompletionWindow::slotFree(t, p_.maxPending, pending_[0], &pending_[1]);
    }
    if (period > 0) {
      const double cycle = std::floor(t / period);
      if (t - cycle * period >= p_.pulseOn) {
        t = (cycle + 1) * period; // pulse off: the next pulse cycle opens the gate
      } else if (p_.bandwidthCap > 0 && wordsBy(static_cast<uint64_t>(cycle), t) >= p_.bandwidthCap) {
        t = (cycle + 1) * period; // cap reached: the counter restarts with the next pulse cycle
      }
    }
    moved = t > before;
  }
  if (period > 0 && p_.bandwidthCap > 0) {
    uint64_t cycle = static_cast<uint64_t>(std::floor(t / period));
    const bool last = admissions_.size() == admissionsHead_ || admissions_.back().time <= t;
    book(cycle, t, words);
    // Admitted ahead of transactions another unit booked later in the pulse cycle: if the cycle
    // now holds more than the cap, those (the latest) would have waited for the next cycle. Their
    // times stay as reported, but the excess counts against the next cycle, and so on, so the
    // adapter still passes at most its cap per pulse cycle in the long run.
    uint64_t excess = last ? 0 : overCap(cycle, words);
    while (excess > 0) {
      ++cycle;
      book(cycle, double(cycle) * period, excess);
      excess = overCap(cycle, excess);
    }
  }
  return t;
}

void TimingAdapter::book(uint64_t cycle, double t, uint64_t words) {
  const size_t i = pulseIndex(cycle);
  if (i < words_.size() && words_[i].cycle == cycle) {
    words_[i].words += words;
  } else {
    words_.insert(words_.begin() + static_cast<std::ptrdiff_t>(i), {cycle, words});
  }
  const auto at = std::upper_bound(admissions_.begin() + static_cast<std::ptrdiff_t>(admissionsHead_),
                                   admissions_.end(), t, [](double x, const Admission& a) { return x < a.time; });
  admissions_.insert(at, {t, words});
}

uint64_t TimingAdapter::overCap(uint64_t cycle, uint64_t added) const {
  const size_t i = pulseIndex(cycle);
  const uint64_t total = words_[i].words;
  return total > p_.bandwidthCap ? std::min(added, total - p_.bandwidthCap) : 0;
}

uint64_t TimingAdapter::wordsBy(uint64_t cycle, double t) const {
  const size_t i = pulseIndex(cycle);
  if (i == words_.size() || words_[i].cycle != cycle) {
    return 0;
  }
  // The cycle's words, less those admitted after t (booked ahead; at the end of the cycle's
  // admissions, so the walk is short unless another unit booked far ahead).
  uint64_t words = words_[i].words;
  if (words < p_.bandwidthCap) {
    return words;
  }
  const double end = double(cycle + 1) * (double(p_.pulseOn) + double(p_.pulseOff));
  auto it = std::lower_bound(admissions_.begin() + static_cast<std::ptrdiff_t>(admissionsHead_), admissions_.end(),
                             end, [](const Admission& a, double x) { return a.time < x; });
  while (it != admissions_.begin() + static_cast<std::ptrdiff_t>(admissionsHead_) && std::prev(it)->time > t) {
    --it;
    words -= it->words;
  }
  return words;
}

void TimingAdapter::complete(Direction dir, double admitted, double done) {
  if (p_.maxReads > 0 || p_.maxWrites > 0 || p_.maxPending > 0) {
    pending_[static_cast<size_t>(dir)].add(admitted, done);
  }
}

void TimingAdapter::retire(double horizon) {
  pending_[0].retire(horizon);
  pending_[1].retire(horizon);
  const double period = double(p_.pulseOn) + double(p_.pulseOff);
  while (wordsHead_ < words_.size() && (double(words_[wordsHead_].cycle) + 1) * period < horizon) {
    ++wordsHead_;
  }
  compact(words_, wordsHead_);
  // Admissions of the retired pulse cycles (all before the first one kept).
  const double kept = wordsHead_ < words_.size() ? double(words_[wordsHead_].cycle) * period : horizon;
  while (admissionsHead_ < admissions_.size() && admissions_[admissionsHead_].time < kept) {
    ++admissionsHead_;
  }
  compact(admissions_, admissionsHead_);
}

AxiLinkTiming::AxiLinkTiming(uint32_t bytesPerBeat, uint32_t maxBurstBytes, uint32_t maxReads, uint32_t maxWrites,
                             const TimingAdapterParams& adapter)
    : bytesPerBeat_(bytesPerBeat), maxBurstBytes_(maxBurstBytes), limit_{maxReads, maxWrites},
      hasAdapter_(!adapter.transparent()), own_(adapter) {}

double AxiLinkTiming::issueBurst(MemoryTiming& memory, Direction dir, double ready, uint64_t address, uint64_t bytes,
                                 double* issued, PortCounters& counters) {
  const size_t d = static_cast<size_t>(dir);
  // 1. With the port's limit of bursts of this direction in flight at `ready` (booked earlier,
  //    possibly by another unit), issue when enough of them have completed.
  double issue = CompletionWindow::slotFree(ready, limit_[d], inflight_[d]);
  if (issue > ready) {
    (dir == Direction::Read ? counters.readLimitStall : counters.writeLimitStall) += issue - ready;
  }
  // Data beats are aligned to the bus width: from the beat holding the first byte to the one
  // holding the last.
  const uint64_t beats = (address % bytesPerBeat_ + bytes + bytesPerBeat_ - 1) / bytesPerBeat_;
  // 2. Address phase -> (timing adapter) -> latency -> data beats on the memory's data path.
  double done = 0;
  if (hasAdapter_) {
    const double admitted = adapter().admit(dir, issue, beats);
    counters.adapterStall += admitted - issue;
    issue = admitted;
    if (dir == Direction::Read) {
      const double latency = std::max(adapter().minimumLatency(dir), memory.latency(dir));
      done = memory.occupy(dir, admitted + latency, bytes, &counters.contention);
    } else {
      done = memory.occupy(dir, admitted + memory.latency(dir), bytes, &counters.contention) +
             adapter().minimumLatency(dir);
    }
    adapter().complete(dir, admitted, done);
  } else {
    done = memory.occupy(dir, issue + memory.latency(dir), bytes, &counters.contention);
  }
  *issued = issue;
  inflight_[d].add(issue, done);
  if (dir == Direction::Read) {
    counters.readBytes += bytes;
    counters.readBeats += beats;
    ++counters.readBursts;
  } else {
    counters.writeBytes += bytes;
    counters.writeBeats += beats;
    ++counters.writeBursts;
  }
  if (observer_ != nullptr) {
    observer_->burst({dir, bytes, beats, ready, issue, done});
  }
  return done;
}

void AxiLinkTiming::retire(double horizon) {
  inflight_[0].retire(horizon);
  inflight_[1].retire(horizon);
  adapter().retire(horizon);
}

double AxiLinkTiming::transfer(MemoryTiming& memory, Direction dir, double start, const TransferShape& shape,
                               PortCounters* counters) {
  PortCounters uncounted;
  PortCounters& into = counters != nullptr ? *counters : uncounted;
  double last = start;
  double ready = start;
  const uint64_t burstBytes =
      shape.pieceBytes > 0 ? std::min<uint64_t>(maxBurstBytes_, shape.pieceBytes) : uint64_t{maxBurstBytes_};
  // A windowed transfer: burst k waits for burst k - window/burst (at least one burst in flight).
  const size_t window = shape.window == 0 ? 0 : std::max<size_t>(1, shape.window / burstBytes);
  windowDone_.clear();
  const uint64_t stride = shape.runStride == 0 ? shape.runBytes : shape.runStride;
  for (uint64_t r = 0; r < shape.runs; ++r) {
    for (uint64_t offset = 0; offset < shape.runBytes; offset += burstBytes) {
      const uint64_t bytes = std::min<uint64_t>(burstBytes, shape.runBytes - offset);
      if (window > 0 && windowDone_.size() >= window) {
        ready = std::max(ready, windowDone_[windowDone_.size() - window]);
      }
      double issued = ready;
      const double done = issueBurst(memory, dir, ready, shape.address + r * stride + offset, bytes, &issued, into);
      last = std::max(last, done);
      if (window > 0) {
        windowDone_.push_back(done);
      }
      // The next burst's address phase follows one cycle after this one's was accepted.
      ready = issued + 1.0;
    }
  }
  return last;
}

} // namespace npusim::mem
