// SPDX-License-Identifier: Apache-2.0
// Property: making memory worse never makes a network faster. On one model of every fixture
// family, with the configuration it was compiled (or measured) for, each test walks one setting a
// step at a time towards a worse memory system — every used memory's read and write latency and
// clock scale, every NPU port's outstanding reads and writes, and on the Corstone platforms every
// timing adapter's latencies, pending limit and bandwidth cap — and checks that NPU_ACTIVE never
// drops by more than 0.1%. The one mechanism by which a worse setting can really help is checked
// for what it is (docs/timing-model.md, "Monotonicity"): the weight DMA and the kernels share the
// SRAM's data paths, served in arrival order; a setting that slows the one that is not on the
// critical path (fewer outstanding kernel reads, a slower flash behind the DMA) makes it yield the
// path to the one that is. A drop is accepted only with that signature: DMAs and kernels moved in
// opposite directions.

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace {

constexpr double kTolerance = 0.001;

// One model of each fixture family and the options of the configuration it was compiled for.
struct Family {
  const char* name;
  const char* model;   // relative to the fixtures
  std::vector<std::string> options;
};

const std::vector<Family>& families() {
  static const std::vector<Family> list{
      {"vela (U55, Vela 3.10, weights DMA'd from flash)",
       "vela/mobilenet_v2_quantized_1x3x224x224/ethos-u55-256_Ethos_U55_High_End_Embedded_Shared_Sram/"
       "mobilenet_v2_quantized_1x3x224x224_vela.tflite",
       {}},
      {"vela-u65", "vela-u65/person_detect/ethos-u65-512_Ethos_U65_High_End_Shared_Sram/person_detect_vela.tflite",
       {"--system-config", "Ethos_U65_High_End", "--memory-mode", "Shared_Sram"}},
      {"vela-rnn", "vela-rnn/rnnoise_INT8/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram/rnnoise_INT8_vela.tflite",
       {}},
      {"vela-extra", "vela-extra/yolov8n_pose_192_int8/ethos-u55-64_Ethos_U55_High_End_Embedded_Shared_Sram/"
                     "yolov8n_pose_192_int8_vela.tflite",
       {}},
      {"vela5 (U65, Vela 5.0)",
       "vela5/kws_ref_model/ethos-u65-256_Ethos_U65_High_End_Dedicated_Sram/kws_ref_model_vela.tflite",
       {"--system-config", "Ethos_U65_High_End", "--memory-mode", "Dedicated_Sram"}},
      {"vela-u85",
       "vela-u85/kws_ref_model/ethos-u85-256_Ethos_U85_SYS_Flash_High_Shared_Sram/kws_ref_model_vela.tflite",
       {"--system-config", "Ethos_U85_SYS_Flash_High", "--memory-mode", "Shared_Sram"}},
      {"vela-u85-extra",
       "vela-u85-extra/dnn_s_quantized/ethos-u85-1024_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/"
       "dnn_s_quantized_vela.tflite",
       {"--system-config", "Ethos_U85_SYS_DRAM_Mid", "--memory-mode", "Dedicated_Sram_384KB"}},
      {"fvp (U55 on Corstone-300)", "fvp/vela5/kws_micronet_m/ethos-u55-256/kws_micronet_m_vela.tflite",
       {"--system-config", "Corstone_300_FVP", "--memory-mode", "Shared_Sram"}},
      {"fvp (U65 on Corstone-300)", "fvp/vela5/vww4_128_128_INT8/ethos-u65-512/vww4_128_128_INT8_vela.tflite",
       {"--system-config", "Corstone_300_FVP", "--memory-mode", "Dedicated_Sram"}},
      {"fvp (U85 on Corstone-320)", "fvp/vela5/rnnoise_INT8/ethos-u85-512/rnnoise_INT8_vela.tflite",
       {"--system-config", "Corstone_320_FVP", "--memory-mode", "Dedicated_Sram"}},
      {"mlek", "mlek/compiled/kws_micronet_m_vela-3.2.0_mlek-76a15808/kws_micronet_m_vela.tflite", {}},
  };
  return list;
}

struct Run {
  double active = 0;
  double dmaCycles = 0;     // summed over DMA_START operations
  double kernelCycles = 0;  // summed over kernel operations
  std::vector<std::pair<std::string, std::string>> ports; // name, memory
};

Run simulate(const std::filesystem::path& model, const std::vector<std::string>& options,
             const std::vector<std::string>& sets) {
  npusim::test::TempDir tmp;
  const auto json = tmp.path() / "run.json";
  std::vector<std::string> args{"run", model.string(), "--json", json.string()};
  args.insert(args.end(), options.begin(), options.end());
  for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
  const auto result = npusim::test::runNpusim(args);
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  const auto j = nlohmann::json::parse(npusim::test::readText(json));
  Run run;
  run.active = j.at("npu_active_cycles").get<double>();
  for (const auto& op : j.at("operations")) {
    const std::string kind = op.at("kind").get<std::string>();
    const double cycles = op.at("end_cycle").get<double>() - op.at("start_cycle").get<double>();
    if (kind == "DMA_START") {
      run.dmaCycles += cycles;
    } else if (kind == "CONV" || kind == "DEPTHWISE" || kind == "POOL" || kind == "ELEMENTWISE" || kind == "RESIZE") {
      run.kernelCycles += cycles;
    }
  }
  for (const auto& p : j.at("ports")) run.ports.push_back({p.at("name"), p.at("memory")});
  return run;
}

// A walk: `keys` (set together: an adapter shared by a port group) over `values`, each a worse
// memory system than the one before.
struct Walk {
  std::vector<std::string> keys;
  std::vector<std::string> values;
};

// The walks of a model: from the ports and memories its base run used.
std::vector<Walk> walksOf(const Run& base, bool corstone) {
  std::vector<Walk> walks;
  std::set<std::string> memories;
  for (const auto& [port, memory] : base.ports) memories.insert(memory);
  for (const std::string& m : memories) {
    std::string key = "system.";
    for (const char c : m) {
      if (c >= 'A' && c <= 'Z' && key.size() > 7) key += '_';
      key += static_cast<char>(std::tolower(c));
    }
    walks.push_back({{key + ".read_latency"}, {"16", "64", "256"}});
    walks.push_back({{key + ".write_latency"}, {"16", "64", "256"}});
    walks.push_back({{key + ".clock_scale"}, {"1", "0.5", "0.25"}});
  }
  std::vector<std::string> sramGroup, extGroup;
  for (const auto& [port, memory] : base.ports) {
    walks.push_back({{"npu." + port + ".max_outstanding_reads"}, {"8", "2", "1"}});
    walks.push_back({{"npu." + port + ".max_outstanding_writes"}, {"8", "2", "1"}});
    (port == "axi0" || port.rfind("sram", 0) == 0 ? sramGroup : extGroup).push_back(port);
  }
  if (corstone) {
    for (const std::vector<std::string>* group : {&sramGroup, &extGroup}) {
      const auto keys = [group](const std::string& reg) {
        std::vector<std::string> k;
        for (const std::string& port : *group) k.push_back("npu." + port + ".ta." + reg);
        return k;
      };
      walks.push_back({keys("rlatency"), {"0", "64", "500"}});
      walks.push_back({keys("wlatency"), {"0", "64", "500"}});
      walks.push_back({keys("maxr"), {"16", "4", "1"}});
      walks.push_back({keys("bwcap"), {"4000", "400", "100"}});
    }
  }
  return walks;
}

// Whether a drop from `before` to `after` has the signature of the shared-path mechanism: the DMAs
// and the kernels moved in opposite directions.
bool pathYielded(const Run& before, const Run& after) {
  return (after.dmaCycles < before.dmaCycles && after.kernelCycles > before.kernelCycles) ||
         (after.dmaCycles > before.dmaCycles && after.kernelCycles < before.kernelCycles);
}

void walkFamily(const Family& family, size_t* yielded) {
  const auto model = npusim::test::fixtureOrSkip(family.model);
  if (!model) return;
  const bool corstone = std::find(family.options.begin(), family.options.end(), "Corstone_300_FVP") !=
                            family.options.end() ||
                        std::find(family.options.begin(), family.options.end(), "Corstone_320_FVP") !=
                            family.options.end();
  const Run base = simulate(*model, family.options, {});
  for (const Walk& walk : walksOf(base, corstone)) {
    Run previous;
    for (size_t i = 0; i < walk.values.size(); ++i) {
      std::vector<std::string> sets;
      for (const std::string& key : walk.keys) sets.push_back(key + "=" + walk.values[i]);
      const Run run = simulate(*model, family.options, sets);
      if (i > 0) {
        INFO(family.name << ": " << walk.keys.front() << " " << walk.values[i - 1] << " -> " << walk.values[i]
                         << ": NPU_ACTIVE " << previous.active << " -> " << run.active);
        if (run.active < previous.active * (1 - kTolerance)) {
          CHECK(pathYielded(previous, run));
          ++*yielded;
        }
      }
      previous = run;
    }
  }
}

} // namespace

TEST_CASE("monotonicity: a worse memory system never speeds up a network (every fixture family)") {
  size_t yielded = 0;
  for (const Family& family : families()) {
    CAPTURE(std::string(family.name));
    walkFamily(family, &yielded);
  }
  MESSAGE(yielded << " steps faster by the shared-path mechanism (DMAs and kernels moved in opposite directions)");
}

TEST_CASE("monotonicity: the shared-path mechanism, shown: a slower non-critical stream yields the SRAM to the "
          "critical one") {
  // mobilenet_v2 on the U55-256, Vela's High_End_Embedded (SRAM: one data path for reads and
  // writes, in arrival order), weights DMA'd from flash: the DMA is the critical path. Fewer
  // outstanding kernel reads shorten the queue in front of its SRAM writes.
  const auto mobilenet = npusim::test::fixtureOrSkip(families().front().model);
  if (!mobilenet) return;
  const Run many = simulate(*mobilenet, {}, {"npu.axi0.max_outstanding_reads=16"});
  const Run fewer = simulate(*mobilenet, {}, {"npu.axi0.max_outstanding_reads=8"});
  INFO("NPU_ACTIVE " << many.active << " -> " << fewer.active << ", DMAs " << many.dmaCycles << " -> "
                     << fewer.dmaCycles << ", kernels " << many.kernelCycles << " -> " << fewer.kernelCycles);
  CHECK(fewer.active < many.active);
  CHECK(fewer.dmaCycles < many.dmaCycles);
  CHECK(fewer.kernelCycles > many.kernelCycles);
  // Separate read and write data paths (AXI's channels to a dual-ported SRAM) take the kernel's
  // reads out of the DMA's way: then fewer outstanding reads no longer help.
  const Run manySeparate = simulate(*mobilenet, {}, {"npu.axi0.max_outstanding_reads=16", "system.sram.separate_read_write=true"});
  const Run fewerSeparate = simulate(*mobilenet, {}, {"npu.axi0.max_outstanding_reads=8", "system.sram.separate_read_write=true"});
  CHECK(fewerSeparate.active >= manySeparate.active * (1 - kTolerance));
}
