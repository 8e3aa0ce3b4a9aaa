// SPDX-License-Identifier: Apache-2.0
#include "sim/common/error.h"

#include <sstream>

namespace npusim {

InputError::InputError(Location where, const std::string& message)
    : std::runtime_error(format(where, message)), where_(std::move(where)), message_(message) {}

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
