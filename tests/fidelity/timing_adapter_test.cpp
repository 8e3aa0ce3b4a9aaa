// SPDX-License-Identifier: Apache-2.0
// Closed-form checks of the timing adapter (timing doc 5.4) in the AXI port model (no SystemC).
// Expected values follow from the register semantics alone: words admitted per pulse cycle, the
// latency-bound rate of a pending-limited stream, gating of addresses but not data.

#include <doctest/doctest.h>

#include <vector>

#include "models/mem/memory_timing.h"

namespace {

using namespace npusim;

constexpr uint32_t kBeat = 8;        // U55 AXI: 64-bit data beats
constexpr uint64_t kBurst = 64;      // the driver's 64-byte burst split
constexpr double kBusRate = 8.0;     // memory behind the adapter: full bus rate, no latency

// A link with the counters of the port it serves.
struct CountedLink {
  mem::AxiLinkTiming link;
  mem::PortCounters counters;
  double transfer(mem::MemoryTiming& memory, mem::Direction dir, double start, const mem::TransferShape& shape) {
    return link.transfer(memory, dir, start, shape, &counters);
  }
};

CountedLink portWith(const mem::TimingAdapterParams& ta) { return {mem::AxiLinkTiming(kBeat, kBurst, 32, 16, ta), {}}; }

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
  CountedLink port = portWith(ta);
  mem::MemoryTiming memory(kBusRate, 0, 0);
  // The counter admits a burst while it is below 50: 7 bursts of 8 words (56, the last one
  // overshooting the cap), then nothing until the next pulse cycle.
  const uint64_t perCycle = (ta.bandwidthCap + kBurst / kBeat - 1) / (kBurst / kBeat);
  REQUIRE(perCycle == 7);
  const uint64_t bursts = 70;
  for (uint64_t k = 0; k < bursts; ++k) {
    CAPTURE(k);
    const double done = port.transfer(memory, mem::Direction::Read, 0, {1, kBurst});
    CHECK(uint64_t(done / 400) == k / perCycle);
  }
  // 70 bursts x 64 B over ten pulse cycles: 1.12 B/cycle, not the nominal 50 x 8 / 400 = 1.
  CHECK(port.counters.readBeats == bursts * kBurst / kBeat);
}

TEST_CASE("timing adapter: the cap counter is read at the transaction's time: an earlier transaction booked late "
          "is admitted, and the excess counts against the next pulse cycle") {
  const mem::TimingAdapterParams ta = flashCap();
  mem::TimingAdapter adapter(ta);
  const auto admit = [&adapter](double ready, uint64_t words) { return adapter.admit(mem::Direction::Read, ready, words); };
  // One unit books 7 bursts of 8 words at 200..206 (56 words: the cap is reached at 206).
  for (int k = 0; k < 7; ++k) {
    CHECK(admit(200 + k, 8) == 200 + k);
  }
  // A burst ready at 10, booked afterwards by another unit: the counter held 0 words at 10.
  CHECK(admit(10, 8) == 10);
  // In time order the counter now reads 8 at 200 and 48 at 205, so the burst at 206 (56) would
  // have waited: its 8 words count against the next cycle, which starts at 8 and admits 6 bursts
  // (the sixth at 48 < 50 takes it to 56), the seventh waits for the cycle after.
  for (int k = 0; k < 6; ++k) {
    CHECK(admit(400 + k, 8) == 400 + k);
  }
  CHECK(admit(406, 8) == 800);
}

TEST_CASE("timing adapter: MAXR 2 with RLATENCY 64 bounds a stream to 2 bursts per latency + data time") {
  mem::TimingAdapterParams ta;
  ta.maxReads = 2;
  ta.readLatency = 64;
  CountedLink port = portWith(ta);
  mem::MemoryTiming memory(kBusRate, 0, 0);
  const uint64_t bursts = 100;
  const double end = port.transfer(memory, mem::Direction::Read, 0, {bursts, kBurst});
  // Each pair of bursts holds both pending slots for the latency plus one burst's data; the
  // second of a pair waits 8 more cycles for the data path: 2 x 64 B per 72 cycles.
  const double perPair = 64 + kBurst / kBusRate;
  CHECK(end == doctest::Approx(double(bursts / 2) * perPair + kBurst / kBusRate));
}

TEST_CASE("windowed transfer: at most `window` bytes in flight, so a stream behind a long latency runs at "
          "window / (latency + data)") {
  mem::MemoryTiming memory(kBusRate, 500, 0);
  CountedLink port = portWith({});
  // 64 bursts of 64 B through a 512-byte window: burst k is issued when burst k - 8 completes,
  // 500 + 8 cycles after its own issue, so the window advances one burst per 508 cycles for
  // 8 bursts at a time: 8 rounds, then the last round's other seven bursts' data.
  const double end = port.transfer(memory, mem::Direction::Read, 0, {1, 64 * kBurst, 512});
  const double data = kBurst / kBusRate;
  CHECK(end == doctest::Approx(8 * (500 + data) + 7 * data));
  // Without a window the port's own limit (32 reads) applies: burst 32 follows burst 0, then 32 bursts of data.
  mem::MemoryTiming memory2(kBusRate, 500, 0);
  CountedLink port2 = portWith({});
  CHECK(port2.transfer(memory2, mem::Direction::Read, 0, {1, 64 * kBurst}) == doctest::Approx(500 + data + 500 + 32 * data));
}

TEST_CASE("data beats run from the beat holding a burst's first byte to the one holding its last") {
  // Eight 10-byte rows, 10 bytes apart (a one-channel NHWC feature map), on a 128-bit bus: the
  // rows start at offsets 0, 10, 4, 14, 8, 2, 12, 6 of a beat, and those past 6 spill into a
  // second beat: 12 beats, where 10 bytes per row would round to 8.
  mem::MemoryTiming memory(16.0, 0, 0);
  CountedLink port{mem::AxiLinkTiming(16, 128, 64, 32), {}};
  port.transfer(memory, mem::Direction::Read, 0, {8, 10, 0, 0, 10});
  CHECK(port.counters.readBeats == 12);
  // The same rows on a 64-bit bus: each spills into a second beat of 8 bytes whatever its start.
  mem::MemoryTiming memory8(8.0, 0, 0);
  CountedLink port8{mem::AxiLinkTiming(8, 64, 32, 16), {}};
  port8.transfer(memory8, mem::Direction::Read, 0, {8, 10, 0, 0, 10});
  CHECK(port8.counters.readBeats == 16);
}

TEST_CASE("timing adapter: PULSE_OFF blocks new addresses, not data already in flight") {
  mem::TimingAdapterParams ta;
  ta.pulseOn = 10;
  ta.pulseOff = 90;
  ta.readLatency = 50;
  CountedLink port = portWith(ta);
  mem::MemoryTiming memory(kBusRate, 0, 0);
  // Admitted at 9 (pulse on): data returns at 59..67, inside the off phase.
  CHECK(port.transfer(memory, mem::Direction::Read, 9, {1, kBurst}) == doctest::Approx(9 + 50 + 8));
  // Ready at 10 (pulse off): admitted when the next pulse cycle starts, at 100.
  CHECK(port.transfer(memory, mem::Direction::Read, 10, {1, kBurst}) == doctest::Approx(100 + 50 + 8));
  CHECK(port.counters.adapterStall == doctest::Approx(90));
}

TEST_CASE("timing adapter: WLATENCY delays the write response after the last data beat") {
  mem::TimingAdapterParams ta;
  ta.writeLatency = 32;
  CountedLink port = portWith(ta);
  mem::MemoryTiming memory(kBusRate, 0, 0);
  CHECK(port.transfer(memory, mem::Direction::Write, 0, {1, kBurst}) == doctest::Approx(8 + 32));
}

TEST_CASE("timing adapter: MAXRW counts reads and writes together") {
  mem::TimingAdapterParams ta;
  ta.maxPending = 1;
  ta.readLatency = 20;
  CountedLink port = portWith(ta);
  mem::MemoryTiming memory(kBusRate, 0, 0, true);
  const double read = port.transfer(memory, mem::Direction::Read, 0, {1, kBurst});
  CHECK(read == doctest::Approx(20 + 8));
  // The write is ready at 0 but the one pending slot is the read's until it completes.
  CHECK(port.transfer(memory, mem::Direction::Write, 0, {1, kBurst}) == doctest::Approx(read + 8));
}

TEST_CASE("timing adapter: limits that never bind time a stream exactly as no adapter") {
  mem::TimingAdapterParams loose;
  loose.maxReads = 63;
  loose.maxWrites = 63;
  loose.pulseOn = 65535;  // no off phase: every cycle admits
  CountedLink with = portWith(loose), without = portWith({});
  mem::MemoryTiming a(kBusRate, 32, 32), b(kBusRate, 32, 32);
  const std::vector<std::pair<mem::Direction, mem::TransferShape>> stream{
      {mem::Direction::Read, {12, 96}}, {mem::Direction::Write, {5, 64}}, {mem::Direction::Read, {1, 24}},
      {mem::Direction::Write, {40, 16}}, {mem::Direction::Read, {3, 1000}}};
  double t = 0;
  for (const auto& [dir, shape] : stream) {
    CAPTURE(t);
    const double x = with.transfer(a, dir, t, shape);
    CHECK(x == without.transfer(b, dir, t, shape));
    t += 10;
  }
}

TEST_CASE("memory: separate read and write data paths overlap a read and a write, a shared one serialises them") {
  for (const bool separate : {false, true}) {
    CAPTURE(separate);
    mem::MemoryTiming memory(kBusRate, 0, 0, separate);
    CountedLink port = portWith({});
    const double read = port.transfer(memory, mem::Direction::Read, 0, {1, 800});
    const double write = port.transfer(memory, mem::Direction::Write, 0, {1, 800});
    CHECK(read == doctest::Approx(100));
    CHECK(write == doctest::Approx(separate ? 100 : 200));
  }
}

TEST_CASE("timing adapter: links that share one adapter (npu.adapter_per_area) share its cap and links with one each "
          "get one cap each") {
  const mem::TimingAdapterParams ta = flashCap();
  const uint64_t bursts = 70;   // per link
  const auto lastDone = [&](bool shared) {
    mem::TimingAdapter adapter(ta);
    CountedLink a = portWith(ta), b = portWith(ta);
    if (shared) {
      a.link.shareAdapter(adapter);
      b.link.shareAdapter(adapter);
    }
    mem::MemoryTiming memory(kBusRate, 0, 0, true);
    double done = 0;
    for (uint64_t k = 0; k < bursts; ++k) {
      done = std::max(done, a.transfer(memory, mem::Direction::Read, 0, {1, kBurst}));
      done = std::max(done, b.transfer(memory, mem::Direction::Read, 0, {1, kBurst}));
    }
    return done;
  };
  // 7 bursts a pulse cycle (the previous test): one adapter each admits 70 bursts per link in 10
  // cycles of 400; one shared adapter admits the 140 of both in 20.
  CHECK(uint64_t(lastDone(false) / 400) == bursts / 7 - 1);
  CHECK(uint64_t(lastDone(true) / 400) == 2 * bursts / 7 - 1);
}
