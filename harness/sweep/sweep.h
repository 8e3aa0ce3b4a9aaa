// SPDX-License-Identifier: Apache-2.0
#pragma once
// `npusim sweep` and `npusim sweep-merge`: run a spec's points (or one shard of them) in
// parallel processes into a JSONL file that can be resumed, and join shard files.

#include <ostream>
#include <string>
#include <vector>

#include "harness/process/process_pool.h"
#include "harness/sweep/sweep_spec.h"

namespace npusim::sweep {

// What `npusim sweep` was asked to do.
struct SweepOptions {
  std::string spec;
  std::string out;              // results file; empty: defaultResultsPath()
  unsigned jobs = 0;            // parallel processes; 0: process::availableCores()
  bool resume = false;          // keep the points already in `out` and run only the others
  bool retryFailed = false;     // with resume: run the points `out` holds as failed again (their lines go)
  Shard shard;                  // default: all points
  double timeoutSeconds = 0;    // per point; 0: none
  std::string executable;       // npusim binary that runs the points
  process::InProcessMain inProcess; // set: points run in forks of this process (RunnerOptions)
  bool terminal = false;        // progress as a redrawn bar (else plain lines)
};

// "<spec stem>.jsonl", or "<spec stem>.shard-<I>-of-<N>.jsonl" for a shard, in the current folder.
std::string defaultResultsPath(const std::string& spec, const Shard& shard);

// Runs the sweep, appending one line per point to the results file as it finishes; progress
// and a summary go to `log`. Returns 0 when every point of the shard succeeded, 1 when some
// failed (they are in the file with their error). Throws InputError for a bad spec or
// unusable results file.
int runSweep(const SweepOptions& options, std::ostream& log);

// Prints the number of points (of the shard) and the first `count`.
void printDryRun(const SweepSpec& spec, const Shard& shard, std::ostream& out, size_t count = 10);

// Joins results files into `out` (one line per point, index order) and reports missing,
// duplicate and conflicting points to `log`. Returns 0 when the result is complete and free of
// conflicts, 1 otherwise.
int mergeResultFiles(const std::vector<std::string>& files, std::ostream& out, std::ostream& log);

} // namespace npusim::sweep
