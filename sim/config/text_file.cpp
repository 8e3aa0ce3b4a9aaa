// SPDX-License-Identifier: Apache-2.0
#include "sim/config/text_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/common/error.h"

namespace npusim::config {

std::string readTextFile(const std::string& path, std::string_view what) {
  InputError::Location loc;
  loc.file = path;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw InputError(loc, "cannot read " + std::string(what) + ": it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(loc, "cannot read " + std::string(what));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace npusim::config
