// SPDX-License-Identifier: Apache-2.0
// `npusim compare`: per-layer comparison of one model, and the model x config table of a tree.

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"
#include "support/skip.h"

namespace fs = std::filesystem;
using npusim::test::runNpusim;

TEST_CASE("compare: one model per layer with Vela's CSV found beside it") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto folder = npusim::test::velaFolder(*root, "kws_ref_model", "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram");
  const auto r = runNpusim({"compare", folder.tflite.string(), "--format", "json"});
  REQUIRE(r.exitCode == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto& layers = j.at("layers");
  CHECK(layers.size() == 42);  // Vela's rows for this model
  double simSum = 0;
  for (const auto& l : layers) {
    REQUIRE(!l.at("vela_cycles").is_null());
    simSum += l.at("sim_cycles").get<double>();
    CHECK(!l.at("bound").get<std::string>().empty());
  }
  // Layer cycles partition the NPU's active time up to the last kernel.
  CHECK(simSum <= j.at("sim_npu_active_cycles").get<double>());
  CHECK(simSum >= 0.95 * j.at("sim_npu_active_cycles").get<double>());
  CHECK(j.at("estimate_cycles").get<double>() == doctest::Approx(j.at("vela_cycles").get<double>()).epsilon(0.005));
  const double ratio = j.at("summary").at("geomean_sim_over_vela").get<double>();
  CHECK(ratio > 0.1);
  CHECK(ratio < 10);
}

// A float-interface model: Vela 5.0 leaves its QUANTIZE and DEQUANTIZE on the CPU and lists them
// as Passthrough rows (Target CPU, zeros); compare shows them as Vela does, so every row meets
// Vela's.
TEST_CASE("compare and estimate: a model's CPU operators are Vela 5.0's Passthrough rows, with zero NPU cycles") {
  const auto dir = npusim::test::fixtureOrSkip(
      "vela-u85-extra/dnn_s_quantized/ethos-u85-256_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB");
  if (!dir) return;
  const std::string model = (*dir / "dnn_s_quantized_vela.tflite").string();
  const auto vela = npusim::test::normalizedLines(npusim::test::readText(*dir / "dnn_s_quantized_per-layer.csv"));
  REQUIRE(vela.size() > 3);
  const auto r = runNpusim({"compare", model, "--format", "json"});
  REQUIRE(r.exitCode == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(!j.contains("note"));
  const auto& layers = j.at("layers");
  REQUIRE(layers.size() == vela.size() - 1);
  for (const auto& row : {layers.front(), layers.back()}) {
    CHECK(row.at("nng_operator") == "Passthrough");
    CHECK(row.at("sim_cycles") == 0);
    CHECK(row.at("estimate_cycles") == 0);
    CHECK(row.at("vela_cycles") == 0);
  }
  CHECK(layers.front().at("tflite_operator") == "Quantize");
  CHECK(layers.back().at("tflite_operator") == "Dequantize");
  CHECK(layers.front().at("subgraph") == 0);   // the CPU operator's index; the ethos-u operator is 1
  CHECK(layers.at(1).at("subgraph") == 1);
  // Without the debug database the compiled model still shows the CPU operators: their TFLite
  // names and output tensors.
  npusim::test::TempDir tmp;
  const fs::path csv = tmp.path() / "rows.csv";
  REQUIRE(runNpusim({"estimate", model, "--no-debug-db", "--csv", csv.string()}).exitCode == 0);
  const auto rows = npusim::test::normalizedLines(npusim::test::readText(csv));
  REQUIRE(rows.size() > 3);
  CHECK(rows.at(1) == "QUANTIZE,Passthrough,CPU,0,0.0,0,0.0,0,0,0,0,0,0,0.0,100,input_int8");
  CHECK(rows.back() == "DEQUANTIZE,Passthrough,CPU,0,0.0,0,0.0,0,0,0,0,0,0,0.0,100,Identity");
  // A database that lists another number of CPU operators than the model has is refused.
  const fs::path copy = tmp.path() / "dnn_s_quantized_vela.tflite";
  fs::copy_file(model, copy);
  std::string db = npusim::test::readText(*dir / "dnn_s_quantized_debug.xml");
  const size_t at = db.find("\"Passthrough\",\"Identity\"");
  REQUIRE(at != std::string::npos);
  db.replace(at, 13, "\"Dequantize\"");
  std::ofstream(tmp.path() / "dnn_s_quantized_debug.xml") << db;
  npusim::test::checkOneErrorLine(runNpusim({"estimate", copy.string()}),
                                  copy.string() + ": byte 0 (0x0): debug database has 1 Passthrough rows "
                                                  "(operators on the CPU), the model 2 CPU operators");
}

TEST_CASE("compare --tree: one row per model x config folder, skipped folders reported") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  npusim::test::TempDir tmp;
  const fs::path tree = tmp.path() / "tree";
  const char* configs[] = {"ethos-u55-64_Ethos_U55_High_End_Embedded_Shared_Sram",
                           "ethos-u55-256_Ethos_U55_Deep_Embedded_Sram_Only"};
  for (const char* config : configs) {
    fs::create_directories(tree / "kws_ref_model");
    fs::create_directory_symlink(*root / "vela" / "kws_ref_model" / config, tree / "kws_ref_model" / config);
  }
  fs::create_directories(tree / "kws_ref_model" / "unnamed_folder");
  fs::copy_file(*root / "vela/kws_ref_model" / configs[0] / "kws_ref_model_vela.tflite",
                tree / "kws_ref_model/unnamed_folder/kws_ref_model_vela.tflite");
  const fs::path layers = tmp.path() / "layers.csv";
  const auto r = runNpusim({"compare", "--tree", tree.string(), "--format", "csv", "--csv", layers.string(), "-j", "2"});
  REQUIRE(r.exitCode == 0);
  const auto lines = npusim::test::normalizedLines(r.out);
  REQUIRE(lines.size() == 3);  // header + 2 pairs
  CHECK(lines[1].find("ethos-u55-256,Ethos_U55_Deep_Embedded,Sram_Only") != std::string::npos);
  CHECK(lines[2].find("ethos-u55-64,Ethos_U55_High_End_Embedded,Shared_Sram") != std::string::npos);
  CHECK(r.err.find("skipped") != std::string::npos);
  CHECK(r.err.find("unnamed_folder") != std::string::npos);
  CHECK(npusim::test::normalizedLines(npusim::test::readText(layers)).size() == 1 + 2 * 42);
  // The plotting script turns the layer CSV into PNGs when Debian's matplotlib is there.
  if (std::system("/usr/bin/python3 -c 'import matplotlib' 2>/dev/null") != 0) {
    npusim::test::skip("python3-matplotlib not installed: plot_compare.py not exercised");
    return;
  }
  const std::string cmd = std::string("/usr/bin/python3 ") + NPUSIM_SOURCE_DIR + "/scripts/plot_compare.py " +
                          layers.string() + " " + (tmp.path() / "img").string();
  REQUIRE(std::system(cmd.c_str()) == 0);
  CHECK(fs::file_size(tmp.path() / "img/compare_layers.png") > 1000);
  CHECK(fs::file_size(tmp.path() / "img/compare_models.png") > 1000);
}

TEST_CASE("compare --tree on a missing directory is a one-line input error") {
  const auto r = runNpusim({"compare", "--tree", "/nonexistent/npusim-tree"});
  CHECK(r.exitCode == 2);
  CHECK(npusim::test::normalizedLines(r.err).size() == 1);
  CHECK(r.err.find("/nonexistent/npusim-tree") != std::string::npos);
}

TEST_CASE("compare MODEL --csv writes the per-layer CSV of that model, the rows --format csv prints") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto folder = npusim::test::velaFolder(*root, "kws_ref_model", "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram");
  npusim::test::TempDir tmp;
  const fs::path csv = tmp.path() / "layers.csv";
  const auto r = runNpusim({"compare", folder.tflite.string(), "--csv", csv.string()});
  REQUIRE(r.exitCode == 0);
  REQUIRE(fs::is_regular_file(csv));
  const auto printed = runNpusim({"compare", folder.tflite.string(), "--format", "csv"});
  REQUIRE(printed.exitCode == 0);
  CHECK(npusim::test::readText(csv) == printed.out);
  CHECK(npusim::test::normalizedLines(printed.out).size() == 1 + 42);  // header + Vela's rows
}

TEST_CASE("compare --tree takes each model's sections from Vela's summary CSV when the folder does not name them") {
  const auto vela5 = npusim::test::fixtureOrSkip("fvp/vela5/kws_micronet_m/ethos-u55-128");
  if (!vela5) return;
  npusim::test::TempDir tmp;
  const fs::path tree = tmp.path() / "tree";
  fs::create_directories(tree / "kws_micronet_m");
  fs::create_directory_symlink(*vela5, tree / "kws_micronet_m" / "ethos-u55-128");
  const auto r = runNpusim({"compare", "--tree", tree.string(), "--format", "csv", "-j", "1"});
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const auto lines = npusim::test::normalizedLines(r.out);
  REQUIRE(lines.size() == 2);
  // The summary CSV's accelerator_configuration, system_config and memory_mode (fixtures/fvp/README.md).
  CHECK(lines[1].find("ethos-u55-128,Ethos_U55_High_End_Embedded,Shared_Sram") != std::string::npos);
}

TEST_CASE("compare --tree refuses options that would choose another configuration or model instead of dropping them") {
  const char* tree = "/nonexistent/npusim-tree";
  for (const auto& [option, value] : {std::pair<std::string, std::string>{"--system-config", "Ethos_U55_Deep_Embedded"},
                                      {"--memory-mode", "Sram_Only"},
                                      {"--set", "system.sram.read_latency=64"},
                                      {"--strict", ""}}) {
    std::vector<std::string> args{"compare", "--tree", tree, option};
    if (!value.empty()) args.push_back(value);
    npusim::test::checkOneErrorLine(runNpusim(args), "key '" + option + "': compare --tree compares each model");
  }
}
