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

} // namespace

TEST_CASE("every compiled fixture model simulates to completion (Ethos-U65 models: refused in one line)") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto models = compiledModels(*root);
  CHECK(models.size() > 100);
  npusim::test::TempDir tmp;
  for (const fs::path& model : models) {
    const auto json = tmp.path() / "run.json";
    const auto r = npusim::test::runNpusim({"run", model.string(), "--json", json.string()});
    INFO(model.string() << ": " << r.err);
    // npusim models the Ethos-U55; a U65 stream (COP1 product 1) is bad input for it.
    if (model.string().find("/vela-u65/") != std::string::npos) {
      CHECK(r.exitCode == 2);
      CHECK(r.err.find("product 1") != std::string::npos);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      continue;
    }
    REQUIRE(r.exitCode == 0);
    const auto j = nlohmann::json::parse(npusim::test::readText(json));
    CHECK(j.at("total_cycles").get<double>() > 0);
    CHECK(j.at("pmu").at("NPU_ACTIVE").get<double>() > 0);
    CHECK(j.at("total_cycles").get<double>() >= j.at("npu_active_cycles").get<double>());
  }
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
