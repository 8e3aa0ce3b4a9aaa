// SPDX-License-Identifier: Apache-2.0
// `npusim run` on every compiled fixture model: completes, and repeats byte for byte.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/io/decoded_network.h"
#include "support/fixtures.h"
#include "support/skip.h"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> compiledModels(const fs::path& root) {
  std::vector<fs::path> models;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.find("_vela") != std::string::npos && entry.path().extension() == ".tflite") {
      models.push_back(entry.path());
    }
  }
  std::sort(models.begin(), models.end());
  return models;
}

// The system config and memory mode an Ethos-U65 or U85 fixture folder was compiled for, as run
// options (folder names: <accelerator>_<system config>_<memory mode>); none for the other trees.
std::vector<std::string> configOptions(const fs::path& model) {
  const std::string folder = model.parent_path().filename().string();
  if (folder.rfind("ethos-u65-", 0) != 0 && folder.rfind("ethos-u85-", 0) != 0) {
    return {};
  }
  for (const std::string mode : {"Shared_Sram", "Dedicated_Sram_384KB", "Dedicated_Sram", "Sram_Only"}) {
    const size_t at = folder.rfind("_" + mode);
    if (at != std::string::npos && at + mode.size() + 1 == folder.size()) {
      const size_t system = folder.find('_') + 1;
      return {"--system-config", folder.substr(system, at - system), "--memory-mode", mode};
    }
  }
  return {};
}

} // namespace

TEST_CASE("every compiled fixture model simulates to completion, keeping the model's own rules (run --check), "
          "Ethos-U65 and U85 models twice, byte for byte") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto models = compiledModels(*root);
  CHECK(models.size() > 100);
  npusim::test::TempDir tmp;
  size_t u65 = 0, u85 = 0;
  for (const fs::path& model : models) {
    const bool isU85 = model.string().find("/vela-u85/") != std::string::npos;
    const bool twice = model.string().find("/vela-u65/") != std::string::npos || isU85;
    std::string first;
    for (int i = 0; i < (twice ? 2 : 1); ++i) {
      const auto json = tmp.path() / "run.json";
      std::vector<std::string> args{"run", model.string(), "--json", json.string(), "--check"};
      const std::vector<std::string> options = configOptions(model);
      args.insert(args.end(), options.begin(), options.end());
      const auto r = npusim::test::runNpusim(args);
      INFO(model.string() << ": " << r.err);
      REQUIRE(r.exitCode == 0);
      CHECK((!twice || r.err.find("warning") == std::string::npos));
      const std::string text = npusim::test::readText(json);
      const auto j = nlohmann::json::parse(text);
      CHECK(j.at("total_cycles").get<double>() > 0);
      CHECK(j.at("pmu").at("NPU_ACTIVE").get<double>() > 0);
      CHECK(j.at("total_cycles").get<double>() >= j.at("npu_active_cycles").get<double>());
      // The invariant checker saw every burst, block and operation and found nothing broken.
      const auto& check = j.at("check");
      INFO(check.dump());
      CHECK(check.at("violations").get<uint64_t>() == 0);
      CHECK(check.at("bursts").get<uint64_t>() > 0);
      CHECK(check.at("operations").get<uint64_t>() == j.at("operations").size());
      if (i == 0) {
        first = text + r.out;
      } else {
        CHECK(first == text + r.out);
      }
    }
    u65 += twice && !isU85 ? 1 : 0;
    u85 += isU85 ? 1 : 0;
  }
  CHECK(u65 == (fs::is_directory(*root / "vela-u65") ? 66u : 0u));
  CHECK(u85 == (fs::is_directory(*root / "vela-u85") ? 94u : 0u));
}

TEST_CASE("two runs give byte-identical JSON and CSV") {
  const auto root = npusim::test::fixturesDirOrSkip();
  npusim::test::TempDir tmp;
  std::vector<std::string> model;  // the demo network when fixtures are absent
  if (root) {
    model.push_back(npusim::test::velaFolder(*root, "keyword_scrambled_8bit",
                                             "ethos-u55-64_Ethos_U55_High_End_Embedded_Shared_Sram")
                        .tflite.string());
  }
  std::string outputs[2];
  for (int i = 0; i < 2; ++i) {
    const auto json = tmp.path() / ("run" + std::to_string(i) + ".json");
    const auto csv = tmp.path() / ("run" + std::to_string(i) + ".csv");
    std::vector<std::string> args{"run"};
    args.insert(args.end(), model.begin(), model.end());
    args.insert(args.end(), {"--json", json.string(), "--csv", csv.string()});
    const auto r = npusim::test::runNpusim(args);
    REQUIRE(r.exitCode == 0);
    outputs[i] = npusim::test::readText(json) + npusim::test::readText(csv) + r.out;
  }
  CHECK(outputs[0] == outputs[1]);
}

TEST_CASE("an Ethos-U85 model: inspect reads it, estimate estimates it, and run, compare, sweep and regress take it") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const fs::path dir = *root / "vela-u85" / "kws_ref_model" / "ethos-u85-256_Ethos_U85_SYS_Flash_High_Shared_Sram";
  if (!fs::is_directory(dir)) {
    npusim::test::skip("no " + dir.string());
    return;
  }
  const std::string model = fs::weakly_canonical(dir / "kws_ref_model_vela.tflite").string();
  const auto inspect = npusim::test::runNpusim({"inspect", "--weights", model});
  CHECK(inspect.exitCode == 0);
  CHECK(inspect.err.empty());
  CHECK(inspect.out.find("ethos-u85-256, arch 2.0.0") != std::string::npos);
  CHECK(inspect.out.find("compiled for: ethos-u85-256 (IB 16384, AB 16384, OB 2048, CB 1536, LUT 2048 B; 2 SRAM and 1 "
                         "EXT ports, 1 weight decoder)") != std::string::npos);
  const std::vector<std::string> sections{"--system-config", "Ethos_U85_SYS_Flash_High", "--memory-mode", "Shared_Sram"};
  for (const std::string command : {"run", "compare"}) {
    std::vector<std::string> args{command, model};
    args.insert(args.end(), sections.begin(), sections.end());
    const auto r = npusim::test::runNpusim(args);
    INFO(command << ": " << r.err);
    CHECK(r.exitCode == 0);
    CHECK(r.out.find("ethos-u85-256") != std::string::npos);
  }
  npusim::test::TempDir tmp;
  // The U85-256's two SRAM ports share the arena's traffic (a transfer each, in turn), and the
  // SRAM group events the kit prints are the sum of the ports'.
  const fs::path json = tmp.path() / "u85.json";
  std::vector<std::string> args{"run", model, "--json", json.string()};
  args.insert(args.end(), sections.begin(), sections.end());
  REQUIRE(npusim::test::runNpusim(args).exitCode == 0);
  const auto pmu = nlohmann::json::parse(npusim::test::readText(json)).at("pmu");
  for (const std::string event : {"RD_DATA_BEAT_RECEIVED", "WR_DATA_BEAT_WRITTEN"}) {
    INFO(event);
    const double sram0 = pmu.at("SRAM0_" + event).get<double>(), sram1 = pmu.at("SRAM1_" + event).get<double>();
    CHECK(pmu.at("SRAM_" + event).get<double>() == sram0 + sram1);
    CHECK(sram0 > 0);
    CHECK(std::abs(sram0 - sram1) <= 0.1 * (sram0 + sram1));
    CHECK(pmu.at("EXT_" + event).get<double>() == pmu.at("EXT0_" + event).get<double>());
  }
  CHECK(pmu.contains("MAC_STALLED_BY_W"));
  CHECK_FALSE(pmu.contains("MAC_STALLED_BY_WD"));
  // Bad input: a port the configuration does not have, an outstanding limit past its AXI_SRAM
  // field: one line naming the key and what is valid, exit 2.
  const std::pair<std::string, std::string> bad[] = {
      {"npu.sram2.max_burst_bytes=128", "'npu.sram2.max_burst_bytes': the Ethos-U85 has no NPU port sram2 (its ports: sram0, sram1, ext0)"},
      {"npu.sram0.max_outstanding_reads=100", "'npu.sram0.max_outstanding_reads': 100 is out of range [1, 64]"}};
  for (const auto& [assignment, message] : bad) {
    std::vector<std::string> badArgs{"run", model, "--set", assignment};
    badArgs.insert(badArgs.end(), sections.begin(), sections.end());
    const auto r = npusim::test::runNpusim(badArgs);
    INFO(r.err);
    CHECK(r.exitCode == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(message) != std::string::npos);
  }
  // estimate, with the tree's vela.ini: Vela 5.0's model,
  // one CSV row per row of Vela's per-layer CSV.
  const fs::path csv = tmp.path() / "u85.csv";
  const auto estimate = npusim::test::runNpusim({"estimate", model, "--vela-ini", (*root / "vela-u85" / "vela.ini").string(),
                                                 "--system-config", "Ethos_U85_SYS_Flash_High", "--memory-mode",
                                                 "Shared_Sram", "--csv", csv.string()});
  CHECK(estimate.exitCode == 0);
  CHECK(estimate.err.empty());
  CHECK(estimate.out.find("Vela 5.0's model") != std::string::npos);
  const auto lines = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
  CHECK(lines(npusim::test::readText(csv)) == lines(npusim::test::readText(dir / "kws_ref_model_per-layer.csv")));
  const fs::path spec = tmp.path() / "spec.json";
  std::ofstream(spec) << R"({"models": [{"path": ")" << model
                      << R"(", "system_config": "Ethos_U85_SYS_Flash_High", "memory_mode": "Shared_Sram"}], "points": [{}]})";
  const auto sweep = npusim::test::runNpusim({"sweep", spec.string(), "--out", (tmp.path() / "out.jsonl").string()});
  INFO(sweep.err);
  CHECK(sweep.exitCode == 0);
  const fs::path baseline = tmp.path() / "baseline.json";
  CHECK(npusim::test::runNpusim({"regress", "--update", "--spec", spec.string(), "--baseline", baseline.string()}).exitCode == 0);
  CHECK(npusim::test::runNpusim({"regress", "--baseline", baseline.string()}).exitCode == 0);
}

TEST_CASE("an Ethos-U85 model: estimate with the built-in U85 sections equals estimate with the tree's vela.ini") {
  const auto root = npusim::test::fixtureOrSkip("vela-u85/index.csv");
  if (!root) return;
  const fs::path tree = root->parent_path();
  // The first folder of each system config + memory mode pair the tree's index lists.
  std::vector<std::vector<std::string>> picked; // model, folder, system config, memory mode
  std::istringstream index(npusim::test::readText(*root));
  std::string line;
  std::getline(index, line); // header: model,folder,accelerator_config,system_config,memory_mode,...
  while (std::getline(index, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    REQUIRE(cells.size() > 4);
    const bool seen = std::any_of(picked.begin(), picked.end(), [&](const auto& p) {
      return p[2] == cells[3] && p[3] == cells[4];
    });
    if (!seen) picked.push_back({cells[0], cells[1], cells[3], cells[4]});
  }
  REQUIRE(!picked.empty());
  npusim::test::TempDir tmp;
  for (const auto& p : picked) {
    CAPTURE(p[0] + "/" + p[1]);
    const std::string model = (tree / p[0] / p[1] / (p[0] + "_vela.tflite")).string();
    std::string csvs[2], outs[2];
    for (int withIni = 0; withIni < 2; ++withIni) {
      const fs::path csv = tmp.path() / ("u85_" + std::to_string(withIni) + ".csv");
      std::vector<std::string> args{"estimate", model, "--system-config", p[2], "--memory-mode", p[3], "--csv", csv.string()};
      if (withIni == 1) args.insert(args.end(), {"--vela-ini", (tree / "vela.ini").string()});
      const auto r = npusim::test::runNpusim(args);
      REQUIRE(r.exitCode == 0);
      CHECK(r.err.empty());
      csvs[withIni] = npusim::test::readText(csv);
      outs[withIni] = r.out;
    }
    CHECK(std::count(csvs[0].begin(), csvs[0].end(), '\n') > 1);
    CHECK(csvs[0] == csvs[1]);
    CHECK(outs[0] == outs[1]);
  }
  MESSAGE(picked.size() << " system config + memory mode pairs estimated with and without the tree's vela.ini");
}
