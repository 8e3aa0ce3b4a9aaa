// SPDX-License-Identifier: Apache-2.0
// Layer attribution and bound labels: names agree with Vela's per-layer CSV (Vela 3.10's and
// 5.0's) whatever the working directory, every kernel operation of `run --csv` names its
// layer, weight-DMA waits count as flash, and a debug database of another model or a missing
// source model only warns.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
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
using npusim::test::runNpusimIn;

namespace {

const char* const kConfig = "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram";

// Vela's per-layer CSV "Name" column (Vela 3.10's: one header row per NPU subgraph; Vela
// 5.0's: one header row, "Original Operator" first).
std::vector<std::string> velaNames(const fs::path& csv) {
  std::ifstream in(csv);
  std::vector<std::string> names;
  std::string line;
  size_t name = SIZE_MAX;
  while (std::getline(in, line)) {
    const auto fields = npusim::splitCsvLine(line);
    if (!fields.empty() && (fields[0] == "TFLite_operator" || fields[0] == "Original Operator")) {
      name = static_cast<size_t>(std::find(fields.begin(), fields.end(), "Name") - fields.begin());
      continue;
    }
    if (name < fields.size()) names.push_back(fields[name]);
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
    REQUIRE(layers.size() == vela.size());
    // Row by row Vela's name: the source operator's first output tensor, with the suffix Vela
    // gives the parts of an operator it rewrites.
    for (size_t i = 0; i < layers.size(); ++i) {
      const std::string ours = layers[i].at("name").get<std::string>();
      ourNames.insert(ours);
      CHECK_MESSAGE(ours == vela[i], folder.name() << " row " << i);
    }

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

namespace {

std::vector<std::string> compareNames(const npusim::test::ProcessResult& r) {
  std::vector<std::string> names;
  const json parsed = json::parse(r.out);
  for (const json& l : parsed.at("layers")) names.push_back(l.at("name").get<std::string>());
  return names;
}

std::vector<std::string> runCsvLayers(const npusim::test::ProcessResult& r, const fs::path& csv) {
  REQUIRE(r.exitCode == 0);
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  const auto col = csvColumns(line);
  std::vector<std::string> layers;
  while (std::getline(in, line)) layers.push_back(npusim::splitCsvLine(line).at(col.at("layer")));
  return layers;
}

} // namespace

TEST_CASE("layers: compare and run name layers the same from any working directory and through a symlink") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  // kws_ref_model (the source model one folder up), YOLOv8n-pose, whose source operators
  // Vela numbers in another order than the model's and whose rows are rewritten parts, and
  // kws_ref_model compiled by Vela 5.0 (its debug database names the rows; no source model).
  std::vector<npusim::test::VelaFolder> folders{npusim::test::velaFolder(*root, "kws_ref_model", kConfig)};
  for (const auto& f : npusim::test::velaFolders(*root, "vela-extra")) {
    if (f.config == kConfig) folders.push_back(f);
  }
  for (const auto& f : npusim::test::velaFolders(*root, "vela5")) {
    if (f.config == kConfig && f.model == "kws_ref_model") folders.push_back(f);
  }
  npusim::test::TempDir tmp;
  for (const auto& folder : folders) {
    INFO(folder.name());
    const std::string bare = folder.tflite.filename().string();
    const std::string stem = bare.substr(0, bare.size() - 12);
    const std::vector<std::string> vela = velaNames(folder.dir / (stem + "_per-layer.csv"));
    // 1. compare: the bare name inside the folder, a relative path from the tree, the absolute
    //    path from elsewhere, and a symlink in another directory all give Vela's names.
    const auto inside = runNpusimIn(folder.dir, {"compare", bare, "--format", "json"});
    REQUIRE_MESSAGE(inside.exitCode == 0, inside.err);
    CHECK_MESSAGE(inside.err.empty(), inside.err);
    CHECK(compareNames(inside) == vela);
    const fs::path tree = folder.dir.parent_path().parent_path();
    const auto relative = runNpusimIn(
        tree, {"compare", (fs::path(folder.model) / folder.config / bare).string(), "--format", "json"});
    REQUIRE(relative.exitCode == 0);
    CHECK(compareNames(relative) == vela);
    const auto absolute =
        runNpusimIn(tmp.path(), {"compare", fs::absolute(folder.tflite).string(), "--format", "json"});
    REQUIRE(absolute.exitCode == 0);
    CHECK(compareNames(absolute) == vela);
    const fs::path link = tmp.path() / bare;
    fs::remove(link);
    fs::create_symlink(fs::absolute(folder.tflite), link);
    const auto linked = runNpusimIn(tmp.path(), {"compare", bare, "--format", "json"});
    REQUIRE(linked.exitCode == 0);
    CHECK_MESSAGE(linked.err.empty(), linked.err);
    CHECK(compareNames(linked) == vela);
    // 2. run --csv: every operation's layer the same inside the folder as by absolute path.
    const fs::path csvInside = tmp.path() / "inside.csv", csvAbsolute = tmp.path() / "absolute.csv";
    const auto runInside = runNpusimIn(folder.dir, {"run", bare, "--csv", csvInside.string()});
    const auto runAbsolute = runNpusim({"run", fs::absolute(folder.tflite).string(), "--csv", csvAbsolute.string()});
    CHECK(runInside.err.find("warning") == std::string::npos);
    const std::vector<std::string> layersInside = runCsvLayers(runInside, csvInside);
    CHECK(!layersInside.empty());
    CHECK(layersInside == runCsvLayers(runAbsolute, csvAbsolute));
    CHECK(std::none_of(layersInside.begin(), layersInside.end(),
                       [](const std::string& l) { return l.find("(source operator") != std::string::npos; }));
  }
}

TEST_CASE("layers: a debug database whose source model is missing warns once and names rows by type") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto kws = npusim::test::velaFolder(*root, "kws_ref_model", kConfig);
  npusim::test::TempDir tmp;
  fs::copy_file(kws.tflite, tmp.path() / "kws_ref_model_vela.tflite");
  fs::copy_file(kws.dir / "kws_ref_model_debug.xml", tmp.path() / "kws_ref_model_debug.xml");
  const auto c = runNpusimIn(tmp.path(), {"compare", "kws_ref_model_vela.tflite", "--format", "json"});
  REQUIRE(c.exitCode == 0);
  CHECK(std::count(c.err.begin(), c.err.end(), '\n') == 1);
  CHECK(c.err.rfind("npusim: warning: ", 0) == 0);
  CHECK(c.err.find("kws_ref_model.tflite") != std::string::npos);
  CHECK(c.err.find("not found") != std::string::npos);
  const std::vector<std::string> names = compareNames(c);
  REQUIRE(!names.empty());
  CHECK(names.front() == "CONV_2D (source operator 0)");
  // estimate: the same one line, and the CSV leaves Vela's names out rather than inventing them.
  const auto e = runNpusimIn(tmp.path(), {"estimate", "kws_ref_model_vela.tflite"});
  REQUIRE(e.exitCode == 0);
  CHECK(std::count(e.err.begin(), e.err.end(), '\n') == 1);
  CHECK(e.err.find("not found") != std::string::npos);
}
