// SPDX-License-Identifier: Apache-2.0
#include "harness/sweep/point_runner.h"

#include <string.h>

#include <algorithm>
#include <cstdio>

#include "harness/process/process_pool.h"
#include "harness/report/run_json.h"

namespace npusim::sweep {
namespace {

namespace run_json = report::run_json;

std::string lastLine(const std::string& text) {
  size_t end = text.find_last_not_of("\r\n");
  if (end == std::string::npos) {
    return "";
  }
  const size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

// The members of an `npusim run --json` document that sweep results use.
bool isRunResult(const nlohmann::ordered_json& j) {
  if (!j.is_object() || !j.contains(run_json::kConfig) || !j[run_json::kConfig].contains(run_json::kAccelerator)) {
    return false;
  }
  for (const char* key : {run_json::kTotalCycles, run_json::kNpuActiveCycles, run_json::kPmu, run_json::kPorts}) {
    if (!j.contains(key)) {
      return false;
    }
  }
  return std::all_of(j[run_json::kPorts].begin(), j[run_json::kPorts].end(), [](const nlohmann::ordered_json& p) {
    return p.contains(run_json::kName) && p.contains(run_json::kMemory) && p.contains(run_json::kReadBytes) &&
           p.contains(run_json::kWriteBytes);
  });
}

PointOutcome outcomeOf(process::ChildResult&& child, double timeoutSeconds) {
  PointOutcome out;
  out.wallSeconds = child.wallSeconds;
  out.exitCode = child.exitCode;
  const std::string errLine = lastLine(child.err);
  if (child.timedOut) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", timeoutSeconds);
    out.error = std::string("timed out after ") + limit + " s";
  } else if (child.signal != 0) {
    out.error = std::string("killed by signal ") + std::to_string(child.signal) + " (" + ::strsignal(child.signal) +
                ")" + (errLine.empty() ? "" : ": " + errLine);
  } else if (out.exitCode != 0) {
    out.error = errLine.empty() ? "exit status " + std::to_string(out.exitCode) : errLine;
  } else {
    try {
      out.result = nlohmann::ordered_json::parse(child.channel);
      out.ok = isRunResult(out.result);
    } catch (const nlohmann::json::parse_error&) {
      out.ok = false;
    }
    if (!out.ok) {
      out.error = "npusim run wrote no readable JSON result";
    }
  }
  return out;
}

} // namespace

std::vector<std::string> runArguments(const Point& point, const std::string& jsonPath) {
  std::vector<std::string> args{"run"};
  if (!point.model.path.empty()) {
    args.push_back(point.model.path);
  }
  args.insert(args.end(), {"--system-config", point.model.systemConfig, "--memory-mode", point.model.memoryMode});
  if (!point.model.velaIni.empty()) {
    args.insert(args.end(), {"--vela-ini", point.model.velaIni});
  }
  for (const Param& p : point.params) {
    args.insert(args.end(), {"--set", p.key + "=" + p.text});
  }
  args.insert(args.end(), {"--json", jsonPath});
  return args;
}

void runPoints(const std::vector<Point>& points, const RunnerOptions& options, RunObserver& observer) {
  std::vector<std::vector<std::string>> commands;
  for (const Point& point : points) {
    std::vector<std::string> args{options.executable};
    for (std::string& a : runArguments(point, "/dev/fd/" + std::to_string(process::kResultChannelFd))) {
      args.push_back(std::move(a));
    }
    commands.push_back(std::move(args));
  }
  process::PoolOptions pool;
  pool.jobs = options.jobs;
  pool.timeoutSeconds = options.timeoutSeconds;
  pool.captureStdout = false;
  pool.resultChannel = true;
  pool.tick = [&observer] { observer.tick(); };
  pool.inProcess = options.inProcess;
  process::runEach(commands, pool, [&](size_t i, process::ChildResult&& child) {
    observer.finished(points[i], outcomeOf(std::move(child), options.timeoutSeconds));
  });
}

} // namespace npusim::sweep
