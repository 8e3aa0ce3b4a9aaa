// SPDX-License-Identifier: Apache-2.0
#pragma once
// CSV field splitting (RFC 4180 quoting), for the CSV files Vela writes.

#include <string>
#include <string_view>
#include <vector>

namespace npusim {

// Splits one CSV line into fields; doubled quotes inside a quoted field are one quote, and a
// trailing carriage return is dropped.
std::vector<std::string> splitCsvLine(std::string_view line);

// One field for writing: quoted (quotes doubled) when it holds a comma, quote or newline.
std::string csvField(const std::string& s);

} // namespace npusim
