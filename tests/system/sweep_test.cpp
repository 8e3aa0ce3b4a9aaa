// SPDX-License-Identifier: Apache-2.0
// `npusim sweep`, `sweep-merge` and `report` on the built-in demo network: point counts, result
// lines, failed points, kill-and-resume, shards merged equal to one local run, bad specs.

#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "harness/sweep/results_file.h"
#include "support/fixtures.h"
#include "support/skip.h"

extern char** environ;

namespace npusim {
namespace {

namespace fs = std::filesystem;

// 5 x 4 x 2 = 40 points on the demo network.
constexpr const char* kGridSpec = R"({
  "description": "demo network grid",
  "models": [{"demo": true}],
  "grid": {"system.sram.read_latency": [32, 64, 16, 128, 8],
           "npu.axi0.max_outstanding_reads": [8, 1, 2, 4],
           "system.sram.clock_scale": [1.0, 0.5]}
})";
constexpr size_t kGridPoints = 40;

// The grid x 10 SRAM write latencies = 400 points: enough that a loaded machine cannot finish the
// sweep between the test's polls, so the kill lands mid-sweep.
constexpr const char* kLongGridSpec = R"({
  "description": "demo network grid, long",
  "models": [{"demo": true}],
  "grid": {"system.sram.read_latency": [32, 64, 16, 128, 8],
           "npu.axi0.max_outstanding_reads": [8, 1, 2, 4],
           "system.sram.clock_scale": [1.0, 0.5],
           "system.sram.write_latency": [32, 1, 2, 4, 8, 16, 48, 64, 96, 128]}
})";
constexpr size_t kLongGridPoints = 400;

fs::path writeSpec(const test::TempDir& dir, const std::string& text, const std::string& name = "spec.json") {
  const fs::path path = dir.path() / name;
  std::ofstream(path) << text;
  return path;
}

std::vector<std::string> stableSortedLines(const fs::path& results) {
  std::vector<std::string> lines;
  for (const auto& r : sweep::readResults(results.string()).records) {
    lines.push_back(sweep::stableText(r.line));
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

size_t lineCount(const fs::path& path) {
  std::ifstream in(path);
  return static_cast<size_t>(std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
}

// Starts npusim with `args` in the background, output discarded.
pid_t startNpusim(const std::vector<std::string>& args) {
  std::vector<std::string> all{NPUSIM_BINARY};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, NPUSIM_BINARY, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE(rc == 0);
  return pid;
}


} // namespace

TEST_CASE("sweep: --dry-run counts the grid product plus explicit points, without duplicates") {
  const test::TempDir dir;
  const fs::path spec = writeSpec(dir, R"({
    "models": [{"demo": true}],
    "grid": {"system.sram.read_latency": [32, 64, 16], "npu.axi1.max_outstanding_reads": [1, 2, 4, 8]},
    "points": [{"system.sram.read_latency": 128}, {"npu.axi1.max_outstanding_reads": 8.0, "system.sram.read_latency": 64}]
  })");
  const test::ProcessResult run = test::runNpusim({"sweep", spec.string(), "--dry-run"});
  CHECK(run.exitCode == 0);
  INFO(run.out);
  CHECK(run.out.find("13 points (models: 1, parameter sets: 13)") != std::string::npos);
  CHECK(run.out.find("  #0  ") != std::string::npos);
  CHECK(run.out.find("system.sram.read_latency=32 npu.axi1.max_outstanding_reads=1") != std::string::npos);
  CHECK(run.out.find("... 3 more") != std::string::npos);

  const test::ProcessResult shard = test::runNpusim({"sweep", spec.string(), "--dry-run", "--shard", "1/4"});
  CHECK(shard.exitCode == 0);
  CHECK(shard.out.find("shard 1/4: 3 points") != std::string::npos);
  CHECK(shard.out.find("  #1  ") != std::string::npos);
  CHECK(shard.out.find("  #5  ") != std::string::npos);
}

TEST_CASE("sweep: runs the demo network, one complete line per point, failed points recorded") {
  const test::TempDir dir;
  const fs::path spec = writeSpec(dir, R"({
    "models": [{"demo": true}],
    "grid": {"system.sram.read_latency": [32, 128], "npu.axi0.max_outstanding_reads": [8, 1]},
    "points": [{"system.axi0_port": "OffChipFlash"}]
  })");
  const fs::path out = dir.path() / "results.jsonl";
  const test::ProcessResult run = test::runNpusim({"sweep", spec.string(), "-j", "2", "-o", out.string()});
  INFO("stderr: ", run.err);
  CHECK(run.exitCode == 1);  // one point fails; the others still run
  CHECK(run.err.find("5/5 done, 1 failed") != std::string::npos);

  const auto records = sweep::readResults(out.string()).records;
  REQUIRE(records.size() == 5);
  std::set<size_t> indices;
  int64_t baseline = 0, slow = 0;
  for (const auto& r : records) {
    const auto& j = r.json;
    indices.insert(r.index);
    CHECK(j.at("sweep_points") == 5);
    CHECK(j.at("model") == "<demo>");
    CHECK(j.at("id").get<std::string>().size() == 16);
    CHECK_FALSE(j.contains("wall_s"));  // wall times go to the timing file
    if (r.index == 4) {
      CHECK(j.at("status") == "failed");
      CHECK(j.at("exit_code") == 2);
      CHECK(j.at("params") == nlohmann::json{{"system.axi0_port", "OffChipFlash"}});
      CHECK(j.at("error").get<std::string>().find("system.axi0_port") != std::string::npos);
      CHECK(j.at("total_cycles").is_null());
      continue;
    }
    CHECK(j.at("status") == "ok");
    CHECK(j.at("exit_code") == 0);
    CHECK(j.at("error").is_null());
    CHECK(j.at("params").size() == 2);
    CHECK(j.at("total_cycles").get<int64_t>() > 0);
    CHECK(j.at("npu_active_cycles").get<int64_t>() > 0);
    CHECK(j.at("pmu").at("NPU_ACTIVE") == j.at("npu_active_cycles"));
    REQUIRE(j.at("ports").size() >= 2);
    CHECK(j.at("ports").at(0).at("name") == "axi0");
    CHECK(j.at("ports").at(0).at("read_bytes").get<uint64_t>() > 0);
    if (r.index == 0) baseline = j.at("total_cycles").get<int64_t>();
    if (r.index == 3) slow = j.at("total_cycles").get<int64_t>();
  }
  CHECK(indices == std::set<size_t>{0, 1, 2, 3, 4});
  const auto timing = test::normalizedLines(test::readText(out.string() + ".timing"));
  CHECK(timing.size() == 5);
  // A point refused at once (the failed one) may take less than the timer's resolution.
  double wallTotal = 0;
  for (const std::string& line : timing) {
    const double wall = nlohmann::json::parse(line).at("wall_s").get<double>();
    CHECK(wall >= 0);
    wallTotal += wall;
  }
  CHECK(wallTotal > 0);
  CHECK(slow > baseline);  // 4x SRAM latency and one outstanding read cost cycles

  // The report: table, sensitivity relative to the first point, CSV and Markdown.
  const fs::path csv = dir.path() / "r.csv", md = dir.path() / "r.md";
  const test::ProcessResult report =
      test::runNpusim({"report", out.string(), "--csv", csv.string(), "--md", md.string()});
  CHECK(report.exitCode == 0);
  INFO(report.out);
  CHECK(report.out.find("5 points (4 ok, 1 failed)") != std::string::npos);
  CHECK(report.out.find("baseline: system.sram.read_latency=32 npu.axi0.max_outstanding_reads=8") != std::string::npos);
  CHECK(report.out.find("32 (baseline)") != std::string::npos);
  const std::string csvText = test::readText(csv);
  CHECK(csvText.rfind("index,id,model,system_config,memory_mode,accelerator,system.sram.read_latency,", 0) == 0);
  CHECK(std::count(csvText.begin(), csvText.end(), '\n') == 6);
  CHECK(test::readText(md).find("### system.sram.read_latency") != std::string::npos);
}

TEST_CASE("sweep: killed with SIGKILL mid-sweep and resumed, every point is there exactly once") {
  const test::TempDir dir;
  const fs::path spec = writeSpec(dir, kLongGridSpec);
  const fs::path out = dir.path() / "results.jsonl";

  // 1. Start, wait for some lines, SIGKILL.
  const pid_t pid = startNpusim({"sweep", spec.string(), "-j", "2", "-o", out.string()});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(50);
  while (lineCount(out) < 6 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(kill(pid, SIGKILL) == 0);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  const size_t before = lineCount(out);
  INFO("lines when killed: ", before);
  CHECK(before >= 6);
  CHECK(before < kLongGridPoints);

  // 2. A torn last line, as a write cut short would leave.
  const std::string first = sweep::readResults(out.string()).records.front().line;
  std::ofstream(out, std::ios::app) << first.substr(0, first.size() / 2);

  // 3. Resume.
  const test::ProcessResult resumed = test::runNpusim({"sweep", spec.string(), "-j", "2", "-o", out.string(), "--resume"});
  INFO("stderr: ", resumed.err);
  CHECK(resumed.exitCode == 0);
  CHECK(resumed.err.find("dropped a partial last line") != std::string::npos);
  const auto file = sweep::readResults(out.string());
  CHECK_FALSE(file.truncatedTail);
  REQUIRE(file.records.size() == kLongGridPoints);
  std::set<std::string> ids;
  std::set<size_t> indices;
  for (const auto& r : file.records) {
    ids.insert(r.id);
    indices.insert(r.index);
    CHECK(r.ok);
  }
  CHECK(ids.size() == kLongGridPoints);
  CHECK(indices.size() == kLongGridPoints);
  CHECK(*indices.rbegin() == kLongGridPoints - 1);

  // 4. Resuming a complete file runs nothing.
  const test::ProcessResult again = test::runNpusim({"sweep", spec.string(), "-o", out.string(), "--resume"});
  CHECK(again.exitCode == 0);
  CHECK(again.err.find("400 already in") != std::string::npos);
  CHECK(lineCount(out) == kLongGridPoints);
}

TEST_CASE("sweep: --resume --retry-failed runs the points the file holds as failed again, and only those") {
  const test::TempDir dir;
  const fs::path spec = writeSpec(dir, R"({
    "models": [{"demo": true}],
    "grid": {"system.sram.read_latency": [32, 128], "npu.axi0.max_outstanding_reads": [8, 1]}
  })");
  const fs::path out = dir.path() / "results.jsonl";
  REQUIRE(test::runNpusim({"sweep", spec.string(), "-o", out.string()}).exitCode == 0);
  const auto complete = sweep::readResults(out.string()).records;
  REQUIRE(complete.size() == 4);
  // Point 2 as a run that failed (killed, say) would have left it.
  {
    std::ofstream rewrite(out);
    for (const auto& r : complete) {
      nlohmann::ordered_json j = r.json;
      if (r.index == 2) {
        j["status"] = "failed";
        j["exit_code"] = 137;
        j["total_cycles"] = nullptr;
        j["error"] = "killed by signal 9";
      }
      rewrite << j.dump() << '\n';
    }
  }
  // --resume alone keeps it failed and runs nothing.
  const test::ProcessResult kept = test::runNpusim({"sweep", spec.string(), "-o", out.string(), "--resume"});
  CHECK(kept.exitCode == 1);
  CHECK(kept.err.find("4 already in") != std::string::npos);
  CHECK(lineCount(out) == 4);
  // --retry-failed runs it again: one line per point, point 2 as the first run wrote it.
  const test::ProcessResult retried =
      test::runNpusim({"sweep", spec.string(), "-o", out.string(), "--resume", "--retry-failed"});
  INFO("stderr: ", retried.err);
  CHECK(retried.exitCode == 0);
  CHECK(retried.err.find("3 already in " + out.string() + ", 1 to run with") != std::string::npos);
  CHECK(retried.err.find("(1 of them failed before and run again)") != std::string::npos);
  const auto after = sweep::readResults(out.string()).records;
  REQUIRE(after.size() == 4);
  std::vector<std::string> want, got;
  for (const auto& r : complete) want.push_back(sweep::stableText(r.line));
  for (const auto& r : after) got.push_back(sweep::stableText(r.line));
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  CHECK(got == want);
  // --retry-failed needs --resume.
  const test::ProcessResult alone = test::runNpusim({"sweep", spec.string(), "-o", out.string(), "--retry-failed"});
  CHECK(alone.exitCode == 2);
  CHECK(alone.err.find("--retry-failed requires --resume") != std::string::npos);
}

TEST_CASE("report: no points, or no successful point, is one error line and exit 1") {
  const test::TempDir dir;
  const fs::path empty = dir.path() / "empty.jsonl", blank = dir.path() / "blank.jsonl";
  std::ofstream(empty).flush();
  std::ofstream(blank) << "\n  \n\n";
  for (const fs::path& f : {empty, blank}) {
    const test::ProcessResult r = test::runNpusim({"report", f.string(), "--csv", (dir.path() / "r.csv").string()});
    CHECK(r.exitCode == 1);
    CHECK(r.out.empty());
    CHECK(r.err == "npusim: error: " + f.string() + ": no points (an empty results file)\n");
    CHECK_FALSE(fs::exists(dir.path() / "r.csv"));
  }
  // Every point failed.
  const fs::path spec = writeSpec(dir, R"({"models": [{"demo": true}], "points": [{"system.axi0_port": "OffChipFlash"}]})");
  const fs::path out = dir.path() / "failed.jsonl";
  REQUIRE(test::runNpusim({"sweep", spec.string(), "-o", out.string()}).exitCode == 1);
  const test::ProcessResult r = test::runNpusim({"report", out.string()});
  CHECK(r.exitCode == 1);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.rfind("npusim: error: " + out.string() + ": none of its 1 points succeeded (point 0: ", 0) == 0);
  CHECK(r.err.find("(point 0: npusim: error:") == std::string::npos);  // the point's own line, without its prefix
}

TEST_CASE("sweep: 4 shards joined by sweep-merge equal one local run, byte for byte after sorting") {
  const test::TempDir dir;
  const fs::path spec = writeSpec(dir, kGridSpec);
  const fs::path local = dir.path() / "local.jsonl";
  REQUIRE(test::runNpusim({"sweep", spec.string(), "-j", "2", "-o", local.string()}).exitCode == 0);

  std::vector<std::string> mergeArgs{"sweep-merge"};
  for (int i = 0; i < 4; ++i) {
    const fs::path shard = dir.path() / ("shard" + std::to_string(i) + ".jsonl");
    const test::ProcessResult run =
        test::runNpusim({"sweep", spec.string(), "--shard", std::to_string(i) + "/4", "-j", "2", "-o", shard.string()});
    REQUIRE(run.exitCode == 0);
    CHECK(lineCount(shard) == kGridPoints / 4);
    mergeArgs.push_back(shard.string());
  }
  const fs::path merged = dir.path() / "merged.jsonl";
  mergeArgs.insert(mergeArgs.end(), {"-o", merged.string()});
  const test::ProcessResult merge = test::runNpusim(mergeArgs);
  INFO("stderr: ", merge.err);
  CHECK(merge.exitCode == 0);
  CHECK(merge.err.find("40 of 40 points, 0 missing, 0 duplicate, 0 conflicting") != std::string::npos);
  CHECK(stableSortedLines(merged) == stableSortedLines(local));

  // The merged file is in point order.
  const auto records = sweep::readResults(merged.string()).records;
  for (size_t i = 0; i < records.size(); ++i) {
    CHECK(records[i].index == i);
  }

  // Missing and duplicate shards are reported, and missing points fail the merge.
  const test::ProcessResult partial = test::runNpusim({"sweep-merge", (dir.path() / "shard0.jsonl").string(),
                                                        (dir.path() / "shard0.jsonl").string()});
  CHECK(partial.exitCode == 1);
  CHECK(partial.err.find("10 of 40 points, 30 missing, 10 duplicate") != std::string::npos);
  CHECK(partial.err.find("missing point indices: 1, 2, 3, 5,") != std::string::npos);
}

TEST_CASE("sweep: zip groups vary keys together, results show effective values and the baseline, byte for byte") {
  const test::TempDir dir;
  // SRAM read and write latency linked, x two AXI0 read limits; the baseline at 32/32 and 8.
  const fs::path spec = writeSpec(dir, R"({
    "models": [{"demo": true}],
    "zip": [{"system.sram.read_latency": [32, 64, 128], "system.sram.write_latency": [32, 64, 128]}],
    "grid": {"npu.axi0.max_outstanding_reads": [8, 2]},
    "points": [{"system.sram.read_latency": 256}],
    "baseline": {"system.sram.read_latency": 32, "system.sram.write_latency": 32, "npu.axi0.max_outstanding_reads": 8}
  })");
  const fs::path out = dir.path() / "a.jsonl", again = dir.path() / "b.jsonl";
  const test::ProcessResult run = test::runNpusim({"sweep", spec.string(), "-j", "2", "-o", out.string()});
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  const auto records = sweep::readResults(out.string()).records;
  REQUIRE(records.size() == 7);  // 3 linked settings x 2, the explicit point; the baseline is among them
  std::set<std::pair<int64_t, int64_t>> latencies;
  size_t baselines = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& j = records[i].json;
    CHECK(records[i].index == i);  // written in point order
    const auto& e = j.at("effective");
    REQUIRE(e.size() == 3);
    latencies.insert({e.at("system.sram.read_latency").get<int64_t>(), e.at("system.sram.write_latency").get<int64_t>()});
    if (j.at("baseline").get<bool>()) {
      ++baselines;
      CHECK(e.at("system.sram.read_latency") == 32);
      CHECK(e.at("npu.axi0.max_outstanding_reads") == 8);
    }
    // The cycles per layer type partition the total.
    int64_t sum = 0;
    for (const auto& item : j.at("cycles_by_type").items()) sum += item.value().get<int64_t>();
    CHECK(sum == j.at("total_cycles").get<int64_t>());
  }
  CHECK(baselines == 1);
  // The explicit point leaves write latency at the preset's value (32 for High_End_Embedded's SRAM).
  CHECK(latencies == std::set<std::pair<int64_t, int64_t>>{{32, 32}, {64, 64}, {128, 128}, {256, 32}});

  // A second run gives the same bytes.
  REQUIRE(test::runNpusim({"sweep", spec.string(), "-j", "2", "-o", again.string()}).exitCode == 0);
  CHECK(test::readText(out) == test::readText(again));

  // The report: effective values (no "(unset)"), the baseline point and % change.
  const test::ProcessResult report = test::runNpusim({"report", out.string()});
  INFO(report.out);
  CHECK(report.exitCode == 0);
  CHECK(report.out.find("(unset)") == std::string::npos);
  CHECK(report.out.find("+0.00% (baseline)") != std::string::npos);
  CHECK(report.out.find("baseline: npu.axi0.max_outstanding_reads=8 system.sram.read_latency=32 "
                        "system.sram.write_latency=32 -> ") != std::string::npos);

  // The plotting scripts, run as the README writes them (positional OUTDIR, --group).
  if (std::system("/usr/bin/python3 -c 'import matplotlib' 2>/dev/null") != 0) {
    test::skip("python3-matplotlib not installed: plot_sweep.py and plot_breakdown.py not exercised");
    return;
  }
  const fs::path img = dir.path() / "plots";
  const std::string scripts = std::string(NPUSIM_SOURCE_DIR) + "/scripts/";
  const std::string sweepPlot = scripts + "plot_sweep.py " + out.string() + " " + img.string() +
                                " --y percent --group npu.axi0.max_outstanding_reads >/dev/null";
  const std::string breakdownPlot = scripts + "plot_breakdown.py " + out.string() + " " + img.string() + " >/dev/null";
  REQUIRE(std::system(sweepPlot.c_str()) == 0);
  REQUIRE(std::system(breakdownPlot.c_str()) == 0);
  CHECK(fs::file_size(img / "demo__Ethos_U55_High_End_Embedded_Shared_Sram.png") > 1000);
  CHECK(fs::file_size(img / "demo__Ethos_U55_High_End_Embedded_Shared_Sram_breakdown.png") > 1000);
}

TEST_CASE("sweep: report analyses keys swept together as one parameter") {
  const test::TempDir dir;
  const fs::path spec = writeSpec(dir, R"({
    "models": [{"demo": true}],
    "link": [{"system.sram.read_latency": [32, 128], "system.sram.write_latency": [16, 64]}],
    "grid": {"npu.axi0.max_outstanding_reads": [8, 2]}
  })");
  const fs::path out = dir.path() / "r.jsonl";
  REQUIRE(test::runNpusim({"sweep", spec.string(), "-o", out.string()}).exitCode == 0);
  const auto records = sweep::readResults(out.string()).records;
  REQUIRE(records.size() == 4);
  // Point 2 is read/write 128/64 at the first point's 8 outstanding reads (zip after grid: 8/32, 8/128, 2/32, 2/128).
  const auto& slow = records[1].json;
  REQUIRE(slow.at("effective").at("system.sram.read_latency") == 128);
  REQUIRE(slow.at("effective").at("npu.axi0.max_outstanding_reads") == 8);
  const test::ProcessResult report = test::runNpusim({"report", out.string()});
  INFO(report.out);
  const auto lines = test::normalizedLines(report.out);
  const auto heading = std::find(lines.begin(), lines.end(), "system.sram.read_latency = system.sram.write_latency");
  REQUIRE(lines.end() - heading >= 4);
  CHECK(heading[2].rfind("32 (baseline) " + std::to_string(records[0].json.at("total_cycles").get<int64_t>()) + " +0.00%",
                         0) == 0);
  CHECK(heading[3].rfind("128 " + std::to_string(slow.at("total_cycles").get<int64_t>()) + " +", 0) == 0);
}

TEST_CASE("sweep: a bad spec is one error line naming the file and key path, exit 2") {
  const test::TempDir dir;
  const auto check = [&](const std::string& text, const std::string& mustContain) {
    const fs::path spec = writeSpec(dir, text);
    test::checkOneErrorLine(test::runNpusim({"sweep", spec.string(), "--dry-run"}), spec.string() + ": " + mustContain);
    const fs::path results = dir.path() / "x.jsonl";
    std::ofstream(results) << "earlier results\n";
    test::checkOneErrorLine(test::runNpusim({"sweep", spec.string(), "-o", results.string()}),
                      spec.string() + ": " + mustContain);
    CHECK(test::readText(results) == "earlier results\n");  // a bad spec leaves the results file alone
  };
  check(R"({"models": [{"demo": true}], "grid": {"system.sram.read_latncy": [16]}})",
        "key 'grid[\"system.sram.read_latncy\"]': unknown config key 'system.sram.read_latncy'; did you mean "
        "'system.sram.read_latency'?");
  check(R"({"models": [{"demo": true}], "grid": {"system.sram.read_latency": [16, "fast"]}})",
        "key 'grid[\"system.sram.read_latency\"][1]': expected an integer, got string \"fast\"");
  // The key's range is the widest AXI_LIMIT (the U65's, 1..64); a point past the U55's 32 fails
  // when it runs, bound to the model's accelerator.
  check(R"({"models": [{"demo": true}], "points": [{"npu.axi1.max_outstanding_reads": 65}]})",
        "key 'points[0][\"npu.axi1.max_outstanding_reads\"]': 65 is out of range");
  check(R"({"models": [{"demo": true}], "gird": {}})", "key 'gird': unknown key; did you mean 'grid'?");
  check(R"({"models": [{"demo": true, "system_config": 7}]})", "key 'models[0].system_config': expected a string");
  check(R"({"models": [{"path": "no_such_model_vela.tflite"}]})", "key 'models[0].path': no such file");
  check(R"({"models": [{"demo": true}], "grid": {"system.sram.read_latency": 16}})",
        "key 'grid[\"system.sram.read_latency\"]': expected an array, got an integer");
  check(R"({"models": [{"demo": true}], "zip": [{"system.sram.read_latency": [16, 32, 64],
                                                  "system.sram.write_latency": [16, 32]}]})",
        "key 'zip[0][\"system.sram.write_latency\"]': has 2 values, but 'system.sram.read_latency' of the same group "
        "has 3");
  check(R"({"models": [{"demo": true}], "grid": {"system.sram.read_latency": [16, 32]},
           "zip": [{"system.sram.read_latency": [16, 32], "system.sram.write_latency": [16, 32]}]})",
        "key 'zip[0][\"system.sram.read_latency\"]': this key is already swept by grid[\"system.sram.read_latency\"]");
  check(R"({"models": [{"demo": true}], "link": [{"system.sram.read_latency": [16]}, {"system.sram.read_latency": [32]}]})",
        "key 'link[1][\"system.sram.read_latency\"]': this key is already swept by link[0]");
  test::checkOneErrorLine(test::runNpusim({"sweep", writeSpec(dir, R"({"models": [{"demo": true}], )").string()}),
                    "malformed JSON");
  test::checkOneErrorLine(test::runNpusim({"sweep", writeSpec(dir, kGridSpec).string(), "--shard", "4/4"}), "--shard");
}

TEST_CASE("sweep: an Ethos-U65 model without sections runs with its compile's, else Vela's U65 defaults, U65 keys included") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) {
    return;
  }
  const fs::path model = *root / "vela-u65" / "kws_ref_model" / "ethos-u65-512_Ethos_U65_High_End_Dedicated_Sram" /
                         "kws_ref_model_vela.tflite";
  if (!fs::is_regular_file(model)) {
    test::skip("no " + model.string());
    return;
  }
  const test::TempDir dir;
  // The same model in a folder without Vela's summary CSV: nothing says what it was compiled for.
  const fs::path alone = dir.path() / "kws_ref_model_vela.tflite";
  fs::copy_file(model, alone);
  // 64 outstanding reads: past the U55's AXI_LIMIT, within the U65's (timing doc 5.1).
  for (const auto& [path, system] : {std::pair{model, "Ethos_U65_High_End"},              // its summary CSV's
                                     std::pair{alone, "Ethos_U65_Client_Server"}}) {   // Vela's U65 internal default
    const fs::path spec = writeSpec(dir, R"({"models": [{"path": ")" + path.string() + R"("}],
      "grid": {"npu.axi0.max_outstanding_reads": [8, 64]}})");
    const fs::path out = dir.path() / "u65.jsonl";
    const test::ProcessResult run = test::runNpusim({"sweep", spec.string(), "-o", out.string()});
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    std::ifstream in(out);
    size_t lines = 0;
    for (std::string line; std::getline(in, line); ++lines) {
      const auto j = nlohmann::json::parse(line);
      CHECK(j.at("status") == "ok");
      CHECK(j.at("system_config") == system);
      CHECK(j.at("memory_mode") == "Dedicated_Sram");
      CHECK(j.at("accelerator") == "ethos-u65-512");
    }
    CHECK(lines == 2);
  }
}

} // namespace npusim
