// SPDX-License-Identifier: Apache-2.0
#include "sim/common/sha256.h"

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>

#include "sim/common/error.h"

namespace npusim {

std::string sha256OfFile(const std::string& path) {
  InputError::Location loc;
  loc.file = path;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(loc, "cannot open for reading");
  }
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("OpenSSL cannot start a SHA-256 digest");
  }
  std::array<char, 1 << 16> buffer{};
  while (in) {
    in.read(buffer.data(), buffer.size());
    if (in.gcount() > 0 && EVP_DigestUpdate(ctx.get(), buffer.data(), static_cast<size_t>(in.gcount())) != 1) {
      throw std::runtime_error("OpenSSL SHA-256 update failed");
    }
  }
  if (in.bad()) {
    throw InputError(loc, "read error");
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest.data(), &size) != 1) {
    throw std::runtime_error("OpenSSL SHA-256 final failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xf];
  }
  return hex;
}

} // namespace npusim
