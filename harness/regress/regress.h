// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cycle regression for CI: a baseline file holds the expected total cycles, NPU active cycles
// and PMU counts of a set of models x configurations, with the sha256 of each model's bytes;
// `npusim regress` re-simulates every entry and reports each count that changed by more than
// its tolerance.
//
// Baseline format (format_version 2; a file without "format_version" is read as format 1, the
// same layout without "sha256", "model", "optional" and "tolerances"):
//   {"format_version": 2, "description": "...", "npusim_version": "0.1.0",
//    "fixtures": "../../shared/fixtures" | null,   // fixtures root, relative to this file's folder
//    "tolerances": {"total_cycles": 0.5, "pmu.AXI0_RD_STALL_LIMIT": 5},   // optional, percent
//    "entries": [{"name": "...",
//                 "fixture": "vela/<model>/<config>/<model>_vela.tflite",  // under the fixtures root, or
//                 "model": "models/net_vela.tflite",   // relative to this file's folder, or absolute;
//                                                      // neither: the built-in demo network
//                 "sha256": "<hex>",                    // of the model's bytes (model entries only)
//                 "optional": false,                    // true: a missing model is skipped, not an error
//                 "system_config": "...", "memory_mode": "...", "params": {"key": value, ...},
//                 "tolerances": {...},                  // optional, per count, overriding the file's
//                 "npusim_version": "0.1.0", "accelerator": "...",
//                 "total_cycles": N, "npu_active_cycles": N, "pmu": {"CYCLE": N, ...}}]}
// A "fixture" entry whose fixtures tree is absent altogether is skipped (fixture trees are
// optional on a machine); any other missing model fails unless the entry is optional.

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "harness/process/process_pool.h"
#include "harness/sweep/sweep_spec.h"

namespace npusim::regress {

// The baseline format this npusim writes; it reads this one and all older ones.
constexpr int64_t kFormatVersion = 2;

// Allowed relative change per count name ("total_cycles", "pmu.CYCLE", ...), in percent.
using Tolerances = std::map<std::string, double>;

// One curated simulation and the counts it must reproduce.
struct BaselineEntry {
  std::string name;
  std::string fixture;              // model path relative to the fixtures root, or empty
  std::string model;                // model path as stored (relative to the baseline's folder or absolute), or empty
  std::string sha256;               // of the model's bytes; empty: not recorded (format 1)
  bool optional = false;
  std::string systemConfig, memoryMode;
  sweep::ParamSet params;
  Tolerances tolerances;
  std::string npusimVersion;        // version that recorded the counts
  std::string accelerator;
  std::vector<std::pair<std::string, int64_t>> counts;  // total_cycles, npu_active_cycles, pmu.<EVENT>
};

// A whole baseline file.
struct Baseline {
  int64_t formatVersion = kFormatVersion;
  std::string npusimVersion;
  std::string fixtures;             // as stored: relative to the baseline file's folder (or absolute)
  Tolerances tolerances;
  std::vector<BaselineEntry> entries;
};

// Throws InputError naming the file and JSON key path for anything malformed, and for a
// format_version newer than kFormatVersion.
Baseline readBaseline(const std::string& path);
// Writes atomically (temporary file, then rename), always in format kFormatVersion.
void writeBaseline(const std::string& path, const Baseline& baseline);

// What `npusim regress` was asked to do.
struct RegressOptions {
  std::string baseline = "results/baseline.json";
  std::string fixtures;             // fixtures root; empty: $NPUSIM_FIXTURES, else the baseline's own
  std::vector<std::string> specs;   // update only: take the entries from these sweep specs' points
  double tolerancePercent = 0;      // for counts without a tolerance in the baseline
  std::string junit, json;          // reports to write (empty: none)
  unsigned jobs = 0;                // 0: the number of cores
  std::string executable;           // npusim binary that runs the entries
  process::InProcessMain inProcess; // set: entries run in forks of this process (sweep::RunnerOptions)
};

// Re-simulates the entries, prints a table of the counts that changed beyond their tolerance
// and the skipped entries, and writes the JUnit/JSON reports. Returns 0 when nothing changed
// beyond tolerance, 1 otherwise (a failed simulation counts as a change). Throws InputError
// (exit 2) when a required model is missing, and — after printing the table and writing the
// reports — when a model's bytes differ from the recorded sha256.
int runRegress(const RegressOptions& options, std::ostream& out);

// Records the counts and model digests of the entries (of options.specs, else of the existing
// baseline, keeping entries whose fixture is absent unchanged) and writes the baseline. An
// entry keeps the "optional" flag and tolerances of the existing entry of the same name.
// Returns 0, or 1 without writing when a simulation fails.
int updateBaseline(const RegressOptions& options, std::ostream& out);

// Checks a tolerance in percent (finite, >= 0); throws InputError naming `file` and `key`.
double checkedTolerance(double percent, const std::string& file, const std::string& key);

} // namespace npusim::regress
