// SPDX-License-Identifier: Apache-2.0
// `npusim run` on every compiled fixture model: completes, and repeats byte for byte.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

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

// The system config and memory mode an Ethos-U65 fixture folder was compiled for, as run options
// (folder names: <accelerator>_<system config>_<memory mode>); none for the other trees.
std::vector<std::string> configOptions(const fs::path& model) {
  const std::string folder = model.parent_path().filename().string();
  if (folder.rfind("ethos-u65-", 0) != 0) {
    return {};
  }
  for (const std::string mode : {"Shared_Sram", "Dedicated_Sram"}) {
    const size_t at = folder.rfind("_" + mode);
    if (at != std::string::npos && at + mode.size() + 1 == folder.size()) {
      const size_t system = folder.find('_') + 1;
      return {"--system-config", folder.substr(system, at - system), "--memory-mode", mode};
    }
  }
  return {};
}

} // namespace

TEST_CASE("every compiled fixture model simulates to completion (Ethos-U65 models twice, byte for byte), "
          "Ethos-U85 models are refused in one line") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto models = compiledModels(*root);
  CHECK(models.size() > 100);
  npusim::test::TempDir tmp;
  size_t u65 = 0;
  size_t refused = 0;
  for (const fs::path& model : models) {
    // Ethos-U85 compiles (fixture folders and files say so by their accelerator name): refused
    // in one line naming the file, exit 2, until npusim models the U85.
    if (model.string().find("ethos-u85-") != std::string::npos) {
      const auto r = npusim::test::runNpusim({"run", model.string()});
      INFO(model.string() << ": " << r.err);
      CHECK(r.exitCode == 2);
      CHECK(r.out.empty());
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK(r.err.rfind("npusim: error: " + model.string() + ": byte ", 0) == 0);
      CHECK(r.err.find("does not support the Ethos-U85 yet") != std::string::npos);
      ++refused;
      continue;
    }
    const bool twice = model.string().find("/vela-u65/") != std::string::npos;
    std::string first;
    for (int i = 0; i < (twice ? 2 : 1); ++i) {
      const auto json = tmp.path() / "run.json";
      std::vector<std::string> args{"run", model.string(), "--json", json.string()};
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
      if (i == 0) {
        first = text + r.out;
      } else {
        CHECK(first == text + r.out);
      }
    }
    u65 += twice ? 1 : 0;
  }
  CHECK(u65 == (fs::is_directory(*root / "vela-u65") ? 66u : 0u));
  CHECK(refused >= (fs::is_directory(*root / "vela-u85") ? 94u : 0u));
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
