// SPDX-License-Identifier: Apache-2.0
#include "sim/common/json_node.h"

#include <cctype>

#include "sim/common/edit_distance.h"
#include "sim/common/error.h"

namespace npusim {
namespace {

bool isIdentifier(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) {
    return false;
  }
  for (const char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      return false;
    }
  }
  return true;
}

std::string typeText(const nlohmann::ordered_json& v) {
  return v.is_number_integer() || v.is_number_unsigned() ? "an integer" : v.is_number() ? "a number" : v.type_name();
}

} // namespace

nlohmann::ordered_json parseJsonText(const std::string& text, const std::string& file) {
  try {
    return nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann counts bytes from 1 (the last byte read); report a 0-based offset.
    throwAtOffset(file, e.byte == 0 ? 0 : e.byte - 1, "malformed JSON");
  }
}

JsonNode::JsonNode(const nlohmann::ordered_json& value, std::string file, std::string path)
    : value_(&value), file_(std::move(file)), path_(std::move(path)) {}

bool JsonNode::has(std::string_view name) const {
  return value_->is_object() && value_->contains(name);
}

JsonNode JsonNode::member(std::string_view name) const {
  if (!value_->is_object()) {
    fail(std::string("expected an object, got ") + typeText(*value_));
  }
  const std::string childPath = isIdentifier(name) ? (path_.empty() ? "" : path_ + ".") + std::string(name)
                                                   : path_ + "[\"" + std::string(name) + "\"]";
  const auto it = value_->find(name);
  if (it == value_->end()) {
    JsonNode(*value_, file_, childPath).fail("missing");
  }
  return JsonNode(*it, file_, childPath);
}

void JsonNode::allowOnly(std::initializer_list<std::string_view> names) const {
  for (const auto& [name, child] : members()) {
    bool known = false;
    for (const std::string_view n : names) {
      known = known || n == name;
    }
    if (!known) {
      std::string allowed;
      for (const std::string_view n : names) {
        allowed += (allowed.empty() ? "" : ", ") + std::string(n);
      }
      member(name).fail("unknown key; did you mean '" +
                        nearestName(name, std::vector<std::string_view>(names)) + "'? (allowed here: " +
                        allowed + ")");
    }
  }
}

std::vector<std::pair<std::string, JsonNode>> JsonNode::members() const {
  if (!value_->is_object()) {
    fail(std::string("expected an object, got ") + typeText(*value_));
  }
  std::vector<std::pair<std::string, JsonNode>> out;
  for (const auto& item : value_->items()) {
    out.emplace_back(item.key(), member(item.key()));
  }
  return out;
}

std::vector<JsonNode> JsonNode::elements(bool nonEmpty) const {
  if (!value_->is_array()) {
    fail(std::string("expected an array, got ") + typeText(*value_));
  }
  if (nonEmpty && value_->empty()) {
    fail("expected a non-empty array");
  }
  std::vector<JsonNode> out;
  for (size_t i = 0; i < value_->size(); ++i) {
    out.emplace_back((*value_)[i], file_, path_ + "[" + std::to_string(i) + "]");
  }
  return out;
}

std::string JsonNode::string() const {
  if (!value_->is_string()) {
    fail(std::string("expected a string, got ") + typeText(*value_));
  }
  return value_->get<std::string>();
}

bool JsonNode::boolean() const {
  if (!value_->is_boolean()) {
    fail(std::string("expected true or false, got ") + typeText(*value_));
  }
  return value_->get<bool>();
}

int64_t JsonNode::integer() const {
  if (!value_->is_number_integer() && !value_->is_number_unsigned()) {
    fail(std::string("expected an integer, got ") + typeText(*value_));
  }
  return value_->get<int64_t>();
}

void JsonNode::fail(const std::string& message) const {
  if (path_.empty()) {
    InputError::Location loc;
    loc.file = file_;
    throw InputError(loc, message);
  }
  throwForKey(file_, path_, message);
}

} // namespace npusim
