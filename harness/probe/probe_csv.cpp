// SPDX-License-Identifier: Apache-2.0
#include "harness/probe/probe_csv.h"

#include <algorithm>
#include <charconv>
#include <iterator>

#include "sim/common/error.h"

namespace npusim::probe {

size_t CsvTable::column(const std::string& name) const {
  return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
}

const std::string& CsvTable::field(const CsvLine& row, const std::string& name) const {
  const size_t i = column(name);
  if (i >= row.fields.size()) {
    throwForKey(path, name, "line " + std::to_string(row.number) + " has no '" + name + "' field");
  }
  return row.fields[i];
}

uint64_t CsvTable::count(const CsvLine& row, const std::string& name, const std::string& noun) const {
  const std::string& text = field(row, name);
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    throwForKey(path, name, "line " + std::to_string(row.number) + ": '" + text + "' is not a " + noun);
  }
  return value;
}

uint16_t CsvTable::irqMask(const CsvLine& row, const std::string& name) const {
  const std::string& text = field(row, name);
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const char* begin = text.data() + (hex ? 2 : 0);
  const char* end = text.data() + text.size();
  uint32_t value = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, value, hex ? 16 : 10);
  if (text.empty() || ec != std::errc() || ptr != end || value > 0xFFFF) {
    throwForKey(path, name, "line " + std::to_string(row.number) + ": '" + text +
                                "' is not a 16-bit IRQ mask (0x0000 to 0xFFFF, or decimal)");
  }
  return static_cast<uint16_t>(value);
}

CsvTable readCsvTable(const std::string& path, const std::vector<std::string>& required) {
  std::vector<CsvLine> lines = readCsvFile(path);
  if (lines.empty()) {
    throwAtOffset(path, 0, "empty file: expected a header line naming the columns");
  }
  CsvTable csv;
  csv.path = path;
  csv.header = std::move(lines.front().fields);
  for (const std::string& name : required) {
    if (!csv.has(name)) {
      throwForKey(path, name, "the header line has no column '" + name + "'");
    }
  }
  csv.rows.assign(std::make_move_iterator(lines.begin() + 1), std::make_move_iterator(lines.end()));
  return csv;
}

} // namespace npusim::probe
