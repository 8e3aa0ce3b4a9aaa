// SPDX-License-Identifier: Apache-2.0
#pragma once
// The discrete-event scheduler the NPU's units and AXI ports run on, in plain C++: events in
// time order (NPU cycles), events at equal times in the order they were scheduled. Everything
// that arbitrates a shared resource (an outstanding-transaction slot, a timing adapter's
// counter, a memory's data path) decides at the event of the time it happens, so every request
// made for that time is known when the decision is taken and nothing decided is ever moved.

#include <cstdint>
#include <limits>
#include <vector>

namespace npusim::mem {

class EventQueue;

// Something that schedules events and is called back when they fall due.
class EventTarget {
public:
  virtual ~EventTarget() = default;
  // The event scheduled with `kind` and `data` is due; `queue.now()` is its time.
  virtual void onEvent(uint32_t kind, uint64_t data) = 0;
};

class EventQueue {
public:
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  double now() const { return now_; }
  // Schedules `target.onEvent(kind, data)` at `t`. Contract: t >= now() (std::logic_error
  // otherwise: an event in the past would reorder decisions already taken).
  void schedule(double t, EventTarget& target, uint32_t kind = 0, uint64_t data = 0);
  bool empty() const { return heap_.empty(); }
  // The time of the next event, kNever when there is none.
  double next() const { return heap_.empty() ? kNever : heap_.front().time; }
  // Runs the events due no later than `until`, in order (events they schedule included).
  void runUntil(double until);
  void run() { runUntil(kNever); }
  // Moves the clock to `t` (>= now()) while no event is due before it: the start of work that
  // comes from outside the queue (an NPU started by its driver).
  void advanceTo(double t);

private:
  struct Event {
    double time;
    uint64_t order;      // scheduling order (ties), in the high 48 bits, and the kind, in the low 16
    EventTarget* target;
    uint64_t data;
  };
  // The heap's order: the earliest event (then the first scheduled) on top.
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time > b.time || (a.time == b.time && a.order > b.order);  // the kind never decides: orders differ
    }
  };
  std::vector<Event> heap_;
  uint64_t order_ = 0;
  double now_ = 0;
};

} // namespace npusim::mem
