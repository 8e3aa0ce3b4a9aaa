// SPDX-License-Identifier: Apache-2.0
// `npusim regress`: a freshly recorded baseline passes, an altered count fails with a readable
// difference, absent models fail unless optional, reports and bad input.

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"
#include "support/skip.h"

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

TEST_CASE("regress: an absent model fails unless optional, an absent fixtures tree skips its entries") {
  const test::TempDir dir;
  const fs::path baseline = recordBaseline(dir);
  nlohmann::json j = readJson(baseline);
  nlohmann::json absent = j.at("entries").at(0);
  absent["name"] = "absent_model/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram";
  absent["fixture"] = "vela/absent_model/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram/absent_model_vela.tflite";
  j.at("entries").push_back(absent);
  writeJson(baseline, j);
  const std::string tree = (dir.path() / "fixtures").string();
  fs::create_directory(tree);

  // 1. The tree is there but the model is not: exit 2, one line naming the key.
  const test::ProcessResult missing = test::runNpusim({"regress", "--baseline", baseline.string(), "--fixtures", tree});
  INFO(missing.out, missing.err);
  CHECK(missing.exitCode == 2);
  CHECK(missing.err.find("key 'entries[2].fixture': model " + tree + "/vela/absent_model/") != std::string::npos);
  CHECK(std::count(missing.err.begin(), missing.err.end(), '\n') == 1);

  // 2. No fixtures tree at all: the fixture entry is skipped.
  const test::ProcessResult noTree = test::runNpusim(
      {"regress", "--baseline", baseline.string(), "--fixtures", (dir.path() / "no_such_tree").string()});
  CHECK(noTree.exitCode == 0);
  CHECK(noTree.out.find("3 entries, 2 to run, 1 skipped") != std::string::npos);

  // 3. Marked optional: skipped and listed.
  j.at("entries").at(2)["optional"] = true;
  writeJson(baseline, j);
  const std::string junit = (dir.path() / "junit.xml").string();
  const test::ProcessResult run =
      test::runNpusim({"regress", "--baseline", baseline.string(), "--fixtures", tree, "--junit", junit});
  INFO(run.out, run.err);
  CHECK(run.exitCode == 0);
  CHECK(run.out.find("3 entries, 2 to run, 1 skipped") != std::string::npos);
  CHECK(run.out.find("skipped (model absent):\n  absent_model/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram: ") !=
        std::string::npos);
  CHECK(run.out.find("regress: OK: 2 entries") != std::string::npos);
  const std::string xml = test::readText(junit);
  CHECK(xml.find("tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"1\"") != std::string::npos);
  CHECK(xml.find("<skipped message=") != std::string::npos);
}

TEST_CASE("regress: the JSON report lists every entry with its status and changed counts") {
  const test::TempDir dir;
  const fs::path baseline = recordBaseline(dir);
  nlohmann::json j = readJson(baseline);
  const int64_t actual = j.at("entries").at(1).at("pmu").at("CYCLE").get<int64_t>();
  j.at("entries").at(1)["pmu"]["CYCLE"] = actual + 7;
  writeJson(baseline, j);
  const fs::path report = dir.path() / "report.json";
  const test::ProcessResult run =
      test::runNpusim({"regress", "--baseline", baseline.string(), "--json", report.string()});
  INFO(run.out, run.err);
  CHECK(run.exitCode == 1);
  const nlohmann::json r = readJson(report);
  CHECK(r.at("result") == "fail");
  REQUIRE(r.at("entries").size() == 2);
  CHECK(r.at("entries").at(0).at("status") == "passed");
  CHECK(r.at("entries").at(0).at("changes").empty());
  const auto& failed = r.at("entries").at(1);
  CHECK(failed.at("status") == "failed");
  REQUIRE(failed.at("changes").size() == 1);
  CHECK(failed.at("changes").at(0).at("count") == "pmu.CYCLE");
  CHECK(failed.at("changes").at(0).at("expected") == actual + 7);
  CHECK(failed.at("changes").at(0).at("actual") == actual);
}

TEST_CASE("regress: bad baselines and tolerances are refused in one line, and leave the reports untouched") {
  const test::TempDir dir;
  const fs::path baseline = recordBaseline(dir);
  const std::string good = test::readText(baseline);
  const fs::path junit = dir.path() / "junit.xml";
  std::ofstream(junit) << "earlier report";
  const auto refused = [&](const std::vector<std::string>& extra, const std::string& expected) {
    std::vector<std::string> args{"regress", "--baseline", baseline.string(), "--junit", junit.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const test::ProcessResult r = test::runNpusim(args);
    INFO(r.out, r.err);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find(expected) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(test::readText(junit) == "earlier report");
  };
  // Truncated, hand-edited into invalid JSON, from a newer format.
  std::ofstream(baseline) << good.substr(0, good.size() / 2);
  refused({}, baseline.string() + ": ");
  std::ofstream(baseline) << good.substr(0, 40) + "," + good.substr(40);
  refused({}, baseline.string() + ": ");
  nlohmann::json j = nlohmann::json::parse(good);
  j["format_version"] = 99;
  writeJson(baseline, j);
  refused({}, "key 'format_version': format 99 was written by a newer npusim");
  // Tolerances below 0 or not numbers, in the file and on the command line.
  j["format_version"] = 2;
  j["tolerances"] = {{"total_cycles", -1}};
  writeJson(baseline, j);
  refused({}, "key 'tolerances.total_cycles': a tolerance is a percentage >= 0, got -1");
  j["tolerances"] = {{"total_cycles", "lots"}};
  writeJson(baseline, j);
  refused({}, "key 'tolerances.total_cycles': expected a number (percent)");
  j.erase("tolerances");
  j["entries"][0]["pmu"]["CYCLE"] = "many";
  writeJson(baseline, j);
  refused({}, "key 'entries[0].pmu.CYCLE': expected an integer");
  std::ofstream(baseline) << good;
  refused({"--tolerance=-2"}, "key '--tolerance': a tolerance is a percentage >= 0, got -2");
  refused({"--tolerance", "abc"}, "key '--tolerance': expected a percentage (e.g. 0.5), got 'abc'");
}

TEST_CASE("regress: Ethos-U65 fixture entries record and pass, with their accelerator and sections") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) {
    return;
  }
  if (!fs::is_directory(*root / "vela-u65" / "kws_ref_model")) {
    test::skip("no vela-u65/kws_ref_model under " + root->string());
    return;
  }
  const test::TempDir dir;
  const fs::path spec = dir.path() / "u65.json";
  std::ofstream(spec) << R"({"models": [{"fixtures": ")" << (*root / "vela-u65").string()
                      << R"(", "models": ["kws_ref_model"], "configs": ["ethos-u65-*_High_End_*"]}], "points": [{}]})";
  const fs::path baseline = dir.path() / "baseline.json";
  const test::ProcessResult record =
      test::runNpusim({"regress", "--update", "--spec", spec.string(), "--baseline", baseline.string()});
  INFO(record.out, record.err);
  REQUIRE(record.exitCode == 0);
  const nlohmann::json b = readJson(baseline);
  REQUIRE(b.at("entries").size() == 4);  // U65-256 and U65-512, Shared_Sram and Dedicated_Sram
  std::set<std::string> accelerators;
  for (const auto& e : b.at("entries")) {
    accelerators.insert(e.at("accelerator").get<std::string>());
    CHECK(e.at("system_config") == "Ethos_U65_High_End");
    CHECK(e.at("total_cycles").get<double>() > 0);
  }
  CHECK(accelerators == std::set<std::string>{"ethos-u65-256", "ethos-u65-512"});
  CHECK(test::runNpusim({"regress", "--baseline", baseline.string()}).exitCode == 0);
}

} // namespace npusim
