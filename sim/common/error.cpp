// SPDX-License-Identifier: Apache-2.0
#include "sim/common/error.h"

#include <sstream>

namespace npusim {

namespace {

// Control characters from the input (a JSON key, a vela.ini continuation line, a file name)
// would break the one-line contract: they are written as C escapes.
std::string escapeControl(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7F) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      const char* digits = "0123456789abcdef";
      out += "\\x";
      out += digits[u >> 4];
      out += digits[u & 0xF];
    }
  }
  return out;
}

} // namespace

InputError::InputError(Location where, const std::string& message)
    : std::runtime_error(escapeControl(format(where, message))), where_(std::move(where)), message_(message) {}

std::string InputError::format(const Location& where, const std::string& message) {
  std::ostringstream os;
  os << (where.file.empty() ? std::string("<input>") : where.file);
  if (where.byteOffset) {
    os << ": byte " << *where.byteOffset;
    std::ostringstream hex;
    hex << std::hex << *where.byteOffset;
    os << " (0x" << hex.str() << ")";
  }
  if (where.commandIndex) {
    os << ", command " << *where.commandIndex;
  }
  if (!where.key.empty()) {
    os << ": key '" << where.key << "'";
  }
  os << ": " << message;
  return os.str();
}

void throwAtOffset(const std::string& file, uint64_t offset, const std::string& message) {
  InputError::Location loc;
  loc.file = file;
  loc.byteOffset = offset;
  throw InputError(loc, message);
}

void throwForKey(const std::string& file, const std::string& key, const std::string& message) {
  InputError::Location loc;
  loc.file = file;
  loc.key = key;
  throw InputError(loc, message);
}

} // namespace npusim
