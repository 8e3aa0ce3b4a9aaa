// SPDX-License-Identifier: Apache-2.0
// `npusim probe write|compare`: models whose NPU work stops after each kernel operation, and
// measured NPU_ACTIVE of such models against npusim's.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/common/csv.h"
#include "sim/io/decoded_network.h"
#include "sim/io/demo_network.h"
#include "support/fixtures.h"
#include "support/hardware.h"
#include "support/npu_model.h"
#include "support/u85_streams.h"

namespace fs = std::filesystem;

namespace npusim {
namespace {

struct Row {
  std::map<std::string, std::string> field;
  const std::string& operator[](const std::string& name) const { return field.at(name); }
};

std::vector<Row> readCsv(const fs::path& path) {
  std::istringstream in(test::readText(path));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = splitCsvLine(line);
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = splitCsvLine(line);
    REQUIRE(fields.size() == header.size());
    Row r;
    for (size_t i = 0; i < header.size(); ++i) r.field[header[i]] = fields[i];
    rows.push_back(r);
  }
  return rows;
}

uint64_t npuActiveOf(const fs::path& model, const std::vector<std::string>& options, const fs::path& json) {
  std::vector<std::string> args{"run", model.string(), "--json", json.string()};
  args.insert(args.end(), options.begin(), options.end());
  const test::ProcessResult run = test::runNpusim(args);
  REQUIRE(run.exitCode == 0);
  return nlohmann::json::parse(test::readText(json))["npu_active_cycles"].get<uint64_t>();
}


// Writes the probes of `model` (run with `options`) and checks each against the original,
// decoded independently of the probe writer: per ethos-u operator, the streams before the
// probe's are unchanged, its stream is the original's commands through the probed operation
// then STOP, and later streams are a STOP alone; nothing outside the command streams changes;
// each probe's simulated NPU_ACTIVE is `run`'s; the last probe is the model itself.
void checkProbes(const fs::path& model, const std::vector<std::string>& options) {
  INFO("model: ", model.string());
  test::TempDir tmp;
  std::vector<std::string> args{"probe", "write", model.string(), "--out", (tmp.path() / "p").string()};
  args.insert(args.end(), options.begin(), options.end());
  const test::ProcessResult write = test::runNpusim(args);
  INFO("stderr: ", write.err);
  REQUIRE(write.exitCode == 0);
  const std::vector<Row> rows = readCsv(tmp.path() / "p" / "probes.csv");

  const std::vector<uint8_t> original = test::readBytes(model);
  const io::CompiledNetwork net = io::loadNetworkFromBytes(original, model.string());
  const std::vector<io::DecodedNpuOp> decoded = io::decodeAll(net);
  // Every kernel operation not inside a chained group (U85: its OFM not in a chaining buffer),
  // in execution order: (stream, operation index).
  std::vector<std::pair<size_t, size_t>> kernels;
  for (size_t s = 0; s < decoded.size(); ++s) {
    for (size_t i = 0; i < decoded[s].operations.size(); ++i) {
      const cmd::Operation& op = decoded[s].operations[i];
      if (cmd::isKernel(op.kind) && op.ofm.storage != cmd::Storage::Chained) kernels.emplace_back(s, i);
    }
  }
  REQUIRE(rows.size() == kernels.size());
  for (size_t k = 0; k < rows.size(); ++k) {
    INFO("probe ", k + 1);
    const auto [stream, operation] = kernels[k];
    CHECK(rows[k]["probe"] == std::to_string(k + 1));
    CHECK(rows[k]["network_operator"] == std::to_string(decoded[stream].operatorIndex));
    CHECK(rows[k]["index"] == std::to_string(operation));
    CHECK(rows[k]["command_offset"] == std::to_string(decoded[stream].operations[operation].byteOffset));
    const std::vector<uint8_t> bytes = test::readBytes(tmp.path() / "p" / rows[k]["file"]);
    REQUIRE(bytes.size() == original.size());
    const io::CompiledNetwork probe = io::loadNetworkFromBytes(bytes, rows[k]["file"]);
    const std::vector<io::DecodedNpuOp> cut = io::decodeAll(probe);
    REQUIRE(cut.size() == decoded.size());
    std::vector<bool> inStream(bytes.size(), false);
    for (size_t s = 0; s < decoded.size(); ++s) {
      const io::NpuOp& npu = net.operators[decoded[s].operatorIndex].npu;
      std::fill(inStream.begin() + static_cast<std::ptrdiff_t>(npu.commands.offset - 4),
                inStream.begin() + static_cast<std::ptrdiff_t>(npu.commands.offset + npu.commands.size), true);
      const std::vector<cmd::Command>& want = decoded[s].commands;
      const std::vector<cmd::Command>& got = cut[s].commands;
      // Commands kept: all (earlier streams), through the probed operation's, or none.
      const size_t kept = s < stream ? want.size() - 1
                        : s == stream ? decoded[s].operations[operation].commandIndex + 1
                                      : 0;
      REQUIRE(got.size() == kept + 1);
      for (size_t c = 0; c < kept; ++c) {
        CHECK(got[c].key == want[c].key);
        CHECK(got[c].param == want[c].param);
        CHECK(got[c].payload == want[c].payload);
      }
      CHECK(got.back().id() == arch::CommandId::OpStop);
    }
    for (size_t b = 0; b < bytes.size(); ++b) {
      if (!inStream[b] && bytes[b] != original[b]) {
        FAIL("byte ", b, " outside the command streams differs");
      }
    }
  }
  // The manifest's cycles are `run`'s of each file (first, middle, last); the last probe runs
  // the whole network when nothing but STOP follows its last kernel operation.
  for (const size_t k : {size_t{0}, rows.size() / 2, rows.size() - 1}) {
    CHECK(std::to_string(npuActiveOf(tmp.path() / "p" / rows[k]["file"], options, tmp.path() / "r.json")) ==
          rows[k]["simulated_npu_active"]);
  }
  const cmd::Program& last = decoded.back();
  if (last.operations.size() >= 2 && cmd::isKernel(last.operations[last.operations.size() - 2].kind)) {
    CHECK(test::readBytes(tmp.path() / "p" / rows.back()["file"]) == original);
    CHECK(std::to_string(npuActiveOf(model, options, tmp.path() / "r.json")) == rows.back()["simulated_npu_active"]);
  }
}

} // namespace

TEST_CASE("probe write: the demo network, one probe per kernel operation") {
  test::TempDir tmp;
  const fs::path demo = tmp.path() / "demo.tflite";
  test::writeBytes(demo, io::buildDemoNetworkTflite());
  checkProbes(demo, {});
}

TEST_CASE("probe write: fixture models of the U55 (six ethos-u operators), U65 and U85 (chained groups cut after their last)") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) return;
  const fs::path kws8 = *root / "vela/keyword_scrambled_8bit/ethos-u55-64_Ethos_U55_High_End_Embedded_Shared_Sram/"
                                "keyword_scrambled_8bit_vela.tflite";
  const fs::path u65 = *root / "fvp/vela5/rnnoise_INT8/ethos-u65-512/rnnoise_INT8_vela.tflite";
  const fs::path u85 = *root / "fvp/vela5/kws_micronet_m/ethos-u85-256/kws_micronet_m_vela.tflite";
  const fs::path chained = *root / "vela-u85/kws_ref_model/ethos-u85-256_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/"
                                   "kws_ref_model_vela.tflite";
  for (const fs::path& p : {kws8, u65, u85, chained}) {
    if (!fs::exists(p)) {
      FAIL("fixture missing: ", p.string());
    }
  }
  checkProbes(kws8, {});
  checkProbes(u65, {"--system-config", "Corstone_300_FVP", "--memory-mode", "Dedicated_Sram"});
  checkProbes(u85, {"--system-config", "Corstone_320_FVP", "--memory-mode", "Dedicated_Sram"});
  size_t chainedOps = 0;
  for (const io::DecodedNpuOp& d : io::decodeAll(io::loadNetwork(chained.string()))) {
    for (const cmd::Operation& op : d.operations) chainedOps += op.ofm.storage == cmd::Storage::Chained ? 1 : 0;
  }
  CHECK(chainedOps > 0);
  checkProbes(chained, {"--system-config", "Corstone_320_FVP", "--memory-mode", "Dedicated_Sram_384KB"});
}

TEST_CASE("probe write: warns, or with --strict refuses, a configuration the model was not compiled for, as run does") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) return;
  const std::string shared =
      test::velaFolder(*root, "kws_ref_model", "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram").tflite.string();
  test::TempDir tmp;
  const test::ProcessResult warned =
      test::runNpusim({"probe", "write", shared, "--memory-mode", "Sram_Only", "--out", (tmp.path() / "a").string()});
  INFO("stderr: ", warned.err);
  CHECK(warned.exitCode == 0);
  CHECK(warned.err.rfind("npusim: warning: " + shared + ": the model was compiled for memory mode Shared_Sram "
                         "(kws_ref_model_summary_Ethos_U55_High_End_Embedded.csv), but Sram_Only (--memory-mode) is simulated",
                         0) == 0);
  CHECK(std::count(warned.err.begin(), warned.err.end(), '\n') == 1);
  test::checkOneErrorLine(test::runNpusim({"probe", "write", shared, "--memory-mode", "Sram_Only", "--strict", "--out",
                                     (tmp.path() / "b").string()}),
                    "(--strict)");
  CHECK_FALSE(fs::exists(tmp.path() / "b" / "probes.csv"));
}

TEST_CASE("probe write --every: every N-th kernel operation and the last") {
  test::TempDir tmp;
  const test::ProcessResult write = test::runNpusim({"probe", "write", "--every", "2", "--out", tmp.path().string()});
  REQUIRE(write.exitCode == 0);
  const io::CompiledNetwork demo = io::loadNetworkFromBytes(io::buildDemoNetworkTflite(), "<demo>");
  const std::vector<io::DecodedNpuOp> decoded = io::decodeAll(demo);
  size_t kernels = 0;
  for (const cmd::Operation& op : decoded.at(0).operations) kernels += cmd::isKernel(op.kind) ? 1 : 0;
  REQUIRE(kernels % 2 == 1);   // so that the last is not an even one
  std::vector<std::string> files;
  for (const Row& r : readCsv(tmp.path() / "probes.csv")) files.push_back(r["file"]);
  std::vector<std::string> want;
  for (size_t k = 2; k <= kernels; k += 2) want.push_back("demo.probe" + std::to_string(k) + ".tflite");
  want.push_back("demo.probe" + std::to_string(kernels) + ".tflite");
  CHECK(files == want);
}

TEST_CASE("probe compare: measured against simulated, per probe and per operation kind") {
  test::TempDir tmp;
  REQUIRE(test::runNpusim({"probe", "write", "--out", tmp.path().string()}).exitCode == 0);
  const std::vector<Row> rows = readCsv(tmp.path() / "probes.csv");
  REQUIRE(rows.size() >= 4);
  // Measured: 5/4 of npusim's for every probe but the third, plus a file that is no probe.
  std::ofstream(tmp.path() / "measured.csv") << "note,npu_active,file\n";
  std::vector<uint64_t> measured;
  for (size_t k = 0; k < rows.size(); ++k) {
    measured.push_back(std::stoull(rows[k]["simulated_npu_active"]) * 5 / 4);
    if (k == 2) continue;
    std::ofstream(tmp.path() / "measured.csv", std::ios::app)
        << "x," << measured[k] << ",/elsewhere/" << rows[k]["file"] << '\n';
  }
  std::ofstream(tmp.path() / "measured.csv", std::ios::app) << "y,7,other.tflite\n";
  const test::ProcessResult c = test::runNpusim({"probe", "compare", (tmp.path() / "probes.csv").string(),
                                                 (tmp.path() / "measured.csv").string(), "--csv",
                                                 (tmp.path() / "c.csv").string()});
  INFO("stderr: ", c.err);
  REQUIRE(c.exitCode == 0);
  CHECK(c.err.find("other.tflite is not a probe") != std::string::npos);
  CHECK(c.err.find("1 of " + std::to_string(rows.size()) + " probes have no measurement") != std::string::npos);
  const std::vector<Row> out = readCsv(tmp.path() / "c.csv");
  REQUIRE(out.size() == rows.size() - 1);
  // Each probe adds its cycles over the previous measured one (probe 4 over probe 2).
  uint64_t previousMeasured = 0, previousSimulated = 0;
  for (const Row& r : out) {
    const size_t k = std::stoul(r["probe"]) - 1;
    CHECK(k != 2);
    const uint64_t simulated = std::stoull(rows[k]["simulated_npu_active"]);
    CHECK(r["measured_npu_active"] == std::to_string(measured[k]));
    CHECK(r["simulated_npu_active"] == std::to_string(simulated));
    CHECK(std::stoll(r["measured_added"]) == static_cast<int64_t>(measured[k] - previousMeasured));
    CHECK(std::stoll(r["simulated_added"]) == static_cast<int64_t>(simulated - previousSimulated));
    previousMeasured = measured[k];
    previousSimulated = simulated;
  }
  // The text report: every total 20% under the measured (up to the rounding of 5/4).
  CHECK(c.out.find("by operation kind") != std::string::npos);
  CHECK(c.out.find("-20.0%") != std::string::npos);
}

TEST_CASE("probe: bad input gets one error line and exit 2") {
  test::TempDir tmp;
  REQUIRE(test::runNpusim({"probe", "write", "--out", (tmp.path() / "p").string()}).exitCode == 0);
  const std::string manifest = (tmp.path() / "p" / "probes.csv").string();
  const auto measured = [&](const std::string& text) {
    std::ofstream(tmp.path() / "m.csv") << text;
    return test::runNpusim({"probe", "compare", manifest, (tmp.path() / "m.csv").string()});
  };
  test::checkOneErrorLine(measured("file,cycles\ndemo.probe1.tflite,5\n"), "no column 'npu_active'");
  test::checkOneErrorLine(measured("file,npu_active\ndemo.probe1.tflite,5k\n"), "line 2: '5k' is not a cycle count");
  test::checkOneErrorLine(measured("file,npu_active\ndemo.probe1.tflite,5\na/demo.probe1.tflite,6\n"),
                    "line 3: demo.probe1.tflite was measured on line 2 already");
  test::checkOneErrorLine(measured("file,npu_active\nother.tflite,5\n"), "no file it names is a probe of");
  test::checkOneErrorLine(measured(""), "empty file");
  test::checkOneErrorLine(test::runNpusim({"probe", "compare", (tmp.path() / "none.csv").string(), manifest}),
                    "cannot open file");
  std::ofstream(tmp.path() / "bad_manifest.csv") << "probe,file\n1,a.tflite\n";
  std::ofstream(tmp.path() / "m.csv") << "file,npu_active\na.tflite,5\n";
  test::checkOneErrorLine(test::runNpusim({"probe", "compare", (tmp.path() / "bad_manifest.csv").string(),
                                     (tmp.path() / "m.csv").string()}),
                    "no column 'network_operator'");
  // An output folder that is a file.
  std::ofstream(tmp.path() / "file") << "x";
  test::checkOneErrorLine(test::runNpusim({"probe", "write", "--out", (tmp.path() / "file").string()}),
                    "cannot create the output folder");
  // A U85 stream that branches: its operations need not run in stream order, so neither
  // `run` nor `probe write` takes it.
  cmd::CommandStreamBuilder b = test::u85Builder();
  test::u85AddRegisters(b);
  b.cmd0(arch::CommandId::OpElementwise, 1);
  b.cmd1(arch::CommandId::OpBranch, static_cast<uint32_t>(b.bytes().size() + 8));
  test::u85Stop(b);
  test::ModelLayout layout;
  layout.macs = 256;
  const fs::path branching = tmp.path() / "branch.tflite";
  test::writeBytes(branching, test::buildNpuModel(cmd::buildCop1Payload(test::u85(256), b.bytes()), layout));
  test::checkOneErrorLine(test::runNpusim({"run", branching.string()}), "BRANCH");
  test::checkOneErrorLine(test::runNpusim({"probe", "write", branching.string(), "--out", (tmp.path() / "q").string()}),
                    "BRANCH");
}

} // namespace npusim
