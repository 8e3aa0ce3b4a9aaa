// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CSV files `npusim probe` reads (its manifests, measured cycles, per-record measurements):
// a header line naming the columns, then rows, each field found by its column's name.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/common/csv.h"

namespace npusim::probe {

struct CsvTable {
  std::string path;
  std::vector<std::string> header;
  std::vector<CsvLine> rows;      // the lines after the header, with their line numbers
  // Index of column `name`; header.size() when the header has none.
  size_t column(const std::string& name) const;
  bool has(const std::string& name) const { return column(name) < header.size(); }
  // Field `name` of `row`; throws InputError naming the file, the column and the line when the
  // row is too short to have it.
  const std::string& field(const CsvLine& row, const std::string& name) const;
  // Field `name` of `row` as a non-negative integer; throws InputError naming the file, the
  // column and the line, with "is not a <noun>", when it is not one.
  uint64_t count(const CsvLine& row, const std::string& name, const std::string& noun = "cycle count") const;
  // Field `name` of `row` as a 16-bit IRQ mask, hexadecimal with 0x (0x0003) or decimal; throws
  // InputError naming the file, the column and the line when it is not one.
  uint16_t irqMask(const CsvLine& row, const std::string& name) const;
};

// Reads the CSV file at `path`: its first non-empty line names the columns. Throws InputError
// naming the file when it cannot be read or has no line, or the first of `required` the header
// lacks.
CsvTable readCsvTable(const std::string& path, const std::vector<std::string>& required);

} // namespace npusim::probe
