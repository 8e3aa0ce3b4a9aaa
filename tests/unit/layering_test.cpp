// SPDX-License-Identifier: Apache-2.0
// The layering rules of docs/architecture.md: SystemC headers are included, directly or through
// project headers, only under models/; every folder includes only the folders below it.
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

TEST_CASE("layering: SystemC headers are reached only from models/") {
  const auto files = scanSources(NPUSIM_SOURCE_DIR);
  std::map<std::string, bool> memo;
  // The scan sees SystemC where it is: the SystemC modules and the simulation driver.
  REQUIRE(files.count("models/npu/ethos_u.h") == 1);
  CHECK(reachesSystemC("models/npu/ethos_u.h", files, memo));
  CHECK(reachesSystemC("models/platform/platform.cpp", files, memo));
  std::vector<std::string> offenders;
  for (const auto& [path, file] : files) {
    // harness/bench is the benchmark executable, whose main() hands over to SystemC itself.
    if (under(path, "models/") || under(path, "harness/bench/")) continue;
    if (reachesSystemC(path, files, memo)) offenders.push_back(path);
  }
  INFO("files outside models/ that reach a SystemC header: " << offenders.size());
  for (const std::string& o : offenders) MESSAGE(o);
  CHECK(offenders.empty());
  // The plain headers the harness reads stay plain.
  CHECK_FALSE(reachesSystemC("models/platform/run_result.h", files, memo));
  CHECK_FALSE(reachesSystemC("models/platform/platform.h", files, memo));
  CHECK_FALSE(reachesSystemC("models/npu/npu_stats.h", files, memo));
}

// The folders bottom to top (docs/architecture.md, "Layers"): sim/ the plain-C++ lower layers,
// models/ the SystemC models and the platform that wires them, harness/ everything above. A
// file includes only its own folder and the folders before it, so the order is also a proof
// that no two folders include each other.
const std::vector<std::string> kLayers{
    "sim/common/",     "sim/arch/",      "sim/cmdstream/",   "sim/io/",           "sim/config/",
    "models/mem/",     "models/npu/",    "models/cpu/",      "models/platform/",  "harness/process/", "harness/probe/",
    "harness/analytic/", "harness/report/", "harness/compare/", "harness/sweep/", "harness/regress/",
    "harness/bench/",  "harness/cli/"};

// The position of the folder holding `path` in kLayers, or -1.
int layerOf(const std::string& path) {
  for (size_t i = 0; i < kLayers.size(); ++i) {
    if (under(path, kLayers[i])) return static_cast<int>(i);
  }
  return -1;
}

TEST_CASE("layering: every folder includes only itself and the folders below it") {
  const auto files = scanSources(NPUSIM_SOURCE_DIR);
  REQUIRE(files.count("sim/arch/architecture.h") == 1);
  // The scan sees an upward include where there is one (the CLI includes the platform).
  REQUIRE(files.count("harness/cli/run.cpp") == 1);
  CHECK(layerOf("harness/cli/run.cpp") > layerOf("models/platform/platform.h"));
  std::vector<std::string> offenders;
  for (const auto& [path, file] : files) {
    const int layer = layerOf(path);
    if (layer < 0) {
      offenders.push_back(path + " is in no folder of the layer order (add its folder to kLayers)");
      continue;
    }
    for (const std::string& inc : file.projectIncludes) {
      const int below = layerOf(inc);
      // Headers outside the three trees (the generated schema) are below every folder.
      if (below > layer) offenders.push_back(path + " includes " + inc + ", a folder above it");
    }
  }
  INFO("includes from a folder above: " << offenders.size());
  for (const std::string& o : offenders) MESSAGE(o);
  CHECK(offenders.empty());
}
