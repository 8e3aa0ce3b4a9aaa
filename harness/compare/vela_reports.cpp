// SPDX-License-Identifier: Apache-2.0
#include "harness/compare/vela_reports.h"

#include <algorithm>

#include "sim/common/csv.h"
#include "sim/common/error.h"

namespace npusim::compare {
namespace {

double number(const std::string& path, size_t lineNo, const std::string& column, const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  throwForKey(path, "line " + std::to_string(lineNo) + " column " + column, "'" + text + "' is not a number");
}

} // namespace


std::vector<VelaLayerRow> readVelaPerLayerCsv(const std::string& path) {
  const std::vector<CsvLine> lines = readCsvFile(path);
  // Vela 3.10's header starts "TFLite_operator", Vela 5.0's "Original Operator" (with a Target
  // and renamed memory columns); the columns read are found by name in the header row.
  const auto isHeader = [](const std::vector<std::string>& r) {
    return !r.empty() && (r[0] == "TFLite_operator" || r[0] == "Original Operator");
  };
  if (lines.empty() || !isHeader(lines.front().fields)) {
    throwForKey(path, "line 1", "expected Vela's per-layer CSV header (TFLite_operator or Original Operator, ...)");
  }
  const std::vector<std::string>& header = lines.front().fields;
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) {
      throwForKey(path, "line 1", "the header has no column '" + name + "'");
    }
    return static_cast<size_t>(it - header.begin());
  };
  const size_t opCycles = column("Op Cycles"), npu = column("NPU"), sram = column("SRAM AC"), dram = column("DRAM AC"),
               onFlash = column("OnFlash AC"), offFlash = column("OffFlash AC"), macs = column("MAC Count"),
               name = column("Name");
  std::vector<VelaLayerRow> out;
  for (const CsvLine& line : lines) {
    const std::vector<std::string>& r = line.fields;
    if (isHeader(r)) continue;
    if (r.size() != header.size()) {
      throwForKey(path, "line " + std::to_string(line.number),
                  "expected " + std::to_string(header.size()) + " columns, found " + std::to_string(r.size()));
    }
    VelaLayerRow row;
    row.tfliteOperator = r[0];
    row.nngOperator = r[1];
    row.opCycles = number(path, line.number, "Op Cycles", r[opCycles]);
    row.npu = number(path, line.number, "NPU", r[npu]);
    row.sramAc = number(path, line.number, "SRAM AC", r[sram]);
    row.dramAc = number(path, line.number, "DRAM AC", r[dram]);
    row.onFlashAc = number(path, line.number, "OnFlash AC", r[onFlash]);
    row.offFlashAc = number(path, line.number, "OffFlash AC", r[offFlash]);
    row.macs = number(path, line.number, "MAC Count", r[macs]);
    row.name = r[name];
    out.push_back(row);
  }
  return out;
}

} // namespace npusim::compare
