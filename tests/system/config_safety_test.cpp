// SPDX-License-Identifier: Apache-2.0
// Config safety: what a compiled model says about its compile target (the system config and
// memory mode Vela's summary CSV or the folder name gives, where the stream places the
// constants), that run, estimate and compare take that configuration, and the warning (or, with
// --strict, the error) when the simulated one contradicts it.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "sim/io/decoded_network.h"
#include "models/platform/compile_target.h"
#include "sim/common/csv.h"
#include "support/fixtures.h"

namespace npusim {
namespace {

constexpr const char* kSharedSram = "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram";
constexpr const char* kSramOnly = "ethos-u55-128_Ethos_U55_High_End_Embedded_Sram_Only";
constexpr const char* kDeepEmbedded = "ethos-u55-128_Ethos_U55_Deep_Embedded_Shared_Sram";

namespace fs = std::filesystem;

// The system config and memory mode a folder's Vela summary CSV names (read here, not by npusim).
std::pair<std::string, std::string> summarySections(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().find("_summary_") == std::string::npos) continue;
    const std::vector<CsvLine> lines = readCsvFile(e.path().string());
    REQUIRE(lines.size() == 2);
    const auto& h = lines[0].fields;
    const auto at = [&](const char* column) {
      return lines[1].fields.at(size_t(std::find(h.begin(), h.end(), column) - h.begin()));
    };
    return {at("system_config"), at("memory_mode")};
  }
  FAIL("no summary CSV in " << dir);
  return {};
}

// `npusim run --json` of `args`, parsed; fails the test on a non-zero exit.
nlohmann::json runJson(const test::TempDir& tmp, std::vector<std::string> args, std::string* err = nullptr) {
  const fs::path out = tmp.path() / "run.json";
  args.insert(args.begin(), "run");
  args.insert(args.end(), {"--json", out.string()});
  const test::ProcessResult r = test::runNpusim(args);
  INFO("stderr: ", r.err);
  REQUIRE(r.exitCode == 0);
  if (err != nullptr) *err = r.err;
  return nlohmann::json::parse(test::readText(out));
}

size_t warnings(const std::string& err) {
  size_t n = 0;
  for (const std::string& l : test::normalizedLines(err)) n += l.rfind("npusim: warning: ", 0) == 0 ? 1 : 0;
  return n;
}

// Vela's own listing: does any kernel read its weights from a region other than 0?
bool listingReadsWeightsFromArena(const test::VelaFolder& folder) {
  const std::regex weightRegion(R"(NPU_SET_WEIGHT_REGION\s+([0-9]+))");
  const std::string text = test::readText(folder.listing);
  for (std::sregex_iterator it(text.begin(), text.end(), weightRegion), end; it != end; ++it) {
    if ((*it)[1] != "0") return true;
  }
  return false;
}

} // namespace

TEST_CASE("config safety: the compile target agrees with the folder name and Vela's listing") {
  const auto fixtures = test::fixturesDirOrSkip();
  if (!fixtures) return;
  for (const char* config : {kSharedSram, kSramOnly}) {
    const test::VelaFolder folder = test::velaFolder(*fixtures, "kws_ref_model", config);
    const io::CompiledNetwork net = test::loadModel(folder);
    const platform::CompileTarget t = platform::compileTarget(net, io::decodeAll(net));
    INFO(config);
    CHECK(t.hardware->macs == 128);
    CHECK(t.weightsBufferedInArena == listingReadsWeightsFromArena(folder));
    CHECK(t.scratchBytes > 0);
    // `inspect` prints it.
    const test::ProcessResult inspect = test::runNpusim({"inspect", folder.tflite.string()});
    CHECK(inspect.out.find("compiled for: ethos-u55-128 (SHRAM ") != std::string::npos);
    CHECK(inspect.out.find(t.weightsBufferedInArena ? "weights buffered into the arena by DMA" : "read in place") !=
          std::string::npos);
  }
  // The Shared_Sram compile buffers weights (flash is slower than SRAM); the Sram_Only one does not.
  CHECK(listingReadsWeightsFromArena(test::velaFolder(*fixtures, "kws_ref_model", kSharedSram)));
  CHECK_FALSE(listingReadsWeightsFromArena(test::velaFolder(*fixtures, "kws_ref_model", kSramOnly)));
}

TEST_CASE("config safety: a Shared_Sram compile run as Sram_Only warns in one line, --strict exits 2") {
  const auto fixtures = test::fixturesDirOrSkip();
  if (!fixtures) return;
  // Copies without Vela's summary CSV and in a folder that names nothing: the memory mode the
  // stream was compiled for is inferred from where it copies its weights.
  const test::TempDir tmp;
  const std::string shared = (tmp.path() / "shared_vela.tflite").string();
  const std::string sramOnly = (tmp.path() / "sram_only_vela.tflite").string();
  fs::copy_file(test::velaFolder(*fixtures, "kws_ref_model", kSharedSram).tflite, shared);
  fs::copy_file(test::velaFolder(*fixtures, "kws_ref_model", kSramOnly).tflite, sramOnly);

  const test::ProcessResult warned = test::runNpusim({"run", shared, "--memory-mode", "Sram_Only"});
  INFO(warned.err);
  CHECK(warned.exitCode == 0);
  const auto lines = test::normalizedLines(warned.err);
  const auto warning = std::find_if(lines.begin(), lines.end(),
                                    [](const std::string& l) { return l.rfind("npusim: warning: ", 0) == 0; });
  REQUIRE(warning != lines.end());
  CHECK(warning->find(shared + ": the model was compiled for constants in a memory slower than the arena") !=
        std::string::npos);
  CHECK(warning->find("memory mode Sram_Only puts the constants in Sram on Axi0") != std::string::npos);
  CHECK(warnings(warned.err) == 1);

  const test::ProcessResult strict = test::runNpusim({"run", shared, "--memory-mode", "Sram_Only", "--strict"});
  CHECK(strict.exitCode == 2);
  CHECK(strict.err.find("npusim: error: " + shared + ": the model was compiled for constants") != std::string::npos);
  CHECK(strict.err.find("(--strict)") != std::string::npos);
  CHECK(strict.out.empty());

  // Each compile on the memory mode it was compiled for: no warning, --strict runs.
  for (const auto& [model, mode] : {std::pair{shared, "Shared_Sram"}, std::pair{sramOnly, "Sram_Only"}}) {
    const test::ProcessResult ok = test::runNpusim({"run", model, "--memory-mode", mode, "--strict"});
    INFO(mode, ok.err);
    CHECK(ok.exitCode == 0);
    CHECK(ok.err.find("warning") == std::string::npos);
  }
}

TEST_CASE("config from the compile: run takes the system config and memory mode Vela's summary CSV names, and says so") {
  const auto fixtures = test::fixturesDirOrSkip();
  if (!fixtures) return;
  const test::TempDir tmp;
  // Compiles whose sections are not Vela's defaults (Ethos_U55_High_End_Embedded + Shared_Sram,
  // Ethos_U65_Client_Server + Dedicated_Sram).
  std::vector<fs::path> dirs{test::velaFolder(*fixtures, "kws_ref_model", kDeepEmbedded).dir};
  if (const auto u65 = test::fixtureOrSkip("vela-u65/kws_ref_model/ethos-u65-256_Ethos_U65_High_End_Shared_Sram")) {
    dirs.push_back(*u65);
  }
  for (const fs::path& dir : dirs) {
    INFO(dir);
    const auto [system, mode] = summarySections(dir);
    const fs::path model = dir / "kws_ref_model_vela.tflite";
    std::string err;
    const nlohmann::json j = runJson(tmp, {model.string()}, &err);
    CHECK(warnings(err) == 0);
    CHECK(j["config"]["system_config"] == system);
    CHECK(j["config"]["memory_mode"] == mode);
    const std::string from = "the compile (kws_ref_model_summary_" + system + ".csv)";
    CHECK(j["config"]["system_config_from"] == from);
    CHECK(j["config"]["memory_mode_from"] == from);
    // The text header says where they came from.
    const test::ProcessResult text = test::runNpusim({"run", model.string()});
    CHECK(text.out.find("  system   " + j["config"]["accelerator"].get<std::string>() + ", " + system + ", " + mode) !=
          std::string::npos);
    CHECK(text.out.find("  from     system config and memory mode: " + from + "\n") != std::string::npos);
    // A flag names one of them: the other still comes from the compile.
    const nlohmann::json flagged = runJson(tmp, {model.string(), "--memory-mode", mode, "--strict"});
    CHECK(flagged["config"]["memory_mode_from"] == "--memory-mode");
    CHECK(flagged["config"]["system_config_from"] == from);
  }
}

TEST_CASE("config from the compile: the folder name tells when no summary CSV does, and without either the default applies") {
  const auto fixtures = test::fixturesDirOrSkip();
  if (!fixtures) return;
  const test::TempDir tmp;
  const fs::path named = tmp.path() / "ethos-u55-128_Ethos_U55_Deep_Embedded_Sram_Only_mine";
  fs::create_directories(named);
  const fs::path source = test::velaFolder(*fixtures, "kws_ref_model", "ethos-u55-128_Ethos_U55_Deep_Embedded_Sram_Only").tflite;
  fs::copy_file(source, named / "kws_ref_model_vela.tflite");
  const nlohmann::json j = runJson(tmp, {(named / "kws_ref_model_vela.tflite").string()});
  CHECK(j["config"]["system_config"] == "Ethos_U55_Deep_Embedded");
  CHECK(j["config"]["memory_mode"] == "Sram_Only");
  CHECK(j["config"]["system_config_from"] == "the compile (folder " + named.filename().string() + ")");
  // A folder for another accelerator names nothing about this model: Vela's defaults, said so.
  const fs::path other = tmp.path() / "ethos-u55-256_Ethos_U55_Deep_Embedded_Sram_Only";
  fs::create_directories(other);
  fs::copy_file(source, other / "kws_ref_model_vela.tflite");
  const nlohmann::json d = runJson(tmp, {(other / "kws_ref_model_vela.tflite").string()});
  CHECK(d["config"]["system_config"] == "Ethos_U55_High_End_Embedded");
  CHECK(d["config"]["memory_mode"] == "Shared_Sram");
  CHECK(d["config"]["system_config_from"] == "default");
  CHECK(d["config"]["memory_mode_from"] == "default");
  const test::ProcessResult text = test::runNpusim({"run", (other / "kws_ref_model_vela.tflite").string()});
  CHECK(text.out.find("  from     system config and memory mode: default\n") != std::string::npos);
}

TEST_CASE("config from the compile: a flag that contradicts it warns naming both, --strict refuses, in run, estimate and compare") {
  const auto fixtures = test::fixturesDirOrSkip();
  if (!fixtures) return;
  const std::string model = test::velaFolder(*fixtures, "kws_ref_model", kDeepEmbedded).tflite.string();
  for (const char* command : {"run", "estimate", "compare"}) {
    INFO(command);
    const test::ProcessResult warned = test::runNpusim({command, model, "--system-config", "Ethos_U55_High_End_Embedded"});
    INFO(warned.err);
    CHECK(warned.exitCode == 0);
    CHECK(warnings(warned.err) == 1);
    CHECK(warned.err.find("npusim: warning: " + model + ": the model was compiled for system config "
                          "Ethos_U55_Deep_Embedded (kws_ref_model_summary_Ethos_U55_Deep_Embedded.csv), but "
                          "Ethos_U55_High_End_Embedded (--system-config) is simulated") != std::string::npos);
    test::checkOneErrorLine(
        test::runNpusim({command, model, "--system-config", "Ethos_U55_High_End_Embedded", "--strict"}),
        model + ": the model was compiled for system config Ethos_U55_Deep_Embedded");
    test::checkOneErrorLine(test::runNpusim({command, model, "--memory-mode", "Sram_Only", "--strict"}),
                            "the model was compiled for memory mode Shared_Sram (kws_ref_model_summary_"
                            "Ethos_U55_Deep_Embedded.csv), but Sram_Only (--memory-mode) is simulated");
    // The compile's own sections named: no contradiction.
    const test::ProcessResult agreed = test::runNpusim(
        {command, model, "--system-config", "Ethos_U55_Deep_Embedded", "--memory-mode", "Shared_Sram", "--strict"});
    CHECK(agreed.exitCode == 0);
    CHECK(warnings(agreed.err) == 0);
  }
}

TEST_CASE("config from the compile: compare and estimate compare like with like") {
  const auto fixtures = test::fixturesDirOrSkip();
  if (!fixtures) return;
  const fs::path dir = test::velaFolder(*fixtures, "kws_ref_model", kDeepEmbedded).dir;
  const auto [system, mode] = summarySections(dir);
  const std::string model = (dir / "kws_ref_model_vela.tflite").string();
  // compare's estimate (npusim's reproduction of Vela 3.10's) agrees with the Vela numbers it
  // reads beside the model only on the configuration they were made for.
  const test::ProcessResult r = test::runNpusim({"compare", model, "--format", "json"});
  REQUIRE(r.exitCode == 0);
  const nlohmann::json c = nlohmann::json::parse(r.out);
  CHECK(c["system_config"] == system);
  CHECK(c["memory_mode"] == mode);
  CHECK(c["system_config_from"] == "the compile (kws_ref_model_summary_" + system + ".csv)");
  CHECK(c["estimate_cycles"].get<double>() == doctest::Approx(c["vela_cycles"].get<double>()).epsilon(0.005));
  const test::ProcessResult wrong =
      test::runNpusim({"compare", model, "--format", "json", "--system-config", "Ethos_U55_High_End_Embedded"});
  REQUIRE(wrong.exitCode == 0);
  const nlohmann::json w = nlohmann::json::parse(wrong.out);
  CHECK(std::abs(w["estimate_cycles"].get<double>() / w["vela_cycles"].get<double>() - 1) > 0.05);
  // The text header says where the sections came from.
  const test::ProcessResult text = test::runNpusim({"compare", model});
  CHECK(text.out.find("\nfrom system config and memory mode: the compile (kws_ref_model_summary_" + system + ".csv)\n") !=
        std::string::npos);
  // estimate, likewise.
  const test::TempDir tmp;
  const fs::path json = tmp.path() / "estimate.json";
  const test::ProcessResult e = test::runNpusim({"estimate", model, "--json", json.string()});
  REQUIRE(e.exitCode == 0);
  const nlohmann::json ej = nlohmann::json::parse(test::readText(json));
  CHECK(ej["system_config"] == system);
  CHECK(ej["memory_mode"] == mode);
  CHECK(e.out.find("\nfrom system config and memory mode: the compile (kws_ref_model_summary_" + system + ".csv)\n") !=
        std::string::npos);
}

TEST_CASE("config from the compile: a summary CSV naming a section npusim does not know leaves the default, said once") {
  const auto fixtures = test::fixturesDirOrSkip();
  if (!fixtures) return;
  const test::TempDir tmp;
  const fs::path model = tmp.path() / "kws_ref_model_vela.tflite";
  fs::copy_file(test::velaFolder(*fixtures, "kws_ref_model", kSharedSram).tflite, model);
  std::ofstream(tmp.path() / "kws_ref_model_summary_My_Sys_Cfg.csv")
      << "experiment,network,accelerator_configuration,system_config,memory_mode\n"
         "default,kws_ref_model,Ethos_U55_128,My_Sys_Cfg,Shared_Sram\n";
  std::string err;
  const nlohmann::json j = runJson(tmp, {model.string()}, &err);
  CHECK(j["config"]["system_config"] == "Ethos_U55_High_End_Embedded");
  CHECK(j["config"]["system_config_from"] == "default");
  CHECK(j["config"]["memory_mode"] == "Shared_Sram");
  CHECK(j["config"]["memory_mode_from"] == "the compile (kws_ref_model_summary_My_Sys_Cfg.csv)");
  CHECK(warnings(err) == 1);
  CHECK(err.find("the model was compiled for system config My_Sys_Cfg (kws_ref_model_summary_My_Sys_Cfg.csv), but "
                 "Ethos_U55_High_End_Embedded (default) is simulated: npusim does not know My_Sys_Cfg") !=
        std::string::npos);
  // A summary CSV of a compile for another accelerator says nothing about this one.
  std::ofstream(tmp.path() / "kws_ref_model_summary_My_Sys_Cfg.csv")
      << "experiment,network,accelerator_configuration,system_config,memory_mode\n"
         "default,kws_ref_model,Ethos_U55_256,Ethos_U55_Deep_Embedded,Sram_Only\n";
  const nlohmann::json other = runJson(tmp, {model.string()}, &err);
  CHECK(other["config"]["system_config_from"] == "default");
  CHECK(err.find("describes a compile for ethos-u55-256, but the model is compiled for ethos-u55-128") !=
        std::string::npos);
}

TEST_CASE("config --show MODEL: the configuration run resolves for the model, its compile's sections said on stderr") {
  const auto fixtures = test::fixturesDirOrSkip();
  if (!fixtures) return;
  const fs::path dir = test::velaFolder(*fixtures, "kws_ref_model", kDeepEmbedded).dir;
  const std::string model = (dir / "kws_ref_model_vela.tflite").string();
  // Vela's summary CSV has the compile's clock: its system config's core_clock.
  double clock = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().find("_summary_") == std::string::npos) continue;
    const std::vector<CsvLine> lines = readCsvFile(e.path().string());
    const auto& h = lines.at(0).fields;
    clock = std::stod(lines.at(1).fields.at(size_t(std::find(h.begin(), h.end(), "core_clock") - h.begin())));
  }
  REQUIRE(clock > 0);
  const test::ProcessResult show = test::runNpusim({"config", "--show", model});
  INFO(show.err);
  REQUIRE(show.exitCode == 0);
  const nlohmann::json j = nlohmann::json::parse(show.out);
  CHECK(j["accelerator"] == "ethos-u55-128");
  CHECK(j["system"]["core_clock"].get<double>() == clock);
  CHECK(show.err == "npusim: " + model + ": ethos-u55-128, Ethos_U55_Deep_Embedded, Shared_Sram (system config and "
                    "memory mode: the compile (kws_ref_model_summary_Ethos_U55_Deep_Embedded.csv))\n");
  // The same JSON as --config reproduces the run's numbers.
  const test::TempDir tmp;
  const fs::path config = tmp.path() / "config.json";
  std::ofstream(config) << show.out;
  const nlohmann::json a = runJson(tmp, {model});
  const nlohmann::json b = runJson(tmp, {model, "--config", config.string()});
  CHECK(a["total_cycles"] == b["total_cycles"]);
  // Flags that contradict the compile are warned about, as run warns.
  const test::ProcessResult other = test::runNpusim({"config", "--show", model, "--system-config", "Ethos_U55_High_End_Embedded"});
  CHECK(other.exitCode == 0);
  CHECK(nlohmann::json::parse(other.out)["system"]["core_clock"].get<double>() != clock);
  CHECK(warnings(other.err) == 1);
  // A model only with --show.
  const test::ProcessResult listed = test::runNpusim({"config", "--list", model});
  CHECK(listed.exitCode == 2);
  CHECK(listed.err.find("requires --show") != std::string::npos);
}

} // namespace npusim
