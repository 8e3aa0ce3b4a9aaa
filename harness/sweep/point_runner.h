// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs sweep points, each in its own `npusim run` process (SystemC allows one elaboration per
// process; harness/process runs them), at most `jobs` at a time, and collects each process's
// JSON result.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/process/process_pool.h"
#include "harness/sweep/sweep_spec.h"

namespace npusim::sweep {

// What one point's process produced.
struct PointOutcome {
  bool ok = false;
  int exitCode = 0;                 // exit status, or 128 + signal number
  std::string error;                // failed points: why (the process's last error line, signal, timeout)
  nlohmann::ordered_json result;    // ok points: the `npusim run --json` document, without the
                                    // per-operation records ("operations", "network_operators")
  double wallSeconds = 0;
};

// How runPoints starts the processes.
struct RunnerOptions {
  std::string executable;           // the npusim binary (process::selfExecutable() for this one)
  unsigned jobs = 1;
  double timeoutSeconds = 0;        // 0: none; a point running longer is killed and fails
  process::InProcessMain inProcess; // set: fork this process per point and run the command line
                                    // in it (see process::PoolOptions) instead of executing it
};

// Receives outcomes in completion order; tick() is called at least twice a second while points
// run, for progress displays.
class RunObserver {
public:
  virtual ~RunObserver() = default;
  virtual void finished(const Point& point, const PointOutcome& outcome) = 0;
  virtual void tick() {}
};

// The `npusim run` arguments (after the executable) that simulate `point`, writing JSON to
// `jsonPath`.
std::vector<std::string> runArguments(const Point& point, const std::string& jsonPath);

// Runs every point; a point that fails (bad exit, signal, timeout, unreadable output) is
// reported as failed and never stops the others. Throws std::runtime_error only when the
// operating system refuses pipes.
void runPoints(const std::vector<Point>& points, const RunnerOptions& options, RunObserver& observer);

} // namespace npusim::sweep
