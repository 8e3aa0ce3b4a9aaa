// SPDX-License-Identifier: Apache-2.0
// `npusim regress`: a freshly recorded baseline passes, an altered count fails with a readable
// difference, entries whose fixtures are absent are skipped.

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace npusim {
namespace {

namespace fs = std::filesystem;

// Two demo-network entries: needs no fixtures.
constexpr const char* kSpec = R"({
  "models": [{"demo": true}],
  "points": [{}, {"system.sram.read_latency": 64, "npu.axi0.max_outstanding_reads": 2}]
})";

// Records a baseline of kSpec in `dir`; returns its path.
fs::path recordBaseline(const test::TempDir& dir) {
  const fs::path spec = dir.path() / "spec.json";
  std::ofstream(spec) << kSpec;
  const fs::path baseline = dir.path() / "baseline.json";
  const test::ProcessResult run =
      test::runNpusim({"regress", "--update", "--spec", spec.string(), "--baseline", baseline.string()});
  INFO(run.out, run.err);
  REQUIRE(run.exitCode == 0);
  CHECK(run.out.find("wrote " + baseline.string() + ": 2 entries (2 recorded, 0 kept unchanged)") !=
        std::string::npos);
  return baseline;
}

nlohmann::json readJson(const fs::path& path) { return nlohmann::json::parse(test::readText(path)); }

void writeJson(const fs::path& path, const nlohmann::json& j) { std::ofstream(path) << j.dump(2) << '\n'; }

} // namespace

TEST_CASE("regress: a freshly recorded baseline passes and records version and config per entry") {
  const test::TempDir dir;
  const fs::path baseline = recordBaseline(dir);
  const nlohmann::json j = readJson(baseline);
  CHECK(j.at("npusim_version") == NPUSIM_VERSION);
  REQUIRE(j.at("entries").size() == 2);
  const auto& e = j.at("entries").at(1);
  CHECK(e.at("name") == "<demo> (Ethos_U55_High_End_Embedded, Shared_Sram) [system.sram.read_latency=64, "
                        "npu.axi0.max_outstanding_reads=2]");
  CHECK(e.at("fixture").is_null());
  CHECK(e.at("npusim_version") == NPUSIM_VERSION);
  CHECK(e.at("system_config") == "Ethos_U55_High_End_Embedded");
  CHECK(e.at("memory_mode") == "Shared_Sram");
  CHECK(e.at("params").at("system.sram.read_latency") == 64);
  CHECK(e.at("accelerator") == "ethos-u55-128");
  CHECK(e.at("total_cycles").get<int64_t>() > 0);
  CHECK(e.at("pmu").at("NPU_ACTIVE") == e.at("npu_active_cycles"));

  const test::ProcessResult run = test::runNpusim({"regress", "--baseline", baseline.string()});
  INFO(run.out, run.err);
  CHECK(run.exitCode == 0);
  CHECK(run.out.find("2 entries, 2 to run, 0 skipped") != std::string::npos);
  CHECK(run.out.find("regress: OK: 2 entries") != std::string::npos);
  CHECK(run.out.find("changed counts") == std::string::npos);

  // --update without --spec re-records the same entries unchanged.
  const std::string before = test::readText(baseline);
  CHECK(test::runNpusim({"regress", "--update", "--baseline", baseline.string()}).exitCode == 0);
  CHECK(test::readText(baseline) == before);
}

TEST_CASE("regress: one altered count fails with exit 1 and a readable difference") {
  const test::TempDir dir;
  const fs::path baseline = recordBaseline(dir);
  nlohmann::json j = readJson(baseline);
  auto& entry = j.at("entries").at(0);
  const int64_t actual = entry.at("total_cycles").get<int64_t>();
  entry["total_cycles"] = actual - 100;
  writeJson(baseline, j);

  const test::ProcessResult run = test::runNpusim({"regress", "--baseline", baseline.string()});
  INFO(run.out, run.err);
  CHECK(run.exitCode == 1);
  const auto lines = test::normalizedLines(run.out);
  const auto changed = std::find(lines.begin(), lines.end(), "changed counts (expected -> actual):");
  REQUIRE(lines.end() - changed >= 3);
  CHECK(changed[1] == entry.at("name").get<std::string>());
  CHECK(changed[2].rfind("total_cycles " + std::to_string(actual - 100) + " -> " + std::to_string(actual) + " +100 (+",
                         0) == 0);
  CHECK(run.out.find("regress: FAIL: 1 counts changed in 1 of 2 entries") != std::string::npos);
}

TEST_CASE("regress: entries whose fixtures are absent are listed as skipped") {
  const test::TempDir dir;
  const fs::path baseline = recordBaseline(dir);
  nlohmann::json j = readJson(baseline);
  nlohmann::json absent = j.at("entries").at(0);
  absent["name"] = "absent_model/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram";
  absent["fixture"] = "vela/absent_model/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram/absent_model_vela.tflite";
  j.at("entries").push_back(absent);
  writeJson(baseline, j);
  fs::create_directory(dir.path() / "fixtures");

  const test::ProcessResult run =
      test::runNpusim({"regress", "--baseline", baseline.string(), "--fixtures", (dir.path() / "fixtures").string()});
  INFO(run.out, run.err);
  CHECK(run.exitCode == 0);
  CHECK(run.out.find("3 entries, 2 to run, 1 skipped") != std::string::npos);
  CHECK(run.out.find("skipped (fixture absent):\n  absent_model/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram: ") !=
        std::string::npos);
  CHECK(run.out.find("regress: OK: 2 entries") != std::string::npos);

  // A malformed baseline is an input error naming the key.
  j.at("entries").at(0)["pmu"]["CYCLE"] = "many";
  writeJson(baseline, j);
  const test::ProcessResult bad = test::runNpusim({"regress", "--baseline", baseline.string()});
  CHECK(bad.exitCode == 2);
  CHECK(bad.err.find("key 'entries[0].pmu.CYCLE': expected an integer") != std::string::npos);
}

} // namespace npusim
