// SPDX-License-Identifier: Apache-2.0
// harness/process: the child-process pool behind compare --tree, sweep and regress.

#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "harness/process/process_pool.h"

namespace npusim {
namespace {

std::vector<std::string> shell(const std::string& script) { return {"/bin/sh", "-c", script}; }

} // namespace

TEST_CASE("process pool: stdout, stderr, the result channel and exit codes of each child") {
  process::PoolOptions options;
  options.jobs = 2;
  options.resultChannel = true;
  std::vector<process::ChildResult> results(3);
  std::vector<size_t> order;
  process::runEach({shell("echo out; echo err >&2; echo channel >&3; exit 3"), shell("exit 0"),
                    shell("printf x >&3")},
                   options, [&](size_t i, process::ChildResult&& r) {
                     order.push_back(i);
                     results[i] = std::move(r);
                   });
  CHECK(std::set<size_t>(order.begin(), order.end()) == std::set<size_t>{0, 1, 2});
  CHECK(results[0].exitCode == 3);
  CHECK(results[0].out == "out\n");
  CHECK(results[0].err == "err\n");
  CHECK(results[0].channel == "channel\n");
  CHECK(results[1].exitCode == 0);
  CHECK(results[1].channel.empty());
  CHECK(results[2].channel == "x");
  CHECK(results[2].signal == 0);
  CHECK_FALSE(results[2].timedOut);
}

TEST_CASE("process pool: in-process children get the same descriptors, arguments and exit codes") {
  process::PoolOptions options;
  options.jobs = 2;
  options.resultChannel = true;
  const pid_t parent = ::getpid();
  // Each child echoes its arguments to stdout, stderr and the channel and exits with their count;
  // it must be another process (a fork), or the parent's own descriptors would receive this.
  options.inProcess = [parent](const std::vector<std::string>& args) {
    if (::getpid() == parent) {
      return 99;
    }
    std::cout << args.at(1) << '\n';
    std::cerr << args.at(0) << '\n';
    FILE* channel = ::fdopen(process::kResultChannelFd, "w");
    std::fputs(args.back().c_str(), channel);
    std::fclose(channel);
    return static_cast<int>(args.size());
  };
  std::vector<process::ChildResult> results(3);
  process::runEach({{"a", "b"}, {"c", "d", "e"}, {"f", "g", "h", "i"}}, options,
                   [&](size_t i, process::ChildResult&& r) { results[i] = std::move(r); });
  CHECK(results[0].exitCode == 2);
  CHECK(results[0].out == "b\n");
  CHECK(results[0].err == "a\n");
  CHECK(results[0].channel == "b");
  CHECK(results[1].exitCode == 3);
  CHECK(results[1].channel == "e");
  CHECK(results[2].exitCode == 4);
  CHECK(results[2].out == "g\n");
  CHECK(results[2].channel == "i");
}

TEST_CASE("process pool: discarded stdout, a timeout kills, a missing executable is exit code 127") {
  process::PoolOptions options;
  options.captureStdout = false;
  options.timeoutSeconds = 0.3;
  int ticks = 0;
  options.tick = [&ticks] { ++ticks; };
  std::vector<process::ChildResult> results(3);
  process::runEach({shell("echo hidden"), shell("exec sleep 30"), {"/nonexistent/npusim", "run"}}, options,
                   [&](size_t i, process::ChildResult&& r) { results[i] = std::move(r); });
  CHECK(results[0].exitCode == 0);
  CHECK(results[0].out.empty());
  CHECK(results[1].timedOut);
  CHECK(results[1].signal == 9);
  CHECK(results[1].exitCode == 128 + 9);
  CHECK(results[1].wallSeconds >= 0.3);
  CHECK(results[1].wallSeconds < 30);
  CHECK(results[2].exitCode == 127);
  CHECK(results[2].err.find("cannot start /nonexistent/npusim") == 0);
  CHECK(ticks > 0);
}

TEST_CASE("process pool: runAll keeps input order with more commands than jobs") {
  std::vector<std::vector<std::string>> commands;
  for (int i = 0; i < 6; ++i) {
    commands.push_back(shell("sleep 0.0" + std::to_string(6 - i) + "; echo " + std::to_string(i)));
  }
  const std::vector<process::ChildResult> results = process::runAll(commands, 3);
  REQUIRE(results.size() == 6);
  for (int i = 0; i < 6; ++i) {
    CHECK(results[static_cast<size_t>(i)].out == std::to_string(i) + "\n");
  }
  CHECK(process::availableCores() >= 1);
}

} // namespace npusim
