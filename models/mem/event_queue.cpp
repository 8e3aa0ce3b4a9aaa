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
  heap_.push_back({t, order_++, &target, kind, data});
  std::push_heap(heap_.begin(), heap_.end(), later);
}

void EventQueue::runUntil(double until) {
  while (!heap_.empty() && heap_.front().time <= until) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Event e = heap_.back();
    heap_.pop_back();
    now_ = e.time;
    e.target->onEvent(e.kind, e.data);
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
