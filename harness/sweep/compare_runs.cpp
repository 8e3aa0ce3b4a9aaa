// SPDX-License-Identifier: Apache-2.0
#include "harness/sweep/compare_runs.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/report/run_json.h"
#include "harness/sweep/layer_breakdown.h"
#include "harness/sweep/results_file.h"
#include "sim/common/error.h"
#include "sim/common/json_node.h"
#include "sim/common/text_table.h"
#include "sim/config/text_file.h"

namespace npusim::compare_runs {
namespace {

using nlohmann::ordered_json;
namespace run_json = report::run_json;

// One run with what the comparison needs.
struct Run {
  std::string label;                 // file (and point), accelerator, system config, memory mode
  int64_t totalCycles = 0;
  ordered_json byType, byBound;      // cycles per layer type and per bound
  ordered_json operations;           // `npusim run --json` only: the NPU operations; else null
};

// An `npusim run --json` result of any format up to this npusim's (what it reads is the same in
// all of them).
Run readRunJson(const std::string& file) {
  const ordered_json json = parseJsonText(config::readTextFile(file, "npusim run result"), file);
  const JsonNode node(json, file);
  if (node.has(run_json::kFormatVersion) && node.member(run_json::kFormatVersion).integer() > run_json::kFormat) {
    node.member(run_json::kFormatVersion)
        .fail("format " + std::to_string(node.member(run_json::kFormatVersion).integer()) +
              " was written by a newer npusim; this npusim (" + NPUSIM_VERSION + ") reads formats 1 to " +
              std::to_string(run_json::kFormat));
  }
  for (const char* key : {run_json::kModel, run_json::kConfig, run_json::kTotalCycles, run_json::kNetworkOperators,
                          run_json::kOperations}) {
    node.member(key);
  }
  const JsonNode config = node.member(run_json::kConfig);
  Run r;
  r.label = file + " (" + config.member(run_json::kAccelerator).string() + ", " +
            config.member(run_json::kSystemConfig).string() + ", " + config.member(run_json::kMemoryMode).string() + ")";
  r.totalCycles = node.member(run_json::kTotalCycles).integer();
  const std::string model = node.member(run_json::kModel).string();
  try {
    r.byType = sweep::cyclesByType(json, sweep::operationTypes(model == "<demo>" ? std::string() : model));
    r.byBound = sweep::cyclesByBound(json);
  } catch (const nlohmann::json::exception& e) {
    node.fail(std::string("not an `npusim run --json` result: ") + e.what());
  }
  r.operations = json.at(run_json::kOperations);
  return r;
}

// Point `index` of a sweep results file ("results.jsonl@3").
Run readSweepPoint(const std::string& file, const std::string& indexText, const std::string& spelled) {
  char* end = nullptr;
  const unsigned long long index = std::strtoull(indexText.c_str(), &end, 10);
  if (indexText.empty() || *end != '\0') throwForKey(spelled, "@", "expected RESULTS.jsonl@INDEX with a point index");
  const sweep::ResultsFile results = sweep::readResults(file);
  for (const sweep::ResultRecord& rec : results.records) {
    if (rec.index != index) continue;
    const JsonNode node(rec.json, spelled);
    if (!rec.ok) node.fail("point " + indexText + " failed; nothing to compare");
    Run r;
    namespace rj = sweep::results_json;
    r.label = spelled + " (" + node.member(rj::kAccelerator).string() + ", " + node.member(rj::kSystemConfig).string() +
              ", " + node.member(rj::kMemoryMode).string();
    for (const auto& [key, value] : node.member(rj::kEffective).members()) {
      r.label += ", " + key + "=" + sweep::valueText(value.value());
    }
    r.label += ")";
    r.totalCycles = node.member(rj::kTotalCycles).integer();
    r.byType = node.member(rj::kCyclesByType).value();
    r.byBound = node.member(rj::kCyclesByBound).value();
    return r;
  }
  throwForKey(spelled, "@", "no point with index " + indexText + " in " + file);
}

Run readRun(const std::string& spelled) {
  const size_t at = spelled.rfind('@');
  if (at != std::string::npos && at >= 6 && spelled.compare(at - 6, 6, ".jsonl") == 0) {
    return readSweepPoint(spelled.substr(0, at), spelled.substr(at + 1), spelled);
  }
  return readRunJson(spelled);
}

std::string speedup(int64_t a, int64_t b) {
  if (a == 0 && b == 0) return "-";
  if (b == 0) return "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3fx", double(a) / double(b));
  return buf;
}

// Same command stream: both are run results with the same operation kinds and MAC counts in
// the same order.
bool sameStream(const Run& a, const Run& b) {
  const auto& x = a.operations;
  const auto& y = b.operations;
  if (x.is_null() || y.is_null() || x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].at(run_json::kKind) != y[i].at(run_json::kKind) ||
        x[i].value(run_json::kMacs, 0) != y[i].value(run_json::kMacs, 0)) {
      return false;
    }
  }
  return true;
}

int64_t cyclesOf(const ordered_json& op) {
  return op.at(run_json::kEndCycle).get<int64_t>() - op.at(run_json::kStartCycle).get<int64_t>();
}

} // namespace

int compareRuns(const std::string& fileA, const std::string& fileB, size_t rows, std::ostream& out) {
  const Run a = readRun(fileA), b = readRun(fileB);
  const int64_t totalA = a.totalCycles, totalB = b.totalCycles;
  out << "compare-runs: A = " << a.label << "\n              B = " << b.label << "\n\n";
  writeAligned(out, {{"", "cycles A", "cycles B", "speed-up (A/B)"},
                     {"total", std::to_string(totalA), std::to_string(totalB), speedup(totalA, totalB)}},
               "");
  // 1. Per layer type.
  out << "\nper layer type:\n";
  std::vector<std::vector<std::string>> types{{"type", "cycles A", "cycles B", "speed-up (A/B)"}};
  for (const auto& item : a.byType.items()) {
    const int64_t ca = item.value().get<int64_t>(), cb = b.byType.value(item.key(), int64_t{0});
    if (ca != 0 || cb != 0) types.push_back({item.key(), std::to_string(ca), std::to_string(cb), speedup(ca, cb)});
  }
  writeAligned(out, types, "  ");
  // 2. Kernel cycles by what bound them.
  out << "\nNPU operation cycles by bound:\n";
  std::set<std::string> bounds;
  for (const auto& item : a.byBound.items()) bounds.insert(item.key());
  for (const auto& item : b.byBound.items()) bounds.insert(item.key());
  std::vector<std::vector<std::string>> byBound{{"bound", "cycles A", "cycles B"}};
  for (const std::string& bound : bounds) {
    byBound.push_back({bound, std::to_string(a.byBound.value(bound, int64_t{0})),
                       std::to_string(b.byBound.value(bound, int64_t{0}))});
  }
  writeAligned(out, byBound, "  ");
  // 3. Per operation, when both ran the same stream.
  if (!sameStream(a, b)) {
    out << "\nper operation: not compared (a sweep point, or different command streams, e.g. compiled for "
           "different MAC counts; compare the layer types above)\n";
    return 0;
  }
  const auto& opsA = a.operations;
  const auto& opsB = b.operations;
  std::vector<size_t> kernels;
  std::map<std::pair<std::string, std::string>, size_t> shifts;
  for (size_t i = 0; i < opsA.size(); ++i) {
    const std::string ba = opsA[i].value(run_json::kBound, ""), bb = opsB[i].value(run_json::kBound, "");
    if (ba.empty()) continue;
    kernels.push_back(i);
    if (ba != bb) ++shifts[{ba, bb}];
  }
  std::stable_sort(kernels.begin(), kernels.end(), [&](size_t x, size_t y) {
    return std::llabs(cyclesOf(opsA[x]) - cyclesOf(opsB[x])) > std::llabs(cyclesOf(opsA[y]) - cyclesOf(opsB[y]));
  });
  out << "\nper operation (same command stream), the " << std::min(rows, kernels.size()) << " of " << kernels.size()
      << " with the largest change:\n";
  std::vector<std::vector<std::string>> table{{"op", "kind", "cycles A", "cycles B", "speed-up (A/B)", "bound A -> B"}};
  for (size_t k = 0; k < kernels.size() && k < rows; ++k) {
    const auto& x = opsA[kernels[k]];
    const auto& y = opsB[kernels[k]];
    table.push_back({std::to_string(x.at(run_json::kNetworkOperator).get<size_t>()) + "." + std::to_string(kernels[k]),
                     x.at(run_json::kKind).get<std::string>(), std::to_string(cyclesOf(x)), std::to_string(cyclesOf(y)),
                     speedup(cyclesOf(x), cyclesOf(y)),
                     x.at(run_json::kBound).get<std::string>() + " -> " + y.at(run_json::kBound).get<std::string>()});
  }
  writeAligned(out, table, "  ");
  size_t shifted = 0;
  for (const auto& [pair, n] : shifts) shifted += n;
  out << "\nbound shifts: " << shifted << " of " << kernels.size() << " operations";
  for (const auto& [pair, n] : shifts) out << (pair == shifts.begin()->first ? ": " : ", ") << pair.first << " -> " << pair.second << " " << n;
  out << '\n';
  return 0;
}

} // namespace npusim::compare_runs
