// SPDX-License-Identifier: Apache-2.0
#pragma once
// Typed errors for bad input and configuration; the CLI maps them to exit code 2.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace npusim {

// Bad input: a file, a byte offset (and command index) or a config key that is wrong.
// Contract: what() is one line naming the file and location; no trailing newline (control
// characters taken from the input are escaped, e.g. a newline as \n).
class InputError : public std::runtime_error {
public:
  struct Location {
    std::string file;                     // file path, or "<config>" / "<builtin>"
    std::optional<uint64_t> byteOffset;   // byte offset inside the file
    std::optional<uint32_t> commandIndex; // command index inside a command stream
    std::string key;                      // configuration key path
  };

  InputError(Location where, const std::string& message);

  const Location& where() const { return where_; }
  const std::string& message() const { return message_; }

private:
  static std::string format(const Location& where, const std::string& message);
  Location where_;
  std::string message_;
};

// Convenience constructors.
[[noreturn]] void throwAtOffset(const std::string& file, uint64_t offset, const std::string& message);
[[noreturn]] void throwForKey(const std::string& file, const std::string& key, const std::string& message);

} // namespace npusim
