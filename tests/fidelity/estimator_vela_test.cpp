// SPDX-License-Identifier: Apache-2.0
// Acceptance test of the analytic estimator: on every Vela fixture folder (trees vela,
// vela-rnn, vela-u65 and vela-extra compiled by Vela 3.10; vela5, vela-u85 and vela-u85-extra by
// Vela 5.0), the model it picks for the file is the Vela that compiled it, the per-layer CSV it
// writes has Vela's rows, order, labels and names (Vela 5.0's Target included) and matches
// `<model>_per-layer.csv` within 1% in every cell of every row (Vela 3.10's SRAM Usage and Peak%,
// Vela 5.0's Staging Usage and Peak% (Staging) included), and its totals and bytes per memory
// area match `<model>_summary_<system_config>.csv` (0.5%).

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "harness/analytic/estimate_report.h"
#include "harness/analytic/estimator.h"
#include "harness/analytic/network_estimate.h"
#include "harness/analytic/vela_artifacts.h"
#include "sim/arch/npu_config.h"
#include "sim/common/csv.h"
#include "sim/config/config.h"
#include "sim/io/compiled_network.h"
#include "sim/io/decoded_network.h"
#include "models/platform/compile_target.h"
#include "support/fixtures.h"
#include "support/skip.h"

namespace fs = std::filesystem;
using npusim::analytic::NetworkEstimate;

namespace {

constexpr double kRowTolerance = 0.01;
constexpr double kTotalTolerance = 0.005;

using npusim::config::VelaVersion;

// Per-layer CSV columns compared, by name in Vela's header: the memory-usage columns (Vela
// 3.10's fast storage, Vela 5.0's staging memory), the cycles and the MACs.
using Columns = std::array<const char*, 9>;
constexpr Columns kColumns310{"SRAM Usage", "Peak%",      "Op Cycles",   "NPU",      "SRAM AC",
                              "DRAM AC",    "OnFlash AC", "OffFlash AC", "MAC Count"};
constexpr Columns kColumns50{"Staging Usage", "Peak% (Staging)", "Op Cycles",   "NPU",      "SRAM AC",
                             "DRAM AC",       "OnFlash AC",      "OffFlash AC", "MAC Count"};
const Columns& columnsOf(VelaVersion vela) { return vela == VelaVersion::V3_10 ? kColumns310 : kColumns50; }

// One fixture tree: the Vela that compiled it, and whether its models are estimated with the
// tree's own vela.ini (else the built-in presets, which are Vela 3.10's vela.ini). Every row's
// inputs are derived (depth-sliced weights re-encoded in one piece: no row is
// LayerEstimate::fullTransferApproximated).
struct Tree {
  const char* name;
  VelaVersion vela;
  bool ownIni;
};

// Summary totals compared.
constexpr std::array<const char*, 7> kTotals{"cycles_npu",
                                             "cycles_sram_access",
                                             "cycles_dram_access",
                                             "cycles_on_chip_flash_access",
                                             "cycles_off_chip_flash_access",
                                             "cycles_total",
                                             "nn_macs"};

std::vector<std::vector<std::string>> csvLines(std::istream& in) {
  std::vector<std::vector<std::string>> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line != "\r") {
      lines.push_back(npusim::splitCsvLine(line));
    }
  }
  return lines;
}

std::vector<std::vector<std::string>> readCsv(const fs::path& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, "cannot read " << path.string());
  return csvLines(in);
}

std::optional<fs::path> findFile(const fs::path& dir, const std::string& suffix) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return entry.path();
    }
  }
  return std::nullopt;
}

double relativeError(double expected, double actual) {
  if (expected == actual) {
    return 0;
  }
  return std::fabs(actual - expected) / std::max(std::fabs(expected), 1e-9);
}

// Measured agreement over all folders, reported at the end.
struct Stats {
  size_t folders = 0, rows = 0, exactRows = 0, rowsWithin = 0, namedRows = 0;
  std::array<double, kColumns310.size()> maxRowError{};
  std::array<double, kTotals.size()> maxTotalError{};
  double maxBytesError = 0;
};

// Index of `name` in a header row.
size_t columnOf(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  REQUIRE_MESSAGE(it != header.end(), "no column " << name);
  return static_cast<size_t>(it - header.begin());
}

// Compares one fixture folder; returns false when the folder is not a model x config folder.
bool checkFolder(const fs::path& dir, const Tree& tree, Stats& stats) {
  // 1. Folder name -> accelerator, system config, memory mode.
  static const std::regex kName(
      R"((ethos-u(?:55|65|85)-(\d+))_(Ethos_U(?:55|65|85)_[A-Za-z_]+?)_(Shared_Sram|Sram_Only|Dedicated_Sram(?:_\d+KB)?)(_optimiseSize)?)");
  std::smatch m;
  const std::string folder = dir.filename().string();
  const std::optional<fs::path> tflite = findFile(dir, "_vela.tflite");
  const std::optional<fs::path> perLayer = findFile(dir, "_per-layer.csv");
  if (!std::regex_match(folder, m, kName) || !tflite || !perLayer) {
    return false;
  }
  const std::optional<fs::path> summaryPath = findFile(dir, "_summary_" + m[3].str() + ".csv");
  REQUIRE_MESSAGE(summaryPath, "no summary CSV in " << dir.string());
  const std::string where = dir.parent_path().filename().string() + "/" + folder;
  INFO(where);

  // 2. Estimate with the system config the folder was compiled for, with the model of the Vela
  //    the file says compiled it.
  npusim::config::ConfigRequest request;
  request.systemConfig = m[3].str();
  request.memoryMode = m[4].str();
  request.accelerator = m[1].str();
  if (tree.ownIni) {
    request.velaIni = (dir.parent_path().parent_path() / "vela.ini").string();
  }
  const npusim::config::SystemParams params = npusim::config::resolveConfig(request);
  const npusim::io::CompiledNetwork net = npusim::io::loadNetwork(tflite->string());
  CHECK(npusim::platform::compiledBy(net) == tree.vela);
  const auto decoded = npusim::io::decodeAll(net);
  // The debug database, and for Vela 3.10 the source model (the rows' names), beside the folder.
  const npusim::analytic::VelaArtifacts vela = npusim::analytic::findVelaArtifacts(tflite->string(), "");
  REQUIRE(vela.db);
  CHECK_MESSAGE(vela.sourceWarning.empty(), vela.sourceWarning);
  CHECK(vela.source.has_value() == (tree.vela == VelaVersion::V3_10));
  const NetworkEstimate est = npusim::analytic::estimateNetwork(net, decoded, params, &*vela.db, tree.vela,
                                                                vela.source ? &*vela.source : nullptr);
  CHECK(std::to_string(est.hardware->macs) == m[2].str());
  std::vector<const npusim::analytic::LayerEstimate*> layers;
  for (const auto& sub : est.subgraphs) {
    for (const auto& e : sub.estimates) {
      layers.push_back(&e);
    }
  }

  // 3. Our CSV against Vela's: same header rows, labels and row order; numbers within 1%.
  std::ostringstream csv;
  npusim::analytic::writeVelaPerLayerCsv(csv, est);
  std::istringstream csvIn(csv.str());
  const auto ours = csvLines(csvIn);
  const auto theirs = readCsv(*perLayer);
  REQUIRE(ours.size() == theirs.size());
  const std::vector<std::string> header = npusim::splitCsvLine(
      tree.vela == VelaVersion::V5_0 ? npusim::analytic::kVela5PerLayerHeader : npusim::analytic::kVelaPerLayerHeader);
  // Labels: the source and Vela operator types, the row's name and (Vela 5.0) where it runs.
  const size_t nameColumn = columnOf(header, "Name");
  std::vector<size_t> labels{0, 1, nameColumn};
  if (tree.vela == VelaVersion::V5_0) {
    labels.push_back(columnOf(header, "Target"));
  }
  const Columns& columns = columnsOf(tree.vela);
  std::array<size_t, kColumns310.size()> index{};
  for (size_t c = 0; c < columns.size(); ++c) {
    index[c] = columnOf(header, columns[c]);
  }
  size_t layer = 0;
  for (size_t line = 0; line < theirs.size(); ++line) {
    const auto& t = theirs[line];
    const auto& o = ours[line];
    if (t.front() == header.front()) {
      CHECK(t == header);
      CHECK(o == header);
      continue;
    }
    REQUIRE(t.size() == header.size());
    REQUIRE(o.size() == header.size());
    REQUIRE(layer < layers.size());
    for (size_t l : labels) {
      CHECK_MESSAGE(o[l] == t[l], "row " << layer << " column " << header[l]);
    }
    stats.namedRows += o[nameColumn] == t[nameColumn] ? 1 : 0;
    // Every layer's full-transfer size is known (depth-sliced weights re-encoded in one piece).
    CHECK_MESSAGE(!layers[layer]->fullTransferApproximated, "row " << layer);
    bool exact = true, within = true;
    for (size_t c = 0; c < columns.size(); ++c) {
      const double expected = std::stod(t[index[c]]);
      const double actual = std::stod(o[index[c]]);
      const double err = relativeError(expected, actual);
      exact = exact && err == 0;
      within = within && err <= kRowTolerance;
      stats.maxRowError[c] = std::max(stats.maxRowError[c], err);
      CHECK_MESSAGE(err <= kRowTolerance, "row " << layer << " (" << t[1] << ") " << std::string(columns[c]) << ": Vela "
                                                 << expected << ", estimator " << actual);
    }
    stats.exactRows += exact ? 1 : 0;
    stats.rowsWithin += within ? 1 : 0;
    ++stats.rows;
    ++layer;
  }
  CHECK(layer == layers.size());

  // 4. Totals against Vela's summary.
  const auto summary = readCsv(*summaryPath);
  REQUIRE(summary.size() == 2);
  const std::array<double, kTotals.size()> ourTotals{
      est.totals.npuCycles,       est.totals.accessCycles[0], est.totals.accessCycles[1],
      est.totals.accessCycles[2], est.totals.accessCycles[3], est.totals.totalCycles,
      static_cast<double>(est.totals.macs)};
  for (size_t k = 0; k < kTotals.size(); ++k) {
    const auto col = std::find(summary[0].begin(), summary[0].end(), kTotals[k]);
    REQUIRE(col != summary[0].end());
    const double expected = std::stod(summary[1][static_cast<size_t>(col - summary[0].begin())]);
    const double err = relativeError(expected, ourTotals[k]);
    stats.maxTotalError[k] = std::max(stats.maxTotalError[k], err);
    CHECK_MESSAGE(err <= kTotalTolerance, std::string(kTotals[k]) << ": Vela " << expected << ", estimator " << ourTotals[k]);
  }
  // 5. Bytes per memory area as Vela's bandwidth report counts them.
  static const std::array<const char*, 4> kAreas{"sram", "dram", "on_chip_flash", "off_chip_flash"};
  for (size_t a = 0; a < kAreas.size(); ++a) {
    const npusim::analytic::AreaTraffic& t = est.totals.traffic[a];
    const std::array<std::pair<std::string, double>, 5> bytes{{{"feature_map_read", t.featureMapRead},
                                                               {"feature_map_write", t.featureMapWrite},
                                                               {"weight_read", t.weightRead},
                                                               {"weight_write", t.weightWrite},
                                                               {"total", t.total()}}};
    for (const auto& [kind, value] : bytes) {
      const std::string key = std::string(kAreas[a]) + "_" + kind + "_bytes";
      const auto col = std::find(summary[0].begin(), summary[0].end(), key);
      REQUIRE(col != summary[0].end());
      const double expected = std::stod(summary[1][static_cast<size_t>(col - summary[0].begin())]);
      const double err = relativeError(expected, value);
      stats.maxBytesError = std::max(stats.maxBytesError, err);
      CHECK_MESSAGE(err <= kTotalTolerance, key << ": Vela " << expected << ", estimator " << value);
    }
  }
  ++stats.folders;
  return true;
}

// Checks every model x config folder of one fixture tree and reports the measured agreement.
void checkTree(const Tree& tree) {
  const std::optional<fs::path> root = npusim::test::fixtureOrSkip(tree.name);
  if (!root) {
    return;
  }
  std::vector<fs::path> folders;
  for (const auto& model : fs::directory_iterator(*root)) {
    if (model.is_directory()) {
      for (const auto& config : fs::directory_iterator(model.path())) {
        if (config.is_directory()) {
          folders.push_back(config.path());
        }
      }
    }
  }
  if (folders.empty()) {
    npusim::test::skip("no <model>/<config>/ folders in " + root->string());
    return;
  }
  std::sort(folders.begin(), folders.end());
  Stats stats;
  for (const fs::path& dir : folders) {
    checkFolder(dir, tree, stats);
  }
  CHECK(stats.folders > 0);
  std::ostringstream report;
  report << tree.name << ": " << stats.folders << " folders, " << stats.rows << " rows, " << stats.namedRows
         << " with Vela's name, " << stats.rowsWithin << " within 1% in every column checked, " << stats.exactRows
         << " exact; max relative error per column:";
  const Columns& columns = columnsOf(tree.vela);
  for (size_t c = 0; c < columns.size(); ++c) {
    report << ' ' << columns[c] << ' ' << stats.maxRowError[c] * 100 << '%';
  }
  report << "; totals:";
  for (size_t k = 0; k < kTotals.size(); ++k) {
    report << ' ' << kTotals[k] << ' ' << stats.maxTotalError[k] * 100 << '%';
  }
  report << "; bytes per area " << stats.maxBytesError * 100 << '%';
  MESSAGE(report.str());
}

} // namespace

TEST_CASE("estimator reproduces Vela's per-layer and summary estimates on every vela fixture folder") {
  checkTree({"vela", VelaVersion::V3_10, false});
}

TEST_CASE("estimator reproduces Vela's per-layer and summary estimates on every vela-rnn fixture folder") {
  checkTree({"vela-rnn", VelaVersion::V3_10, false});
}

TEST_CASE("estimator reproduces Vela's per-layer and summary estimates on every vela-u65 fixture folder") {
  checkTree({"vela-u65", VelaVersion::V3_10, false});
}

TEST_CASE("estimator reproduces Vela's per-layer and summary estimates on every vela-extra fixture folder") {
  checkTree({"vela-extra", VelaVersion::V3_10, false});
}

TEST_CASE("estimator reproduces Vela 5.0's per-layer and summary estimates on every vela5 fixture folder") {
  checkTree({"vela5", VelaVersion::V5_0, true});
}

TEST_CASE("estimator reproduces Vela 5.0's per-layer and summary estimates on every vela-u85 fixture folder") {
  checkTree({"vela-u85", VelaVersion::V5_0, true});
}

// Compiles of the kit's networks outside the vela-u85 matrix: float-interface models (a QUANTIZE
// and a DEQUANTIZE left on the CPU, Vela 5.0's Passthrough rows) and large convolutions whose
// weights are buffered from flash without pre-buffering.
TEST_CASE("estimator reproduces Vela 5.0's per-layer and summary estimates on every vela-u85-extra fixture folder") {
  checkTree({"vela-u85-extra", VelaVersion::V5_0, true});
}

// The fixtures have a Memcpy between memory areas only as a first row (no slack before it);
// Vela hides such a DMA under the previous layer's slack like any other non-weight DMA.
TEST_CASE("a Memcpy between memory areas costs its DMA less the previous layer's slack") {
  using npusim::analytic::MemArea;
  // Ethos_U65_High_End (vela.ini) on the U65's 128-bit AXI: DRAM 0.234375 x 16 = 3.75
  // bytes/cycle, read latency 500; SRAM 16 bytes/cycle.
  npusim::config::ConfigRequest request;
  request.systemConfig = "Ethos_U65_High_End";
  request.memoryMode = "Dedicated_Sram";
  request.accelerator = "ethos-u65-256";
  const npusim::config::SystemParams params = npusim::config::resolveConfig(request);
  const npusim::analytic::VelaSystem system(params, *npusim::arch::findNpuConfig("ethos-u65-256"));
  const npusim::analytic::Estimator estimator(system);
  npusim::analytic::Layer copy;
  copy.query.op = npusim::analytic::LayerOp::Memcpy;
  copy.copy = npusim::analytic::FeatureMapCopy{MemArea::Dram, MemArea::Sram, 1968};
  // DMA: max(floor(1968 / 3.75) + 500, floor(1968 / 16)) = 1024 cycles.
  CHECK(estimator.estimateLayer(copy, 0).npuCycles == 1024);
  CHECK(estimator.estimateLayer(copy, 300).npuCycles == 724);
  CHECK(estimator.estimateLayer(copy, 2000).npuCycles == 0);
  const npusim::analytic::LayerEstimate e = estimator.estimateLayer(copy, 300);
  CHECK(e.totalCycles == 724);
  CHECK(e.slackCycles == 0);
  CHECK(e.traffic[1].featureMapRead == 1968);    // DRAM
  CHECK(e.traffic[0].featureMapWrite == 1968);   // SRAM
  // Within one area: nothing.
  copy.copy = npusim::analytic::FeatureMapCopy{MemArea::Sram, MemArea::Sram, 1968};
  CHECK(estimator.estimateLayer(copy, 0).npuCycles == 0);
}

// The detection rule on the compiles of other Velas: Python Vela up to 3.2 wrote the same
// description as Vela 5.0's C++ back end ("Vela Optimised", no version), so the command
// stream's tensor name decides. mlek/compiled (Vela 2.1.1 to 3.10) and fvp (Vela 3.9 and the
// Vela 5.0 compiles; the Ethos-U85 ones are not loaded yet).
TEST_CASE("the Vela a compile is detected as: Python Vela's (2.1 to 3.10) as 3.10, Vela 5.0's C++ back end's as 5.0") {
  for (const char* tree : {"mlek/compiled", "fvp"}) {
    const std::optional<fs::path> root = npusim::test::fixtureOrSkip(tree);
    if (!root) {
      continue;
    }
    size_t checked = 0;
    for (const auto& entry : fs::recursive_directory_iterator(*root)) {
      const std::string path = entry.path().string();
      if (entry.path().extension() != ".tflite" || entry.path().parent_path().filename().string().rfind("ethos-u85", 0) == 0) {
        continue;
      }
      INFO(path);
      const npusim::io::CompiledNetwork net = npusim::io::loadNetwork(path);
      const std::string within = fs::relative(entry.path(), *root).string();
      const bool regor = within.rfind("vela5/", 0) == 0;
      CHECK(npusim::platform::compiledBy(net) == (regor ? VelaVersion::V5_0 : VelaVersion::V3_10));
      ++checked;
    }
    MESSAGE(std::string(tree) << ": " << checked << " compiles");
    CHECK(checked > 0);
  }
}

// The measured FVP compiles (fvp/vela5/<model>/<accelerator>/) come without Vela's debug
// database: the operations are grouped from the stream alone. Their Vela 5.0 totals must still
// match the summary CSV Vela wrote beside each (within 1%).
TEST_CASE("estimator reproduces Vela 5.0's summary totals of the FVP compiles without a debug database") {
  const std::optional<fs::path> root = npusim::test::fixtureOrSkip("fvp/vela5");
  const std::optional<fs::path> ini = npusim::test::fixtureOrSkip("fvp/mlek_default_vela.ini");
  if (!root || !ini) {
    return;
  }
  size_t compiles = 0;
  double worst = 0;
  for (const auto& model : fs::directory_iterator(*root)) {
    for (const auto& accel : fs::directory_iterator(model.path())) {
      const std::string name = accel.path().filename().string();
      const bool u55 = name.rfind("ethos-u55", 0) == 0;
      if (!u55 && name.rfind("ethos-u65", 0) != 0) {
        continue;   // the Ethos-U85 compiles: not estimated yet
      }
      INFO(accel.path().string());
      const std::optional<fs::path> tflite = findFile(accel.path(), "_vela.tflite");
      const std::optional<fs::path> summaryPath = findFile(accel.path(), ".csv");
      REQUIRE(tflite);
      REQUIRE(summaryPath);
      npusim::config::ConfigRequest request;
      request.velaIni = ini->string();
      request.systemConfig = u55 ? "Ethos_U55_High_End_Embedded" : "Ethos_U65_High_End";
      request.memoryMode = u55 ? "Shared_Sram" : "Dedicated_Sram";
      request.accelerator = name;
      const npusim::config::SystemParams params = npusim::config::resolveConfig(request);
      const npusim::io::CompiledNetwork net = npusim::io::loadNetwork(tflite->string());
      CHECK(npusim::platform::compiledBy(net) == VelaVersion::V5_0);
      const NetworkEstimate est =
          npusim::analytic::estimateNetwork(net, npusim::io::decodeAll(net), params, nullptr, VelaVersion::V5_0);
      const auto summary = readCsv(*summaryPath);
      REQUIRE(summary.size() == 2);
      const std::array<std::pair<const char*, double>, 3> totals{
          {{"cycles_npu", est.totals.npuCycles}, {"cycles_total", est.totals.totalCycles},
           {"nn_macs", static_cast<double>(est.totals.macs)}}};
      for (const auto& [key, value] : totals) {
        const double expected = std::stod(summary[1][columnOf(summary[0], key)]);
        const double err = relativeError(expected, value);
        worst = std::max(worst, err);
        CHECK_MESSAGE(err <= kRowTolerance, key << ": Vela " << expected << ", estimator " << value);
      }
      ++compiles;
    }
  }
  CHECK(compiles > 0);
  MESSAGE("fvp/vela5: " << compiles << " Ethos-U55/U65 compiles, worst relative error of cycles_npu, cycles_total, "
                        << "nn_macs " << worst * 100 << '%');
}
