// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs child processes (e.g. one `npusim` simulation each: SystemC allows one elaboration
// per process) with a bounded number in parallel, capturing their output. The one process
// runner of npusim: `compare --tree`, `sweep`, `regress` and `probe write` use it.

#include <functional>
#include <string>
#include <vector>

namespace npusim::process {

// File descriptor of the optional result channel a child gets (PoolOptions::resultChannel):
// it writes there what the parent should read separately from stdout, e.g. `--json /dev/fd/3`.
constexpr int kResultChannelFd = 3;

// Runs a command line (argv[0] first) inside this process and returns its exit status.
using InProcessMain = std::function<int(const std::vector<std::string>& args)>;

struct ChildResult {
  int exitCode = -1;       // exit status, or 128 + signal when killed (127: could not start)
  int signal = 0;          // the signal that killed it; 0 when it exited
  bool timedOut = false;   // killed by the pool after PoolOptions::timeoutSeconds
  double wallSeconds = 0;
  long peakRssKiB = 0;     // the child's peak resident set size
  std::string out, err;    // captured stdout (unless discarded) and stderr
  std::string channel;     // what it wrote to kResultChannelFd (PoolOptions::resultChannel)
};

struct PoolOptions {
  unsigned jobs = 1;                 // children at a time (0 counts as 1)
  double timeoutSeconds = 0;         // a child running longer is killed (SIGKILL); 0: no limit
  bool captureStdout = true;         // false: the child's stdout goes to /dev/null
  bool resultChannel = false;        // give each child a pipe on kResultChannelFd
  std::function<void()> tick;        // called at least every 200 ms while children run
  // When set, each child is a fork of this process that runs inProcess(command) and exits with
  // its result, instead of executing the command's argv[0]: no exec, dynamic loading or static
  // initialisation per child. The calling process must be single-threaded and must not have
  // elaborated a SystemC model itself (each child elaborates its own).
  InProcessMain inProcess;
};

// Path of the running executable (/proc/self/exe), for re-invoking npusim.
std::string selfExecutable();

// CPUs this process may run on.
unsigned availableCores();

// Runs every command (argv[0] is the executable), at most `options.jobs` at a time, and hands
// each result to `done(index, result)` in completion order; nothing is kept after that, so
// memory stays bounded for any number of commands. A command that cannot be started is a
// result with exit code 127 and the reason in `err`. Throws std::runtime_error only when the
// operating system refuses pipes.
void runEach(const std::vector<std::vector<std::string>>& commands, const PoolOptions& options,
             const std::function<void(size_t, ChildResult&&)>& done);

// runEach that returns the results in input order.
std::vector<ChildResult> runAll(const std::vector<std::vector<std::string>>& commands, unsigned jobs);

} // namespace npusim::process
