// SPDX-License-Identifier: Apache-2.0
// Property: making memory worse never makes a network faster. Each test walks one parameter a
// step at a time towards a worse memory on four fixture models and checks that total cycles
// never drop by more than 0.1%. The one mechanism by which a worse setting can really help is
// checked for what it is (docs/timing-model.md, "Monotonicity").

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace {

// Four networks of different shape: SRAM-bound at 256 MACs, flash-bound weights, small convs.
const char* const kModels[][2] = {
    {"mobilenet_v2_quantized_1x3x224x224", "ethos-u55-256_Ethos_U55_High_End_Embedded_Shared_Sram"},
    {"person_detect", "ethos-u55-256_Ethos_U55_High_End_Embedded_Shared_Sram"},
    {"kws_ref_model", "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram"},
    {"vww_96_int8", "ethos-u55-64_Ethos_U55_High_End_Embedded_Shared_Sram"},
};

constexpr double kTolerance = 0.001;

struct Run {
  double total = 0;
  double dmaCycles = 0;     // summed over DMA_START operations
  double kernelCycles = 0;  // summed over CONV/DEPTHWISE/POOL/ELEMENTWISE operations
};

Run simulate(const std::filesystem::path& model, const std::vector<std::string>& extra) {
  npusim::test::TempDir tmp;
  const auto json = tmp.path() / "run.json";
  std::vector<std::string> args{"run", model.string(), "--json", json.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto result = npusim::test::runNpusim(args);
  REQUIRE(result.exitCode == 0);
  const auto j = nlohmann::json::parse(npusim::test::readText(json));
  Run run;
  run.total = j.at("total_cycles").get<double>();
  for (const auto& op : j.at("operations")) {
    const std::string kind = op.at("kind").get<std::string>();
    const double cycles = op.at("end_cycle").get<double>() - op.at("start_cycle").get<double>();
    if (kind == "DMA_START") {
      run.dmaCycles += cycles;
    } else if (kind == "CONV" || kind == "DEPTHWISE" || kind == "POOL" || kind == "ELEMENTWISE") {
      run.kernelCycles += cycles;
    }
  }
  return run;
}

// Walks `key` over `values` (each step a worse memory) on one model.
void walkModel(const std::filesystem::path& tflite, const std::string& name, const std::string& key,
               const std::vector<std::string>& values, const std::vector<std::string>& base, bool allowDmaRelief) {
  Run previous;
  for (size_t i = 0; i < values.size(); ++i) {
    std::vector<std::string> args = base;
    args.insert(args.end(), {"--set", key + "=" + values[i]});
    const Run run = simulate(tflite, args);
    if (i > 0) {
      INFO(name << ": " << key << " " << values[i - 1] << " -> " << values[i] << ": total " << previous.total << " -> "
                << run.total);
      if (allowDmaRelief && run.total < previous.total * (1 - kTolerance)) {
        CHECK(run.dmaCycles < previous.dmaCycles);
        CHECK(run.kernelCycles >= previous.kernelCycles);
      } else {
        CHECK(run.total >= previous.total * (1 - kTolerance));
      }
    }
    previous = run;
  }
}

// Walks `key` over `values` (each step a worse memory) on every model. With
// `allowDmaRelief`, a drop is accepted only as the queueing mechanism: the weight DMA got faster
// while the kernels got slower.
void walk(const std::string& key, const std::vector<std::string>& values, const std::vector<std::string>& base = {},
          bool allowDmaRelief = false) {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  for (const auto& [model, config] : kModels) {
    const auto folder = npusim::test::velaFolder(*root, model, config);
    walkModel(folder.tflite, folder.name(), key, values, base, allowDmaRelief);
  }
}

// The Ethos-U65 on Corstone_300_FVP (Dedicated_Sram: the arena and the weights in DDR behind the
// AXI1 adapter, the SRAM cache on AXI0): one model per core count, as the FVP points compiled them.
const char* const kU65Models[] = {"fvp/vela5/kws_micronet_m/ethos-u65-256/kws_micronet_m_vela.tflite",
                                  "fvp/vela5/vww4_128_128_INT8/ethos-u65-512/vww4_128_128_INT8_vela.tflite"};

void walkU65(const std::string& key, const std::vector<std::string>& values) {
  for (const char* model : kU65Models) {
    const auto tflite = npusim::test::fixtureOrSkip(model);
    if (!tflite) return;
    walkModel(*tflite, model, key, values, {"--system-config", "Corstone_300_FVP", "--memory-mode", "Dedicated_Sram"},
              false);
  }
}

} // namespace

TEST_CASE("monotonicity: SRAM read latency 16 -> 256") {
  walk("system.sram.read_latency", {"16", "32", "64", "128", "256"});
}

TEST_CASE("monotonicity: SRAM write latency 16 -> 256") {
  walk("system.sram.write_latency", {"16", "32", "64", "128", "256"});
}

TEST_CASE("monotonicity: off-chip flash clock scale 1 -> 1/16") {
  walk("system.off_chip_flash.clock_scale", {"1", "0.5", "0.25", "0.125", "0.0625"});
}

TEST_CASE("monotonicity: AXI1 outstanding reads 16 -> 1") {
  walk("npu.axi1.max_outstanding_reads", {"16", "8", "4", "2", "1"});
}

TEST_CASE("monotonicity: AXI0 outstanding reads 16 -> 1 (or the weight DMA's relief from shorter read queues)") {
  walk("npu.axi0.max_outstanding_reads", {"16", "8", "4", "2", "1"}, {}, true);
}

TEST_CASE("monotonicity: Corstone_300_FVP AXI1 timing-adapter BWCAP 400 -> 25 words per pulse cycle") {
  walk("npu.axi1.ta.bwcap", {"400", "200", "100", "50", "25"}, {"--system-config", "Corstone_300_FVP"});
}

TEST_CASE("monotonicity: Corstone_300_FVP AXI0 timing-adapter BWCAP 8000 -> 500 words per pulse cycle") {
  walk("npu.axi0.ta.bwcap", {"8000", "4000", "2000", "1000", "500"}, {"--system-config", "Corstone_300_FVP"});
}

TEST_CASE("monotonicity: Ethos-U65 on Corstone_300_FVP, AXI1 timing-adapter RLATENCY 250 -> 2000 cycles") {
  walkU65("npu.axi1.ta.rlatency", {"250", "500", "1000", "2000"});
}

TEST_CASE("monotonicity: Ethos-U65 on Corstone_300_FVP, AXI1 timing-adapter BWCAP 2344 -> 293 words per pulse cycle") {
  walkU65("npu.axi1.ta.bwcap", {"2344", "1172", "586", "293"});
}

TEST_CASE("monotonicity: Ethos-U65 on Corstone_300_FVP, AXI0 (SRAM cache) outstanding reads 16 -> 1") {
  walkU65("npu.axi0.ta.maxr", {"16", "8", "4", "2", "1"});
}
