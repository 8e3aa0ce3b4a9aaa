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

} // namespace

TEST_CASE("timing adapter: 64-byte bursts under BWCAP 50 with pulse 320+80 admit 56 words per 400 cycles") {
  mem::TimingAdapterParams ta;
  ta.pulseOn = 320;
  ta.pulseOff = 80;
  ta.bandwidthCap = 50;
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
