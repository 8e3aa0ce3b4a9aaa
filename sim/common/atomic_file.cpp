// SPDX-License-Identifier: Apache-2.0
#include "sim/common/atomic_file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "sim/common/error.h"

namespace npusim {

void writeFileAtomically(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp";
  InputError::Location loc;
  loc.file = tmp;
  {
    std::ofstream out(tmp, std::ios::binary);
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw InputError(loc, "cannot write");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    loc.file = path;
    throw InputError(loc, "cannot replace the file: " + ec.message());
  }
}

} // namespace npusim
