// SPDX-License-Identifier: Apache-2.0
#pragma once
// Options that take one of a few words (e.g. --format): the word maps to an enum value, and any
// other word is refused in one line that lists the allowed words.

#include <cctype>
#include <map>
#include <string>

#include <CLI/CLI.hpp>

namespace npusim::cli {

// A CLI11 transform for `words` (case-insensitive). Refused text gives
// "<option>: expected text, vela or json, got 'yaml'".
template <typename Enum>
CLI::Validator choiceOf(const std::map<std::string, Enum>& words) {
  std::string allowed;
  size_t i = 0;
  for (const auto& entry : words) {
    ++i;
    allowed += (i == 1 ? "" : i == words.size() ? " or " : ", ") + entry.first;
  }
  return CLI::Validator(
      [words, allowed](std::string& text) -> std::string {
        std::string lower;
        for (const char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const auto it = words.find(lower);
        if (it == words.end()) return "expected " + allowed + ", got '" + text + "'";
        text = std::to_string(static_cast<int>(it->second));
        return std::string();
      },
      allowed);
}

} // namespace npusim::cli
