// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sweep results as JSON Lines: one line per point, appended in point order. Each line holds the
// point id and index, the sweep's point count, the model and its configuration, every parameter
// value, the effective value of every swept key, whether it is the baseline, the status (exit
// code, error for failed points), total cycles, NPU active cycles, PMU counters, bytes per port
// and cycles per layer type and per bound. Nothing depends on the wall clock: two runs of a spec give
// byte-identical files. Wall times go to a separate timing file (<results>.timing, one line per
// point in completion order).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/report/run_json.h"
#include "harness/sweep/point_runner.h"
#include "harness/sweep/sweep_spec.h"

namespace npusim::sweep {

// The member names of a result line: the one spelling shared by its writer and its readers
// (sweep report, compare-runs). Members copied from `npusim run --json` keep its names (those of
// its format 2: lines written before it name a port "port", which readers still accept).
namespace results_json {
constexpr char kId[] = "id";
constexpr char kIndex[] = "index";
constexpr char kSweepPoints[] = "sweep_points";
constexpr char kModel[] = "model";
constexpr char kSystemConfig[] = "system_config";
constexpr char kMemoryMode[] = "memory_mode";
constexpr char kVelaIni[] = "vela_ini";
constexpr char kParams[] = "params";
constexpr char kEffective[] = "effective";
constexpr char kBaseline[] = "baseline";
constexpr char kStatus[] = "status";
constexpr char kStatusOk[] = "ok";
constexpr char kStatusFailed[] = "failed";
constexpr char kExitCode[] = "exit_code";
constexpr char kError[] = "error";
constexpr char kCyclesByType[] = "cycles_by_type";
constexpr char kCyclesByBound[] = "cycles_by_bound";
constexpr char kWallSeconds[] = "wall_s";   // timing lines only
constexpr char kPortBeforeFormat2[] = "port"; // ports[].name in lines written before run format 2
using report::run_json::kAccelerator;
using report::run_json::kMemory;
using report::run_json::kNpuActiveCycles;
using report::run_json::kPmu;
using report::run_json::kName;
using report::run_json::kPorts;
using report::run_json::kReadBytes;
using report::run_json::kTimeSeconds;
using report::run_json::kTotalCycles;
using report::run_json::kWriteBytes;
} // namespace results_json

// The result line of a point (no trailing newline). `sweepPoints` is the size of the whole
// sweep (not of a shard), so that merging can tell which points are missing.
std::string resultLine(const Point& point, size_t sweepPoints, const PointOutcome& outcome);
// The timing line of a point: id, index and wall seconds.
std::string timingLine(const Point& point, const PointOutcome& outcome);
// The timing file that goes with a results file.
std::string timingPath(const std::string& resultsPath);

// One stored line.
struct ResultRecord {
  std::string line;               // as stored, without the newline
  nlohmann::ordered_json json;
  std::string id;
  size_t index = 0;
  size_t sweepPoints = 0;
  bool ok = false;
};

// The complete lines of a results file.
struct ResultsFile {
  std::vector<ResultRecord> records;  // file order
  uint64_t completeBytes = 0;         // bytes up to the end of the last complete line
  bool truncatedTail = false;         // a partial last line (a killed writer) was dropped
};

// Reads a results file, dropping a partial last line. Throws InputError naming the file and
// byte offset of any other line that is not a result record.
ResultsFile readResults(const std::string& path);

// Appends result lines to a JSONL file. Contract: each line goes out in one write(2) on an
// O_APPEND descriptor, so that a sweep killed at any moment leaves whole lines (at worst a
// partial last one, which readResults and resuming drop); an exclusive flock keeps a second
// sweep from writing the same file.
class ResultsAppender {
public:
  // resume: keep the complete lines already in the file (see existing()); otherwise start empty.
  ResultsAppender(const std::string& path, bool resume);
  ~ResultsAppender();
  ResultsAppender(const ResultsAppender&) = delete;
  ResultsAppender& operator=(const ResultsAppender&) = delete;

  const ResultsFile& existing() const { return existing_; }
  void append(const std::string& line);
  // Removes the kept lines `drop` selects from the file (rewritten atomically, then locked again)
  // and from existing(); returns how many. For resuming with failed points run again.
  size_t dropRecords(const std::function<bool(const ResultRecord&)>& drop);

private:
  std::string path_;
  int fd_ = -1;
  ResultsFile existing_;
};

// Several results files (e.g. shards) joined: one record per point id, in index order.
struct MergedResults {
  std::vector<ResultRecord> records;         // sorted by index, then id
  std::vector<std::string> duplicates;       // ids stored more than once with the same results
  std::vector<std::string> conflicts;        // ids stored more than once with different results
  std::vector<size_t> missing;               // indices below sweepPoints that no file holds
  size_t sweepPoints = 0;
  std::vector<std::string> truncatedFiles;   // files whose partial last line was dropped
};

// Throws InputError when the files come from sweeps of different sizes.
MergedResults mergeResults(const std::vector<std::string>& files);

// A result line without a wall time (the last member of lines written by npusim 0.1.0 before
// timings moved to the timing file): byte for byte the same for the same point in any two runs.
std::string stableText(const std::string& line);

} // namespace npusim::sweep
