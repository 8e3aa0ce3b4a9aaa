// SPDX-License-Identifier: Apache-2.0
#include "sim/config/json_config.h"

#include <algorithm>

#include "sim/common/error.h"
#include "sim/config/text_file.h"

namespace npusim::config {

namespace {

// nlohmann's what() without its "[json.exception.<kind>.<id>] " prefix.
std::string jsonMessage(const nlohmann::json::exception& e) {
  const std::string message = e.what();
  const size_t bracket = message.find("] ");
  return message.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos ? message.substr(bracket + 2)
                                                                                      : message;
}

// Deepest nesting of arrays and objects accepted; npusim configs nest 4 deep. A deeply nested
// value overflows the stack in nlohmann's recursive dump(), which error messages use.
constexpr size_t kMaxJsonDepth = 64;

// Throws InputError at the first bracket that nests deeper than kMaxJsonDepth (brackets inside
// strings do not count); malformed text is left to the parser.
void checkNesting(std::string_view text, const std::string& file) {
  size_t depth = 0;
  bool inString = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        inString = false;
      }
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        throwAtOffset(file, i, "malformed JSON: arrays and objects nest more than " + std::to_string(kMaxJsonDepth) +
                                   " levels deep");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

bool isGroup(std::string_view path) {
  const auto& groups = keyGroups();
  return std::binary_search(groups.begin(), groups.end(), path);
}

void applyObject(const nlohmann::json& object, const std::string& prefix, const Origin& origin,
                 ConfigBuilder& builder) {
  for (const auto& [name, value] : object.items()) {
    const std::string path = prefix.empty() ? name : prefix + "." + name;
    if (name.empty() || name.find('.') != std::string::npos) {
      throwAt(origin, path, "JSON member names are single path components; nest objects instead of using dots");
    }
    if (const ConfigKey* key = findKey(path)) {
      builder.set(*key, parseJson(*key, value, origin), origin);
    } else if (isGroup(path)) {
      if (!value.is_object()) {
        throwAt(origin, path, "is a group of keys; expected an object, got " + std::string(value.type_name()));
      }
      applyObject(value, path, origin, builder);
    } else {
      throwAt(origin, path,
              "unknown key; did you mean '" + nearestKey(path, value.is_object()) +
                  "'? (npusim config --list shows all keys)");
    }
  }
}

} // namespace

void applyJsonText(std::string_view text, const std::string& file, ConfigBuilder& builder) {
  checkNesting(text, file);
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann counts bytes from 1 (the last byte read); the error reports a 0-based offset.
    throwAtOffset(file, e.byte == 0 ? 0 : e.byte - 1, "malformed JSON: " + jsonMessage(e));
  } catch (const nlohmann::json::exception& e) {
    InputError::Location loc;
    loc.file = file;
    throw InputError(loc, "malformed JSON: " + jsonMessage(e));
  }
  if (!root.is_object()) {
    InputError::Location loc;
    loc.file = file;
    throw InputError(loc, std::string("expected a JSON object at the top level, got ") + root.type_name());
  }
  applyObject(root, "", Origin{file, "", ""}, builder);
}

void applyJsonFile(const std::string& path, ConfigBuilder& builder) {
  applyJsonText(readTextFile(path, "JSON config file"), path, builder);
}

nlohmann::ordered_json toJson(const SystemParams& params) {
  nlohmann::ordered_json root = nlohmann::ordered_json::object();
  for (const auto& key : schema()) {
    if (!keyApplies(key, params)) {
      continue;   // a port the configuration does not have (U85: sram2, sram3, ext1 on the smaller ones)
    }
    std::string pointer = "/" + std::string(key.path);
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    root[nlohmann::ordered_json::json_pointer(pointer)] = jsonValue(key, params);
  }
  return root;
}

} // namespace npusim::config
