// SPDX-License-Identifier: Apache-2.0
// The Ethos-U85 operation by operation: the 15 cells of fixtures/fvp-perop (five networks x three
// U85 builds), each compiled model written with an interrupt after every kernel launch (`probe
// write --irq`) and its launches compared with the Corstone-320 FVP's per-interrupt PMU records
// (segments.csv) by `probe compare --quantum 1000`, as a user would: the FVP sees each interrupt
// at its 1,000-cycle scheduling quantum, so each simulated boundary is taken at the same kind of
// quantum edge, and the tail record is taken by its NPU_ACTIVE. Issue 30's targets: every record boundary's
// running sum within 5% (or the FVP's 1,000-cycle quantum), each operation type's cycles within
// 10%, every beat count above 1,000 within 5%. The model does not reach them yet (issue 30 is
// open): the test prints where it stands against them and holds it there (the bounds below), so
// that a change that moves it the wrong way fails; docs/validation.md has the tables.

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace {

// Issue 30's targets.
constexpr double kBoundary = 0.05, kQuantum = 1000, kTypeTarget = 0.10, kBeats = 0.05, kBeatFloor = 1000;
// Where the model stands (regression bounds): the share of record boundaries and of beat counts
// within their targets over all cells, each cell's whole run, and each operation type's cycles
// summed over the cells (docs/validation.md: 563 of 656 boundaries, 234 of 687 beat counts).
// The widest type is resize (−12.4%: three records, 8,045 cycles on the FVP, one quantum more
// than the model's 7,045: below what three records resolve).
constexpr double kHeldBoundaryShare = 0.85, kHeldBeatShare = 0.34, kHeldTotal = 0.15, kHeldType = 0.13;

} // namespace

TEST_CASE("FVP per-launch records: the 15 U85 cells of fvp-perop, record by record (probe write --irq, probe compare)") {
  const auto cellsCsv = npusim::test::fixtureOrSkip("fvp-perop/cells.csv");
  if (!cellsCsv) return;
  const auto dir = cellsCsv->parent_path();
  const auto cells = npusim::test::readCsvTable(*cellsCsv);
  REQUIRE(cells.size() == 15);
  size_t boundaries = 0, boundariesWithin = 0, beats = 0, beatsWithin = 0;
  std::map<std::string, std::pair<double, double>> types; // measured, simulated
  std::ostringstream table;
  for (const auto& cell : cells) {
    INFO("cell " << cell["model"] << " " << cell["config"]);
    npusim::test::TempDir tmp;
    const auto write = npusim::test::runNpusim({"probe", "write", (dir / cell["file"]).string(), "--irq", "--out",
                                                tmp.path().string(), "--system-config", "Corstone_320_FVP",
                                                "--memory-mode", cell["memory_mode"]});
    INFO(write.err);
    REQUIRE(write.exitCode == 0);
    const auto compare = npusim::test::runNpusim(
        {"probe", "compare", (tmp.path() / "launches.csv").string(), (dir / "segments.csv").string(), "--where",
         "model=" + cell["model"], "--where", "config=" + cell["config"], "--quantum", std::to_string(int(kQuantum)),
         "--json", (tmp.path() / "c.json").string()});
    INFO(compare.err);
    REQUIRE(compare.exitCode == 0);
    const auto result = nlohmann::json::parse(npusim::test::readText(tmp.path() / "c.json"));
    const auto& records = result.at("records");
    REQUIRE(!records.empty());
    CHECK(result.at("covered") == result.at("launches"));
    size_t within = 0;
    for (const auto& r : records) {
      const double measured = r.at("measured_running").get<double>(), simulated = r.at("simulated_running").get<double>();
      within += std::abs(simulated - measured) <= std::max(kBoundary * measured, kQuantum) ? 1 : 0;
      for (const auto& [column, b] : r.at("beats").items()) {
        const double m = b.at("measured").get<double>(), s = b.at("simulated").get<double>();
        if (m <= kBeatFloor) continue;
        ++beats;
        beatsWithin += std::abs(s - m) <= kBeats * m ? 1 : 0;
      }
    }
    boundaries += records.size();
    boundariesWithin += within;
    const auto& last = records.back();
    const double total = (last.at("simulated_running").get<double>() - last.at("measured_running").get<double>()) /
                         last.at("measured_running").get<double>();
    table << "  " << cell["model"] << " " << cell["config"] << ": boundaries " << within << "/" << records.size()
          << ", whole run " << std::round(1000 * total) / 10 << "%\n";
    CHECK(std::abs(total) <= kHeldTotal);
    for (const auto& t : result.at("types")) {
      auto& sum = types[t.at("type").get<std::string>()];
      sum.first += t.at("measured_cycles").get<double>();
      sum.second += t.at("simulated_cycles").get<double>();
    }
  }
  size_t typesWithin = 0;
  for (const auto& [type, sum] : types) {
    const double error = (sum.second - sum.first) / sum.first;
    table << "  " << type << ": " << std::round(1000 * error) / 10 << "% over the cells\n";
    INFO("type " << type << ": measured " << sum.first << ", simulated " << sum.second);
    CHECK(std::abs(error) <= kHeldType);
    typesWithin += std::abs(error) <= kTypeTarget ? 1 : 0;
  }
  MESSAGE("record boundaries within 5% or 1,000 cycles: " << boundariesWithin << " of " << boundaries
                                                          << "; beat counts above 1,000 within 5%: " << beatsWithin
                                                          << " of " << beats << "; operation types within 10%: "
                                                          << typesWithin << " of " << types.size() << "\n"
                                                          << table.str());
  CHECK(double(boundariesWithin) >= kHeldBoundaryShare * double(boundaries));
  CHECK(double(beatsWithin) >= kHeldBeatShare * double(beats));
}
