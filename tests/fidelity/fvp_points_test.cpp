// SPDX-License-Identifier: Apache-2.0
// Every measured FVP point of fixtures/fvp/points.csv (timing adapters on: the formal runs of the
// mps4 sweep and the himax runs), read from that file and simulated on the platform it was
// measured on, Corstone_300_FVP (U55, U65) or Corstone_320_FVP (U85), with the compile's memory mode (himax's
// My_Mem_Mode_Parent is Shared_Sram: constants on AXI1, the arena on AXI0). Tolerances (issue 20):
// NPU_ACTIVE within 5%, every AXI beat count the point gives within 2%, and the mean |error| of
// NPU_ACTIVE per NPU within 3%. The points the model does not reach yet are listed in kOpen with
// the reason (docs/validation.md has the evidence); they are held to the wider bound given there
// so that they still catch a regression.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace {

constexpr double kActiveTolerance = 0.05;
constexpr double kBeatTolerance = 0.02;
constexpr double kMeanTolerance = 0.03;

// Known misses: model, accelerator, the count, the bound it is held to, why.
struct OpenPoint {
  const char* model;
  const char* accelerator;
  const char* count;  // "npu_active" or a beat column of points.csv
  double tolerance;
  const char* reason;
};

constexpr OpenPoint kOpen[] = {
    {"vww4_128_128_INT8", "ethos-u55-32", "npu_active", 0.10,
     "advanced-scaled ADDs slower on the FVP than the output table's O5 (docs/validation.md)"},
};

const OpenPoint* openPoint(const std::string& model, const std::string& accelerator, const std::string& count) {
  for (const OpenPoint& p : kOpen) {
    if (model == p.model && accelerator == p.accelerator && count == p.count) return &p;
  }
  return nullptr;
}

struct Point {
  npusim::test::CsvRow row;
  bool beatsOnly = false; // a probe row that repeats a formal run's cycles and adds its beat counts
  const std::string& at(const std::string& column) const { return row[column]; }
};

const char* const kBeatColumns[] = {"axi0_rd_beats", "axi0_wr_beats", "axi1_rd_beats", "sram_rd_beats",
                                    "sram_wr_beats", "ext_rd_beats",  "ext_wr_beats"};

// The rows of the NPU family `prefix` ("ethos-u55", "ethos-u65") measured with the adapters on.
std::vector<Point> points(const std::filesystem::path& csv, const std::string& prefix) {
  std::vector<Point> rows;
  for (const npusim::test::CsvRow& row : npusim::test::readCsvTable(csv)) {
    Point p{row};
    const std::string& run = p.at("run");
    if (p.at("timing_adapter") != "ON" || p.at("accelerator").rfind(prefix, 0) != 0 || p.at("target") != "FVP") continue;
    if (p.at("source") == "mps4" && run.rfind("formal", 0) != 0) {
      // Probes repeat the formal rows' cycles; some add the beat counts the formal rows lack.
      p.beatsOnly = std::any_of(std::begin(kBeatColumns), std::end(kBeatColumns),
                                [&p](const char* c) { return !p.at(c).empty(); });
      if (!p.beatsOnly) continue;
    }
    rows.push_back(p);
  }
  return rows;
}

// What a family is held to: its platform preset, the bound of every NPU_ACTIVE and of their mean.
struct Bounds {
  const char* platform = "Corstone_300_FVP";
  double active = kActiveTolerance;
  double mean = kMeanTolerance;
};

void checkFamily(const std::string& prefix, const Bounds& bounds = {}) {
  const auto csv = npusim::test::fixtureOrSkip("fvp/points.csv");
  if (!csv) return;
  const std::vector<Point> rows = points(*csv, prefix);
  REQUIRE(!rows.empty());
  double sumAbs = 0;
  for (const Point& p : rows) {
    const std::string& model = p.at("model");
    const std::string& accelerator = p.at("accelerator");
    const std::string mode =
        p.at("memory_mode").rfind("My_Mem_Mode_Parent", 0) == 0 ? "Shared_Sram" : p.at("memory_mode");
    const auto tflite = npusim::test::fixtureOrSkip("fvp/" + p.at("file"));
    REQUIRE(tflite);
    npusim::test::TempDir tmp;
    const auto json = tmp.path() / "run.json";
    const auto result = npusim::test::runNpusim({"run", tflite->string(), "--system-config", bounds.platform,
                                                 "--memory-mode", mode, "--json", json.string(), "--check"});
    INFO(result.err);
    REQUIRE(result.exitCode == 0);   // --check: exit 1 on any broken rule of the model
    const auto pmu = nlohmann::json::parse(npusim::test::readText(json)).at("pmu");
    const std::pair<const char*, const char*> counts[] = {{"npu_active", "NPU_ACTIVE"},
                                                          {"axi0_rd_beats", "AXI0_RD_DATA_BEAT_RECEIVED"},
                                                          {"axi0_wr_beats", "AXI0_WR_DATA_BEAT_WRITTEN"},
                                                          {"axi1_rd_beats", "AXI1_RD_DATA_BEAT_RECEIVED"},
                                                          {"sram_rd_beats", "SRAM_RD_DATA_BEAT_RECEIVED"},
                                                          {"sram_wr_beats", "SRAM_WR_DATA_BEAT_WRITTEN"},
                                                          {"ext_rd_beats", "EXT_RD_DATA_BEAT_RECEIVED"},
                                                          {"ext_wr_beats", "EXT_WR_DATA_BEAT_WRITTEN"}};
    for (const auto& [column, event] : counts) {
      if (p.at(column).empty() || (p.beatsOnly && column == std::string("npu_active"))) continue;
      const double fvp = std::stod(p.at(column));
      const double got = pmu.at(event).get<double>();
      const double error = (got - fvp) / fvp;
      const OpenPoint* open = openPoint(model, accelerator, column);
      const double tolerance = open ? open->tolerance : (column == std::string("npu_active") ? bounds.active
                                                                                            : kBeatTolerance);
      INFO(model << " " << accelerator << " " << event << ": simulated " << got << ", FVP " << fvp << " ("
                 << 100 * error << "%)" << (open ? std::string(", open: ") + open->reason : ""));
      CHECK(std::abs(error) <= tolerance);
      if (column == std::string("npu_active")) sumAbs += std::abs(error);
    }
  }
  const auto cycleRows = std::count_if(rows.begin(), rows.end(), [](const Point& p) { return !p.beatsOnly; });
  INFO(prefix << ": mean |error| of NPU_ACTIVE over " << cycleRows << " points");
  CHECK(sumAbs / double(cycleRows) <= bounds.mean);
}

} // namespace

TEST_CASE("FVP points: every Ethos-U55 point of fixtures/fvp/points.csv on Corstone_300_FVP") { checkFamily("ethos-u55"); }

TEST_CASE("FVP points: every Ethos-U65 point of fixtures/fvp/points.csv on Corstone_300_FVP") { checkFamily("ethos-u65"); }

// The Ethos-U85 model is not calibrated yet (issue 30 is open: target +-5%, mean 3%): its
// points are held to the bounds of the model as it stands (docs/validation.md has every point and
// the mechanisms still missing), so that a change that moves them the wrong way fails.
TEST_CASE("FVP points: every Ethos-U85 point of fixtures/fvp/points.csv on Corstone_320_FVP") {
  checkFamily("ethos-u85", Bounds{"Corstone_320_FVP", 0.15, 0.05});
}
