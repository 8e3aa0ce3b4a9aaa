// SPDX-License-Identifier: Apache-2.0
// `npusim run` on every compiled fixture model: completes, and repeats byte for byte.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/io/decoded_network.h"
#include "support/fixtures.h"
#include "support/skip.h"

namespace fs = std::filesystem;

namespace {

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
  const auto all = npusim::test::compiledModels(*root);
  CHECK(all.size() > 100);
  const auto models = npusim::test::sanitizerSample(all, *root);
  MESSAGE(models.size() << " of " << all.size() << " compiled models");
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
  if (!npusim::test::kSanitizerBuild) {
    CHECK(u65 == (fs::is_directory(*root / "vela-u65") ? 66u : 0u));
    CHECK(u85 == (fs::is_directory(*root / "vela-u85") ? 94u : 0u));
  }
}

TEST_CASE("every compiled fixture model is estimated, with or without Vela's files beside it") {
  // Without a debug database (fvp/vela5's U85 compiles) each kernel operation's type comes from
  // the stream, a U85 RESIZE included; every model yields one row per estimated operation.
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto all = npusim::test::compiledModels(*root);
  CHECK(all.size() > 100);
  const auto models = npusim::test::sanitizerSample(all, *root);
  MESSAGE(models.size() << " of " << all.size() << " compiled models");
  npusim::test::TempDir tmp;
  size_t withoutDatabase = 0, resizes = 0;
  for (const fs::path& model : models) {
    const auto json = tmp.path() / "estimate.json";
    const auto r = npusim::test::runNpusim({"estimate", model.string(), "--json", json.string()});
    INFO(model.string() << ": " << r.err);
    REQUIRE(r.exitCode == 0);
    const auto j = nlohmann::json::parse(npusim::test::readText(json));
    CHECK(j.at("totals").at("cycles_total").get<double>() > 0);
    if (!j.at("rows_from_debug_db").get<bool>()) {
      ++withoutDatabase;
      for (const auto& layer : j.at("subgraphs").at(0).at("layers")) {
        resizes += layer.at("nng_operator") == "Resize" ? 1 : 0;
      }
    }
  }
  CHECK(withoutDatabase > 0);
  // fvp/vela5's yolo-fastest compiles for the U85-256 and -512: one RESIZE each.
  if (!npusim::test::kSanitizerBuild) {
    CHECK(resizes == (fs::is_directory(*root / "fvp" / "vela5" / "yolo-fastest_192_face_v4") ? 2u : resizes));
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
  // The U85-256's two SRAM ports share the arena's traffic (each transfer goes to the less loaded
  // one), and the SRAM group events the kit prints are the sum of the ports'.
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

TEST_CASE("run ends with the whole run by operation kind and by bound, each adding up to the run's cycles") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  // MobileNetV2 (a CPU operator, then the NPU): its ports' contention, summed over bursts,
  // exceeds the run's cycles.
  const fs::path model = npusim::test::velaFolder(*root, "mobilenet_v2_quantized_1x3x224x224",
                                                  "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram")
                             .tflite;
  npusim::test::TempDir tmp;
  const fs::path json = tmp.path() / "run.json";
  const auto r = npusim::test::runNpusim({"run", model.string(), "--json", json.string()});
  REQUIRE(r.exitCode == 0);
  const auto j = nlohmann::json::parse(npusim::test::readText(json));
  const int64_t total = j["total_cycles"].get<int64_t>();
  // Independently of the breakdown: the kernel operations' charged cycles per kind and label,
  // and the CPU operators' spans.
  std::map<std::string, int64_t> kinds, bounds;
  int64_t charged = 0, cpu = 0;
  for (const auto& op : j["operations"]) {
    if (op["bound"].get<std::string>().empty()) continue;
    kinds[op["kind"].get<std::string>()] += op["charged_cycles"].get<int64_t>();
    charged += op["charged_cycles"].get<int64_t>();
    for (const auto& [label, cycles] : op["bound_cycles"].items()) bounds[label] += cycles.get<int64_t>();
  }
  for (const auto& n : j["network_operators"]) {
    if (n["kind"] == "cpu") cpu += n["end_cycle"].get<int64_t>() - n["start_cycle"].get<int64_t>();
  }
  CHECK(cpu > 0);
  const size_t ops = j["operations"].size();
  for (const auto& [part, expected] : {std::pair{"by_kind", &kinds}, std::pair{"by_bound", &bounds}}) {
    INFO(part);
    const auto& b = j["breakdown"][part];
    int64_t sum = 0;
    for (const auto& [label, cycles] : b.items()) {
      sum += cycles.get<int64_t>();
      if (label == "cpu_operators" || label == "other") continue;
      // Each count rounded once from the exact sum: within one cycle per operation of the rounded parts.
      CHECK(std::llabs(cycles.get<int64_t>() - expected->at(label)) <= int64_t(ops));
    }
    CHECK(std::llabs(b["cpu_operators"].get<int64_t>() - cpu) <= 2);
    CHECK(b["other"].get<int64_t>() >= 0);
    CHECK(std::llabs(b["other"].get<int64_t>() - (total - charged - cpu)) <= int64_t(ops));
    CHECK(std::llabs(sum - total) <= 2);
  }
  // The text ends with both tables, their shares of the run and its total.
  const std::string& out = r.out;
  const size_t whole = out.find("\n  whole run (");
  REQUIRE(whole != std::string::npos);
  const std::string tail = out.substr(whole);
  CHECK(tail.find("    by operation kind  ") != std::string::npos);
  CHECK(tail.find("    CONV ") != std::string::npos);
  CHECK(tail.find("    by bound ") != std::string::npos);
  CHECK(tail.find("    CPU operators ") != std::string::npos);
  CHECK(tail.find("    total          " + std::to_string(total) + "  100.0%\n") != std::string::npos);
  // Contention summed over bursts beyond the run's length is said to be so.
  const int64_t contention = j["ports"][0]["contention_cycles"].get<int64_t>();
  REQUIRE(contention > total);
  CHECK(out.find("contention " + std::to_string(contention) + " cycles (both summed over bursts, which wait at the "
                 "same time: more than the run's " + std::to_string(total) + " cycles)") != std::string::npos);
  // The wall-clock line: readable units, no exponent.
  INFO(r.err);
  CHECK(r.err.find("e+") == std::string::npos);
  CHECK(r.err.find(" simulated cycles/s)") != std::string::npos);
  CHECK((r.err.find(" ms wall (") != std::string::npos || r.err.find(" s wall (") != std::string::npos));
}

TEST_CASE("run: a port's utilisation is against its own peak, not its memory's (a U85 SRAM port: 16 of 32 bytes per cycle)") {
  const auto model = npusim::test::fixtureOrSkip(
      "vela-u85/kws_ref_model/ethos-u85-256_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/kws_ref_model_vela.tflite");
  if (!model) return;
  const auto show = npusim::test::runNpusim({"config", "--show", model->string()});
  REQUIRE(show.exitCode == 0);
  const auto config = nlohmann::json::parse(show.out);
  npusim::test::TempDir tmp;
  const fs::path json = tmp.path() / "run.json";
  const auto r = npusim::test::runNpusim({"run", model->string(), "--json", json.string()});
  REQUIRE(r.exitCode == 0);
  const auto j = nlohmann::json::parse(npusim::test::readText(json));
  const std::map<std::string, std::string> memoryKey{
      {"Sram", "sram"}, {"Dram", "dram"}, {"OnChipFlash", "on_chip_flash"}, {"OffChipFlash", "off_chip_flash"}};
  bool sharedMemory = false;
  for (const auto& port : j["ports"]) {
    const std::string name = port["name"];
    INFO(name);
    const double width = config["npu"][name]["data_width"].get<double>() / 8;
    const auto& memory = config["system"][memoryKey.at(port["memory"])];
    const double memoryPeak = width * memory["clock_scale"].get<double>() * memory["ports_used"].get<double>();
    sharedMemory = sharedMemory || memoryPeak > width;
    CHECK(port["peak_bytes_per_cycle"].get<double>() == std::min(width, memoryPeak));
    // The text's utilisation: bytes over (the port's peak x NPU active).
    char util[400];
    std::snprintf(util, sizeof util, "%.1f%% of peak %g B/cycle",
                  100.0 * (port["read_bytes"].get<double>() + port["write_bytes"].get<double>()) /
                      (std::min(width, memoryPeak) * j["npu_active_cycles"].get<double>()),
                  std::min(width, memoryPeak));
    CHECK(r.out.find("    " + name + " (" + port["memory"].get<std::string>() + ")") != std::string::npos);
    CHECK(r.out.find(util) != std::string::npos);
  }
  CHECK(sharedMemory);  // the SRAM: two 16-byte ports at full clock
}

TEST_CASE("the U85's command parser holds a DMA behind a latched kernel until that kernel starts (kws_micronet_m, U85-256)") {
  // kws's DMA @0x274 (22,528 bytes of weights for the convolution @0x2f8) follows DEPTHWISE
  // @0x258 in the stream, which is latched while CONV @0x1a0 runs for about 85 k cycles. The
  // FVP's per-launch records (fvp-perop, 256_Low) hold 664 of its 1,408 SRAM write beats in
  // the convolution's record and 744 in the depthwise's: it runs at the end of the convolution,
  // as the depthwise starts, not beside the whole convolution.
  const auto model = npusim::test::fixtureOrSkip("fvp/vela5/kws_micronet_m/ethos-u85-256/kws_micronet_m_vela.tflite");
  if (!model) return;
  npusim::test::TempDir tmp;
  const fs::path csv = tmp.path() / "ops.csv";
  const auto r = npusim::test::runNpusim(
      {"run", model->string(), "--system-config", "Corstone_320_FVP", "--csv", csv.string()});
  REQUIRE(r.exitCode == 0);
  std::map<uint32_t, npusim::test::CsvRow> at; // by command offset
  for (const auto& row : npusim::test::readCsvTable(csv)) at[static_cast<uint32_t>(std::stoul(row["command_offset"]))] = row;
  const auto cycle = [&](uint32_t offset, const char* column) { return std::stod(at.at(offset)[column]); };
  REQUIRE(at.at(0x1a0)["kind"] == "CONV");
  REQUIRE(at.at(0x258)["kind"] == "DEPTHWISE");
  REQUIRE(at.at(0x274)["kind"] == "DMA_START");
  const double convStart = cycle(0x1a0, "start_cycle"), convEnd = cycle(0x1a0, "end_cycle");
  CHECK(cycle(0x258, "issue_cycle") < convStart + 0.2 * (convEnd - convStart)); // latched early
  CHECK(cycle(0x274, "start_cycle") >= cycle(0x258, "start_cycle"));
  CHECK(cycle(0x274, "start_cycle") >= convStart + 0.9 * (convEnd - convStart));
  CHECK(cycle(0x274, "end_cycle") > convEnd);
}

TEST_CASE("npu.adapter_pulse_start moves the timing adapters' pulse cycles: a whole period later is the same run, "
          "and every start keeps the adapters' rules (run --check)") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  // rnnoise on the U85-1024 (fvp/): many short operations, so where the EXT adapter's closed
  // 1,000 cycles of each 5,000 (Corstone_320_FVP) fall moves its cycles.
  const fs::path model = *root / "fvp" / "vela5" / "rnnoise_INT8" / "ethos-u85-1024" / "rnnoise_INT8_vela.tflite";
  if (!fs::exists(model)) {
    npusim::test::skip(model.string() + " absent");
    return;
  }
  npusim::test::TempDir tmp;
  const auto cycles = [&](uint64_t start) {
    const auto json = tmp.path() / "run.json";
    const auto r = npusim::test::runNpusim({"run", model.string(), "--system-config", "Corstone_320_FVP",
                                            "--memory-mode", "Dedicated_Sram", "--check", "--json", json.string(),
                                            "--set", "npu.adapter_pulse_start=" + std::to_string(start)});
    INFO(start << ": " << r.err);
    REQUIRE(r.exitCode == 0);
    const auto j = nlohmann::json::parse(npusim::test::readText(json));
    CHECK(j.at("check").at("violations").get<uint64_t>() == 0);
    return j.at("npu_active_cycles").get<double>();
  };
  // The EXT adapter's period is 5,000 cycles and the SRAM adapter's 4,000: 20,000 is a whole
  // number of both.
  const double at0 = cycles(0);
  CHECK(cycles(20000) == at0);
  std::vector<double> others;
  for (uint64_t start = 500; start < 5000; start += 500) {
    others.push_back(cycles(start));
  }
  CHECK(std::any_of(others.begin(), others.end(), [&](double c) { return c != at0; }));
}
