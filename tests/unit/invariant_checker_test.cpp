// SPDX-License-Identifier: Apache-2.0
// The invariant checker (run --check) catches a model that breaks its own rules: bursts timed by
// an AXI port whose real limits are looser than the ones the checker is told (a port that
// ignores its limit, an adapter that ignores its cap or pulse), and memories that serve more at
// once than they have lanes for. Bursts that keep the rules pass. No SystemC.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "models/platform/invariant_checker.h"
#include "support/timing_bench.h"

using namespace npusim;

namespace {

using Checker = platform::InvariantChecker;

// Runs `transfers` reads of 16 bursts each, all started at 0, on port 0 of `bench`, every burst
// also seen by `checker`'s port 0; returns what the checker finds.
platform::CheckReport runInto(test::PortBench& bench, Checker& checker, int transfers, size_t port = 0) {
  bench.port(port).setObserver(checker.observers().ports.at(port));
  for (int t = 0; t < transfers; ++t) bench.submit(port, mem::Direction::Read, 0, {16, 64, 0, uint64_t(t) * 4096});
  bench.run();
  return checker.checkBursts();
}

bool mentions(const platform::CheckReport& r, const std::string& text) {
  for (const std::string& e : r.examples) {
    if (e.find(text) != std::string::npos) return true;
  }
  return false;
}

} // namespace

TEST_CASE("invariant checker: a port within its limits passes, one that ignores its limit is caught") {
  for (const uint32_t real : {4u, 8u}) {
    CAPTURE(real);
    test::PortBench bench;
    bench.addMemory({8.0, 30, 30});
    bench.addPort({8, 64, real, real, 0});
    // The checker is told the port may have 4 reads in flight.
    Checker checker({{"axi0", 8, 64, 4, 4, 0, -1}}, {}, {{8.0, 1, false, 30, 30}});
    const platform::CheckReport r = runInto(bench, checker, 3);
    CHECK(r.bursts == 48);
    if (real == 4) {
      CHECK(r.ok());
    } else {
      CHECK_FALSE(r.ok());
      CHECK(mentions(r, "axi0 reads: 8 bursts in flight"));
    }
  }
}

TEST_CASE("invariant checker: an adapter that ignores its cap or its pulse, or a memory with fewer lanes than it "
          "serves, is caught") {
  mem::TimingAdapterParams cap;
  cap.pulseOn = 320;
  cap.pulseOff = 80;
  cap.bandwidthCap = 50;
  // The port's adapter has no cap at all; the checker is told the kit's flash cap.
  {
    test::PortBench bench;
    bench.addMemory({8.0, 0, 0});
    bench.addPort({8, 64, 32, 16, 0});
    Checker checker({{"axi1", 8, 64, 32, 16, 0, 0}}, {cap}, {{8.0, 1, false, 0, 0}});
    const platform::CheckReport r = runInto(bench, checker, 2);
    CHECK_FALSE(r.ok());
    CHECK(mentions(r, "words already admitted in its pulse cycle (BWCAP 50)"));
  }
  // With the cap kept the same traffic passes.
  {
    test::PortBench bench;
    bench.addMemory({8.0, 0, 0});
    bench.addPort({8, 64, 32, 16, 0}, cap);
    Checker checker({{"axi1", 8, 64, 32, 16, 0, 0}}, {cap}, {{8.0, 1, false, 0, 0}});
    CHECK(runInto(bench, checker, 2).ok());
  }
  // Two ports on their own lanes of a two-lane memory; the checker is told one lane: their data
  // overlap on it.
  {
    test::PortBench bench;
    bench.addMemory({16.0, 0, 0, false, 2});
    bench.addPort({8, 64, 8, 8, 0});
    bench.addPort({8, 64, 8, 8, 1});
    Checker checker({{"sram0", 8, 64, 8, 8, 0, -1}, {"sram1", 8, 64, 8, 8, 1, -1}}, {}, {{16.0, 1, false, 0, 0}});
    bench.port(1).setObserver(checker.observers().ports.at(1));
    bench.submit(1, mem::Direction::Read, 0, {16, 64});
    const platform::CheckReport r = runInto(bench, checker, 1);
    CHECK_FALSE(r.ok());
    CHECK(mentions(r, "data overlap"));
  }
}
