// SPDX-License-Identifier: Apache-2.0
#pragma once
// Progress of a long batch of points: a redrawn bar (done/total, rate, ETA) on a terminal,
// plain periodic lines otherwise (logs, CI).

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace npusim::sweep {

// Shows how far a batch has got. `alreadyDone` points (e.g. resumed) count as done but not in
// the rate.
class ProgressMeter {
public:
  ProgressMeter(std::ostream& os, size_t total, size_t alreadyDone, bool terminal, double lineIntervalSeconds = 10);
  // Call after every finished point and periodically; redraws at most 10 times a second
  // (terminal) or prints a line every lineIntervalSeconds (otherwise).
  void update(size_t done, size_t failed);
  // The final state; ends the bar's line.
  void finish(size_t done, size_t failed);

private:
  void draw(size_t done, size_t failed);

  using Clock = std::chrono::steady_clock;
  std::ostream& os_;
  size_t total_, alreadyDone_;
  bool terminal_;
  double interval_;
  Clock::time_point start_, lastDraw_;
};

// "1:02:03" / "2:03".
std::string formatDuration(double seconds);

} // namespace npusim::sweep
