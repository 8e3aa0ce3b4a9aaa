// SPDX-License-Identifier: Apache-2.0
#include "harness/sweep/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace npusim::sweep {
namespace {

constexpr double kBarRedrawSeconds = 0.1;
constexpr size_t kBarWidth = 30;

} // namespace

std::string formatDuration(double seconds) {
  const long total = std::lround(std::max(0.0, seconds));
  char buf[32];
  if (total >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", total / 60, total % 60);
  }
  return buf;
}

ProgressMeter::ProgressMeter(std::ostream& os, size_t total, size_t alreadyDone, bool terminal,
                             double lineIntervalSeconds)
    : os_(os), total_(total), alreadyDone_(alreadyDone), terminal_(terminal), interval_(lineIntervalSeconds),
      start_(Clock::now()), lastDraw_(start_) {}

void ProgressMeter::update(size_t done, size_t failed) {
  const double sinceDraw = std::chrono::duration<double>(Clock::now() - lastDraw_).count();
  if (sinceDraw >= (terminal_ ? kBarRedrawSeconds : interval_)) {
    draw(done, failed);
  }
}

void ProgressMeter::finish(size_t done, size_t failed) {
  draw(done, failed);
  if (terminal_) {
    os_ << '\n';
  }
  os_.flush();
}

void ProgressMeter::draw(size_t done, size_t failed) {
  lastDraw_ = Clock::now();
  const double elapsed = std::chrono::duration<double>(lastDraw_ - start_).count();
  const double rate = elapsed > 0 ? double(done - alreadyDone_) / elapsed : 0.0;
  const double fraction = total_ > 0 ? double(done) / double(total_) : 1.0;
  const std::string eta = done >= total_ ? formatDuration(0)
                          : rate > 0     ? formatDuration(double(total_ - done) / rate)
                                         : std::string("?");
  const std::string failures = failed > 0 ? ", " + std::to_string(failed) + " failed" : "";
  char stats[160];
  std::snprintf(stats, sizeof stats, "%zu/%zu points (%.1f%%), %.1f points/s, ETA %s%s", done, total_,
                100.0 * fraction, rate, eta.c_str(), failures.c_str());
  if (terminal_) {
    const auto filled = static_cast<size_t>(fraction * double(kBarWidth));
    os_ << "\r[" << std::string(filled, '#') << std::string(kBarWidth - filled, '.') << "] " << stats << "\x1b[K";
  } else {
    os_ << "sweep: " << stats << '\n';
  }
  os_.flush();
}

} // namespace npusim::sweep
