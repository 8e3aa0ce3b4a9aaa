// SPDX-License-Identifier: Apache-2.0
// Closed-form checks of the timing adapter (timing doc 5.4) in the AXI port model (no SystemC).
// Expected values follow from the register semantics alone: words admitted per pulse cycle, the
// latency-bound rate of a pending-limited stream, gating of addresses but not data.

#include <doctest/doctest.h>

#include <vector>

#include "models/mem/event_queue.h"
#include "models/mem/memory_timing.h"
#include "support/timing_bench.h"

namespace {

using namespace npusim;

constexpr uint32_t kBeat = 8;        // U55 AXI: 64-bit data beats
constexpr uint64_t kBurst = 64;      // the driver's 64-byte burst split
constexpr double kBusRate = 8.0;     // memory behind the adapter: full bus rate, no latency

// A U55 port (the driver's 32 reads and 16 writes) with adapter `ta` in front of a memory at the
// full bus rate with no latency of its own (separate read and write paths when asked).
test::PortBench portWith(const mem::TimingAdapterParams& ta, bool separate = false) {
  test::PortBench b;
  b.addMemory({kBusRate, 0, 0, separate});
  b.addPort({kBeat, static_cast<uint32_t>(kBurst), 32, 16, 0}, ta);
  return b;
}

// The kit's U55 flash adapter's bandwidth cap (timing doc 5.4): BWCAP 50 words per pulse cycle of
// 320 cycles on and 80 off; no pending limit, no latency.
mem::TimingAdapterParams flashCap() {
  mem::TimingAdapterParams ta;
  ta.pulseOn = 320;
  ta.pulseOff = 80;
  ta.bandwidthCap = 50;
  return ta;
}

} // namespace

TEST_CASE("timing adapter: 64-byte bursts under BWCAP 50 with pulse 320+80 admit 56 words per 400 cycles") {
  const mem::TimingAdapterParams ta = flashCap();
  test::PortBench port = portWith(ta);
  // The counter admits a burst while it is below 50: 7 bursts of 8 words (56, the last one
  // overshooting the cap), then nothing until the next pulse cycle.
  const uint64_t perCycle = (ta.bandwidthCap + kBurst / kBeat - 1) / (kBurst / kBeat);
  REQUIRE(perCycle == 7);
  const uint64_t bursts = 70;
  std::vector<size_t> ids;
  for (uint64_t k = 0; k < bursts; ++k) {
    ids.push_back(port.submit(0, mem::Direction::Read, 0, {1, kBurst}));
  }
  port.run();
  for (uint64_t k = 0; k < bursts; ++k) {
    CAPTURE(k);
    CHECK(uint64_t(port.done(ids[k]) / 400) == k / perCycle);
  }
  // 70 bursts x 64 B over ten pulse cycles: 1.12 B/cycle, not the nominal 50 x 8 / 400 = 1.
  CHECK(port.counters(0).readBeats == bursts * kBurst / kBeat);
}

TEST_CASE("timing adapter: admissions in time order count the words admitted earlier in the pulse cycle") {
  mem::TimingAdapter adapter(flashCap());
  double retry = 0;
  // 7 bursts of 8 words at 10..16: the seventh is admitted at 48 words < 50 and takes the counter
  // to 56; the eighth waits for the next pulse cycle.
  for (int k = 0; k < 7; ++k) {
    CHECK(adapter.admit(mem::Direction::Read, 10 + k, 8, &retry));
  }
  CHECK_FALSE(adapter.admit(mem::Direction::Read, 17, 8, &retry));
  CHECK(retry == 400);
  // The next pulse cycle starts from 0; its off phase (320..400) admits nothing.
  CHECK(adapter.admit(mem::Direction::Read, 400, 8, &retry));
  CHECK_FALSE(adapter.admit(mem::Direction::Read, 750, 8, &retry));
  CHECK(retry == 800);
  // Pending slots: MAXR 1 refuses a second read until the first is released (no retry time).
  mem::TimingAdapterParams one;
  one.maxReads = 1;
  mem::TimingAdapter single(one);
  CHECK(single.admit(mem::Direction::Read, 0, 8, &retry));
  CHECK_FALSE(single.admit(mem::Direction::Read, 1, 8, &retry));
  CHECK(retry == mem::EventQueue::kNever);
  CHECK(single.admit(mem::Direction::Write, 1, 8, &retry));  // MAXW is not set
  single.release(mem::Direction::Read);
  CHECK(single.admit(mem::Direction::Read, 2, 8, &retry));
}

TEST_CASE("timing adapter: MAXR 2 with RLATENCY 64 bounds a stream to 2 bursts per latency + data time") {
  mem::TimingAdapterParams ta;
  ta.maxReads = 2;
  ta.readLatency = 64;
  test::PortBench port = portWith(ta);
  const uint64_t bursts = 100;
  const double end = port.transfer(0, mem::Direction::Read, 0, {bursts, kBurst});
  // Each pair of bursts holds both pending slots for the latency plus one burst's data; the
  // second of a pair waits 8 more cycles for the data path: 2 x 64 B per 72 cycles.
  const double perPair = 64 + kBurst / kBusRate;
  CHECK(end == doctest::Approx(double(bursts / 2) * perPair + kBurst / kBusRate));
}

TEST_CASE("windowed transfer: at most `window` bytes in flight, so a stream behind a long latency runs at "
          "window / (latency + data)") {
  test::PortBench port;
  port.addMemory({kBusRate, 500, 0});
  port.addPort({kBeat, static_cast<uint32_t>(kBurst), 32, 16, 0});
  // 64 bursts of 64 B through a 512-byte window: burst k is issued when burst k - 8 completes,
  // 500 + 8 cycles after its own issue, so the window advances one burst per 508 cycles for
  // 8 bursts at a time: 8 rounds, then the last round's other seven bursts' data.
  const double end = port.transfer(0, mem::Direction::Read, 0, {1, 64 * kBurst, 512});
  const double data = kBurst / kBusRate;
  CHECK(end == doctest::Approx(8 * (500 + data) + 7 * data));
  // Without a window the port's own limit (32 reads) applies: burst 32 follows burst 0, then 32 bursts of data.
  test::PortBench port2;
  port2.addMemory({kBusRate, 500, 0});
  port2.addPort({kBeat, static_cast<uint32_t>(kBurst), 32, 16, 0});
  CHECK(port2.transfer(0, mem::Direction::Read, 0, {1, 64 * kBurst}) == doctest::Approx(500 + data + 500 + 32 * data));
}

TEST_CASE("data beats run from the beat holding a burst's first byte to the one holding its last") {
  // Eight 10-byte rows, 10 bytes apart (a one-channel NHWC feature map), on a 128-bit bus: the
  // rows start at offsets 0, 10, 4, 14, 8, 2, 12, 6 of a beat, and those past 6 spill into a
  // second beat: 12 beats, where 10 bytes per row would round to 8.
  test::PortBench port;
  port.addMemory({16.0, 0, 0});
  port.addPort({16, 128, 64, 32, 0});
  port.transfer(0, mem::Direction::Read, 0, {8, 10, 0, 0, 10});
  CHECK(port.counters(0).readBeats == 12);
  // The same rows on a 64-bit bus: each spills into a second beat of 8 bytes whatever its start.
  test::PortBench port8;
  port8.addMemory({8.0, 0, 0});
  port8.addPort({8, 64, 32, 16, 0});
  port8.transfer(0, mem::Direction::Read, 0, {8, 10, 0, 0, 10});
  CHECK(port8.counters(0).readBeats == 16);
}

TEST_CASE("timing adapter: PULSE_OFF blocks new addresses, not data already in flight") {
  mem::TimingAdapterParams ta;
  ta.pulseOn = 10;
  ta.pulseOff = 90;
  ta.readLatency = 50;
  test::PortBench port = portWith(ta);
  // Admitted at 9 (pulse on): data returns at 59..67, inside the off phase.
  CHECK(port.transfer(0, mem::Direction::Read, 9, {1, kBurst}) == doctest::Approx(9 + 50 + 8));
  // Ready at 70 (pulse off): admitted when the next pulse cycle starts, at 100.
  CHECK(port.transfer(0, mem::Direction::Read, 70, {1, kBurst}) == doctest::Approx(100 + 50 + 8));
  CHECK(port.counters(0).adapterStall == doctest::Approx(30));
}

TEST_CASE("timing adapter: a pulse counter that has run before time 0 moves every pulse cycle by as much") {
  // PULSE_ON 10, PULSE_OFF 90: with the counter 95 cycles into its period at time 0 (pulse start
  // 95, or 195: the same position), its pulse cycles begin at 5, 105, ...: open 5..15, 105..115.
  for (const uint64_t start : {uint64_t{95}, uint64_t{195}}) {
    CAPTURE(start);
    mem::TimingAdapterParams ta;
    ta.pulseOn = 10;
    ta.pulseOff = 90;
    ta.pulseStart = start;
    mem::TimingAdapter adapter(ta);
    double retry = 0;
    CHECK_FALSE(adapter.admit(mem::Direction::Read, 0, 1, &retry));
    CHECK(retry == 5);
    CHECK(adapter.admit(mem::Direction::Read, 5, 1, &retry));
    CHECK(adapter.admit(mem::Direction::Read, 14, 1, &retry));
    CHECK_FALSE(adapter.admit(mem::Direction::Read, 15, 1, &retry));
    CHECK(retry == 105);
  }
  // Through a port: a burst ready at 20 waits for the pulse cycle that opens at 105.
  mem::TimingAdapterParams ta;
  ta.pulseOn = 10;
  ta.pulseOff = 90;
  ta.pulseStart = 95;
  test::PortBench port = portWith(ta);
  CHECK(port.transfer(0, mem::Direction::Read, 20, {1, kBurst}) == doctest::Approx(105 + kBurst / kBeat));
  CHECK(port.counters(0).adapterStall == doctest::Approx(85));
}

TEST_CASE("timing adapter: WLATENCY delays the write response after the last data beat") {
  mem::TimingAdapterParams ta;
  ta.writeLatency = 32;
  test::PortBench port = portWith(ta);
  CHECK(port.transfer(0, mem::Direction::Write, 0, {1, kBurst}) == doctest::Approx(8 + 32));
}

TEST_CASE("timing adapter: MAXRW counts reads and writes together") {
  mem::TimingAdapterParams ta;
  ta.maxPending = 1;
  ta.readLatency = 20;
  test::PortBench port = portWith(ta, true);
  const size_t read = port.submit(0, mem::Direction::Read, 0, {1, kBurst});
  const size_t write = port.submit(0, mem::Direction::Write, 0, {1, kBurst});
  port.run();
  CHECK(port.done(read) == doctest::Approx(20 + 8));
  // The write is ready at 0 but the one pending slot is the read's until it completes.
  CHECK(port.done(write) == doctest::Approx(20 + 8 + 8));
}

TEST_CASE("timing adapter: limits that never bind time a stream exactly as no adapter") {
  mem::TimingAdapterParams loose;
  loose.maxReads = 63;
  loose.maxWrites = 63;
  loose.pulseOn = 65535;  // no off phase: every cycle admits
  const std::vector<std::pair<mem::Direction, mem::TransferShape>> stream{
      {mem::Direction::Read, {12, 96}}, {mem::Direction::Write, {5, 64}}, {mem::Direction::Read, {1, 24}},
      {mem::Direction::Write, {40, 16}}, {mem::Direction::Read, {3, 1000}}};
  const auto run = [&](const mem::TimingAdapterParams& ta) {
    test::PortBench b;
    b.addMemory({kBusRate, 32, 32});
    b.addPort({kBeat, static_cast<uint32_t>(kBurst), 32, 16, 0}, ta);
    std::vector<size_t> ids;
    double t = 0;
    for (const auto& [dir, shape] : stream) {
      ids.push_back(b.submit(0, dir, t, shape));
      t += 10;
    }
    b.run();
    std::vector<double> done;
    for (size_t id : ids) done.push_back(b.done(id));
    return done;
  };
  CHECK(run(loose) == run({}));
}

TEST_CASE("memory: separate read and write data paths overlap a read and a write, a shared one serialises them") {
  for (const bool separate : {false, true}) {
    CAPTURE(separate);
    test::PortBench port = portWith({}, separate);
    const size_t read = port.submit(0, mem::Direction::Read, 0, {1, 800});
    const size_t write = port.submit(0, mem::Direction::Write, 0, {1, 800});
    port.run();
    // 13 bursts each way, 8 cycles of data each; the write's first burst is ready at 0 like the
    // read's, so on a shared path they alternate and the last write ends after both streams.
    CHECK(port.done(read) == doctest::Approx(separate ? 100 : 200 - 4));
    CHECK(port.done(write) == doctest::Approx(separate ? 100 : 200));
  }
}

TEST_CASE("timing adapter: ports that share one adapter (npu.adapter_per_area) share its cap and ports with one each "
          "get one cap each") {
  const mem::TimingAdapterParams ta = flashCap();
  const uint64_t bursts = 70;   // per port
  const auto lastDone = [&](bool shared) {
    test::PortBench b;
    b.addMemory({kBusRate, 0, 0, true, 2});
    b.addPort({kBeat, static_cast<uint32_t>(kBurst), 32, 16, 0}, ta);
    b.addPort({kBeat, static_cast<uint32_t>(kBurst), 32, 16, 1}, ta, shared ? 0 : -1);
    std::vector<size_t> ids;
    for (uint64_t k = 0; k < bursts; ++k) {
      ids.push_back(b.submit(0, mem::Direction::Read, 0, {1, kBurst}));
      ids.push_back(b.submit(1, mem::Direction::Read, 0, {1, kBurst}));
    }
    b.run();
    double done = 0;
    for (size_t id : ids) done = std::max(done, b.done(id));
    return done;
  };
  // 7 bursts a pulse cycle (the first test): one adapter each admits 70 bursts per port in 10
  // cycles of 400; one shared adapter admits the 140 of both in 20.
  CHECK(uint64_t(lastDone(false) / 400) == bursts / 7 - 1);
  CHECK(uint64_t(lastDone(true) / 400) == 2 * bursts / 7 - 1);
}
