// SPDX-License-Identifier: Apache-2.0
// The memory timing's building blocks: the event queue's order, a memory's data paths, and the
// AXI port's rules (outstanding limits, in-order streams, windows) checked on hand-worked
// schedules (values derived on paper from the rules in the headers, not from the code) and on
// random schedules against those rules written out by brute force.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "models/mem/axi_port.h"
#include "models/mem/event_queue.h"
#include "models/mem/memory_timing.h"
#include "support/timing_bench.h"

using namespace npusim;

namespace {

// Records the order events run in.
struct Recorder : mem::EventTarget {
  explicit Recorder(mem::EventQueue& q) : queue(q) {}
  void onEvent(uint32_t kind, uint64_t data) override {
    seen.push_back({queue.now(), kind});
    if (data > 0) queue.schedule(queue.now(), *this, kind + 100, data - 1); // one more at the same time
  }
  mem::EventQueue& queue;
  std::vector<std::pair<double, uint32_t>> seen;
};

// Every burst a port ran.
struct BurstLog : mem::BurstObserver {
  void burst(const mem::BurstEvent& e) override { bursts.push_back(e); }
  std::vector<mem::BurstEvent> bursts;
};

// The most bursts of direction `dir` in flight (issue <= t < done) at any instant, by brute force
// over every issue time (the count can only rise at an issue).
size_t maxInFlight(const std::vector<mem::BurstEvent>& bursts, mem::Direction dir) {
  size_t most = 0;
  for (const mem::BurstEvent& at : bursts) {
    if (at.dir != dir) continue;
    size_t n = 0;
    for (const mem::BurstEvent& b : bursts) {
      if (b.dir == dir && b.issue <= at.issue && at.issue < b.done) ++n;
    }
    most = std::max(most, n);
  }
  return most;
}

} // namespace

TEST_CASE("EventQueue: events run in time order, equal times in the order scheduled, never in the past") {
  mem::EventQueue q;
  Recorder r(q);
  q.schedule(10, r, 1);
  q.schedule(5, r, 2);
  q.schedule(10, r, 3, 1);  // at 10 it schedules kind 103 at 10, which runs after kind 1 and 3
  q.schedule(7, r, 4);
  q.run();
  const std::vector<std::pair<double, uint32_t>> want{{5, 2}, {7, 4}, {10, 1}, {10, 3}, {10, 103}};
  CHECK(r.seen == want);
  CHECK(q.now() == 10);
  CHECK_THROWS_AS(q.schedule(9, r), std::logic_error);
  q.advanceTo(20);
  CHECK(q.now() == 20);
  q.schedule(25, r, 5);
  CHECK_THROWS_AS(q.advanceTo(30), std::logic_error);  // an event is due before 30
  q.runUntil(24);
  CHECK(r.seen.size() == 5);
  q.runUntil(25);
  CHECK(r.seen.back() == std::pair<double, uint32_t>{25, 5});
}

TEST_CASE("MemoryTiming: first come first served per path, one lane per port used, a beat per cycle at least") {
  // 16 B/cycle over 2 lanes: 8 B/cycle each. 64 bytes take 8 cycles on a lane.
  mem::MemoryTiming m(16.0, 0, 0, false, 2);
  double end = 0;
  CHECK(m.occupy(mem::Direction::Read, 0, 0, 64, 4, &end) == 0);
  CHECK(end == 8);
  CHECK(m.occupy(mem::Direction::Write, 0, 2, 64, 4, &end) == 8);  // lane 0 shared by both directions
  CHECK(end == 16);
  CHECK(m.occupy(mem::Direction::Read, 1, 3, 64, 4, &end) == 3);   // lane 1 is free
  CHECK(end == 11);
  // A burst of 9 beats (unaligned) on a lane faster than its port holds the path 9 cycles.
  mem::MemoryTiming fast(64.0, 0, 0, false, 1);
  CHECK(fast.occupy(mem::Direction::Read, 0, 0, 64, 9, &end) == 0);
  CHECK(end == 9);
  CHECK(fast.outOfOrder() == 0);
  fast.occupy(mem::Direction::Read, 0, 5, 8, 1, &end);
  fast.occupy(mem::Direction::Read, 0, 4, 8, 1, &end);  // ready earlier than the call before
  CHECK(fast.outOfOrder() == 1);
}

TEST_CASE("AxiPort: transfers started together share the outstanding limit, which holds at every instant") {
  // The scenario of a kernel and a DMA both reading through one port: 3 transfers of 16 bursts
  // each, started at the same time, limit 4 reads, memory latency 20, 8 cycles of data per burst.
  test::PortBench b;
  b.addMemory({8.0, 20, 20});
  b.addPort({8, 64, 4, 2, 0});
  BurstLog log;
  b.port(0).setObserver(&log);
  std::vector<size_t> ids;
  for (int t = 0; t < 3; ++t) ids.push_back(b.submit(0, mem::Direction::Read, 0, {16, 64}));
  b.run();
  REQUIRE(log.bursts.size() == 48);
  CHECK(maxInFlight(log.bursts, mem::Direction::Read) == 4);
  // The data path is busy from the first data (20) on, 48 x 8 cycles, and the transfers took turns
  // (first come first served): each finishes within the last three bursts' data.
  for (size_t id : ids) {
    CHECK(b.done(id) >= 20 + 45 * 8);
    CHECK(b.done(id) <= 20 + 48 * 8 + 20);
  }
}

TEST_CASE("AxiPort: random transfers on two ports into one memory keep every limit and never overlap data") {
  std::mt19937 random(4711);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
  for (int round = 0; round < 20; ++round) {
    CAPTURE(round);
    test::PortBench b;
    b.addMemory({8.0, double(pick(0, 40)), double(pick(0, 40)), pick(0, 1) == 1});
    const uint32_t reads = static_cast<uint32_t>(pick(1, 6)), writes = static_cast<uint32_t>(pick(1, 6));
    b.addPort({8, 64, reads, writes, 0});
    b.addPort({8, 32, reads, writes, 0});
    BurstLog logs[2];
    b.port(0).setObserver(&logs[0]);
    b.port(1).setObserver(&logs[1]);
    std::vector<std::pair<size_t, double>> started;
    double t = 0;
    for (int k = 0; k < 40; ++k) {
      const auto dir = pick(0, 2) == 0 ? mem::Direction::Write : mem::Direction::Read;
      mem::TransferShape s{static_cast<uint64_t>(pick(1, 4)), static_cast<uint64_t>(pick(1, 300)),
                           static_cast<uint64_t>(pick(0, 1) * 128), static_cast<uint64_t>(pick(0, 4096))};
      s.stream = static_cast<uint32_t>(pick(0, 2));
      started.push_back({b.submit(static_cast<size_t>(pick(0, 1)), dir, t, s), t});
      t += pick(0, 30);
    }
    b.run();
    for (int p = 0; p < 2; ++p) {
      CHECK(maxInFlight(logs[p].bursts, mem::Direction::Read) <= reads);
      CHECK(maxInFlight(logs[p].bursts, mem::Direction::Write) <= writes);
      for (const mem::BurstEvent& e : logs[p].bursts) {
        CHECK(e.issue >= e.ready);
        CHECK(e.dataStart >= e.issue);
        CHECK(e.done >= e.dataEnd);
      }
    }
    // One lane: the data of all bursts of a path never overlap.
    std::map<int, std::vector<std::pair<double, double>>> paths;
    for (const BurstLog& log : logs) {
      for (const mem::BurstEvent& e : log.bursts) {
        paths[b.memory(0).path(e.dir, 0) == 0 ? 0 : 1].push_back({e.dataStart, e.dataEnd});
      }
    }
    for (auto& [path, spans] : paths) {
      std::sort(spans.begin(), spans.end());
      for (size_t i = 1; i < spans.size(); ++i) CHECK(spans[i].first >= spans[i - 1].second - 1e-9);
    }
    for (const auto& [id, start] : started) CHECK(b.done(id) >= start);
  }
}

TEST_CASE("AxiPort: the transfers of one stream go one after another, independent ones interleave") {
  const auto firstDataOfSecond = [](uint32_t stream) {
    test::PortBench b;
    b.addMemory({8.0, 10, 10});
    b.addPort({8, 64, 8, 8, 0});
    BurstLog log;
    b.port(0).setObserver(&log);
    mem::TransferShape s{4, 64};
    s.stream = stream;
    b.submit(0, mem::Direction::Read, 0, s);
    s.address = 4096;
    b.submit(0, mem::Direction::Read, 0, s);
    b.run();
    double first = 1e9;
    for (const mem::BurstEvent& e : log.bursts) {
      if (e.address >= 4096) first = std::min(first, e.issue);
    }
    return first;
  };
  // Independent: the second transfer's first burst takes the address channel in the second cycle.
  CHECK(firstDataOfSecond(0) == 1);
  // One stream: it follows the first transfer's four bursts (issued at 0..3).
  CHECK(firstDataOfSecond(5) == 4);
}

// Two read transfers of 8 bursts (64 bytes, addresses 0 and 512) in stream 3, each with a
// window of its own or sharing the stream's 256-byte window, through a port with `outstanding`
// reads and writes on a memory of 8 B/cycle and 100 cycles latency. The bursts, by issue time
// (stable), and both transfers' ends.
struct TwoTransfers {
  std::vector<mem::BurstEvent> byIssue;
  double olderDone = 0, youngerDone = 0;
};
TwoTransfers twoStreamTransfers(bool ownWindow, uint32_t outstanding) {
  test::PortBench b;
  b.addMemory({8.0, 100, 100});
  b.addPort({8, 64, outstanding, outstanding, 0});
  BurstLog log;
  b.port(0).setObserver(&log);
  mem::TransferShape s{1, 512, 256};
  s.stream = 3;
  s.ownWindow = ownWindow;
  const size_t older = b.submit(0, mem::Direction::Read, 0, s);
  s.address = 512;
  const size_t younger = b.submit(0, mem::Direction::Read, 0, s);
  b.run();
  TwoTransfers t{log.bursts, b.done(older), b.done(younger)};
  std::stable_sort(t.byIssue.begin(), t.byIssue.end(), [](const auto& x, const auto& y) { return x.issue < y.issue; });
  return t;
}

TEST_CASE("AxiPort: a stream's window counts the bursts of all its transfers in flight") {
  // Two transfers of 8 bursts in one stream through a 256-byte window (4 bursts): never more than
  // 4 of the 16 in flight.
  const TwoTransfers t = twoStreamTransfers(false, 32);
  REQUIRE(t.byIssue.size() == 16);
  CHECK(maxInFlight(t.byIssue, mem::Direction::Read) == 4);
}

TEST_CASE("AxiPort: with windows of their own, a stream's transfers each keep their window, the older served first") {
  // Two transfers of 8 bursts in one stream, each through its own 256-byte window (4 bursts), on a
  // port that allows 32 in flight: 8 in flight at once (4 each); the older's bursts are issued
  // first while it may, so its last burst is issued before the younger's last.
  const TwoTransfers t = twoStreamTransfers(true, 32);
  REQUIRE(t.byIssue.size() == 16);
  CHECK(maxInFlight(t.byIssue, mem::Direction::Read) == 8);
  // The first four addresses are the older transfer's (0..255), the next four the younger's.
  for (size_t k = 0; k < 4; ++k) CHECK(t.byIssue[k].address < 512);
  for (size_t k = 4; k < 8; ++k) CHECK(t.byIssue[k].address >= 512);
  CHECK(t.olderDone <= t.youngerDone);
  // With one limit of 2 outstanding reads on the port, the window never binds: the older transfer
  // goes first entirely, as one FIFO would.
  const TwoTransfers fifo = twoStreamTransfers(true, 2);
  REQUIRE(fifo.byIssue.size() == 16);
  for (size_t k = 0; k < 8; ++k) CHECK(fifo.byIssue[k].address < 512);
}

TEST_CASE("AxiPort: a paced transfer's bursts go only once the unit has produced their bytes") {
  // 8 bursts of 64 bytes written at 2 cycles per byte from cycle 100 (the output unit producing an
  // OFM block): burst k's last byte exists at 100 + 128 (k + 1), so it is issued no earlier; the
  // memory (no latency, 8 B/cycle) and the port (8 writes in flight) never hold it back longer.
  test::PortBench b;
  b.addMemory({8.0, 0, 0});
  b.addPort({8, 64, 8, 8, 0});
  BurstLog log;
  b.port(0).setObserver(&log);
  mem::TransferShape s{1, 512};
  s.pace = 2;
  s.paceFrom = 100;
  const size_t id = b.submit(0, mem::Direction::Write, 0, s);
  b.run();
  REQUIRE(log.bursts.size() == 8);
  std::sort(log.bursts.begin(), log.bursts.end(), [](const auto& x, const auto& y) { return x.address < y.address; });
  for (size_t k = 0; k < 8; ++k) {
    INFO("burst " << k);
    CHECK(log.bursts[k].issue == doctest::Approx(100 + 128.0 * double(k + 1)));
  }
  // The last burst's data: 8 beats after its issue.
  CHECK(b.done(id) == doctest::Approx(100 + 128.0 * 8 + 8));
}

TEST_CASE("AxiPort: an empty transfer completes at its start, an unmapped one is refused") {
  test::PortBench b;
  b.addMemory({8.0, 0, 0});
  b.addPort({8, 64, 1, 1, 0});
  CHECK(b.transfer(0, mem::Direction::Read, 5, {0, 0}) == 5);
  CHECK_THROWS_AS(b.transfer(0, mem::Direction::Read, 5, {1, 64, 0, uint64_t{1} << 31}), std::out_of_range);
}
