// SPDX-License-Identifier: Apache-2.0
#include "models/mem/event_queue.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace npusim::mem {

void EventQueue::schedule(double t, EventTarget& target, uint32_t kind, uint64_t data) {
  if (!(t >= now_)) {
    throw std::logic_error("EventQueue: an event at cycle " + std::to_string(t) + " scheduled at cycle " +
                           std::to_string(now_));
  }
  // Sift up with a hole: parents move down until the new event's place is found.
  const Event e{t, (order_++ << 16) | (kind & 0xffffu), &target, data};
  size_t hole = heap_.size();
  heap_.emplace_back();
  while (hole > 0) {
    const size_t parent = (hole - 1) / 2;
    if (!Later{}(heap_[parent], e)) break;
    heap_[hole] = heap_[parent];
    hole = parent;
  }
  heap_[hole] = e;
}

void EventQueue::runUntil(double until) {
  while (!heap_.empty() && heap_.front().time <= until) {
    const Event e = heap_.front();
    // Sift the last event down from the root with a hole.
    const Event last = heap_.back();
    heap_.pop_back();
    const size_t n = heap_.size();
    if (n > 0) {
      size_t hole = 0;
      for (;;) {
        size_t child = 2 * hole + 1;
        if (child >= n) break;
        if (child + 1 < n && Later{}(heap_[child], heap_[child + 1])) ++child;
        if (!Later{}(last, heap_[child])) break;
        heap_[hole] = heap_[child];
        hole = child;
      }
      heap_[hole] = last;
    }
    now_ = e.time;
    e.target->onEvent(static_cast<uint32_t>(e.order & 0xffffu), e.data);
  }
}

void EventQueue::advanceTo(double t) {
  if (t < now_ || t > next()) {
    throw std::logic_error("EventQueue: cannot move the clock from cycle " + std::to_string(now_) + " to " +
                           std::to_string(t));
  }
  now_ = t;
}

} // namespace npusim::mem
