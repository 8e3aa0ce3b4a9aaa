// SPDX-License-Identifier: Apache-2.0
// `npusim compare-runs`: two run results side by side, per layer type and per operation.

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace npusim {
namespace {

namespace fs = std::filesystem;

nlohmann::json runDemo(const fs::path& json, const std::vector<std::string>& sets) {
  std::vector<std::string> args{"run", "--json", json.string()};
  for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
  REQUIRE(test::runNpusim(args).exitCode == 0);
  return nlohmann::json::parse(test::readText(json));
}

} // namespace

TEST_CASE("compare-runs: totals, layer types and per-operation bound shifts of one model at two settings") {
  const test::TempDir dir;
  const fs::path a = dir.path() / "a.json", b = dir.path() / "b.json";
  const nlohmann::json ja = runDemo(a, {});
  const nlohmann::json jb = runDemo(b, {"system.sram.read_latency=256", "system.sram.write_latency=256"});
  const test::ProcessResult r = test::runNpusim({"compare-runs", a.string(), b.string(), "--rows", "3"});
  INFO(r.out, r.err);
  REQUIRE(r.exitCode == 0);
  const auto lines = test::normalizedLines(r.out);
  const int64_t ta = ja.at("total_cycles").get<int64_t>(), tb = jb.at("total_cycles").get<int64_t>();
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.3fx", double(ta) / double(tb));
  CHECK(std::find(lines.begin(), lines.end(),
                  "total " + std::to_string(ta) + " " + std::to_string(tb) + " " + ratio) != lines.end());
  // The per-operation table: as many rows as asked, each operation's own cycles from the JSON.
  const auto header = std::find_if(lines.begin(), lines.end(),
                                   [](const std::string& l) { return l.rfind("per operation (same command stream)", 0) == 0; });
  REQUIRE(lines.end() - header > 4);
  const std::string first = header[2];
  const size_t dot = first.find('.'), space = first.find(' ');
  const size_t index = std::stoul(first.substr(dot + 1, space - dot - 1));
  const auto& opA = ja.at("operations").at(index);
  const auto& opB = jb.at("operations").at(index);
  CHECK(first.find(" " + std::to_string(opA.at("end_cycle").get<int64_t>() - opA.at("start_cycle").get<int64_t>()) + " " +
                   std::to_string(opB.at("end_cycle").get<int64_t>() - opB.at("start_cycle").get<int64_t>()) + " ") !=
        std::string::npos);
  CHECK(first.find(opA.at("bound").get<std::string>() + " -> " + opB.at("bound").get<std::string>()) != std::string::npos);
  CHECK(std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("bound shifts: ", 0) == 0; }));
}

TEST_CASE("compare-runs: two points of a sweep results file, by layer type and bound") {
  const test::TempDir dir;
  const fs::path spec = dir.path() / "spec.json", out = dir.path() / "r.jsonl";
  std::ofstream(spec) << R"({"models": [{"demo": true}], "grid": {"system.sram.read_latency": [32, 256]}})";
  REQUIRE(test::runNpusim({"sweep", spec.string(), "-o", out.string()}).exitCode == 0);
  // The two points' own totals, from the results file.
  std::vector<nlohmann::json> points;
  std::istringstream lines(test::readText(out));
  for (std::string line; std::getline(lines, line);) points.push_back(nlohmann::json::parse(line));
  REQUIRE(points.size() == 2);
  const test::ProcessResult r = test::runNpusim({"compare-runs", out.string() + "@0", out.string() + "@1"});
  INFO(r.out, r.err);
  REQUIRE(r.exitCode == 0);
  const auto text = test::normalizedLines(r.out);
  const int64_t ta = points[0].at("total_cycles").get<int64_t>(), tb = points[1].at("total_cycles").get<int64_t>();
  CHECK(std::any_of(text.begin(), text.end(), [&](const std::string& l) {
    return l.rfind("total " + std::to_string(ta) + " " + std::to_string(tb) + " ", 0) == 0;
  }));
  CHECK(r.out.find("system.sram.read_latency=256)") != std::string::npos);
  const int64_t convA = points[0].at("cycles_by_type").at("conv").get<int64_t>();
  const int64_t convB = points[1].at("cycles_by_type").at("conv").get<int64_t>();
  CHECK(std::any_of(text.begin(), text.end(), [&](const std::string& l) {
    return l.rfind("conv " + std::to_string(convA) + " " + std::to_string(convB) + " ", 0) == 0;
  }));
  const test::ProcessResult missing = test::runNpusim({"compare-runs", out.string() + "@0", out.string() + "@7"});
  CHECK(missing.exitCode == 2);
  CHECK(missing.err.find("no point with index 7") != std::string::npos);
}

TEST_CASE("compare-runs: a file that is not a run result is one error line naming it, exit 2") {
  const test::TempDir dir;
  const fs::path a = dir.path() / "a.json", bad = dir.path() / "bad.json";
  runDemo(a, {});
  std::ofstream(bad) << R"({"model": "<demo>", "total_cycles": 5})";
  const test::ProcessResult r = test::runNpusim({"compare-runs", a.string(), bad.string()});
  CHECK(r.exitCode == 2);
  CHECK(r.err.find(bad.string() + ": key 'config': missing") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

} // namespace npusim
