// SPDX-License-Identifier: Apache-2.0
// Calibration against the one published FVP measurement (fixtures/mlek/README.md): Arm's
// Corstone-300 FVP PMU counts for one kws_micronet_m inference on ethos-u55-128,
// High_End_Embedded, Shared_Sram.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace {

struct Reference {
  const char* event;
  double value;
};

// The published FVP counts (mlek README, kit commit 76a15808).
constexpr Reference kFvp[] = {
    {"NPU_ACTIVE", 413814},
    {"AXI0_RD_DATA_BEAT_RECEIVED", 132130},
    {"AXI0_WR_DATA_BEAT_WRITTEN", 48252},
    {"AXI1_RD_DATA_BEAT_RECEIVED", 17544},
};

} // namespace

TEST_CASE("kws_micronet_m: NPU active cycles and AXI beats within 10% of the Corstone-300 FVP") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto model =
      *root / "mlek/compiled/kws_micronet_m_vela-3.2.0_mlek-76a15808/kws_micronet_m_vela.tflite";
  npusim::test::TempDir tmp;
  const auto json = tmp.path() / "run.json";
  const auto result = npusim::test::runNpusim({"run", model.string(), "--system-config", "Ethos_U55_High_End_Embedded",
                                               "--memory-mode", "Shared_Sram", "--json", json.string()});
  REQUIRE(result.exitCode == 0);
  const auto j = nlohmann::json::parse(npusim::test::readText(json));
  for (const Reference& ref : kFvp) {
    const double got = j.at("pmu").at(ref.event).get<double>();
    INFO(ref.event << ": simulated " << got << ", FVP " << ref.value);
    CHECK(std::abs(got - ref.value) / ref.value <= 0.10);
  }
}
