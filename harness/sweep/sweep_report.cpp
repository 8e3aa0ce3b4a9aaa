// SPDX-License-Identifier: Apache-2.0
#include "harness/sweep/sweep_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <unordered_map>

#include "sim/common/csv.h"
#include "sim/common/text_table.h"

namespace npusim::sweep {
namespace {

using nlohmann::ordered_json;
namespace rj = results_json;

// One record with its parameter values laid out by parameter column.
struct Row {
  const ResultRecord* record = nullptr;
  std::vector<std::string> values;     // per parameter column; "" when not set
  std::optional<int64_t> cycles;       // ok points only
  size_t group = 0;
  bool baseline = false;               // the spec's "baseline" point
};

// Records laid out as a table, grouped by model and configuration, with their sensitivities.
struct Analysis {
  std::vector<std::string> parameters;
  std::vector<Row> rows;               // index order
  std::vector<ModelSensitivity> groups;
};

std::string field(const ordered_json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

// The name of an entry of a line's ports[] (lines written before run format 2 call it "port").
std::string portName(const ordered_json& port) {
  return port.contains(rj::kName) ? field(port, rj::kName) : field(port, rj::kPortBeforeFormat2);
}

std::optional<double> number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() ? std::optional<double>(v) : std::nullopt;
}

void sortValues(std::vector<std::string>& values) {
  const bool numeric = std::all_of(values.begin(), values.end(),
                                   [](const std::string& v) { return v.empty() || number(v).has_value(); });
  std::sort(values.begin(), values.end(), [numeric](const std::string& a, const std::string& b) {
    if (a.empty() || b.empty()) return a.empty() && !b.empty();
    return numeric ? *number(a) < *number(b) : a < b;
  });
}

// The values of `row` except the columns linked to `skip` (link[c] == link[skip]), as one key.
std::string signature(const Row& row, size_t skip, const std::vector<size_t>& link) {
  std::string key;
  for (size_t c = 0; c < row.values.size(); ++c) {
    key += (link[c] == link[skip] ? std::string() : row.values[c]) + '\x1f';
  }
  return key;
}

// For each column, the first column whose values move one-to-one with it over `rows` (keys
// swept together, e.g. by a zip group): linked columns are analysed as one parameter.
std::vector<size_t> linkedColumns(const std::vector<const Row*>& rows, size_t columns) {
  std::vector<size_t> link(columns);
  for (size_t c = 0; c < columns; ++c) {
    link[c] = c;
    for (size_t first = 0; first < c && link[c] == c; ++first) {
      if (link[first] != first) continue;
      std::map<std::string, std::string> forward, backward;
      bool bijective = true;
      for (const Row* r : rows) {
        const auto f = forward.emplace(r->values[first], r->values[c]).first;
        const auto b = backward.emplace(r->values[c], r->values[first]).first;
        bijective = bijective && f->second == r->values[c] && b->second == r->values[first];
      }
      if (bijective && forward.size() > 1) link[c] = first;
    }
  }
  return link;
}

ParameterEffect parameterEffect(const std::vector<const Row*>& rows, size_t column, const std::string& parameter,
                                const std::vector<std::string>& baseline, std::optional<int64_t> baselineCycles,
                                const std::vector<size_t>& link) {
  ParameterEffect effect;
  effect.key = parameter;
  effect.baselineValue = baseline[column];
  // 1. Partners: points at the baseline value of this parameter, by the rest of their values.
  std::unordered_map<std::string, int64_t> partners;
  std::set<std::string> distinct;
  for (const Row* r : rows) {
    distinct.insert(r->values[column]);
    if (r->cycles && r->values[column] == baseline[column]) {
      partners.emplace(signature(*r, column, link), *r->cycles);
    }
  }
  std::vector<std::string> values(distinct.begin(), distinct.end());
  sortValues(values);
  // 2. Per value: the one-at-a-time point and the ratios to partners over all other settings.
  for (const std::string& v : values) {
    ValueEffect e;
    e.value = v;
    e.baseline = v == baseline[column];
    double logSum = 0;
    for (const Row* r : rows) {
      if (!r->cycles || r->values[column] != v) continue;
      bool othersAtBaseline = true;
      for (size_t c = 0; c < baseline.size(); ++c) {
        othersAtBaseline = othersAtBaseline && (link[c] == link[column] || r->values[c] == baseline[c]);
      }
      if (othersAtBaseline && !e.cycles) {
        e.cycles = r->cycles;
        if (baselineCycles && *baselineCycles > 0) e.relative = double(*r->cycles) / double(*baselineCycles);
      }
      const auto partner = partners.find(signature(*r, column, link));
      if (partner == partners.end() || partner->second <= 0 || *r->cycles <= 0) continue;
      const double ratio = double(*r->cycles) / double(partner->second);
      e.min = e.pairs == 0 ? ratio : std::min(e.min, ratio);
      e.max = e.pairs == 0 ? ratio : std::max(e.max, ratio);
      logSum += std::log(ratio);
      ++e.pairs;
    }
    e.geomean = e.pairs > 0 ? std::exp(logSum / double(e.pairs)) : 0.0;
    effect.values.push_back(e);
  }
  return effect;
}

Analysis analyze(const MergedResults& results, const ReportOptions& options) {
  Analysis a;
  // 1. Parameter columns in order of first appearance; rows grouped by model and configuration.
  std::map<std::string, size_t> columnOf;
  for (const ResultRecord& r : results.records) {
    for (const char* member : {rj::kEffective, rj::kParams}) {
      if (!r.json.contains(member) || !r.json[member].is_object()) continue;
      for (const auto& item : r.json[member].items()) {
        if (columnOf.emplace(item.key(), a.parameters.size()).second) a.parameters.push_back(item.key());
      }
    }
  }
  std::map<std::string, size_t> groupOf;
  for (const ResultRecord& r : results.records) {
    Row row;
    row.record = &r;
    row.values.assign(a.parameters.size(), "");
    // The effective values (results since the "effective" member); set params where those are absent.
    for (const char* member : {rj::kParams, rj::kEffective}) {
      if (!r.json.contains(member) || !r.json[member].is_object()) continue;
      for (const auto& item : r.json[member].items()) row.values[columnOf[item.key()]] = valueText(item.value());
    }
    row.baseline = r.json.value(rj::kBaseline, false);
    if (r.ok && r.json.contains(rj::kTotalCycles) && r.json[rj::kTotalCycles].is_number()) {
      row.cycles = r.json[rj::kTotalCycles].get<int64_t>();
    }
    const std::string key = field(r.json, rj::kModel) + '\x1f' + field(r.json, rj::kSystemConfig) + '\x1f' +
                            field(r.json, rj::kMemoryMode) + '\x1f' + field(r.json, rj::kVelaIni);
    const auto [it, inserted] = groupOf.emplace(key, a.groups.size());
    if (inserted) {
      ModelSensitivity g;
      g.model = field(r.json, rj::kModel);
      g.systemConfig = field(r.json, rj::kSystemConfig);
      g.memoryMode = field(r.json, rj::kMemoryMode);
      a.groups.push_back(g);
    }
    row.group = it->second;
    a.groups[row.group].points += 1;
    a.groups[row.group].failed += r.ok ? 0 : 1;
    a.rows.push_back(std::move(row));
  }
  // 2. Per group: the baseline point, then each parameter's effect.
  for (size_t g = 0; g < a.groups.size(); ++g) {
    std::vector<const Row*> rows;
    for (const Row& r : a.rows) {
      if (r.group == g) rows.push_back(&r);
    }
    ModelSensitivity& group = a.groups[g];
    const auto flagged = std::find_if(rows.begin(), rows.end(), [](const Row* r) { return r->baseline; });
    std::vector<std::string> baseline = (flagged != rows.end() ? *flagged : rows.front())->values;
    for (const Param& p : options.baseline) {
      const auto c = columnOf.find(p.key);
      if (c != columnOf.end()) baseline[c->second] = p.text;
    }
    for (size_t c = 0; c < a.parameters.size(); ++c) group.baseline.emplace_back(a.parameters[c], baseline[c]);
    for (const Row* r : rows) {
      if (r->cycles && r->values == baseline) {
        group.baselineCycles = r->cycles;
        group.baselineId = r->record->id;
        break;
      }
    }
    const std::vector<size_t> link = linkedColumns(rows, a.parameters.size());
    for (size_t c = 0; c < a.parameters.size(); ++c) {
      if (link[c] != c) continue;
      std::string name = a.parameters[c];
      for (size_t other = c + 1; other < a.parameters.size(); ++other) {
        if (link[other] == c) name += " = " + a.parameters[other];
      }
      ParameterEffect e = parameterEffect(rows, c, name, baseline, group.baselineCycles, link);
      if (e.values.size() > 1) group.parameters.push_back(std::move(e));
    }
  }
  return a;
}

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string shownValue(const std::string& v) { return v.empty() ? "(unset)" : v; }

std::string relativeText(const Analysis& a, const Row& row) {
  const auto& base = a.groups[row.group].baselineCycles;
  return row.cycles && base && *base > 0 ? fixed(double(*row.cycles) / double(*base), 4) : "-";
}

std::string percentChange(double relative) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f%%", (relative - 1.0) * 100.0);
  return buf;
}

std::string changeText(const Analysis& a, const Row& row) {
  const auto& base = a.groups[row.group].baselineCycles;
  return row.cycles && base && *base > 0 ? percentChange(double(*row.cycles) / double(*base)) : "-";
}

std::string spread(const ValueEffect& e) {
  return e.pairs == 0 ? "-" : fixed(e.geomean, 4) + " [" + fixed(e.min, 4) + ", " + fixed(e.max, 4) + "]";
}

std::vector<std::string> tableHeader(const Analysis& a) {
  std::vector<std::string> h{"index", "id", "model"};
  h.insert(h.end(), a.parameters.begin(), a.parameters.end());
  h.insert(h.end(), {"status", "total_cycles", "npu_active_cycles", "change"});
  return h;
}

std::vector<std::string> tableRow(const Analysis& a, const Row& row) {
  const ordered_json& j = row.record->json;
  std::vector<std::string> cells{std::to_string(row.record->index), row.record->id, field(j, rj::kModel)};
  for (const std::string& v : row.values) cells.push_back(shownValue(v));
  cells.push_back(field(j, rj::kStatus));
  cells.push_back(row.cycles ? std::to_string(*row.cycles) : "-");
  const ordered_json active = j.value(rj::kNpuActiveCycles, ordered_json());
  cells.push_back(active.is_number() ? std::to_string(active.get<int64_t>()) : "-");
  cells.push_back(changeText(a, row) + (row.baseline ? " (baseline)" : ""));
  return cells;
}

std::string baselineText(const ModelSensitivity& g) {
  std::string text;
  for (const auto& [key, value] : g.baseline) text += (text.empty() ? "" : " ") + key + "=" + shownValue(value);
  text = text.empty() ? "(no parameters)" : text;
  return text + (g.baselineCycles ? " -> " + std::to_string(*g.baselineCycles) + " cycles (point " + g.baselineId + ")"
                                  : " -> no successful point with these values");
}

std::vector<std::vector<std::string>> effectRows(const ParameterEffect& p) {
  std::vector<std::vector<std::string>> rows{
      {"value", "cycles", "change", "vs_baseline_over_other_settings: geomean [min, max]", "pairs"}};
  for (const ValueEffect& e : p.values) {
    rows.push_back({shownValue(e.value) + (e.baseline ? " (baseline)" : ""), e.cycles ? std::to_string(*e.cycles) : "-",
                    e.relative ? percentChange(*e.relative) : "-", spread(e), std::to_string(e.pairs)});
  }
  return rows;
}

std::string summaryLine(const std::string& source, const MergedResults& results, const Analysis& a) {
  size_t failed = 0;
  for (const ResultRecord& r : results.records) failed += r.ok ? 0 : 1;
  std::string text = source + ": " + std::to_string(results.records.size()) + " points (" +
                     std::to_string(results.records.size() - failed) + " ok, " + std::to_string(failed) + " failed";
  if (!results.missing.empty()) text += ", " + std::to_string(results.missing.size()) + " missing";
  text += "); model configurations: " + std::to_string(a.groups.size()) +
          ", parameters: " + std::to_string(a.parameters.size());
  return text;
}

std::string mdCell(const std::string& s) {
  std::string out;
  for (const char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

void writeMdTable(std::ostream& os, const std::vector<std::vector<std::string>>& rows) {
  for (size_t r = 0; r < rows.size(); ++r) {
    os << '|';
    for (const std::string& cell : rows[r]) os << ' ' << mdCell(cell) << " |";
    os << '\n';
    if (r == 0) {
      os << '|';
      for (size_t c = 0; c < rows[r].size(); ++c) os << "---|";
      os << '\n';
    }
  }
}

std::string jsonCell(const ordered_json& v) {
  if (v.is_null()) return "";
  return v.is_string() ? v.get<std::string>() : v.dump();
}

} // namespace

std::vector<ModelSensitivity> sensitivity(const MergedResults& results, const ReportOptions& options) {
  return analyze(results, options).groups;
}

void writeReportText(std::ostream& os, const std::string& source, const MergedResults& results,
                     const ReportOptions& options) {
  const Analysis a = analyze(results, options);
  os << "report: " << summaryLine(source, results, a) << "\n\n";
  std::vector<std::vector<std::string>> table{tableHeader(a)};
  for (size_t i = 0; i < a.rows.size() && i < options.maxRows; ++i) table.push_back(tableRow(a, a.rows[i]));
  os << "points" << (a.rows.size() > options.maxRows ? " (first " + std::to_string(options.maxRows) + " of " +
                                                           std::to_string(a.rows.size()) + "; --csv/--md write all)"
                                                     : std::string())
     << '\n';
  writeAligned(os, table, "  ");
  for (const ModelSensitivity& g : a.groups) {
    os << "\nsensitivity: " << g.model << " (" << g.systemConfig << ", " << g.memoryMode << "), " << g.points
       << " points, " << g.failed << " failed\n";
    os << "  baseline: " << baselineText(g) << '\n';
    for (const ParameterEffect& p : g.parameters) {
      os << "  " << p.key << '\n';
      writeAligned(os, effectRows(p), "    ");
    }
  }
}

void writeReportCsv(std::ostream& os, const MergedResults& results, const ReportOptions& options) {
  const Analysis a = analyze(results, options);
  // 1. Columns: fixed, parameters, results, the union of PMU counters and ports.
  std::set<std::string> pmuNames;
  std::vector<std::string> ports;
  for (const ResultRecord& r : results.records) {
    if (r.json.contains(rj::kPmu) && r.json[rj::kPmu].is_object()) {
      for (const auto& item : r.json[rj::kPmu].items()) pmuNames.insert(item.key());
    }
    if (r.json.contains(rj::kPorts) && r.json[rj::kPorts].is_array()) {
      for (const auto& p : r.json[rj::kPorts]) {
        const std::string name = portName(p);
        if (std::find(ports.begin(), ports.end(), name) == ports.end()) ports.push_back(name);
      }
    }
  }
  std::vector<std::string> header{"index", "id", "model", "system_config", "memory_mode", "accelerator"};
  header.insert(header.end(), a.parameters.begin(), a.parameters.end());
  header.insert(header.end(), {"status", "exit_code", "total_cycles", "npu_active_cycles", "vs_baseline"});
  header.insert(header.end(), pmuNames.begin(), pmuNames.end());
  for (const std::string& p : ports) {
    header.push_back(p + "_read_bytes");
    header.push_back(p + "_write_bytes");
  }
  header.push_back("error");
  // 2. One row per point.
  std::vector<std::vector<std::string>> rows{header};
  for (const Row& row : a.rows) {
    const ordered_json& j = row.record->json;
    std::vector<std::string> cells{std::to_string(row.record->index), row.record->id, field(j, rj::kModel),
                                   field(j, rj::kSystemConfig), field(j, rj::kMemoryMode),
                                   jsonCell(j.value(rj::kAccelerator, ordered_json()))};
    cells.insert(cells.end(), row.values.begin(), row.values.end());
    cells.insert(cells.end(), {field(j, rj::kStatus), jsonCell(j.value(rj::kExitCode, ordered_json())),
                               jsonCell(j.value(rj::kTotalCycles, ordered_json())),
                               jsonCell(j.value(rj::kNpuActiveCycles, ordered_json())), relativeText(a, row)});
    const ordered_json pmu = j.value(rj::kPmu, ordered_json::object());
    for (const std::string& name : pmuNames) cells.push_back(jsonCell(pmu.value(name, ordered_json())));
    for (const std::string& name : ports) {
      ordered_json port;
      for (const auto& p : j.value(rj::kPorts, ordered_json::array())) {
        if (portName(p) == name) port = p;
      }
      cells.push_back(port.is_null() ? "" : jsonCell(port.value(rj::kReadBytes, ordered_json())));
      cells.push_back(port.is_null() ? "" : jsonCell(port.value(rj::kWriteBytes, ordered_json())));
    }
    cells.push_back(jsonCell(j.value(rj::kError, ordered_json())));
    rows.push_back(std::move(cells));
  }
  for (const auto& cells : rows) {
    for (size_t c = 0; c < cells.size(); ++c) os << (c ? "," : "") << csvField(cells[c]);
    os << '\n';
  }
}

void writeReportMarkdown(std::ostream& os, const std::string& source, const MergedResults& results,
                         const ReportOptions& options) {
  const Analysis a = analyze(results, options);
  os << "# Sweep report\n\n" << summaryLine(source, results, a) << ".\n";
  for (const ModelSensitivity& g : a.groups) {
    os << "\n## Sensitivity: " << mdCell(g.model) << " (" << g.systemConfig << ", " << g.memoryMode << ")\n\n"
       << g.points << " points, " << g.failed << " failed. Baseline: " << mdCell(baselineText(g)) << ".\n";
    for (const ParameterEffect& p : g.parameters) {
      os << "\n### " << p.key << "\n\n";
      writeMdTable(os, effectRows(p));
    }
  }
  os << "\n## Points\n\n";
  std::vector<std::vector<std::string>> table{tableHeader(a)};
  for (const Row& row : a.rows) table.push_back(tableRow(a, row));
  writeMdTable(os, table);
}

} // namespace npusim::sweep
