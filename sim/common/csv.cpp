// SPDX-License-Identifier: Apache-2.0
#include "sim/common/csv.h"

#include <fstream>

#include "sim/common/error.h"

namespace npusim {

std::vector<std::string> splitCsvLine(std::string_view line) {
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::vector<CsvLine> readCsvFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    InputError::Location loc;
    loc.file = path;
    throw InputError(loc, "cannot open file");
  }
  std::vector<CsvLine> lines;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line != "\r") {
      lines.push_back({number, splitCsvLine(line)});
    }
  }
  return lines;
}

} // namespace npusim
