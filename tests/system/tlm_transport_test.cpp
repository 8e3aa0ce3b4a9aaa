// SPDX-License-Identifier: Apache-2.0
// `npusim run --set sim.transport=tlm`: the NPU's standard TLM-2.0 ports (a generic payload per
// AXI burst with the model's real bytes, the command stream read from memory and decoded as it is
// fetched) on npusim's memory system, a standard target then, give the fast path's results byte
// for byte on one model of every fixture family and the platforms with timing adapters. Where a
// memory's reads and writes share a data path with different latencies (the DRAM of the U65
// High_End and U85 sections, 500 and 250 cycles), a burst reaches the memory when its address is
// accepted, not when its data is ready, and a write can be ready before a read that came earlier
// but is booked after it: there the two agree within 0.5% on most models, and with the DRAM's
// reads and writes on separate paths byte for byte again (rnnoise, whose DRAM writes make the
// largest difference, +5.1% on the U85-512).

#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace npusim {
namespace {

// Runs `relative` (under the fixtures root) with each transport; the run JSON files of both.
std::vector<std::string> runBoth(const std::string& relative, const std::vector<std::string>& flags) {
  const auto model = test::fixtureOrSkip(relative);
  if (!model) return {};
  const test::TempDir dir;
  std::vector<std::string> json(2);
  const char* transports[2] = {"fast", "tlm"};
  for (int i = 0; i < 2; ++i) {
    const std::string out = (dir.path() / (std::string(transports[i]) + ".json")).string();
    std::vector<std::string> args{"run", model->string(), "--set", std::string("sim.transport=") + transports[i],
                                  "--json", out};
    args.insert(args.end(), flags.begin(), flags.end());
    const test::ProcessResult r = test::runNpusim(args);
    REQUIRE_MESSAGE(r.exitCode == 0, r.err);
    json[i] = test::readText(out);
  }
  return json;
}

void checkSameResults(const std::string& relative, const std::vector<std::string>& flags = {}) {
  const std::vector<std::string> json = runBoth(relative, flags);
  if (json.empty()) return;
  CHECK(json[0].size() > 100);
  CHECK(json[0] == json[1]);
}

// The port group's event of a per-port event ("SRAM_RD_DATA_BEAT_RECEIVED" for
// "SRAM1_RD_DATA_BEAT_RECEIVED"), or the event itself.
std::string groupEvent(const std::string& name) {
  const size_t underscore = name.find('_');
  if (underscore == std::string::npos) return name;
  std::string port = name.substr(0, underscore);
  while (!port.empty() && std::isdigit(static_cast<unsigned char>(port.back())) != 0) port.pop_back();
  return port + name.substr(underscore);
}

// NPU_ACTIVE within `tolerance` (a fraction), every AXI beat and transaction count equal: per
// port group where the NPU counts groups (which port of a group takes a transfer follows the
// order the units issue them in, which timing changes).
void checkCloseResults(const std::string& relative, double tolerance) {
  const std::vector<std::string> json = runBoth(relative, {});
  if (json.empty()) return;
  const nlohmann::json fast = nlohmann::json::parse(json[0]), tlm = nlohmann::json::parse(json[1]);
  const double a = fast.at("npu_active_cycles").get<double>(), b = tlm.at("npu_active_cycles").get<double>();
  CHECK(a > 0);
  CHECK(std::abs(b - a) <= tolerance * a);
  const nlohmann::json& pmu = fast.at("pmu");
  for (const auto& [name, value] : pmu.items()) {
    const bool perPortOfGroup = groupEvent(name) != name && pmu.contains(groupEvent(name));
    if (!perPortOfGroup && (name.find("BEAT") != std::string::npos || name.find("TRANS_ACCEPTED") != std::string::npos)) {
      INFO(name);
      CHECK(tlm.at("pmu").at(name) == value);
    }
  }
}

} // namespace

TEST_CASE("tlm transport: the fast path's results byte for byte on every fixture family") {
  checkSameResults("vela/mobilenet_v2_quantized_1x3x224x224/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram/"
                   "mobilenet_v2_quantized_1x3x224x224_vela.tflite");
  checkSameResults("vela/kws_ref_model/ethos-u55-128_Ethos_U55_High_End_Embedded_Sram_Only/kws_ref_model_vela.tflite");
  checkSameResults("vela-u65/kws_ref_model/ethos-u65-512_Ethos_U65_High_End_Dedicated_Sram/kws_ref_model_vela.tflite");
  checkSameResults("vela-u85/kws_ref_model/ethos-u85-2048_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/kws_ref_model_vela.tflite");
  checkSameResults("vela5/kws_ref_model/ethos-u55-128_Ethos_U55_Deep_Embedded_Sram_Only/kws_ref_model_vela.tflite");
  checkSameResults("vela-rnn/rnnoise_INT8/ethos-u55-64_Ethos_U55_Deep_Embedded_Shared_Sram/rnnoise_INT8_vela.tflite");
  checkSameResults("mlek/compiled/kws_micronet_m_vela-3.2.0_mlek-76a15808/kws_micronet_m_vela.tflite");
}

TEST_CASE("tlm transport: within 0.5% where a DRAM's reads and writes share a path with different latencies") {
  checkCloseResults(
      "vela-u85-extra/dnn_s_quantized/ethos-u85-256_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/dnn_s_quantized_vela.tflite",
      0.005);
  checkCloseResults("vela-u85/mobilenet_v2_quantized_1x3x224x224/ethos-u85-256_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/"
                    "mobilenet_v2_quantized_1x3x224x224_vela.tflite",
                    0.005);
}

TEST_CASE("tlm transport: the fast path's results byte for byte behind the Corstone platforms' timing adapters") {
  checkSameResults("fvp/vela5/kws_micronet_m/ethos-u65-256/kws_micronet_m_vela.tflite",
                   {"--system-config", "Corstone_300_FVP"});
  checkSameResults("fvp/vela5/vww4_128_128_INT8/ethos-u55-32/vww4_128_128_INT8_vela.tflite",
                   {"--system-config", "Corstone_300_FVP"});
  checkSameResults("fvp/vela5/rnnoise_INT8/ethos-u85-1024/rnnoise_INT8_vela.tflite",
                   {"--system-config", "Corstone_320_FVP"});
}

TEST_CASE("tlm transport: the booking order alone: with the DRAM's reads and writes on separate paths, rnnoise byte for byte") {
  checkSameResults("vela-u85/rnnoise_INT8/ethos-u85-512_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/rnnoise_INT8_vela.tflite",
                   {"--set", "system.dram.separate_read_write=true"});
}

} // namespace npusim
