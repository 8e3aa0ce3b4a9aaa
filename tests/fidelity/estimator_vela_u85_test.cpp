// SPDX-License-Identifier: Apache-2.0
// Vela 5.0's Ethos-U85 cost model step by step against Vela's own per-operation figures: on every
// folder of the vela-u85 fixture tree, each scheduled operation's query as the debug database
// records it (tests/support/vela5_perf_tables) is costed by the model and compared with the
// database's MAC, output-unit and command cycles (perf_debug_main), its block configuration, its
// MAC count, the access cycles per memory and per kind of traffic (perf, perf_debug) and, where
// no weight or LUT DMA adds to them, its NPU cycles (perf).

#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "harness/analytic/vela5_performance.h"
#include "harness/analytic/vela_debug_db.h"
#include "sim/arch/npu_config.h"
#include "sim/config/config.h"
#include "support/fixtures.h"
#include "support/skip.h"
#include "support/vela5_perf_tables.h"

namespace fs = std::filesystem;
using namespace npusim;
using namespace npusim::analytic;

namespace {

struct Counts {
  size_t folders = 0, operations = 0, configs = 0, npuCompared = 0, wideBlocks = 0;
};

void checkFolder(const fs::path& dir, const fs::path& ini, Counts& counts) {
  static const std::regex kName(R"(ethos-u85-(\d+)_(Ethos_U85_[A-Za-z_]+?)_(Shared_Sram|Sram_Only|Dedicated_Sram(?:_\d+KB)?))");
  std::smatch m;
  const std::string folder = dir.filename().string();
  REQUIRE(std::regex_match(folder, m, kName));
  std::string db;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 10 && name.compare(name.size() - 10, 10, "_debug.xml") == 0) {
      db = entry.path().string();
    }
  }
  REQUIRE(!db.empty());
  INFO(dir.parent_path().filename().string() << "/" << folder);
  config::ConfigRequest request;
  request.velaIni = ini.string();
  request.systemConfig = m[2].str();
  request.memoryMode = m[3].str();
  const config::SystemParams params = config::resolveConfig(request);
  const arch::NpuConfig* hw = arch::findNpuConfig("ethos-u85-" + m[1].str());
  REQUIRE(hw != nullptr);
  const vela5::System system(params, *hw);
  const std::unique_ptr<vela5::ArchitecturePerformance> model = vela5::makeEthosU85Performance(system);
  const test::Vela5Memories memories{&system};
  const std::vector<test::Vela5OpRecord> ops = test::readVela5PerfTables(db);
  for (const test::Vela5OpRecord& op : ops) {
    if (op.groupId >= 0) {
      continue;   // a member of another operation's group, costed with it
    }
    INFO("operation " << op.id << " (" << op.type << ")");
    const vela5::Query q = test::vela5QueryOf(op, ops, memories);
    // 1. Block configuration from what the stream programs: OFM block, micro-block height and
    //    width, a convolution's weight order.
    if (!op.main.empty()) {
      vela5::ProgrammedBlock programmed;
      programmed.ofmBlock = q.config.ofmBlock;
      programmed.ofmUblock = Shape3{q.config.ofmUblock.height, q.config.ofmUblock.width, 0};
      if (q.type == vela5::OpType::Conv2D) {
        programmed.partKernel = q.config.traversal == vela5::Traversal::PartKernel;
      }
      const vela5::OpConfig c = model->opConfig(q, programmed);
      CHECK(c.ifmBlock == q.config.ifmBlock);
      CHECK(c.ofmUblock == q.config.ofmUblock);
      CHECK(c.traversal == q.config.traversal);
      ++counts.configs;
      // An elementwise block wider than 128 columns reaches the stream modulo 128
      // (OFM_BLK_WIDTH_M1 has 7 bits): from that, the model recovers Vela's block.
      if (q.config.ofmBlock.width > 128) {
        vela5::ProgrammedBlock wrapped = programmed;
        wrapped.ofmBlock.width = (q.config.ofmBlock.width - 1) % 128 + 1;
        CHECK(model->opConfig(q, wrapped).ofmBlock == q.config.ofmBlock);
        ++counts.wideBlocks;
      }
    }
    // 2. Cycles and MACs.
    const vela5::CycleCost cost = model->measureCycleCost(q);
    if (!op.main.empty()) {
      if (op.main.at("mac_cycles").empty()) {
        CHECK(!cost.macCycles.has_value());
      } else {
        CHECK(cost.macCycles.value_or(-1) == op.integer(op.main, "mac_cycles"));
      }
      CHECK(cost.aoCycles == op.integer(op.main, "ao_cycles"));
      CHECK(cost.cmdCycles == op.integer(op.main, "cmd_cycles"));
    }
    CHECK(cost.macs == op.integer(op.perf, "mac_count"));
    // 3. Access cycles per memory, in total and per kind of traffic.
    const vela5::ElementAccess bytes = model->elementTransferToBytes(q, model->measureElementAccess(q));
    const vela5::MemoryAccessCycles access = model->measureAccessCycles(q, bytes);
    for (MemArea area : kAccessAreas) {
      const std::string name(system.memory(area).name);
      if (op.perf.count(name + "_ac") == 0) {
        continue;
      }
      const auto it = access.find(area);
      const vela5::AccessCycles c = it == access.end() ? vela5::AccessCycles{} : it->second;
      INFO(name);
      CHECK(c.total == op.integer(op.perf, name + "_ac"));
      CHECK(c.featureMaps == op.integer(op.debug, name + "FeatureMap_ac"));
      CHECK(c.weights == op.integer(op.debug, name + "Weights_ac"));
      CHECK(c.scales == op.integer(op.debug, name + "Scales_ac"));
    }
    // 4. NPU cycles, where no weight or LUT DMA adds to the operation's own.
    const bool dma = q.weightStagingMemory != nullptr || q.type == vela5::OpType::LUT;
    if (!dma) {
      CHECK(cost.opCycles == op.integer(op.perf, "npu_cycles"));
      ++counts.npuCompared;
    }
    ++counts.operations;
  }
  ++counts.folders;
}

} // namespace

TEST_CASE("Vela 5.0's Ethos-U85 cost model reproduces Vela's per-operation figures of every vela-u85 folder") {
  const std::optional<fs::path> root = test::fixtureOrSkip("vela-u85");
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
  std::sort(folders.begin(), folders.end());
  Counts counts;
  for (const fs::path& dir : folders) {
    checkFolder(dir, *root / "vela.ini", counts);
  }
  CHECK(counts.folders > 0);
  CHECK(counts.wideBlocks > 0);   // the tree has blocks wider than the stream's field
  MESSAGE("vela-u85: " << counts.folders << " folders, " << counts.operations << " operations costed ("
                       << counts.configs << " block configs, " << counts.wideBlocks
                       << " of them wider than 128 columns and recovered from the stream's 7 bits, "
                       << counts.npuCompared << " NPU cycles without weight or LUT DMA)");
}
