// SPDX-License-Identifier: Apache-2.0
#include "harness/sweep/sweep.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_set>

#include "harness/process/process_pool.h"
#include "harness/sweep/layer_breakdown.h"
#include "harness/sweep/point_runner.h"
#include "harness/sweep/progress.h"
#include "harness/sweep/results_file.h"

namespace npusim::sweep {
namespace {

constexpr size_t kListedIds = 10;

std::string describeParams(const ParamSet& params) {
  std::string text;
  for (const Param& p : params) {
    text += (text.empty() ? "" : " ") + p.key + "=" + p.text;
  }
  return text.empty() ? "(model's configuration)" : text;
}

// Appends finished points to the results file in point order (a point waits until every earlier
// one of the run is written), their wall times to the timing file as they finish, and keeps the
// progress display current.
class SweepObserver : public RunObserver {
public:
  SweepObserver(ResultsAppender& out, std::ostream& timing, const std::vector<Point>& todo, size_t sweepPoints,
                ProgressMeter& meter, size_t done, size_t failed)
      : out_(out), timing_(timing), sweepPoints_(sweepPoints), meter_(meter), done_(done), failed_(failed) {
    for (const Point& p : todo) order_.push_back(p.index);
  }

  void finished(const Point& point, const PointOutcome& outcome) override {
    timing_ << timingLine(point, outcome) << '\n' << std::flush;
    pending_[point.index] = withBreakdown(resultLine(point, sweepPoints_, outcome), point, outcome);
    while (next_ < order_.size() && pending_.count(order_[next_]) > 0) {
      out_.append(pending_[order_[next_]]);
      pending_.erase(order_[next_]);
      ++next_;
    }
    ++done_;
    failed_ += outcome.ok ? 0 : 1;
    meter_.update(done_, failed_);
  }
  void tick() override { meter_.update(done_, failed_); }

  size_t done() const { return done_; }
  size_t failed() const { return failed_; }

private:
  // The result line with the point's cycles per layer type and per bound (ok points).
  std::string withBreakdown(const std::string& line, const Point& point, const PointOutcome& outcome) {
    if (!outcome.ok) return line;
    auto it = types_.find(point.model.path);
    if (it == types_.end()) it = types_.emplace(point.model.path, operationTypes(point.model.path)).first;
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(line);
    j[results_json::kCyclesByType] = cyclesByType(outcome.result, it->second);
    j[results_json::kCyclesByBound] = cyclesByBound(outcome.result);
    return j.dump();
  }

  ResultsAppender& out_;
  std::ostream& timing_;
  size_t sweepPoints_;
  ProgressMeter& meter_;
  size_t done_, failed_;
  std::vector<size_t> order_;
  size_t next_ = 0;
  std::map<size_t, std::string> pending_;
  std::map<std::string, OperationTypes> types_;   // per model path
};

std::string itemText(const std::string& id) { return id; }
std::string itemText(size_t index) { return std::to_string(index); }

// The first kListedIds items, comma-separated.
template <typename List>
std::string firstItems(const List& items) {
  std::string text;
  for (size_t i = 0; i < items.size() && i < kListedIds; ++i) {
    text += (i == 0 ? "" : ", ") + itemText(items[i]);
  }
  return text + (items.size() > kListedIds ? ", ..." : "");
}

} // namespace

std::string defaultResultsPath(const std::string& spec, const Shard& shard) {
  const std::string stem = std::filesystem::path(spec).stem().string();
  return shard.count == 1 ? stem + ".jsonl"
                          : stem + ".shard-" + std::to_string(shard.index) + "-of-" + std::to_string(shard.count) +
                                ".jsonl";
}

int runSweep(const SweepOptions& options, std::ostream& log) {
  // 1. Expand the spec and select the shard's points.
  const SweepSpec spec = loadSpec(options.spec);
  std::vector<Point> selected;
  for (const Point& p : spec.points) {
    if (options.shard.contains(p)) {
      selected.push_back(p);
    }
  }
  // 2. Open the results file; on resume, skip the points it already holds.
  const std::string outPath = options.out.empty() ? defaultResultsPath(options.spec, options.shard) : options.out;
  ResultsAppender out(outPath, options.resume);
  std::ofstream timing(timingPath(outPath), options.resume ? std::ios::app : std::ios::trunc);
  std::unordered_set<std::string> selectedIds;
  for (const Point& p : selected) {
    selectedIds.insert(p.id);
  }
  // --retry-failed: this run's failed points go from the file and run again.
  const size_t retried = options.retryFailed ? out.dropRecords([&](const ResultRecord& r) {
    return !r.ok && selectedIds.count(r.id) > 0;
  })
                                             : 0;
  std::unordered_set<std::string> doneIds;
  size_t doneFailed = 0, foreign = 0;
  for (const ResultRecord& r : out.existing().records) {
    if (selectedIds.count(r.id) == 0) {
      ++foreign;
    } else if (doneIds.insert(r.id).second && !r.ok) {
      ++doneFailed;
    }
  }
  std::vector<Point> todo;
  for (const Point& p : selected) {
    if (doneIds.count(p.id) == 0) {
      todo.push_back(p);
    }
  }
  const unsigned jobs = options.jobs == 0 ? process::availableCores() : options.jobs;
  log << "sweep: " << options.spec << ": " << spec.points.size() << " points";
  if (options.shard.count > 1) {
    log << ", shard " << options.shard.index << '/' << options.shard.count << ": " << selected.size();
  }
  log << "; " << doneIds.size() << " already in " << outPath << ", " << todo.size() << " to run with " << jobs
      << " processes";
  if (options.retryFailed) log << " (" << retried << " of them failed before and run again)";
  log << '\n';
  if (out.existing().truncatedTail) {
    log << "sweep: dropped a partial last line of " << outPath << " (an interrupted write)\n";
  }
  if (foreign > 0) {
    log << "sweep: warning: " << outPath << " holds " << foreign << " lines of points that this "
        << (options.shard.count > 1 ? "shard of the " : "") << "spec does not have\n";
  }

  // 3. Run the rest in parallel processes.
  const auto start = std::chrono::steady_clock::now();
  ProgressMeter meter(log, selected.size(), doneIds.size(), options.terminal);
  SweepObserver observer(out, timing, todo, spec.points.size(), meter, doneIds.size(), doneFailed);
  RunnerOptions runner;
  runner.executable = options.executable;
  runner.inProcess = options.inProcess;
  runner.jobs = jobs;
  runner.timeoutSeconds = options.timeoutSeconds;
  runPoints(todo, runner, observer);
  meter.finish(observer.done(), observer.failed());
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.2f s (%.1f points/s)", wall, wall > 0 ? double(todo.size()) / wall : 0.0);
  log << "sweep: ran " << todo.size() << " points in " << rate << "; " << observer.done() << '/' << selected.size()
      << " done, " << observer.failed() << " failed; results in " << outPath << " (wall times in " << timingPath(outPath) << ")\n";
  return observer.failed() > 0 ? 1 : 0;
}

void printDryRun(const SweepSpec& spec, const Shard& shard, std::ostream& out, size_t count) {
  std::vector<const Point*> selected;
  for (const Point& p : spec.points) {
    if (shard.contains(p)) {
      selected.push_back(&p);
    }
  }
  out << spec.file << ": " << spec.points.size() << " points (models: " << spec.models.size()
      << ", parameter sets: " << spec.paramSets.size() << ")\n";
  if (shard.count > 1) {
    out << "shard " << shard.index << '/' << shard.count << ": " << selected.size() << " points\n";
  }
  for (size_t i = 0; i < selected.size() && i < count; ++i) {
    const Point& p = *selected[i];
    out << "  #" << p.index << "  " << p.id << "  " << p.model.label << " (" << p.model.systemConfig << ", "
        << p.model.memoryMode << ")  " << describeParams(p.params) << '\n';
  }
  if (selected.size() > count) {
    out << "  ... " << selected.size() - count << " more\n";
  }
}

int mergeResultFiles(const std::vector<std::string>& files, std::ostream& out, std::ostream& log) {
  const MergedResults merged = mergeResults(files);
  for (const ResultRecord& r : merged.records) {
    out << r.line << '\n';
  }
  out.flush();
  log << "sweep-merge: " << files.size() << " files, " << merged.records.size() << " of " << merged.sweepPoints
      << " points, " << merged.missing.size() << " missing, " << merged.duplicates.size() << " duplicate, "
      << merged.conflicts.size() << " conflicting\n";
  for (const std::string& f : merged.truncatedFiles) {
    log << "sweep-merge: dropped a partial last line of " << f << '\n';
  }
  if (!merged.missing.empty()) {
    log << "sweep-merge: missing point indices: " << firstItems(merged.missing) << '\n';
  }
  if (!merged.duplicates.empty()) {
    log << "sweep-merge: duplicate points (same results, kept once): " << firstItems(merged.duplicates) << '\n';
  }
  if (!merged.conflicts.empty()) {
    log << "sweep-merge: conflicting points (different results; kept the first): " << firstItems(merged.conflicts)
        << '\n';
  }
  return merged.missing.empty() && merged.conflicts.empty() ? 0 : 1;
}

} // namespace npusim::sweep
