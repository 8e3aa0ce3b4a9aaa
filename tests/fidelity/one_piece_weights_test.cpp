// SPDX-License-Identifier: Apache-2.0
// The one-piece size of depth-sliced weights (harness/analytic/weight_slices: the slices'
// streams decoded, put back into the weight volume through the architecture's weight order and
// encoded again over the whole depth) against Vela 5.0's own: on every folder of the vela5
// (Ethos-U55/U65) and vela-u85 fixture trees, each scheduled operation whose weights are DMA'd
// in more than one depth slice is timed in one piece by Vela's scheduler, and the debug
// database records that transfer's cycles (perf_debug weight_transfer_cycles). The one-piece
// size npusim computes must give the same cycles through the model's memory-to-memory cost.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "harness/analytic/network_estimate.h"
#include "harness/analytic/vela_artifacts.h"
#include "harness/analytic/vela5_performance.h"
#include "sim/config/config.h"
#include "sim/io/decoded_network.h"
#include "support/fixtures.h"
#include "support/skip.h"
#include "support/vela5_perf_tables.h"

namespace fs = std::filesystem;
using namespace npusim;

namespace {

struct Counts {
  size_t folders = 0, sliced = 0;
  std::map<std::string, size_t> byFormat;   // Vela's weight format and the weight streams per slice
};

void checkFolder(const test::VelaFolder& folder, const fs::path& ini, Counts& counts) {
  static const std::regex kName(
      R"((ethos-u(?:55|65|85)-\d+)_(Ethos_U(?:55|65|85)_[A-Za-z_]+?)_(Shared_Sram|Sram_Only|Dedicated_Sram(?:_\d+KB)?)(_optimiseSize)?)");
  std::smatch m;
  REQUIRE(std::regex_match(folder.config, m, kName));
  INFO(folder.name());
  config::ConfigRequest request;
  request.velaIni = ini.string();
  request.accelerator = m[1].str();
  request.systemConfig = m[2].str();
  request.memoryMode = m[3].str();
  const config::SystemParams params = config::resolveConfig(request);
  const io::CompiledNetwork net = test::loadModel(folder);
  const auto decoded = io::decodeAll(net);
  const analytic::VelaArtifacts vela = analytic::findVelaArtifacts(folder.tflite.string(), "");
  REQUIRE(vela.db);
  const analytic::NetworkEstimate est =
      analytic::estimateNetwork(net, decoded, params, &*vela.db, config::VelaVersion::V5_0);
  REQUIRE(est.vela5System);
  const std::unique_ptr<analytic::vela5::ArchitecturePerformance> model =
      analytic::vela5::makeArchitecturePerformance(*est.vela5System);
  std::map<int, test::Vela5OpRecord> records;
  for (test::Vela5OpRecord& r : test::readVela5PerfTables(vela.debugDbPath)) {
    records.emplace(r.id, std::move(r));
  }
  for (const analytic::SubgraphEstimate& sub : est.subgraphs) {
    for (const analytic::vela5::ScheduledOp& op : sub.vela5) {
      const analytic::vela5::WeightTransfer& w = op.weights;
      if (!w.buffered || w.cascaded || w.depthSlices.size() <= 2) {
        continue;
      }
      INFO("scheduled operation " << op.spec.id);
      const auto record = records.find(op.spec.id);
      REQUIRE(record != records.end());
      const int64_t theirs = record->second.integer(record->second.debug, "weight_transfer_cycles");
      CHECK(w.onePieceBytes > 0);
      const int64_t ours = model->memToMemCycles(est.vela5System->staging(), est.vela5System->readonly(),
                                                 static_cast<int64_t>(w.onePieceBytes));
      CHECK_MESSAGE(ours == theirs, "one piece " << w.onePieceBytes << " bytes: " << ours << " cycles, Vela " << theirs);
      ++counts.sliced;
      ++counts.byFormat[record->second.debug.at("weight_format") + " x" +
                        record->second.debug.at("weight_sub_streams")];
    }
  }
  ++counts.folders;
}

void checkTree(const std::string& name) {
  const std::optional<fs::path> root = test::fixturesDirOrSkip();
  if (!root) {
    return;
  }
  Counts counts;
  for (const test::VelaFolder& folder : test::velaFoldersOrSkip(*root, name)) {
    checkFolder(folder, *root / name / "vela.ini", counts);
  }
  CHECK(counts.folders > 0);
  CHECK(counts.sliced > 0);
  std::ostringstream report;
  report << name << ": " << counts.folders << " folders, " << counts.sliced
         << " depth-sliced operations timed in one piece; by Vela's weight format x streams:";
  for (const auto& [format, n] : counts.byFormat) {
    report << ' ' << format << ' ' << n;
  }
  MESSAGE(report.str());
}

} // namespace

TEST_CASE("one-piece weight size of every depth-sliced vela5 operation gives Vela 5.0's full weight transfer cycles") {
  checkTree("vela5");
}

TEST_CASE("one-piece weight size of every depth-sliced vela-u85 operation gives Vela 5.0's full weight transfer cycles") {
  checkTree("vela-u85");
}
