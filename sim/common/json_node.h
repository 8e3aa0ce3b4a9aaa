// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading JSON input (sweep specs, regression baselines, run results) with errors that name the
// file and the JSON key path of the offending value.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace npusim {

// `text` (the contents of `file`) parsed as JSON. Throws InputError naming `file` and the byte
// offset when it is malformed.
nlohmann::ordered_json parseJsonText(const std::string& text, const std::string& file);

// One JSON value with the file it came from and its key path from the root (e.g.
// `models[2].path`, `grid["system.sram.read_latency"][1]`). Contract: every accessor that finds
// the wrong type, and fail(), throws InputError "<file>: key '<path>': <message>".
class JsonNode {
public:
  JsonNode(const nlohmann::ordered_json& value, std::string file, std::string path = "");

  const nlohmann::ordered_json& value() const { return *value_; }
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }

  // Object members. has() is false for non-objects; member() requires the member.
  bool has(std::string_view name) const;
  JsonNode member(std::string_view name) const;
  // Requires an object whose member names are all in `names` (suggests the nearest otherwise).
  void allowOnly(std::initializer_list<std::string_view> names) const;
  std::vector<std::pair<std::string, JsonNode>> members() const;   // requires an object
  std::vector<JsonNode> elements(bool nonEmpty = false) const;     // requires an array

  std::string string() const;
  bool boolean() const;
  int64_t integer() const;

  [[noreturn]] void fail(const std::string& message) const;

private:
  const nlohmann::ordered_json* value_;
  std::string file_;
  std::string path_;
};

} // namespace npusim
