// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cycle regression: a baseline file (results/baseline.json) holds the expected total cycles,
// NPU active cycles and PMU counts of a curated set of fixtures x configurations; `npusim
// regress` re-simulates every entry whose fixture is present and reports each changed count.
//
// Baseline format:
//   {"description": "...", "npusim_version": "0.1.0",
//    "fixtures": "../../shared/fixtures",          // fixtures root, relative to this file's folder
//    "entries": [{"name": "...", "fixture": "vela/<model>/<config>/<model>_vela.tflite" | null (demo),
//                 "system_config": "...", "memory_mode": "...", "params": {"key": value, ...},
//                 "npusim_version": "0.1.0", "accelerator": "...",
//                 "total_cycles": N, "npu_active_cycles": N, "pmu": {"CYCLE": N, ...}}]}

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "harness/process/process_pool.h"
#include "harness/sweep/sweep_spec.h"

namespace npusim::regress {

// One curated simulation and the counts it must reproduce.
struct BaselineEntry {
  std::string name;
  std::string fixture;              // model path relative to the fixtures root; empty: the demo network
  std::string systemConfig, memoryMode;
  sweep::ParamSet params;
  std::string npusimVersion;        // version that recorded the counts
  std::string accelerator;
  std::vector<std::pair<std::string, int64_t>> counts;  // total_cycles, npu_active_cycles, pmu.<EVENT>
};

// A whole baseline file.
struct Baseline {
  std::string npusimVersion;
  std::string fixtures;             // as stored: relative to the baseline file's folder (or absolute)
  std::vector<BaselineEntry> entries;
};

// Throws InputError naming the file and JSON key path for anything malformed.
Baseline readBaseline(const std::string& path);
// Writes atomically (temporary file, then rename).
void writeBaseline(const std::string& path, const Baseline& baseline);

// What `npusim regress` was asked to do.
struct RegressOptions {
  std::string baseline = "results/baseline.json";
  std::string fixtures;             // fixtures root; empty: $NPUSIM_FIXTURES, else the baseline's own
  std::vector<std::string> specs;   // update only: take the entries from these sweep specs' points
  unsigned jobs = 0;                // 0: the number of cores
  std::string executable;           // npusim binary that runs the entries
  process::InProcessMain inProcess; // set: entries run in forks of this process (sweep::RunnerOptions)
};

// Re-simulates the entries and prints a table of changed counts and the skipped entries.
// Returns 0 when no count changed, 1 otherwise (a failed simulation counts as a change).
int runRegress(const RegressOptions& options, std::ostream& out);

// Records the counts of the entries (of options.specs, else of the existing baseline, keeping
// entries whose fixture is absent unchanged) and writes the baseline. Returns 0, or 1 without
// writing when a simulation fails.
int updateBaseline(const RegressOptions& options, std::ostream& out);

} // namespace npusim::regress
