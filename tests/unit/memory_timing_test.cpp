// SPDX-License-Identifier: Apache-2.0
// The memory timing's bookkeeping: the outstanding-transaction window and the data-path
// timeline, checked on small hand-worked schedules (values derived on paper from the rules in
// memory_timing.h, not from the code) and on random schedules against those rules written out
// by brute force.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "models/mem/memory_timing.h"

using npusim::mem::BusyTimeline;
using npusim::mem::CompletionWindow;

TEST_CASE("CompletionWindow: a slot frees when the limit-th latest transaction in flight completes") {
  CompletionWindow w;
  // In flight at t = 10: [0,20), [5,30), [8,15); [12,40) starts later, [1,9) has completed.
  w.add(0, 20);
  w.add(5, 30);
  w.add(12, 40);
  w.add(1, 9);
  w.add(8, 15);
  // Three in flight at 10 (completing at 15, 20, 30).
  CHECK(CompletionWindow::slotFree(10, 4, w) == 10); // 3 < 4: free now
  CHECK(CompletionWindow::slotFree(10, 3, w) == 15); // at 15 two remain
  CHECK(CompletionWindow::slotFree(10, 2, w) == 20);
  CHECK(CompletionWindow::slotFree(10, 1, w) == 30);
  // At 9 the [1,9) transaction has just completed; at 8.5 it still counts (four in flight).
  CHECK(CompletionWindow::slotFree(9, 3, w) == 15);
  CHECK(CompletionWindow::slotFree(8.5, 4, w) == 9);
}

TEST_CASE("CompletionWindow: two windows count together, and retiring forgets completed ones only") {
  CompletionWindow reads, writes;
  reads.add(0, 10);
  reads.add(0, 30);
  writes.add(0, 20);
  writes.add(50, 60); // not yet issued at 5
  // In flight at 5: completions 10, 20, 30.
  CHECK(CompletionWindow::slotFree(5, 1, reads, &writes) == 30);
  CHECK(CompletionWindow::slotFree(5, 2, reads, &writes) == 20);
  CHECK(CompletionWindow::slotFree(5, 3, reads, &writes) == 10);
  CHECK(CompletionWindow::slotFree(5, 4, reads, &writes) == 5);
  CHECK(CompletionWindow::slotFree(5, 1, writes) == 20);
  // Retiring at 15 drops the read completing at 10, not the one still in flight at 25.
  reads.retire(15);
  CHECK(CompletionWindow::slotFree(5, 2, reads) == 5);
  CHECK(CompletionWindow::slotFree(25, 1, reads) == 30);
}

TEST_CASE("CompletionWindow: many transactions, retired in order") {
  // Transaction k runs [k, k + 10): at time t the ones with k in (t - 10, t] are in flight.
  CompletionWindow w;
  for (int k = 0; k < 1000; ++k) {
    w.add(k, k + 10);
    if (k % 7 == 0) {
      w.retire(k);
    }
  }
  // Last retired at 994 (transactions completing before it are gone). At 995.5: k = 986..995
  // in flight (10), completing at 996..1005; k = 996..999 have not started.
  CHECK(CompletionWindow::slotFree(995.5, 11, w) == 995.5);
  CHECK(CompletionWindow::slotFree(995.5, 10, w) == 996);
  CHECK(CompletionWindow::slotFree(995.5, 1, w) == 1005);
}

namespace {

// The rule of CompletionWindow::slotFree written out by brute force: sort the completions of
// every transaction in flight at t (start <= t < done), latest first; with `limit` or more of
// them the limit-th frees the slot, else t is free.
double slotFreeByDefinition(double t, uint32_t limit, const std::vector<std::pair<double, double>>& all) {
  std::vector<double> inFlight;
  for (const auto& [start, done] : all) {
    if (start <= t && t < done) {
      inFlight.push_back(done);
    }
  }
  std::sort(inFlight.begin(), inFlight.end(), std::greater<double>());
  return inFlight.size() >= limit ? inFlight[limit - 1] : t;
}

} // namespace

TEST_CASE("CompletionWindow: transactions booked ahead of the query do not count") {
  // As units book whole blocks ahead of simulated time, a window holds transactions issued
  // after the time a later query asks about, interleaved in completion order with the ones in
  // flight, and transactions of very different lengths. Random schedules on whole cycles (exact
  // in double), compared with the rule written out by brute force, one window and two windows
  // counted together.
  std::mt19937 random(12345);
  auto cycles = [&](int lo, int hi) { return double(std::uniform_int_distribution<int>(lo, hi)(random)); };
  CompletionWindow reads, writes;
  std::vector<std::pair<double, double>> readList, writeList, both;
  double now = 0;
  int checked = 0, bookedAheadSeen = 0;
  for (int step = 0; step < 3000; ++step) {
    const double start = now + cycles(0, 200); // up to 200 cycles ahead of simulated time
    // Now and then a long one (a burst held behind a slow memory): the window's walk must not
    // skip a transaction in flight because most are short.
    const double done = start + (cycles(0, 50) == 0 ? cycles(300, 1500) : cycles(1, 60));
    const bool read = cycles(0, 2) != 0;
    (read ? reads : writes).add(start, done);
    (read ? readList : writeList).emplace_back(start, done);
    both.emplace_back(start, done);
    if (step % 5 == 0) {
      now += cycles(0, 20);
      reads.retire(now);
      writes.retire(now);
    }
    const double t = now + cycles(0, 200);
    const uint32_t limit = static_cast<uint32_t>(cycles(1, 8));
    for (const auto& [s, d] : readList) {
      bookedAheadSeen += (s > t && d > t) ? 1 : 0;
    }
    REQUIRE(CompletionWindow::slotFree(t, limit, reads) == slotFreeByDefinition(t, limit, readList));
    REQUIRE(CompletionWindow::slotFree(t, limit, writes) == slotFreeByDefinition(t, limit, writeList));
    REQUIRE(CompletionWindow::slotFree(t, limit, reads, &writes) == slotFreeByDefinition(t, limit, both));
    checked += 3;
  }
  CHECK(checked == 9000);
  CHECK(bookedAheadSeen > 0); // the schedules did put transactions ahead of the queries
}

TEST_CASE("BusyTimeline: first come first served by data-ready time") {
  BusyTimeline path;
  // A burst ready at 0 for 10 cycles, then one ready at 5 waits for it.
  CHECK(path.reserve(0, 10) == 0);
  CHECK(path.reserve(5, 10) == 10); // [10, 20)
  // A gap [20, 30) fits a 10-cycle burst ready at 20; one ready at 30 follows.
  CHECK(path.reserve(30, 5) == 30); // [30, 35)
  CHECK(path.reserve(20, 10) == 20); // [20, 30): fits the gap exactly
  // Booked later but ready earlier (at 1) than the bursts at [10,20), [20,30), [30,35): it goes
  // after the one ready at 0 and moves them back by its 4 cycles.
  CHECK(path.reserve(1, 4) == 10); // [10, 14); the others now [14,24), [24,34), [34,39)
  // Ready at 0: it waits only for [0,10) (the others were ready later), so it takes [10,11) and
  // moves [10,14), [14,24), [24,34), [34,39) back by one cycle each.
  CHECK(path.reserve(0, 1) == 10);
  // The last of them now ends at 40, not 39: a burst ready at 39 waits for it.
  CHECK(path.reserve(39, 1) == 40);
}
