// SPDX-License-Identifier: Apache-2.0
#include "harness/regress/regress.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "harness/sweep/json_input.h"
#include "harness/process/process_pool.h"
#include "harness/sweep/point_runner.h"
#include "sim/common/text_table.h"
#include "sim/common/error.h"

namespace npusim::regress {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

constexpr std::string_view kPmuPrefix = "pmu.";
constexpr const char* kDescription =
    "npusim cycle regression baseline: expected cycles and PMU counts per fixture and configuration. "
    "Check with `npusim regress`; re-record with `npusim regress --update` (add --spec SPEC.json to change the "
    "set of entries).";

// Collects each point's outcome by its index.
class Collector : public sweep::RunObserver {
public:
  explicit Collector(std::vector<sweep::PointOutcome>& outcomes) : outcomes_(outcomes) {}
  void finished(const sweep::Point& point, const sweep::PointOutcome& outcome) override {
    outcomes_[point.index] = outcome;
  }

private:
  std::vector<sweep::PointOutcome>& outcomes_;
};

fs::path baselineDir(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

// --fixtures, else $NPUSIM_FIXTURES, else the baseline's own root; empty when none is known.
fs::path fixturesRoot(const RegressOptions& options, const std::string& stored) {
  if (!options.fixtures.empty()) return options.fixtures;
  const char* env = std::getenv("NPUSIM_FIXTURES");
  if (env != nullptr && *env != '\0') return env;
  if (stored.empty()) return {};
  return (fs::path(stored).is_absolute() ? fs::path(stored) : baselineDir(options.baseline) / stored).lexically_normal();
}

std::string paramsText(const sweep::ParamSet& params) {
  std::string text;
  for (const sweep::Param& p : params) text += (text.empty() ? "" : ", ") + p.key + "=" + p.text;
  return text;
}

// The model's label, or its fixture path when the label is an absolute path; then the
// configuration (unless the label names it) and the parameters.
std::string entryName(const sweep::Point& p, const std::string& fixture) {
  const auto& m = p.model;
  std::string name = fs::path(m.label).is_absolute() && !fixture.empty() ? fixture : m.label;
  if (name.find(m.systemConfig) == std::string::npos || name.find(m.memoryMode) == std::string::npos) {
    name += " (" + m.systemConfig + ", " + m.memoryMode + ")";
  }
  return p.params.empty() ? name : name + " [" + paramsText(p.params) + "]";
}

sweep::Point pointOf(const BaselineEntry& e, const fs::path& root, size_t index) {
  sweep::Point p;
  p.index = index;
  p.model.label = e.name;
  p.model.path = e.fixture.empty() ? std::string() : (root / e.fixture).string();
  p.model.systemConfig = e.systemConfig;
  p.model.memoryMode = e.memoryMode;
  p.params = e.params;
  p.id = sweep::pointId(p.model, p.params);
  return p;
}

std::vector<std::pair<std::string, int64_t>> countsOf(const ordered_json& run) {
  std::vector<std::pair<std::string, int64_t>> counts{{"total_cycles", run.at("total_cycles").get<int64_t>()},
                                                      {"npu_active_cycles", run.at("npu_active_cycles").get<int64_t>()}};
  for (const auto& item : run.at("pmu").items()) {
    counts.emplace_back(std::string(kPmuPrefix) + item.key(), item.value().get<int64_t>());
  }
  return counts;
}

std::vector<sweep::PointOutcome> simulate(const std::vector<sweep::Point>& points, const RegressOptions& options) {
  std::vector<sweep::PointOutcome> outcomes(points.size());
  Collector collector(outcomes);
  sweep::RunnerOptions runner;
  runner.executable = options.executable;
  runner.inProcess = options.inProcess;
  runner.jobs = options.jobs == 0 ? process::availableCores() : options.jobs;
  sweep::runPoints(points, runner, collector);
  return outcomes;
}

BaselineEntry parseEntry(const sweep::JsonNode& node) {
  node.allowOnly({"name", "fixture", "system_config", "memory_mode", "params", "npusim_version", "accelerator",
                  "total_cycles", "npu_active_cycles", "pmu"});
  BaselineEntry e;
  e.name = node.member("name").string();
  const sweep::JsonNode fixture = node.member("fixture");
  e.fixture = fixture.value().is_null() ? std::string() : fixture.string();
  e.systemConfig = node.member("system_config").string();
  e.memoryMode = node.member("memory_mode").string();
  for (const auto& [key, value] : node.member("params").members()) {
    e.params.push_back(sweep::paramFromJson(key, value.value(), value.file(), value.path()));
  }
  e.npusimVersion = node.member("npusim_version").string();
  e.accelerator = node.member("accelerator").string();
  e.counts.emplace_back("total_cycles", node.member("total_cycles").integer());
  e.counts.emplace_back("npu_active_cycles", node.member("npu_active_cycles").integer());
  for (const auto& [event, value] : node.member("pmu").members()) {
    e.counts.emplace_back(std::string(kPmuPrefix) + event, value.integer());
  }
  return e;
}

ordered_json entryJson(const BaselineEntry& e) {
  ordered_json j;
  j["name"] = e.name;
  j["fixture"] = e.fixture.empty() ? ordered_json() : ordered_json(e.fixture);
  j["system_config"] = e.systemConfig;
  j["memory_mode"] = e.memoryMode;
  ordered_json params = ordered_json::object();
  for (const sweep::Param& p : e.params) params[p.key] = p.value;
  j["params"] = params;
  j["npusim_version"] = e.npusimVersion;
  j["accelerator"] = e.accelerator;
  ordered_json pmu = ordered_json::object();
  for (const auto& [name, value] : e.counts) {
    if (name.rfind(kPmuPrefix, 0) == 0) {
      pmu[name.substr(kPmuPrefix.size())] = value;
    } else {
      j[name] = value;
    }
  }
  j["pmu"] = pmu;
  return j;
}

std::string deltaText(int64_t expected, int64_t actual) {
  char buf[64];
  const int64_t d = actual - expected;
  if (expected != 0) {
    std::snprintf(buf, sizeof buf, "%+lld (%+.2f%%)", static_cast<long long>(d), 100.0 * double(d) / double(expected));
  } else {
    std::snprintf(buf, sizeof buf, "%+lld", static_cast<long long>(d));
  }
  return buf;
}

// Rows "count, expected, ->, actual, delta" for one entry: every count whose value differs or
// that exists on one side only.
std::vector<std::vector<std::string>> differences(const BaselineEntry& e,
                                                  const std::vector<std::pair<std::string, int64_t>>& actual) {
  std::vector<std::vector<std::string>> rows;
  std::map<std::string, int64_t> now(actual.begin(), actual.end());
  std::set<std::string> expectedNames;
  for (const auto& [name, value] : e.counts) {
    expectedNames.insert(name);
    const auto it = now.find(name);
    if (it == now.end()) {
      rows.push_back({name, std::to_string(value), "->", "-", "no longer reported"});
    } else if (it->second != value) {
      rows.push_back({name, std::to_string(value), "->", std::to_string(it->second), deltaText(value, it->second)});
    }
  }
  for (const auto& [name, value] : actual) {
    if (expectedNames.count(name) == 0) {
      rows.push_back({name, "-", "->", std::to_string(value), "new count"});
    }
  }
  return rows;
}

// The fixture path relative to `root`; throws InputError when the model is not under it.
std::string relativeFixture(const sweep::Point& p, const fs::path& root, const std::string& spec) {
  if (p.model.path.empty()) return "";
  if (root.empty()) {
    throwForKey(spec, p.model.label, "a fixtures root is needed: pass --fixtures DIR or set NPUSIM_FIXTURES");
  }
  const fs::path rel = fs::path(p.model.path).lexically_relative(fs::absolute(root).lexically_normal());
  if (rel.empty() || *rel.begin() == "..") {
    throwForKey(spec, p.model.label, "model " + p.model.path + " is not under the fixtures root " + root.string());
  }
  return rel.string();
}

std::string storedRoot(const fs::path& root, const std::string& baselinePath) {
  if (root.empty()) return "";
  const fs::path rel = fs::absolute(root).lexically_normal().lexically_relative(
      fs::absolute(baselineDir(baselinePath)).lexically_normal());
  return rel.empty() ? fs::absolute(root).lexically_normal().string() : rel.string();
}

} // namespace

Baseline readBaseline(const std::string& path) {
  const ordered_json root = sweep::readJsonFile(path, "regression baseline");
  const sweep::JsonNode node(root, path);
  node.allowOnly({"description", "npusim_version", "fixtures", "entries"});
  Baseline b;
  b.npusimVersion = node.member("npusim_version").string();
  b.fixtures = node.member("fixtures").value().is_null() ? std::string() : node.member("fixtures").string();
  std::set<std::string> names;
  for (const sweep::JsonNode& e : node.member("entries").elements()) {
    b.entries.push_back(parseEntry(e));
    if (!names.insert(b.entries.back().name).second) {
      e.member("name").fail("two entries have this name");
    }
  }
  return b;
}

void writeBaseline(const std::string& path, const Baseline& baseline) {
  ordered_json j;
  j["description"] = kDescription;
  j["npusim_version"] = baseline.npusimVersion;
  j["fixtures"] = baseline.fixtures.empty() ? ordered_json() : ordered_json(baseline.fixtures);
  ordered_json entries = ordered_json::array();
  for (const BaselineEntry& e : baseline.entries) entries.push_back(entryJson(e));
  j["entries"] = entries;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << j.dump(2) << '\n';
    if (!out) {
      InputError::Location loc;
      loc.file = tmp;
      throw InputError(loc, "cannot write the baseline");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    InputError::Location loc;
    loc.file = path;
    throw InputError(loc, "cannot replace the baseline: " + ec.message());
  }
}

int runRegress(const RegressOptions& options, std::ostream& out) {
  // 1. Entries whose fixture is present run; the others are skipped.
  const Baseline baseline = readBaseline(options.baseline);
  const fs::path root = fixturesRoot(options, baseline.fixtures);
  std::vector<sweep::Point> points;
  std::vector<const BaselineEntry*> run;
  std::vector<std::pair<std::string, std::string>> skipped;
  for (const BaselineEntry& e : baseline.entries) {
    std::error_code ec;
    if (!e.fixture.empty() && (root.empty() || !fs::is_regular_file(root / e.fixture, ec))) {
      skipped.emplace_back(e.name, root.empty() ? "no fixtures root (--fixtures or NPUSIM_FIXTURES)"
                                                : (root / e.fixture).string() + " absent");
      continue;
    }
    points.push_back(pointOf(e, root, points.size()));
    run.push_back(&e);
  }
  out << "regress: " << options.baseline << " (recorded by npusim " << baseline.npusimVersion << ", this is npusim "
      << NPUSIM_VERSION << "): " << baseline.entries.size() << " entries, " << run.size() << " to run, "
      << skipped.size() << " skipped; fixtures: " << (root.empty() ? std::string("(none)") : root.string()) << '\n';

  // 2. Simulate; print each entry's changed counts (expected -> actual).
  const std::vector<sweep::PointOutcome> outcomes = simulate(points, options);
  size_t changedEntries = 0, changedCounts = 0, compared = 0;
  for (size_t i = 0; i < run.size(); ++i) {
    const BaselineEntry& e = *run[i];
    std::vector<std::vector<std::string>> rows;
    if (!outcomes[i].ok) {
      rows.push_back({"simulation", "ok", "->", "failed", outcomes[i].error});
    } else {
      rows = differences(e, countsOf(outcomes[i].result));
      compared += e.counts.size();
    }
    if (rows.empty()) {
      continue;
    }
    out << (changedEntries == 0 ? "changed counts (expected -> actual):\n" : "") << "  " << e.name << '\n';
    writeAligned(out, rows, "    ");
    ++changedEntries;
    changedCounts += rows.size();
  }
  // 3. Summary.
  if (!skipped.empty()) {
    out << "skipped (fixture absent):\n";
    for (const auto& [name, why] : skipped) out << "  " << name << ": " << why << '\n';
  }
  if (changedEntries > 0) {
    out << "regress: FAIL: " << changedCounts << " counts changed in " << changedEntries << " of " << run.size()
        << " entries (" << skipped.size() << " skipped); if the change is intended, re-record with `npusim regress "
        << "--update`\n";
    return 1;
  }
  out << "regress: OK: " << run.size() << " entries, " << compared << " counts unchanged (" << skipped.size()
      << " skipped)\n";
  return 0;
}

int updateBaseline(const RegressOptions& options, std::ostream& out) {
  // 1. The entries: the spec's points, or the existing baseline's entries.
  Baseline old;
  std::error_code ec;
  if (options.specs.empty() || fs::exists(options.baseline, ec)) {
    old = readBaseline(options.baseline);
  }
  const fs::path root = fixturesRoot(options, old.fixtures);
  std::vector<BaselineEntry> entries;
  std::vector<bool> present;
  std::set<std::string> names;
  for (const std::string& spec : options.specs) {
    for (const sweep::Point& p : sweep::loadSpec(spec).points) {
      BaselineEntry e;
      e.fixture = relativeFixture(p, root, spec);
      e.name = entryName(p, e.fixture);
      e.systemConfig = p.model.systemConfig;
      e.memoryMode = p.model.memoryMode;
      e.params = p.params;
      if (!names.insert(e.name).second) {
        throwForKey(spec, p.model.label, "two points give the entry name '" + e.name + "'");
      }
      entries.push_back(std::move(e));
      present.push_back(true);
    }
  }
  if (options.specs.empty()) {
    for (const BaselineEntry& e : old.entries) {
      entries.push_back(e);
      present.push_back(e.fixture.empty() || (!root.empty() && fs::is_regular_file(root / e.fixture, ec)));
    }
  }
  // 2. Simulate the present ones.
  std::vector<sweep::Point> points;
  std::vector<BaselineEntry*> run;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (present[i]) {
      points.push_back(pointOf(entries[i], root, points.size()));
      run.push_back(&entries[i]);
    } else {
      out << "regress: kept unchanged (fixture absent): " << entries[i].name << '\n';
    }
  }
  const std::vector<sweep::PointOutcome> outcomes = simulate(points, options);
  size_t failed = 0;
  for (size_t i = 0; i < run.size(); ++i) {
    if (!outcomes[i].ok) {
      out << "regress: " << run[i]->name << ": simulation failed: " << outcomes[i].error << '\n';
      ++failed;
      continue;
    }
    run[i]->counts = countsOf(outcomes[i].result);
    run[i]->accelerator = outcomes[i].result.at("config").at("accelerator").get<std::string>();
    run[i]->npusimVersion = NPUSIM_VERSION;
  }
  if (failed > 0) {
    out << "regress: " << failed << " simulations failed; " << options.baseline << " not written\n";
    return 1;
  }
  // 3. Write.
  Baseline updated;
  updated.npusimVersion = NPUSIM_VERSION;
  updated.fixtures = storedRoot(root, options.baseline);
  updated.entries = std::move(entries);
  writeBaseline(options.baseline, updated);
  out << "regress: wrote " << options.baseline << ": " << updated.entries.size() << " entries (" << run.size()
      << " recorded, " << updated.entries.size() - run.size() << " kept unchanged)\n";
  return 0;
}

} // namespace npusim::regress
