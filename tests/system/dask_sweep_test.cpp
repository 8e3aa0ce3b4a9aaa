// SPDX-License-Identifier: Apache-2.0
// scripts/sweep_dask.py against a Dask scheduler and two workers on 127.0.0.1: the merged
// result equals a local `npusim sweep`, byte for byte after sorting (wall times aside). Skipped,
// with a message, when python3-distributed is not installed.

#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "harness/sweep/results_file.h"
#include "support/fixtures.h"
#include "support/skip.h"

extern char** environ;

namespace npusim {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr const char* kSpec = R"({
  "models": [{"demo": true}],
  "grid": {"system.sram.read_latency": [32, 64, 16, 128], "npu.axi0.max_outstanding_reads": [8, 1, 2, 4]}
})";

// The first Python that can import Dask distributed (Debian's python3-distributed installs into
// /usr/bin/python3, which may not be the python3 on PATH).
std::optional<std::string> pythonWithDistributed() {
  for (const std::string python : {"python3", "/usr/bin/python3"}) {
    if (std::system((python + " -c 'import distributed' >/dev/null 2>&1").c_str()) == 0) {
      return python;
    }
  }
  return std::nullopt;
}

// A process started for the test (scheduler, worker), stopped when the test ends.
class Background {
public:
  Background(std::vector<std::string> args, const fs::path& log) {
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int rc = posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE(rc == 0);
  }
  ~Background() {
    kill(pid_, SIGTERM);
    for (int i = 0; i < 100 && waitpid(pid_, nullptr, WNOHANG) == 0; ++i) {
      std::this_thread::sleep_for(50ms);
    }
    if (kill(pid_, 0) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;

private:
  pid_t pid_ = -1;
};

// Runs a shell command; returns its exit status and combined output.
std::pair<int, std::string> runShell(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::vector<std::string> stableSortedLines(const fs::path& results) {
  std::vector<std::string> lines;
  for (const auto& r : sweep::readResults(results.string()).records) lines.push_back(sweep::stableText(r.line));
  std::sort(lines.begin(), lines.end());
  return lines;
}

} // namespace

TEST_CASE("dask: sweep_dask.py on a loopback scheduler with two workers equals a local sweep") {
  const auto python = pythonWithDistributed();
  if (!python) {
    test::skip("Dask distributed is not installed (Debian: apt-get install python3-distributed)");
    return;
  }
  const test::TempDir dir;
  const fs::path spec = dir.path() / "spec.json";
  std::ofstream(spec) << kSpec;

  // 1. Scheduler and two single-threaded workers on 127.0.0.1.
  const fs::path schedulerFile = dir.path() / "scheduler.json";
  const Background scheduler({*python, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                              "--no-dashboard", "--scheduler-file", schedulerFile.string()},
                             dir.path() / "scheduler.log");
  std::string address;
  for (auto deadline = std::chrono::steady_clock::now() + 40s; address.empty();) {
    std::this_thread::sleep_for(100ms);
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, test::readText(dir.path() / "scheduler.log"));
    std::error_code ec;
    if (fs::file_size(schedulerFile, ec) > 0 && !ec) {
      const auto j = nlohmann::json::parse(test::readText(schedulerFile), nullptr, false);
      address = j.is_object() && j.contains("address") ? j["address"].get<std::string>() : "";
    }
  }
  std::vector<std::unique_ptr<Background>> workers;
  for (const std::string name : {"w0", "w1"}) {
    workers.push_back(std::make_unique<Background>(
        std::vector<std::string>{*python, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                 schedulerFile.string(), "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny",
                                 "--no-dashboard", "--name", name, "--local-directory", (dir.path() / name).string()},
        dir.path() / (name + ".log")));
  }

  // 2. The sweep on the cluster, in 4 shards, and the same sweep locally.
  const fs::path daskOut = dir.path() / "dask.jsonl";
  const std::pair<int, std::string> run =
      runShell(*python + " " + (fs::path(NPUSIM_SOURCE_DIR) / "scripts" / "sweep_dask.py").string() + " " +
               spec.string() + " --scheduler " + address + " --npusim " + NPUSIM_BINARY + " --shards 4 --wait-workers 2" +
               " --connect-timeout 40 --out " + daskOut.string());
  INFO("sweep_dask.py: ", run.second);
  REQUIRE(run.first == 0);
  CHECK(run.second.find("4 shards, 0 already in") != std::string::npos);
  CHECK(run.second.find("16 of 16 points, 0 missing, 0 duplicate, 0 conflicting") != std::string::npos);
  const fs::path localOut = dir.path() / "local.jsonl";
  REQUIRE(test::runNpusim({"sweep", spec.string(), "-j", "2", "-o", localOut.string()}).exitCode == 0);
  const auto dask = stableSortedLines(daskOut);
  CHECK(dask.size() == 16);
  CHECK(dask == stableSortedLines(localOut));

  // 3. A rerun finds every shard done and only merges.
  const std::pair<int, std::string> again =
      runShell(*python + " " + (fs::path(NPUSIM_SOURCE_DIR) / "scripts" / "sweep_dask.py").string() + " " +
               spec.string() + " --scheduler " + address + " --npusim " + NPUSIM_BINARY + " --shards 4 --out " +
               daskOut.string());
  INFO("rerun: ", again.second);
  CHECK(again.first == 0);
  CHECK(again.second.find("4 already in") != std::string::npos);
}

} // namespace npusim
