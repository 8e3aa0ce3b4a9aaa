// SPDX-License-Identifier: Apache-2.0
#include "sim/common/sha256.h"

#include <sha2.h>

#include <array>
#include <cstdint>
#include <fstream>

#include "sim/common/error.h"

namespace npusim {

std::string sha256OfFile(const std::string& path) {
  InputError::Location loc;
  loc.file = path;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(loc, "cannot open for reading");
  }
  SHA2_CTX ctx;
  SHA256Init(&ctx);
  std::array<char, 1 << 16> buffer{};
  while (in) {
    in.read(buffer.data(), buffer.size());
    if (in.gcount() > 0) {
      SHA256Update(&ctx, reinterpret_cast<const uint8_t*>(buffer.data()), static_cast<size_t>(in.gcount()));
    }
  }
  if (in.bad()) {
    throw InputError(loc, "read error");
  }
  std::array<uint8_t, SHA256_DIGEST_LENGTH> digest{};
  SHA256Final(digest.data(), &ctx);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (const uint8_t byte : digest) {
    hex += kHex[byte >> 4];
    hex += kHex[byte & 0xf];
  }
  return hex;
}

} // namespace npusim
