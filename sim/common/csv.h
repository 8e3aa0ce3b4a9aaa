// SPDX-License-Identifier: Apache-2.0
#pragma once
// CSV field splitting (RFC 4180 quoting) and CSV files read as lines of fields, for the CSV files
// Vela writes and those npusim reads back.

#include <string>
#include <string_view>
#include <vector>

namespace npusim {

// Splits one CSV line into fields; doubled quotes inside a quoted field are one quote, and a
// trailing carriage return is dropped.
std::vector<std::string> splitCsvLine(std::string_view line);

// One field for writing: quoted (quotes doubled) when it holds a comma, quote or newline.
std::string csvField(const std::string& s);

// One non-empty line of a CSV file: its 1-based line number in the file and its fields.
struct CsvLine {
  size_t number = 0;
  std::vector<std::string> fields;
};

// The non-empty lines of the CSV file at `path`, split into fields (a line holding only a
// carriage return counts as empty). Throws InputError naming the file when it cannot be opened.
std::vector<CsvLine> readCsvFile(const std::string& path);

} // namespace npusim
