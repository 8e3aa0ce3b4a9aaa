// SPDX-License-Identifier: Apache-2.0
#include "harness/regress/regress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/process/process_pool.h"
#include "harness/report/run_json.h"
#include "harness/sweep/point_runner.h"
#include "sim/common/atomic_file.h"
#include "sim/common/error.h"
#include "sim/common/json_node.h"
#include "sim/common/sha256.h"
#include "sim/common/text_table.h"
#include "sim/config/text_file.h"
#include "sim/io/compiled_network.h"

namespace npusim::regress {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;
namespace run_json = report::run_json;

constexpr std::string_view kPmuPrefix = "pmu.";
constexpr const char* kDescription =
    "npusim cycle regression baseline: expected cycles and PMU counts per model and configuration, and the sha256 "
    "of each model's bytes. Check with `npusim regress`; re-record with `npusim regress --update` (add --spec "
    "SPEC.json to change the set of entries).";

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

// The file an entry simulates; empty for the demo network.
fs::path modelFile(const BaselineEntry& e, const fs::path& root, const std::string& baselinePath) {
  if (!e.fixture.empty()) return root.empty() ? fs::path() : root / e.fixture;
  if (!e.model.empty()) {
    return fs::path(e.model).is_absolute() ? fs::path(e.model) : (baselineDir(baselinePath) / e.model).lexically_normal();
  }
  return {};
}

bool isDemo(const BaselineEntry& e) { return e.fixture.empty() && e.model.empty(); }

std::string paramsText(const sweep::ParamSet& params) {
  std::string text;
  for (const sweep::Param& p : params) text += (text.empty() ? "" : ", ") + p.key + "=" + p.text;
  return text;
}

// The model's label, or its stored path when the label is an absolute path; then the
// configuration (unless the label names it) and the parameters.
std::string entryName(const sweep::Point& p, const std::string& stored) {
  const auto& m = p.model;
  std::string name = fs::path(m.label).is_absolute() && !stored.empty() ? stored : m.label;
  if (name.find(m.systemConfig) == std::string::npos || name.find(m.memoryMode) == std::string::npos) {
    name += " (" + m.systemConfig + ", " + m.memoryMode + ")";
  }
  return p.params.empty() ? name : name + " [" + paramsText(p.params) + "]";
}

sweep::Point pointOf(const BaselineEntry& e, const fs::path& file, size_t index) {
  sweep::Point p;
  p.index = index;
  p.model.label = e.name;
  p.model.path = file.empty() ? std::string() : fs::absolute(file).lexically_normal().string();
  p.model.systemConfig = e.systemConfig;
  p.model.memoryMode = e.memoryMode;
  p.params = e.params;
  p.id = sweep::pointId(p.model, p.params);
  return p;
}

std::vector<std::pair<std::string, int64_t>> countsOf(const ordered_json& run) {
  std::vector<std::pair<std::string, int64_t>> counts{
      {run_json::kTotalCycles, run.at(run_json::kTotalCycles).get<int64_t>()},
      {run_json::kNpuActiveCycles, run.at(run_json::kNpuActiveCycles).get<int64_t>()}};
  for (const auto& item : run.at(run_json::kPmu).items()) {
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

Tolerances parseTolerances(const JsonNode& node) {
  Tolerances t;
  for (const auto& [name, value] : node.members()) {
    if (!value.value().is_number()) {
      value.fail("expected a number (percent), got " + value.value().dump());
    }
    t[name] = checkedTolerance(value.value().get<double>(), value.file(), value.path());
  }
  return t;
}

ordered_json tolerancesJson(const Tolerances& t) {
  ordered_json j = ordered_json::object();
  for (const auto& [name, percent] : t) j[name] = percent;
  return j;
}

BaselineEntry parseEntry(const JsonNode& node, int64_t version) {
  if (version >= 2) {
    node.allowOnly({"name", "fixture", "model", "sha256", "optional", "system_config", "memory_mode", "params",
                    "tolerances", "npusim_version", "accelerator", "total_cycles", "npu_active_cycles", "pmu"});
  } else {
    node.allowOnly({"name", "fixture", "system_config", "memory_mode", "params", "npusim_version", "accelerator",
                    "total_cycles", "npu_active_cycles", "pmu"});
  }
  BaselineEntry e;
  e.name = node.member("name").string();
  if (node.has("fixture") && !node.member("fixture").value().is_null()) e.fixture = node.member("fixture").string();
  if (node.has("model") && !node.member("model").value().is_null()) e.model = node.member("model").string();
  if (!e.fixture.empty() && !e.model.empty()) {
    node.member("model").fail("give \"fixture\" or \"model\", not both");
  }
  if (node.has("sha256") && !node.member("sha256").value().is_null()) {
    e.sha256 = node.member("sha256").string();
    if (e.sha256.size() != 64 || e.sha256.find_first_not_of("0123456789abcdef") != std::string::npos) {
      node.member("sha256").fail("expected 64 lower-case hex digits");
    }
  }
  if (node.has("optional")) e.optional = node.member("optional").boolean();
  e.systemConfig = node.member("system_config").string();
  e.memoryMode = node.member("memory_mode").string();
  for (const auto& [key, value] : node.member("params").members()) {
    e.params.push_back(sweep::paramFromJson(key, value.value(), value.file(), value.path()));
  }
  if (node.has("tolerances")) e.tolerances = parseTolerances(node.member("tolerances"));
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
  if (!e.model.empty()) {
    j["model"] = e.model;
  } else {
    j["fixture"] = e.fixture.empty() ? ordered_json() : ordered_json(e.fixture);
  }
  if (!e.sha256.empty()) j["sha256"] = e.sha256;
  if (e.optional) j["optional"] = true;
  j["system_config"] = e.systemConfig;
  j["memory_mode"] = e.memoryMode;
  ordered_json params = ordered_json::object();
  for (const sweep::Param& p : e.params) params[p.key] = p.value;
  j["params"] = params;
  if (!e.tolerances.empty()) j["tolerances"] = tolerancesJson(e.tolerances);
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

std::string percentText(double percent) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g%%", percent);
  return buf;
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

// One count that differs from the baseline.
struct Change {
  std::string count;
  std::optional<int64_t> expected, actual;   // absent: the count exists on one side only
  double tolerancePercent = 0;
  bool withinTolerance = false;
};

// What happened to one entry.
struct EntryOutcome {
  enum class Status { kPassed, kFailed, kSkipped, kError };
  Status status = Status::kPassed;
  std::string message;          // skipped: why; error: the simulation's error; failed: summary
  std::vector<Change> changes;  // every differing count, within tolerance or not
  size_t compared = 0;
  double wallSeconds = 0;
};

std::string statusText(EntryOutcome::Status s) {
  switch (s) {
    case EntryOutcome::Status::kPassed: return "passed";
    case EntryOutcome::Status::kFailed: return "failed";
    case EntryOutcome::Status::kSkipped: return "skipped";
    case EntryOutcome::Status::kError: return "error";
  }
  return "";
}

double toleranceFor(const std::string& count, const BaselineEntry& e, const Baseline& b, double global) {
  if (const auto it = e.tolerances.find(count); it != e.tolerances.end()) return it->second;
  if (const auto it = b.tolerances.find(count); it != b.tolerances.end()) return it->second;
  return global;
}

bool within(int64_t expected, int64_t actual, double percent) {
  const double allowed = std::fabs(double(expected)) * percent / 100.0;
  return std::fabs(double(actual) - double(expected)) <= allowed;
}

std::vector<Change> differences(const BaselineEntry& e, const Baseline& b, double global,
                                const std::vector<std::pair<std::string, int64_t>>& actual) {
  std::vector<Change> changes;
  std::map<std::string, int64_t> now(actual.begin(), actual.end());
  std::set<std::string> expectedNames;
  for (const auto& [name, value] : e.counts) {
    expectedNames.insert(name);
    const auto it = now.find(name);
    if (it == now.end()) {
      changes.push_back({name, value, std::nullopt, 0, false});
    } else if (it->second != value) {
      const double t = toleranceFor(name, e, b, global);
      changes.push_back({name, value, it->second, t, within(value, it->second, t)});
    }
  }
  for (const auto& [name, value] : actual) {
    if (expectedNames.count(name) == 0) changes.push_back({name, std::nullopt, value, 0, false});
  }
  return changes;
}

std::vector<std::string> changeRow(const Change& c) {
  const std::string expected = c.expected ? std::to_string(*c.expected) : "-";
  const std::string actual = c.actual ? std::to_string(*c.actual) : "-";
  std::string delta = !c.actual ? "no longer reported" : !c.expected ? "new count" : deltaText(*c.expected, *c.actual);
  if (c.expected && c.actual && c.tolerancePercent > 0) {
    delta += (c.withinTolerance ? ", within " : ", beyond ") + percentText(c.tolerancePercent);
  }
  return {c.count, expected, "->", actual, delta};
}

std::string xmlEscaped(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 allows no control characters but tab, newline and carriage return.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string changesText(const std::vector<Change>& changes) {
  std::vector<std::vector<std::string>> rows;
  for (const Change& c : changes) rows.push_back(changeRow(c));
  std::ostringstream text;
  writeAligned(text, rows, "");
  return text.str();
}

std::string junitXml(const std::vector<const BaselineEntry*>& entries, const std::vector<EntryOutcome>& outcomes) {
  size_t failures = 0, errors = 0, skipped = 0;
  double total = 0;
  for (const EntryOutcome& o : outcomes) {
    failures += o.status == EntryOutcome::Status::kFailed;
    errors += o.status == EntryOutcome::Status::kError;
    skipped += o.status == EntryOutcome::Status::kSkipped;
    total += o.wallSeconds;
  }
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<testsuites name=\"npusim regress\" tests=\"" << entries.size() << "\" failures=\"" << failures
    << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << total << "\">\n"
    << "  <testsuite name=\"npusim regress\" tests=\"" << entries.size() << "\" failures=\"" << failures
    << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << total << "\">\n";
  for (size_t i = 0; i < entries.size(); ++i) {
    const EntryOutcome& o = outcomes[i];
    x << "    <testcase classname=\"npusim.regress\" name=\"" << xmlEscaped(entries[i]->name) << "\" time=\""
      << o.wallSeconds << "\"";
    switch (o.status) {
      case EntryOutcome::Status::kPassed: x << "/>\n"; continue;
      case EntryOutcome::Status::kSkipped:
        x << ">\n      <skipped message=\"" << xmlEscaped(o.message) << "\"/>\n";
        break;
      case EntryOutcome::Status::kError:
        x << ">\n      <error message=\"" << xmlEscaped(o.message) << "\"/>\n";
        break;
      case EntryOutcome::Status::kFailed:
        x << ">\n      <failure message=\"" << xmlEscaped(o.message) << "\">" << xmlEscaped(changesText(o.changes))
          << "</failure>\n";
        break;
    }
    x << "    </testcase>\n";
  }
  x << "  </testsuite>\n</testsuites>\n";
  return x.str();
}

ordered_json reportJson(const std::string& baselinePath, const std::vector<const BaselineEntry*>& entries,
                        const std::vector<EntryOutcome>& outcomes, const std::vector<std::string>& files,
                        double global, bool failed) {
  ordered_json j;
  j["format_version"] = 1;
  j["baseline"] = baselinePath;
  j["result"] = failed ? "fail" : "pass";
  j["tolerance_percent"] = global;
  ordered_json list = ordered_json::array();
  for (size_t i = 0; i < entries.size(); ++i) {
    const EntryOutcome& o = outcomes[i];
    ordered_json e;
    e["name"] = entries[i]->name;
    e["model"] = files[i].empty() ? ordered_json() : ordered_json(files[i]);
    e["status"] = statusText(o.status);
    if (!o.message.empty()) e["message"] = o.message;
    e["counts_compared"] = o.compared;
    ordered_json changes = ordered_json::array();
    for (const Change& c : o.changes) {
      ordered_json cj;
      cj["count"] = c.count;
      cj["expected"] = c.expected ? ordered_json(*c.expected) : ordered_json();
      cj["actual"] = c.actual ? ordered_json(*c.actual) : ordered_json();
      cj["tolerance_percent"] = c.tolerancePercent;
      cj["within_tolerance"] = c.withinTolerance;
      changes.push_back(cj);
    }
    e["changes"] = changes;
    list.push_back(e);
  }
  j["entries"] = list;
  return j;
}

// Where an entry's model is stored: under the fixtures root as "fixture", else as "model"
// relative to the baseline's folder (absolute when the spec named it absolutely).
void storeModelPath(const sweep::Point& p, const fs::path& root, const std::string& baselinePath, BaselineEntry& e) {
  if (p.model.path.empty()) return;
  const fs::path file = fs::path(p.model.path);
  if (!root.empty()) {
    const fs::path rel = file.lexically_relative(fs::absolute(root).lexically_normal());
    if (!rel.empty() && *rel.begin() != "..") {
      e.fixture = rel.string();
      return;
    }
  }
  if (fs::path(p.model.label).is_absolute()) {
    e.model = file.string();
    return;
  }
  e.model = file.lexically_relative(fs::absolute(baselineDir(baselinePath)).lexically_normal()).string();
}

std::string storedRoot(const fs::path& root, const std::string& baselinePath) {
  if (root.empty()) return "";
  const fs::path rel = fs::absolute(root).lexically_normal().lexically_relative(
      fs::absolute(baselineDir(baselinePath)).lexically_normal());
  return rel.empty() ? fs::absolute(root).lexically_normal().string() : rel.string();
}

std::string modelKey(const BaselineEntry& e, size_t index) {
  return "entries[" + std::to_string(index) + "]." + (e.fixture.empty() ? "model" : "fixture");
}

} // namespace

double checkedTolerance(double percent, const std::string& file, const std::string& key) {
  if (!std::isfinite(percent) || percent < 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", percent);
    throwForKey(file, key, std::string("a tolerance is a percentage >= 0, got ") + buf);
  }
  return percent;
}

Baseline readBaseline(const std::string& path) {
  const ordered_json root = parseJsonText(config::readTextFile(path, "regression baseline"), path);
  const JsonNode node(root, path);
  Baseline b;
  b.formatVersion = 1;
  if (node.has("format_version")) {
    b.formatVersion = node.member("format_version").integer();
    if (b.formatVersion > kFormatVersion) {
      node.member("format_version")
          .fail("format " + std::to_string(b.formatVersion) + " was written by a newer npusim; this npusim (" +
                NPUSIM_VERSION + ") reads formats 1 to " + std::to_string(kFormatVersion));
    }
    if (b.formatVersion < 1) node.member("format_version").fail("expected a format version >= 1");
  }
  if (b.formatVersion >= 2) {
    node.allowOnly({"format_version", "description", "npusim_version", "fixtures", "tolerances", "entries"});
  } else {
    node.allowOnly({"description", "npusim_version", "fixtures", "entries"});
  }
  b.npusimVersion = node.member("npusim_version").string();
  b.fixtures = node.member("fixtures").value().is_null() ? std::string() : node.member("fixtures").string();
  if (node.has("tolerances")) b.tolerances = parseTolerances(node.member("tolerances"));
  std::set<std::string> names;
  for (const JsonNode& e : node.member("entries").elements()) {
    b.entries.push_back(parseEntry(e, b.formatVersion));
    if (!names.insert(b.entries.back().name).second) {
      e.member("name").fail("two entries have this name");
    }
  }
  return b;
}

void writeBaseline(const std::string& path, const Baseline& baseline) {
  ordered_json j;
  j["format_version"] = kFormatVersion;
  j["description"] = kDescription;
  j["npusim_version"] = baseline.npusimVersion;
  j["fixtures"] = baseline.fixtures.empty() ? ordered_json() : ordered_json(baseline.fixtures);
  if (!baseline.tolerances.empty()) j["tolerances"] = tolerancesJson(baseline.tolerances);
  ordered_json entries = ordered_json::array();
  for (const BaselineEntry& e : baseline.entries) entries.push_back(entryJson(e));
  j["entries"] = entries;
  writeFileAtomically(path, j.dump(2) + "\n");
}

int runRegress(const RegressOptions& options, std::ostream& out) {
  // 1. Which entries run: a fixture entry without a fixtures tree and a missing optional model
  //    are skipped; any other missing model is an input error.
  const Baseline baseline = readBaseline(options.baseline);
  const fs::path root = fixturesRoot(options, baseline.fixtures);
  std::error_code ec;
  const bool treePresent = !root.empty() && fs::is_directory(root, ec);
  std::vector<const BaselineEntry*> all;
  std::vector<EntryOutcome> outcomes(baseline.entries.size());
  std::vector<std::string> files(baseline.entries.size());
  std::vector<sweep::Point> points;
  std::vector<size_t> pointEntry;
  std::vector<std::pair<std::string, std::string>> digestErrors;  // baseline key, what differs
  size_t skipped = 0;
  for (size_t i = 0; i < baseline.entries.size(); ++i) {
    const BaselineEntry& e = baseline.entries[i];
    all.push_back(&e);
    const fs::path file = modelFile(e, root, options.baseline);
    files[i] = file.string();
    const bool present = isDemo(e) || (!file.empty() && fs::is_regular_file(file, ec));
    if (!present) {
      const std::string why = file.empty() ? "no fixtures root (--fixtures or NPUSIM_FIXTURES)" : file.string() + " absent";
      if (e.optional || (!e.fixture.empty() && !treePresent)) {
        outcomes[i].status = EntryOutcome::Status::kSkipped;
        outcomes[i].message = why;
        ++skipped;
        continue;
      }
      throwForKey(options.baseline, modelKey(e, i),
                  "model " + file.string() + " not found (entry '" + e.name +
                      "'); restore it, or mark the entry \"optional\": true to skip it when absent");
    }
    if (!e.sha256.empty()) {
      const std::string digest = sha256OfFile(file.string());
      if (digest != e.sha256) {
        outcomes[i].message = "model bytes differ from the recorded sha256";
        digestErrors.emplace_back(modelKey(e, i), "the bytes of " + file.string() + " differ from the baseline's (sha256 " +
                                                      digest.substr(0, 12) + "..., recorded " + e.sha256.substr(0, 12) +
                                                      "...)");
      }
    }
    pointEntry.push_back(i);
    points.push_back(pointOf(e, file, points.size()));
  }
  out << "regress: " << options.baseline << " (format " << baseline.formatVersion << ", recorded by npusim "
      << baseline.npusimVersion << ", this is npusim " << NPUSIM_VERSION << "): " << baseline.entries.size()
      << " entries, " << points.size() << " to run, " << skipped << " skipped; fixtures: "
      << (root.empty() ? std::string("(none)") : root.string()) << "; tolerance " << percentText(options.tolerancePercent)
      << '\n';

  // 2. Simulate; compare each count with its tolerance.
  const std::vector<sweep::PointOutcome> results = simulate(points, options);
  size_t failedEntries = 0, failedCounts = 0, toleratedCounts = 0, compared = 0;
  for (size_t k = 0; k < points.size(); ++k) {
    const size_t i = pointEntry[k];
    const BaselineEntry& e = baseline.entries[i];
    EntryOutcome& o = outcomes[i];
    o.wallSeconds = results[k].wallSeconds;
    if (!results[k].ok) {
      o.status = EntryOutcome::Status::kError;
      o.message = "simulation failed: " + results[k].error;
      ++failedEntries;
      continue;
    }
    o.changes = differences(e, baseline, options.tolerancePercent, countsOf(results[k].result));
    o.compared = e.counts.size();
    compared += o.compared;
    size_t beyond = 0;
    for (const Change& c : o.changes) {
      beyond += !c.withinTolerance;
      toleratedCounts += c.withinTolerance;
    }
    if (beyond > 0) {
      o.status = EntryOutcome::Status::kFailed;
      o.message = std::to_string(beyond) + " counts changed beyond tolerance" +
                  (o.message.empty() ? std::string() : "; " + o.message);
      ++failedEntries;
      failedCounts += beyond;
    } else if (!o.message.empty()) {
      o.status = EntryOutcome::Status::kError;  // the counts hold, but not for the recorded model
    }
  }

  // 3. The table: every entry with a changed count or a failed simulation.
  bool header = false;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const EntryOutcome& o = outcomes[i];
    if (o.status != EntryOutcome::Status::kError && o.changes.empty()) continue;
    out << (header ? "" : "changed counts (expected -> actual):\n") << "  " << baseline.entries[i].name << '\n';
    header = true;
    std::vector<std::vector<std::string>> rows;
    if (o.status == EntryOutcome::Status::kError) {
      rows.push_back({"simulation", "ok", "->", "failed", o.message});
    }
    for (const Change& c : o.changes) rows.push_back(changeRow(c));
    writeAligned(out, rows, "    ");
  }
  if (skipped > 0) {
    out << "skipped (model absent):\n";
    for (size_t i = 0; i < outcomes.size(); ++i) {
      if (outcomes[i].status == EntryOutcome::Status::kSkipped) {
        out << "  " << baseline.entries[i].name << ": " << outcomes[i].message << '\n';
      }
    }
  }

  // 4. Reports, then the verdict.
  const bool failed = failedEntries > 0 || !digestErrors.empty();
  if (!options.junit.empty()) writeFileAtomically(options.junit, junitXml(all, outcomes));
  if (!options.json.empty()) {
    writeFileAtomically(options.json,
                        reportJson(options.baseline, all, outcomes, files, options.tolerancePercent, failed).dump(2) + "\n");
  }
  if (!digestErrors.empty()) {
    for (size_t d = 1; d < digestErrors.size(); ++d) {
      out << "model changed: " << digestErrors[d].first << ": " << digestErrors[d].second << '\n';
    }
    const std::string more =
        digestErrors.size() > 1 ? " (and " + std::to_string(digestErrors.size() - 1) + " more)" : std::string();
    throwForKey(options.baseline, digestErrors.front().first,
                digestErrors.front().second + more + "; if the new model is intended, re-record with `npusim regress --update`");
  }
  if (failedEntries > 0) {
    out << "regress: FAIL: " << failedCounts << " counts changed in " << failedEntries << " of " << points.size()
        << " entries (" << skipped << " skipped";
    if (toleratedCounts > 0) out << ", " << toleratedCounts << " more within tolerance";
    out << "); if the change is intended, re-record with `npusim regress --update`\n";
    return 1;
  }
  out << "regress: OK: " << points.size() << " entries, " << compared << " counts within tolerance (" << toleratedCounts
      << " changed, " << skipped << " skipped)\n";
  return 0;
}

int updateBaseline(const RegressOptions& options, std::ostream& out) {
  // 1. The entries: the spec's points, or the existing baseline's entries.
  Baseline old;
  std::error_code ec;
  if (options.specs.empty() || fs::exists(options.baseline, ec)) {
    old = readBaseline(options.baseline);
  }
  std::map<std::string, const BaselineEntry*> oldByName;
  for (const BaselineEntry& e : old.entries) oldByName[e.name] = &e;
  const fs::path root = fixturesRoot(options, old.fixtures);
  std::vector<BaselineEntry> entries;
  std::set<std::string> names;
  for (const std::string& spec : options.specs) {
    for (const sweep::Point& p : sweep::loadSpec(spec).points) {
      BaselineEntry e;
      storeModelPath(p, root, options.baseline, e);
      e.name = entryName(p, e.fixture.empty() ? e.model : e.fixture);
      e.systemConfig = p.model.systemConfig;
      e.memoryMode = p.model.memoryMode;
      e.params = p.params;
      if (const auto it = oldByName.find(e.name); it != oldByName.end()) {
        e.optional = it->second->optional;
        e.tolerances = it->second->tolerances;
      }
      if (!names.insert(e.name).second) {
        throwForKey(spec, p.model.label, "two points give the entry name '" + e.name + "'");
      }
      entries.push_back(std::move(e));
    }
  }
  if (options.specs.empty()) entries = old.entries;

  // 2. Simulate the present ones; absent models keep their recorded counts.
  std::vector<sweep::Point> points;
  std::vector<BaselineEntry*> run;
  for (BaselineEntry& e : entries) {
    const fs::path file = modelFile(e, root, options.baseline);
    if (isDemo(e) || (!file.empty() && fs::is_regular_file(file, ec))) {
      e.sha256 = file.empty() ? std::string() : sha256OfFile(file.string());
      points.push_back(pointOf(e, file, points.size()));
      run.push_back(&e);
    } else {
      out << "regress: kept unchanged (model absent): " << e.name << '\n';
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
    run[i]->accelerator = outcomes[i].result.at(run_json::kConfig).at(run_json::kAccelerator).get<std::string>();
    run[i]->npusimVersion = NPUSIM_VERSION;
  }
  if (failed > 0) {
    out << "regress: " << failed << " simulations failed; " << options.baseline << " not written\n";
    return 1;
  }
  // 3. Write.
  Baseline updated;
  updated.npusimVersion = NPUSIM_VERSION;
  const bool anyFixture = std::any_of(entries.begin(), entries.end(), [](const BaselineEntry& e) { return !e.fixture.empty(); });
  updated.fixtures = anyFixture ? storedRoot(root, options.baseline) : std::string();
  updated.tolerances = old.tolerances;
  updated.entries = std::move(entries);
  writeBaseline(options.baseline, updated);
  out << "regress: wrote " << options.baseline << ": " << updated.entries.size() << " entries (" << run.size()
      << " recorded, " << updated.entries.size() - run.size() << " kept unchanged)\n";
  return 0;
}

} // namespace npusim::regress
