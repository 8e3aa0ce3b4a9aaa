// SPDX-License-Identifier: Apache-2.0
#include "harness/probe/records.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "harness/probe/probe.h"
#include "harness/probe/probe_csv.h"
#include "sim/common/error.h"
#include "sim/common/int_math.h"

namespace npusim::probe {
namespace {

constexpr char kSeveral[] = "a file of several runs or cells needs a selection: --where COLUMN=VALUE";

std::string lineOf(const Record& r) { return "line " + std::to_string(r.line); }

// The bits of `count` consecutive launches from launch `first`.
uint16_t maskOfLaunches(size_t first, size_t count) {
  uint16_t mask = 0;
  for (size_t i = 0; i < count; ++i) mask = static_cast<uint16_t>(mask | irqMaskOf(first + i));
  return mask;
}

} // namespace

size_t RecordComparison::withinRunning(double fraction, uint64_t cycles) const {
  return static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [&](const Row& r) {
    const double measured = static_cast<double>(r.measuredRunning);
    const double error = std::abs(static_cast<double>(r.simulatedRunning) - measured);
    return error <= std::max(fraction * measured, static_cast<double>(cycles));
  }));
}

RecordFile readRecords(const std::string& path, const std::vector<std::string>& beatColumns, const RecordFilter& where) {
  const CsvTable csv = readCsvTable(path, {"ccnt", "irq_mask", "is_tail"});
  RecordFile file;
  file.path = path;
  for (const auto& [column, value] : where) {
    if (!csv.has(column)) throwForKey(path, column, "the header line has no column '" + column + "' to select rows by");
  }
  for (const std::string& c : beatColumns) {
    if (csv.has(c)) file.beatColumns.push_back(c);
  }
  for (const std::string& h : csv.header) {
    const std::string suffix = "_beats";
    const bool beats = h.size() > suffix.size() && h.compare(h.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (beats && std::find(beatColumns.begin(), beatColumns.end(), h) == beatColumns.end()) file.otherBeats.push_back(h);
  }
  const bool numbered = csv.has("rec");
  const Record* tail = nullptr;
  for (const CsvLine& row : csv.rows) {
    const bool selected = std::all_of(where.begin(), where.end(),
                                      [&](const auto& w) { return csv.field(row, w.first) == w.second; });
    if (!selected) continue;
    Record r;
    r.line = row.number;
    if (numbered && csv.count(row, "rec", "record number") != file.records.size()) {
      throwForKey(path, "rec", lineOf(r) + ": record " + csv.field(row, "rec") + " where record " +
                                   std::to_string(file.records.size()) + " was expected (records count up from 0; " +
                                   kSeveral + ")");
    }
    if (tail != nullptr) {
      throwForKey(path, "is_tail", lineOf(r) + ": a record after the tail record (" + lineOf(*tail) + "; " + kSeveral + ")");
    }
    const uint64_t isTail = csv.count(row, "is_tail", "0 or 1");
    if (isTail > 1) throwForKey(path, "is_tail", lineOf(r) + ": '" + csv.field(row, "is_tail") + "' is not 0 or 1");
    r.tail = isTail == 1;
    if (!r.tail) r.irqMask = csv.irqMask(row, "irq_mask");
    r.cycles = csv.count(row, "ccnt");
    if (csv.has("npu_active") && !csv.field(row, "npu_active").empty()) r.active = csv.count(row, "npu_active");
    for (const std::string& c : file.beatColumns) r.beats.push_back(csv.count(row, c, "beat count"));
    file.records.push_back(r);
    if (r.tail) tail = &file.records.back();
  }
  if (file.records.empty()) {
    std::string selection;
    for (const auto& [column, value] : where) selection += (selection.empty() ? " with " : " and ") + column + "=" + value;
    throwAtOffset(path, 0, "no record" + selection);
  }
  return file;
}

RecordComparison compareRecords(const LaunchManifest& manifest, const RecordFile& records, uint64_t quantum) {
  if (manifest.rows.empty() || !manifest.rows.back().end) {
    throw std::invalid_argument("compareRecords: the launch manifest does not end with its END row");
  }
  RecordComparison c;
  c.launches = manifest.rows.size() - 1; // all but the END row
  c.quantum = quantum;
  // The beat columns both sides have: index in the manifest's and in the records'.
  std::vector<std::pair<size_t, size_t>> beatIndex;
  for (size_t i = 0; i < records.beatColumns.size(); ++i) {
    const auto it = std::find(manifest.beatColumns.begin(), manifest.beatColumns.end(), records.beatColumns[i]);
    if (it == manifest.beatColumns.end()) continue;
    c.beatColumns.push_back(records.beatColumns[i]);
    beatIndex.emplace_back(static_cast<size_t>(it - manifest.beatColumns.begin()), i);
  }
  size_t next = 0;              // the first launch not yet covered
  uint64_t measured = 0, boundary = 0;
  std::map<std::string, RecordComparison::TypeSum> byType;
  for (const Record& r : records.records) {
    RecordComparison::Row row;
    row.line = r.line;
    row.tail = r.tail;
    row.firstLaunch = next;
    const auto bad = [&](const std::string& what) {
      throwForKey(records.path, "irq_mask", lineOf(r) + ": irq_mask " + irqMaskText(r.irqMask) + " " + what);
    };
    if (r.tail) {
      row.launches = c.launches - next;
    } else {
      row.launches = std::bitset<16>(r.irqMask).count();
      if (row.launches == 0) bad("covers no launch");
      if (next + row.launches > c.launches) {
        bad("covers launches " + std::to_string(next) + " to " + std::to_string(next + row.launches - 1) +
            ", past the model's last launch, " + std::to_string(c.launches - 1) + " (more records than launches)");
      }
      if (r.irqMask != maskOfLaunches(next, row.launches)) {
        bad("is not the bits of consecutive launches from the next one, launch " + std::to_string(next) + " (bit " +
            irqMaskText(irqMaskOf(next)) + ")");
      }
    }
    next += row.launches;
    // The record's boundary: its last launch's interrupt, the tail's the END row.
    const size_t last = r.tail ? manifest.rows.size() - 1 : next - 1;
    uint64_t end = manifest.rows[last].simulatedEnd;
    if (quantum > 0) {
      // The interrupt is seen at the first quantum edge after the previous read at or after the
      // launch's end, and read the record's cycles beyond whole quanta after it (the FVP's: 15;
      // the first record's 55-73, where the run started in its quantum); the tail ends with the
      // NPU, no earlier than the previous boundary.
      end = std::max(end, boundary);
      if (!r.tail) {
        const uint64_t read = boundary + r.cycles % quantum; // the read at the previous boundary's edge
        end = read + (end > read ? roundUp(end - read, quantum) : 0);
      }
    }
    row.measuredCycles = r.tail && r.active ? *r.active : r.cycles;
    measured += row.measuredCycles;
    row.measuredRunning = measured;
    row.simulatedCycles = end - boundary;
    row.simulatedRunning = end;
    boundary = end;
    for (const auto& [m, f] : beatIndex) {
      row.measuredBeats.push_back(r.beats[f]);
      uint64_t beats = 0;
      for (size_t k = row.firstLaunch; k <= last; ++k) beats += manifest.rows[k].simulatedBeats[m];
      row.simulatedBeats.push_back(beats);
    }
    std::set<std::string> types;
    for (size_t k = row.firstLaunch; k < next; ++k) {
      if (manifest.rows[k].type != "other") types.insert(manifest.rows[k].type);
    }
    row.type = types.empty() ? "other" : types.size() == 1 ? *types.begin() : "mixed";
    RecordComparison::TypeSum& sum = byType[row.type];
    sum.type = row.type;
    ++sum.records;
    sum.launches += row.launches;
    sum.measured += row.measuredCycles;
    sum.simulated += row.simulatedCycles;
    c.rows.push_back(row);
  }
  c.covered = next;
  // One type after another in name order, then the records of several types or none.
  const std::vector<std::string> rest{"mixed", "other"};
  for (const auto& [type, sum] : byType) {
    if (std::find(rest.begin(), rest.end(), type) == rest.end()) c.types.push_back(sum);
  }
  for (const std::string& type : rest) {
    if (byType.count(type) != 0) c.types.push_back(byType.at(type));
  }
  return c;
}

} // namespace npusim::probe
