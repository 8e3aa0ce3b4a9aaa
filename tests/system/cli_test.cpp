// SPDX-License-Identifier: Apache-2.0
// The npusim executable: `inspect` on the demo network in every format, and its exit codes
// and error lines for bad arguments.

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/report/inspect_report.h"
#include "sim/io/demo_network.h"
#include "support/fixtures.h"

namespace npusim {
namespace {

// What the library writes for the demo network in `format` (the CLI must print the same).
std::string demoInspect(report::InspectFormat format) {
  const io::CompiledNetwork net = io::loadNetworkFromBytes(io::buildDemoNetworkTflite(), "<demo>");
  std::ostringstream os;
  report::writeInspect(os, net, io::decodeAll(net), format);
  return os.str();
}


} // namespace

TEST_CASE("cli: inspect without a model describes the demo network") {
  const test::ProcessResult run = test::runNpusim({"inspect"});
  CHECK(run.exitCode == 0);
  CHECK(run.err.empty());
  CHECK(run.out.rfind("<demo>: npusim demo network, 1 operators (1 ethos-u)\n", 0) == 0);
  CHECK(run.out.find("CONV ifm 32x32x3") != std::string::npos);
  CHECK(run.out.find("POOL MAX") != std::string::npos);
  // The library's listing, then what the model was compiled for (demo: 128 MACs).
  const std::string listing = demoInspect(report::InspectFormat::Text);
  CHECK(run.out.rfind(listing, 0) == 0);
  const std::string rest = run.out.substr(std::min(listing.size(), run.out.size()));
  CHECK(rest.rfind("compiled for: ethos-u55-128 (SHRAM ", 0) == 0);
  CHECK(std::count(rest.begin(), rest.end(), '\n') == 1);
}

TEST_CASE("cli: inspect --format json parses and lists the operators") {
  const test::ProcessResult run = test::runNpusim({"inspect", "--format", "json"});
  CHECK(run.exitCode == 0);
  CHECK(run.err.empty());
  nlohmann::json j;
  REQUIRE_NOTHROW(j = nlohmann::json::parse(run.out));
  CHECK(j.at("file") == "<demo>");
  REQUIRE(j.at("operators").is_array());
  REQUIRE(j.at("operators").size() == 1);
  const nlohmann::json& op = j.at("operators").at(0);
  CHECK(op.at("kind") == "npu");
  CHECK(op.at("operator") == "ethos-u");
  CHECK(op.at("cop1").at("macs") == 128);
  const nlohmann::json& operations = op.at("operations");
  REQUIRE(operations.is_array());
  REQUIRE(operations.size() > 2);
  CHECK(operations.front().at("kind") == "DMA_START");
  CHECK(operations.at(1).at("kind") == "CONV");
  CHECK(operations.at(1).at("ifm").at("shape_hwc") == nlohmann::json::array({32, 32, 3}));
  CHECK(operations.back().at("kind") == "STOP");
  CHECK(op.at("commands").get<size_t>() > operations.size());
  CHECK(run.out == demoInspect(report::InspectFormat::Json));
}

TEST_CASE("cli: inspect --format vela prints one listing, as the library does") {
  const test::ProcessResult run = test::runNpusim({"inspect", "--format", "VELA"}); // case-insensitive
  CHECK(run.exitCode == 0);
  const auto listings = test::velaListings(run.out);
  REQUIRE(listings.size() == 1);
  CHECK(listings[0].front() == "Register-Level Command Stream: Output");
  CHECK(listings[0].back().rfind("Command stream length = ", 0) == 0);
  CHECK(run.out == demoInspect(report::InspectFormat::Vela));
}

TEST_CASE("cli: a nonexistent model gives exit code 2 and one line naming the file") {
  const test::TempDir dir;
  const std::string missing = (dir.path() / "no_such_model.tflite").string();
  const test::ProcessResult run = test::runNpusim({"inspect", missing});
  test::checkOneErrorLine(run, missing + ": cannot open file");
}

TEST_CASE("cli: a directory instead of a model gives exit code 2 and one line naming it") {
  const test::TempDir dir;
  const test::ProcessResult run = test::runNpusim({"inspect", dir.path().string()});
  test::checkOneErrorLine(run, dir.path().string() + ": cannot read file");
}

TEST_CASE("cli: a file that is not a model gives exit code 2 and one line naming the file") {
  const test::TempDir dir;
  const std::string path = (dir.path() / "notes.txt").string();
  test::writeBytes(path, std::vector<uint8_t>(100, 'x'));
  const test::ProcessResult run = test::runNpusim({"inspect", path});
  test::checkOneErrorLine(run, path + ": byte 4 (0x4): not a TFLite model");
}

TEST_CASE("cli: an unknown --format value gives exit code 2 and the allowed words") {
  test::checkOneErrorLine(test::runNpusim({"inspect", "--format", "xml"}), "--format: expected json, text or vela, got 'xml'");
  test::checkOneErrorLine(test::runNpusim({"compare", "--format", "yaml"}),
                    "--format: expected csv, json, md or text, got 'yaml'");
}

TEST_CASE("cli: --set without '=' explains the key=value form") {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"run", "--set", "system.sram.read_latency", "64"},
                                               std::vector<std::string>{"run", "--set", "system.sram.read_latency"}}) {
    test::checkOneErrorLine(test::runNpusim(args), "--set: expected key=value in one word, e.g. "
                                             "--set system.sram.read_latency=64; got 'system.sram.read_latency'");
  }
}

TEST_CASE("cli: an enum error lists the allowed values in words, a system-config typo suggests a U55 section") {
  test::checkOneErrorLine(test::runNpusim({"run", "--set", "system.axi0_port=Flash"}),
                    "'Flash' is not one of Sram, Dram, OnChipFlash or OffChipFlash");
  test::checkOneErrorLine(test::runNpusim({"run", "--system-config", "Ethos_U55_High_End"}),
                    "(did you mean 'Ethos_U55_High_End_Embedded'?)");
}

TEST_CASE("cli: an unknown subcommand is named with the nearest one, and a missing one lists them") {
  test::checkOneErrorLine(test::runNpusim({"frobnicate"}), "unknown subcommand 'frobnicate'; npusim --help lists them");
  test::checkOneErrorLine(test::runNpusim({"rnu", "model.tflite"}), "unknown subcommand 'rnu' (did you mean 'run'?)");
  // None at all: the subcommands are listed.
  const test::ProcessResult none = test::runNpusim({});
  test::checkOneErrorLine(none, "a subcommand is required (");
  for (const char* name : {"inspect", "run", "estimate", "compare", "sweep", "regress", "probe"}) {
    CHECK(none.err.find(name) != std::string::npos);
  }
}

TEST_CASE("cli: an option that would be dropped is refused: --trace-detail without --trace, -j without --tree") {
  test::checkOneErrorLine(test::runNpusim({"run", "--trace-detail", "op"}), "--trace-detail requires --trace");
  test::checkOneErrorLine(test::runNpusim({"compare", "-j", "2"}), "--jobs requires --tree");
}

TEST_CASE("cli: a missing subcommand gives exit code 2") {
  const test::ProcessResult run = test::runNpusim({});
  CHECK(run.exitCode == 2);
  CHECK(run.out.empty());
  CHECK(run.err.rfind("npusim: error: ", 0) == 0);
}

TEST_CASE("cli: a --vela-ini section that leaves out keys is read as the Vela that compiled the model, said in a warning") {
  const auto model = test::fixtureOrSkip(
      "vela5/kws_ref_model/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram/kws_ref_model_vela.tflite");
  if (!model) {
    return;
  }
  // A section without latencies or outstanding limits, which Vela 3.10 and 5.0 read differently.
  const test::TempDir dir;
  const std::string ini = (dir.path() / "sparse.ini").string();
  std::ofstream(ini) << "[System_Config.Sparse]\ncore_clock=500e6\naxi0_port=Sram\naxi1_port=OffChipFlash\n"
                        "Sram_burst_length=32\nOffChipFlash_clock_scale=0.125\nOffChipFlash_burst_length=128\n"
                        "[Memory_Mode.Shared]\nconst_mem_area=Axi1\narena_mem_area=Axi0\ncache_mem_area=Axi0\n";
  const std::vector<std::string> args{"estimate", model->string(), "--vela-ini", ini, "--system-config", "Sparse",
                                      "--memory-mode", "Shared"};
  // The model is Vela 5.0's: its reading, said on stderr.
  const test::ProcessResult as50 = test::runNpusim(args);
  REQUIRE(as50.exitCode == 0);
  INFO("stderr: ", as50.err);
  CHECK(as50.err.rfind("npusim: warning: " + ini + ": [System_Config.Sparse] leaves out keys", 0) == 0);
  CHECK(as50.err.find("read as Vela 5.0 does (the model was compiled by Vela 5.x's C++ back end; --vela 3.10") !=
        std::string::npos);
  CHECK(as50.err.find("Sram_read_latency=1") != std::string::npos);
  // --vela 3.10: Vela 3.10's model and reading.
  std::vector<std::string> with310 = args;
  with310.insert(with310.end(), {"--vela", "3.10"});
  const test::ProcessResult as310 = test::runNpusim(with310);
  REQUIRE(as310.exitCode == 0);
  CHECK(as310.err.find("read as Vela 3.10 does (--vela 3.10; --vela 5.0") != std::string::npos);
  CHECK(as310.err.find("Sram_read_latency=0") != std::string::npos);
  // config --show without a model: Vela 3.10's reading unless --vela says otherwise.
  const test::ProcessResult show = test::runNpusim({"config", "--show", "--vela-ini", ini, "--system-config", "Sparse",
                                                    "--memory-mode", "Shared", "--vela", "5.0"});
  REQUIRE(show.exitCode == 0);
  CHECK(nlohmann::json::parse(show.out)["system"]["sram"]["read_latency"] == 1);
}

} // namespace npusim
