// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs child processes (e.g. one `npusim` simulation each: SystemC allows one elaboration
// per process) with a bounded number in parallel, capturing their output.

#include <functional>
#include <string>
#include <vector>

namespace npusim::process {

struct ChildResult {
  int exitCode = -1;       // exit status, or 128 + signal when killed
  std::string out, err;    // captured stdout and stderr
};

// Path of the running executable (/proc/self/exe), for re-invoking npusim.
std::string selfExecutable();

// Runs argv[0] with `args`; returns its exit code and output.
ChildResult run(const std::vector<std::string>& args);

// Runs every command, at most `jobs` at a time; `done(i, result)` is called in the parent as
// each finishes (completion order). Results are also returned in input order.
std::vector<ChildResult> runAll(const std::vector<std::vector<std::string>>& commands, unsigned jobs,
                                const std::function<void(size_t, const ChildResult&)>& done = {});

} // namespace npusim::process
