// SPDX-License-Identifier: Apache-2.0
// Calibration against the three published Corstone-300 FVP measurements (fixtures/mlek/README.md):
// Arm's FVP PMU counts for one inference of kws_micronet_m, vww4_128_128_INT8 and rnnoise_INT8,
// each compiled as the ML evaluation kit compiled it (ethos-u55-128, Shared_Sram), simulated on
// the platform they were measured on (Corstone_300_FVP) and on Vela's estimator section.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace {

// PMU counts the kit printed (mlek README); NPU_IDLE is compared in docs/validation.md only:
// it includes host software the FVP's Cortex-M55 runs without cycle accuracy.
struct FvpPoint {
  const char* model;  // under mlek/compiled/
  double active, axi0Read, axi0Write, axi1Read;
};

constexpr FvpPoint kPoints[] = {
    {"kws_micronet_m_vela-3.2.0_mlek-76a15808/kws_micronet_m_vela.tflite", 413814, 132130, 48252, 17544},
    {"vww4_128_128_INT8_vela-3.1.0_mlek-84f702d3/vww4_128_128_INT8_vela.tflite", 706754, 228679, 153031, 40625},
    {"rnnoise_INT8_vela-3.1.0_mlek-00553466/rnnoise_INT8_vela.tflite", 103870, 530, 376, 13911},
};

nlohmann::json simulate(const std::filesystem::path& model, const char* system) {
  npusim::test::TempDir tmp;
  const auto json = tmp.path() / "run.json";
  const auto result = npusim::test::runNpusim(
      {"run", model.string(), "--system-config", system, "--memory-mode", "Shared_Sram", "--json", json.string()});
  REQUIRE(result.exitCode == 0);
  return nlohmann::json::parse(npusim::test::readText(json));
}

void checkPoint(const FvpPoint& point, const char* system, double tolerance) {
  const auto model = npusim::test::fixtureOrSkip(std::string("mlek/compiled/") + point.model);
  if (!model) return;
  const auto pmu = simulate(*model, system).at("pmu");
  const std::pair<const char*, double> counts[] = {{"NPU_ACTIVE", point.active},
                                                   {"AXI0_RD_DATA_BEAT_RECEIVED", point.axi0Read},
                                                   {"AXI0_WR_DATA_BEAT_WRITTEN", point.axi0Write},
                                                   {"AXI1_RD_DATA_BEAT_RECEIVED", point.axi1Read}};
  for (const auto& [event, fvp] : counts) {
    const double got = pmu.at(event).get<double>();
    INFO(point.model << " " << event << ": simulated " << got << ", FVP " << fvp);
    CHECK(std::abs(got - fvp) / fvp <= tolerance);
  }
}

} // namespace

TEST_CASE("Corstone_300_FVP: kws_micronet_m within 3% of the FVP (NPU active cycles, AXI beats)") {
  checkPoint(kPoints[0], "Corstone_300_FVP", 0.03);
}

TEST_CASE("Corstone_300_FVP: vww4_128_128_INT8 within 3% of the FVP (NPU active cycles, AXI beats)") {
  checkPoint(kPoints[1], "Corstone_300_FVP", 0.03);
}

TEST_CASE("Corstone_300_FVP: rnnoise_INT8 within 3% of the FVP (NPU active cycles, AXI beats)") {
  checkPoint(kPoints[2], "Corstone_300_FVP", 0.03);
}

TEST_CASE("Ethos_U55_High_End_Embedded: kws_micronet_m within 10% of the FVP on Vela's estimator section") {
  checkPoint(kPoints[0], "Ethos_U55_High_End_Embedded", 0.10);
}
