// SPDX-License-Identifier: Apache-2.0
// The layering rule of docs/architecture.md: SystemC headers are included, directly or through
// project headers, only under models/ and sim/platform.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct SourceFile {
  std::vector<std::string> projectIncludes;   // "dir/file.h" paths from the source root
  bool includesSystemC = false;               // <systemc>, <tlm>, <tlm_utils/...>, <sysc/...>
};

std::map<std::string, SourceFile> scanSources(const fs::path& root) {
  const std::regex include(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  const std::regex systemc(R"(^(systemc|systemc\.h|tlm|tlm\.h|tlm_utils/.*|sysc/.*)$)");
  std::map<std::string, SourceFile> files;
  for (const char* top : {"sim", "models", "harness"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
      SourceFile& f = files[fs::relative(entry.path(), root).generic_string()];
      std::ifstream in(entry.path());
      std::smatch m;
      for (std::string line; std::getline(in, line);) {
        if (!std::regex_search(line, m, include)) continue;
        if (m[1] == "\"") {
          f.projectIncludes.push_back(m[2]);
        } else if (std::regex_match(m[2].str(), systemc)) {
          f.includesSystemC = true;
        }
      }
    }
  }
  return files;
}

// Whether `path` includes a SystemC header itself or through the project headers it includes.
bool reachesSystemC(const std::string& path, const std::map<std::string, SourceFile>& files,
                    std::map<std::string, bool>& memo) {
  if (const auto it = memo.find(path); it != memo.end()) return it->second;
  memo[path] = false;   // include cycles (none expected) end here
  const auto file = files.find(path);
  bool reaches = file != files.end() && file->second.includesSystemC;
  if (file != files.end()) {
    for (const std::string& inc : file->second.projectIncludes) {
      reaches = reaches || reachesSystemC(inc, files, memo);
    }
  }
  return memo[path] = reaches;
}

bool under(const std::string& path, const std::string& folder) { return path.rfind(folder, 0) == 0; }

} // namespace

TEST_CASE("layering: SystemC headers are reached only from models/ and sim/platform") {
  const auto files = scanSources(NPUSIM_SOURCE_DIR);
  std::map<std::string, bool> memo;
  // The scan sees SystemC where it is: the SystemC modules and the simulation driver.
  REQUIRE(files.count("models/npu/ethos_u.h") == 1);
  CHECK(reachesSystemC("models/npu/ethos_u.h", files, memo));
  CHECK(reachesSystemC("sim/platform/platform.cpp", files, memo));
  std::vector<std::string> offenders;
  for (const auto& [path, file] : files) {
    // harness/bench is the benchmark executable, whose main() hands over to SystemC itself.
    if (under(path, "models/") || under(path, "sim/platform/") || under(path, "harness/bench/")) continue;
    if (reachesSystemC(path, files, memo)) offenders.push_back(path);
  }
  INFO("files outside models/ and sim/platform that reach a SystemC header: " << offenders.size());
  for (const std::string& o : offenders) MESSAGE(o);
  CHECK(offenders.empty());
  // The plain headers the harness reads stay plain.
  CHECK_FALSE(reachesSystemC("sim/platform/run_result.h", files, memo));
  CHECK_FALSE(reachesSystemC("sim/platform/platform.h", files, memo));
  CHECK_FALSE(reachesSystemC("models/npu/npu_stats.h", files, memo));
}

TEST_CASE("layering: the bottom folders include only the folders below them") {
  // sim/common is the bottom; sim/arch (architecture descriptions) sits on it, sim/cmdstream
  // (decoding with an architecture's command set) on both (../shared/docs/ARCHITECTURE.md).
  const std::map<std::string, std::vector<std::string>> allowed{
      {"sim/common/", {"sim/common/"}},
      {"sim/arch/", {"sim/common/", "sim/arch/"}},
      {"sim/cmdstream/", {"sim/common/", "sim/arch/", "sim/cmdstream/"}},
  };
  const auto files = scanSources(NPUSIM_SOURCE_DIR);
  REQUIRE(files.count("sim/arch/architecture.h") == 1);
  std::vector<std::string> offenders;
  for (const auto& [path, file] : files) {
    for (const auto& [folder, below] : allowed) {
      if (!under(path, folder)) continue;
      for (const std::string& inc : file.projectIncludes) {
        bool ok = false;
        for (const std::string& b : below) ok = ok || under(inc, b);
        if (!ok) offenders.push_back(path + " includes " + inc);
      }
    }
  }
  INFO("includes from a folder above: " << offenders.size());
  for (const std::string& o : offenders) MESSAGE(o);
  CHECK(offenders.empty());
}
