// SPDX-License-Identifier: Apache-2.0
// Layer attribution and bound labels: names agree with Vela's per-layer CSV, every kernel
// operation of `run --csv` names its layer, weight-DMA waits count as flash, and a debug
// database of another model only warns.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "sim/common/csv.h"
#include "support/fixtures.h"
#include "support/skip.h"

namespace fs = std::filesystem;
using nlohmann::json;
using npusim::test::runNpusim;

namespace {

const char* const kConfig = "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram";

// Vela's per-layer CSV "Name" column (one header row per NPU subgraph).
std::vector<std::string> velaNames(const fs::path& csv) {
  std::ifstream in(csv);
  std::vector<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    const auto fields = npusim::splitCsvLine(line);
    if (fields.size() < 15 || fields[0] == "TFLite_operator") continue;
    names.push_back(fields[14]);
  }
  return names;
}

std::map<std::string, size_t> csvColumns(const std::string& header) {
  std::map<std::string, size_t> columns;
  const auto fields = npusim::splitCsvLine(header);
  for (size_t i = 0; i < fields.size(); ++i) columns[fields[i]] = i;
  return columns;
}

} // namespace

TEST_CASE("layers: compare and run --csv name every layer as Vela's per-layer CSV does") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  npusim::test::TempDir tmp;
  size_t models = 0;
  for (const auto& folder : npusim::test::velaFolders(*root)) {
    if (folder.config != kConfig) continue;
    const std::string stem = folder.tflite.filename().string().substr(0, folder.tflite.filename().string().size() - 12);
    const fs::path perLayer = folder.dir / (stem + "_per-layer.csv");
    if (!fs::exists(folder.dir / (stem + "_debug.xml")) || !fs::exists(perLayer)) continue;
    ++models;
    const auto cmp = runNpusim({"compare", folder.tflite.string(), "--format", "json"});
    REQUIRE_MESSAGE(cmp.exitCode == 0, folder.name() << ": " << cmp.err);
    CHECK_MESSAGE(cmp.err.empty(), folder.name() << ": " << cmp.err);
    const json layers = json::parse(cmp.out).at("layers");
    const std::vector<std::string> vela = velaNames(perLayer);
    std::set<std::string> ourNames;
    size_t velaNamed = 0, exact = 0;
    REQUIRE(layers.size() == vela.size());
    // Vela names a row after its source operator's output tensor; rows of operators it
    // rewrites (MEAN -> depthwise + mul) get that name with a suffix. Rows are matched by
    // name, not position (the order of the estimate's rows is not always Vela's).
    std::multiset<std::string> unmatched(vela.begin(), vela.end());
    for (size_t i = 0; i < layers.size(); ++i) {
      const std::string ours = layers[i].at("name").get<std::string>();
      ourNames.insert(ours);
      CHECK_MESSAGE(!ours.empty(), folder.name() << " row " << i << " has no name");
      if (const auto it = unmatched.find(ours); it != unmatched.end()) {
        unmatched.erase(it);
        ++exact;
      }
    }
    for (const std::string& v : unmatched) {
      // Left over: rewritten operators (their name extends one of ours), or rows Vela could
      // not name because the source tensor has none (then ours name the operator instead).
      const bool extendsOurs = std::any_of(ourNames.begin(), ourNames.end(), [&](const std::string& o) {
        return !v.empty() && v.size() > o.size() && v.compare(0, o.size(), o) == 0;
      });
      CHECK_MESSAGE((v.empty() || extendsOurs), folder.name() << ": Vela row '" << v << "' matches none of ours");
      velaNamed += v.empty() ? 0 : 1;   // rewritten rows
    }
    if (exact + velaNamed > 0) CHECK(exact > 0);   // rows of operators Vela kept carry their name unchanged

    const fs::path csv = tmp.path() / "ops.csv";
    const auto run = runNpusim({"run", folder.tflite.string(), "--csv", csv.string()});
    REQUIRE(run.exitCode == 0);
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    const auto col = csvColumns(line);
    REQUIRE(col.count("layer") == 1);
    while (std::getline(in, line)) {
      const auto fields = npusim::splitCsvLine(line);
      const std::string kind = fields.at(col.at("kind"));
      if (kind == "CONV" || kind == "DEPTHWISE" || kind == "POOL" || kind == "ELEMENTWISE") {
        const std::string layer = fields.at(col.at("layer"));
        CHECK_MESSAGE(ourNames.count(layer) == 1, folder.name() << ": operation layer '" << layer << "' is no row of compare");
      }
    }
    CHECK(run.out.find("slowest layers") != std::string::npos);
  }
  if (models == 0) npusim::test::skip(std::string("no ") + kConfig + " fixture folder with a debug database and a per-layer CSV");
}

TEST_CASE("bound: time spent waiting for weight DMAs from flash is labelled flash") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  // mobilenet_v2 at 256 MACs: layer 1.61, the second-slowest in Vela's and npusim's numbers,
  // waits for its weights' DMA from off-chip flash.
  const auto mobilenet = npusim::test::velaFolder(*root, "mobilenet_v2_quantized_1x3x224x224",
                                                  "ethos-u55-256_Ethos_U55_High_End_Embedded_Shared_Sram");
  const auto m = runNpusim({"compare", mobilenet.tflite.string(), "--format", "json"});
  REQUIRE(m.exitCode == 0);
  const json ml = json::parse(m.out).at("layers");
  REQUIRE(ml.size() > 61);
  CHECK(ml[61].at("subgraph") == 1);
  CHECK(ml[61].at("bound") == "flash");
  // person_detect at 256 MACs: most of the simulated time is such waits.
  const auto person = npusim::test::velaFolder(*root, "person_detect", "ethos-u55-256_Ethos_U55_High_End_Embedded_Shared_Sram");
  const auto p = runNpusim({"compare", person.tflite.string(), "--format", "json"});
  REQUIRE(p.exitCode == 0);
  double flash = 0, total = 0;
  const json pl = json::parse(p.out).at("layers");
  for (const json& l : pl) {
    total += l.at("sim_cycles").get<double>();
    if (l.at("bound") == "flash") flash += l.at("sim_cycles").get<double>();
  }
  CHECK(flash > 0.5 * total);
}

TEST_CASE("layers: a debug database of another model warns once and names come from the .tflite") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto kws = npusim::test::velaFolder(*root, "kws_ref_model", kConfig);
  const auto other = npusim::test::velaFolder(*root, "person_detect", kConfig);
  npusim::test::TempDir tmp;
  const fs::path model = tmp.path() / "kws_ref_model_vela.tflite";
  fs::copy_file(kws.tflite, model);
  fs::copy_file(other.dir / "person_detect_debug.xml", tmp.path() / "kws_ref_model_debug.xml");
  const fs::path csv = tmp.path() / "ops.csv";
  const auto r = runNpusim({"run", model.string(), "--csv", csv.string()});
  REQUIRE(r.exitCode == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 2);   // the warning, then the wall-time line
  CHECK(r.err.find("warning") != std::string::npos);
  CHECK(r.err.find("kws_ref_model_debug.xml") != std::string::npos);
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  const auto col = csvColumns(line);
  size_t named = 0;
  while (std::getline(in, line)) {
    const auto fields = npusim::splitCsvLine(line);
    const std::string kind = fields.at(col.at("kind"));
    if (kind != "CONV" && kind != "DEPTHWISE" && kind != "POOL" && kind != "ELEMENTWISE") continue;
    // Named after the operation itself, not after person_detect's layers.
    CHECK(fields.at(col.at("layer")).rfind(kind + " @0x", 0) == 0);
    ++named;
  }
  CHECK(named > 0);
  // compare too: the estimate then has one row per kernel operation, named after it.
  const auto c = runNpusim({"compare", model.string(), "--format", "json"});
  REQUIRE(c.exitCode == 0);
  CHECK(std::count(c.err.begin(), c.err.end(), '\n') == 1);
  const json cl = json::parse(c.out).at("layers");
  REQUIRE(cl.size() == named);
  for (const json& l : cl) CHECK(l.at("name").get<std::string>().find(" @0x") != std::string::npos);
}
