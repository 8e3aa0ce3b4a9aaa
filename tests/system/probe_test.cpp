// SPDX-License-Identifier: Apache-2.0
// `npusim probe write|compare`: models whose NPU work stops after each kernel operation, and
// measured NPU_ACTIVE of such models against npusim's; the model with an NPU_OP_IRQ after every
// launch (--irq), and per-record measurements of it against npusim's.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <iomanip>
#include <iterator>
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
  const std::vector<test::CsvRow> rows = test::readCsvTable(tmp.path() / "p" / "probes.csv");

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

// The data set's launches, by their command (not probe::isLaunch): every cmd0 NPU_OP_* but
// STOP, IRQ and the DMA's (fixtures/fvp-perop/README.md; its cells.csv counts the KERNEL_WAITs).
bool isLaunchCommand(arch::CommandId id) {
  using C = arch::CommandId;
  return id == C::OpConv || id == C::OpDepthwise || id == C::OpPool || id == C::OpElementwise || id == C::OpResize ||
         id == C::OpKernelWait || id == C::OpPmuMask;
}

std::string maskText(size_t launch) {
  std::ostringstream os;
  os << "0x" << std::uppercase << std::hex << std::setw(4) << std::setfill('0') << (1u << (launch % 16));
  return os.str();
}

// Writes the --irq model of `model` (run with `options`) and checks it against the original,
// decoded independently of the writer: each stream is the original's commands with an
// NPU_OP_IRQ (mask 1 << n % 16, n counting launches across the streams) after every launch's
// command and nothing else; every byte of the original file is in place but for two words per
// ethos-u operator (its command-stream buffer's data offset and the tensor's shape), every
// tensor and operator reads the same, each payload keeps its COP1 words around the longer
// stream, 16-byte aligned; inspect lists the IRQs; launches.csv names each launch and ends with
// the END row at the run's CYCLE. Returns the launch count.
size_t checkIrqModel(const fs::path& model, const std::vector<std::string>& options) {
  INFO("model: ", model.string());
  test::TempDir tmp;
  std::vector<std::string> args{"probe", "write", model.string(), "--irq", "--out", tmp.path().string()};
  args.insert(args.end(), options.begin(), options.end());
  const test::ProcessResult write = test::runNpusim(args);
  INFO("stderr: ", write.err);
  REQUIRE(write.exitCode == 0);
  const fs::path irq = tmp.path() / (model.stem().string() + ".irq.tflite");
  const std::vector<uint8_t> original = test::readBytes(model), bytes = test::readBytes(irq);
  const io::CompiledNetwork net = io::loadNetworkFromBytes(original, model.string());
  const io::CompiledNetwork got = io::loadNetworkFromBytes(bytes, irq.string());
  const std::vector<io::DecodedNpuOp> want = io::decodeAll(net), have = io::decodeAll(got);
  REQUIRE(have.size() == want.size());

  // Commands, and launch by launch what launches.csv says.
  const std::vector<test::CsvRow> rows = test::readCsvTable(tmp.path() / "launches.csv");
  size_t launch = 0;
  for (size_t s = 0; s < want.size(); ++s) {
    size_t g = 0;
    for (const cmd::Command& c : want[s].commands) {
      REQUIRE(g < have[s].commands.size());
      CHECK(have[s].commands[g].key == c.key);
      CHECK(have[s].commands[g].param == c.param);
      CHECK(have[s].commands[g].payload == c.payload);
      ++g;
      if (!isLaunchCommand(c.id())) continue;
      REQUIRE(g < have[s].commands.size());
      CHECK(have[s].commands[g].id() == arch::CommandId::OpIrq);
      CHECK(have[s].commands[g].param == (1u << (launch % 16)));
      ++g;
      REQUIRE(launch + 1 < rows.size());
      const test::CsvRow& r = rows[launch];
      const cmd::Operation& op = *std::find_if(want[s].operations.begin(), want[s].operations.end(),
                                               [&](const cmd::Operation& o) { return o.commandIndex == c.index; });
      CHECK(r["launch"] == std::to_string(launch));
      CHECK(r["irq_mask"] == maskText(launch));
      CHECK(r["network_operator"] == std::to_string(want[s].operatorIndex));
      CHECK(r["index"] == std::to_string(&op - want[s].operations.data()));
      CHECK(r["command_offset"] == std::to_string(c.offset));
      CHECK(r["kind"] == std::string(cmd::opKindName(op.kind)));
      ++launch;
    }
    CHECK(g == have[s].commands.size());
  }
  REQUIRE(rows.size() == launch + 1);
  CHECK(rows.back()["kind"] == "END");
  for (size_t k = 1; k < rows.size(); ++k) {
    CHECK(std::stoull(rows[k]["simulated_end"]) >= std::stoull(rows[k - 1]["simulated_end"]));
  }
  std::vector<std::string> run{"run", model.string(), "--json", (tmp.path() / "run.json").string()};
  run.insert(run.end(), options.begin(), options.end());
  REQUIRE(test::runNpusim(run).exitCode == 0);
  const nlohmann::json result = nlohmann::json::parse(test::readText(tmp.path() / "run.json"));
  CHECK(rows.back()["simulated_end"] == std::to_string(result["pmu"]["CYCLE"].get<uint64_t>()));

  // The file: the original's bytes in place but for two words per ethos-u operator.
  REQUIRE(bytes.size() > original.size());
  std::set<size_t> words;
  for (size_t b = 0; b < original.size(); ++b) {
    if (bytes[b] != original[b]) words.insert(b / 4);
  }
  CHECK(words.size() <= 2 * want.size());
  REQUIRE(got.tensors.size() == net.tensors.size());
  std::set<int> streams;
  for (const io::DecodedNpuOp& d : want) streams.insert(net.operators[d.operatorIndex].npu.commandStreamTensorIndex);
  for (size_t t = 0; t < net.tensors.size(); ++t) {
    const io::TensorInfo &a = net.tensors[t], &b = got.tensors[t];
    CHECK(a.name == b.name);
    CHECK(a.type == b.type);
    CHECK(a.scale == b.scale);
    CHECK(a.zeroPoint == b.zeroPoint);
    CHECK(a.arenaOffset == b.arenaOffset);
    if (streams.count(static_cast<int>(t)) != 0) continue;
    CHECK(a.shape == b.shape);
    REQUIRE(a.data.has_value() == b.data.has_value());
    if (a.data) {
      CHECK(std::equal(net.at(*a.data), net.at(*a.data) + a.data->size, got.at(*b.data), got.at(*b.data) + b.data->size));
    }
  }
  REQUIRE(got.operators.size() == net.operators.size());
  for (size_t o = 0; o < net.operators.size(); ++o) {
    CHECK(got.operators[o].opName == net.operators[o].opName);
    CHECK(got.operators[o].inputs == net.operators[o].inputs);
    CHECK(got.operators[o].outputs == net.operators[o].outputs);
  }
  CHECK(got.description == net.description);
  CHECK(got.velaVersion == net.velaVersion);
  for (const io::DecodedNpuOp& d : want) {
    const io::NpuOp &a = net.operators[d.operatorIndex].npu, &b = got.operators[d.operatorIndex].npu;
    CHECK(got.tensors[a.commandStreamTensorIndex].shape ==
          std::vector<int32_t>{static_cast<int32_t>(b.commandStreamTensor.size)});
    CHECK(b.commandStreamTensor.offset % 16 == 0);
    // The COP1 words before the COMMAND_STREAM word and after the stream are the original's.
    const uint64_t before = a.commands.offset - 4 - a.commandStreamTensor.offset;
    const uint64_t after = a.commandStreamTensor.offset + a.commandStreamTensor.size - (a.commands.offset + a.commands.size);
    CHECK(std::equal(net.at(a.commandStreamTensor), net.at(a.commandStreamTensor) + before, got.at(b.commandStreamTensor)));
    CHECK(b.commands.offset - 4 - b.commandStreamTensor.offset == before);
    CHECK(std::equal(net.at(a.commands) + a.commands.size, net.at(a.commands) + a.commands.size + after,
                     got.at(b.commands) + b.commands.size));
  }
  // inspect decodes it: the original operations plus one IRQ per launch.
  const test::ProcessResult inspect = test::runNpusim({"inspect", irq.string()});
  CHECK(inspect.exitCode == 0);
  size_t irqLines = 0;
  for (size_t at = inspect.out.find(" IRQ 0x"); at != std::string::npos; at = inspect.out.find(" IRQ 0x", at + 1)) ++irqLines;
  CHECK(irqLines == launch);
  // run simulates it to its end, with the options `probe write` prints for it: the host takes
  // each interrupt before the last and waits on (an NPU_OP_IRQ does not stop the NPU), so
  // NPU_ACTIVE stays the original's but for the IRQ commands' own fetch and parse, well within 2%.
  const std::string marker = "  run      npusim run MODEL";
  const size_t at = write.out.find(marker);
  REQUIRE(at != std::string::npos);
  std::istringstream printed(write.out.substr(at + marker.size(), write.out.find('\n', at) - at - marker.size()));
  std::vector<std::string> rerun{std::istream_iterator<std::string>(printed), std::istream_iterator<std::string>()};
  const double active = double(npuActiveOf(model, options, tmp.path() / "original.json"));
  CHECK(double(npuActiveOf(irq, rerun, tmp.path() / "irq.json")) == doctest::Approx(active).epsilon(0.02));
  return launch;
}

// The records a driver would write if the hardware ran as npusim simulates: `groups` launches
// per record from launch 0 (masks by the bits 1 << n % 16), then a tail record over the rest,
// each with the cycles from its previous boundary to its last launch's end (the tail's: the
// end of the PMU windows), and 0 in each of `beatColumns`, computed from `run --json` alone: each launch's end after its ethos-u
// operator's pmu_start_cycle, over the PMU windows one after another, the latest so far.
std::string recordsFromRun(const nlohmann::json& run, const std::vector<size_t>& groups,
                           const std::vector<std::string>& beatColumns) {
  std::map<size_t, std::pair<int64_t, int64_t>> window; // network operator -> (windows before, pmu start)
  int64_t windows = 0;
  for (const auto& o : run["network_operators"]) {
    if (o["kind"] != "npu") continue;
    window[o["index"].get<size_t>()] = {windows, o["pmu_start_cycle"].get<int64_t>()};
    windows += o["pmu_end_cycle"].get<int64_t>() - o["pmu_start_cycle"].get<int64_t>();
  }
  const std::set<std::string> launchKinds{"CONV", "DEPTHWISE", "POOL", "ELEMENTWISE", "RESIZE", "KERNEL_WAIT", "PMU_MASK"};
  std::vector<int64_t> ends;
  int64_t latest = 0;
  for (const auto& op : run["operations"]) {
    if (launchKinds.count(op["kind"].get<std::string>()) == 0) continue;
    const auto [before, start] = window.at(op["network_operator"].get<size_t>());
    latest = std::max(latest, before + op["end_cycle"].get<int64_t>() - start);
    ends.push_back(latest);
  }
  std::ostringstream out;
  std::string zeros;
  out << "rec,ccnt,irq_mask,is_tail";
  for (const std::string& c : beatColumns) {
    out << ',' << c;
    zeros += ",0";
  }
  out << '\n';
  size_t next = 0, rec = 0;
  int64_t boundary = 0;
  for (const size_t g : groups) {
    uint32_t mask = 0;
    for (size_t i = next; i < next + g; ++i) mask |= 1u << (i % 16);
    next += g;
    out << rec++ << ',' << ends.at(next - 1) - boundary << ",0x" << std::hex << mask << std::dec << ",0" << zeros << '\n';
    boundary = ends.at(next - 1);
  }
  out << rec << ',' << std::max(windows, latest) - boundary << ",FINAL,1" << zeros << '\n';
  return out.str();
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
  for (const test::CsvRow& r : test::readCsvTable(tmp.path() / "probes.csv")) files.push_back(r["file"]);
  std::vector<std::string> want;
  for (size_t k = 2; k <= kernels; k += 2) want.push_back("demo.probe" + std::to_string(k) + ".tflite");
  want.push_back("demo.probe" + std::to_string(kernels) + ".tflite");
  CHECK(files == want);
}

TEST_CASE("probe compare: measured against simulated, per probe and per operation kind") {
  test::TempDir tmp;
  REQUIRE(test::runNpusim({"probe", "write", "--out", tmp.path().string()}).exitCode == 0);
  const std::vector<test::CsvRow> rows = test::readCsvTable(tmp.path() / "probes.csv");
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
  const std::vector<test::CsvRow> out = test::readCsvTable(tmp.path() / "c.csv");
  REQUIRE(out.size() == rows.size() - 1);
  // Each probe adds its cycles over the previous measured one (probe 4 over probe 2).
  uint64_t previousMeasured = 0, previousSimulated = 0;
  for (const test::CsvRow& r : out) {
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


TEST_CASE("probe write --irq: the demo network, an NPU_OP_IRQ after each launch, simulated to its end") {
  test::TempDir tmp;
  const fs::path demo = tmp.path() / "demo.tflite";
  test::writeBytes(demo, io::buildDemoNetworkTflite());
  CHECK(checkIrqModel(demo, {}) > 1);
}

TEST_CASE("probe write --irq: one model of every fixture family, an NPU_OP_IRQ after each launch and nothing else") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) return;
  // One model per family, chosen for what it holds: six ethos-u operators between CPU SVDFs
  // (vela/), the U65, Vela 3.10's rnnoise, four ethos-u operators between CPU TRANSPOSEs
  // (vela-extra/), Vela 5.0's U55 code, U85 chained groups and KERNEL_WAITs (vela-u85/), CPU
  // QUANTIZE/DEQUANTIZE around a U85 operator (vela-u85-extra/).
  const std::vector<std::string> models{
      "vela/keyword_scrambled_8bit/ethos-u55-128_Ethos_U55_Deep_Embedded_Shared_Sram/keyword_scrambled_8bit_vela.tflite",
      "vela-u65/kws_ref_model/ethos-u65-256_Ethos_U65_Client_Server_Dedicated_Sram/kws_ref_model_vela.tflite",
      "vela-rnn/rnnoise_INT8/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram/rnnoise_INT8_vela.tflite",
      "vela-extra/yolov8n_pose_192_int8/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram/"
      "yolov8n_pose_192_int8_vela.tflite",
      "vela5/kws_ref_model/ethos-u55-128_Ethos_U55_Deep_Embedded_Sram_Only/kws_ref_model_vela.tflite",
      "vela-u85/kws_ref_model/ethos-u85-1024_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/kws_ref_model_vela.tflite",
      "vela-u85-extra/dnn_s_quantized/ethos-u85-1024_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/"
      "dnn_s_quantized_vela.tflite"};
  for (const std::string& m : models) {
    const fs::path model = *root / m;
    if (!fs::exists(model)) {
      FAIL("fixture missing: ", model.string());
    }
    CHECK(checkIrqModel(model, {}) > 0);
  }
}

TEST_CASE("probe compare: records made from npusim's own run give no error, at every boundary and in every beat") {
  const auto root = test::fixturesDirOrSkip();
  if (!root) return;
  // A U85 model with KERNEL_WAITs, and six ethos-u operators with CPU operators between their
  // PMU windows (U55).
  const std::vector<std::pair<fs::path, std::vector<std::string>>> cases{
      {*root / "fvp/vela5/yolo-fastest_192_face_v4/ethos-u85-256/yolo-fastest_192_face_v4_vela.tflite",
       {"--system-config", "Corstone_320_FVP", "--memory-mode", "Dedicated_Sram"}},
      {*root / "vela/keyword_scrambled_8bit/ethos-u55-128_Ethos_U55_Deep_Embedded_Shared_Sram/"
               "keyword_scrambled_8bit_vela.tflite",
       {}}};
  for (const auto& [model, options] : cases) {
    INFO("model: ", model.string());
    test::TempDir tmp;
    std::vector<std::string> write{"probe", "write", model.string(), "--irq", "--out", tmp.path().string()};
    std::vector<std::string> run{"run", model.string(), "--json", (tmp.path() / "run.json").string()};
    write.insert(write.end(), options.begin(), options.end());
    run.insert(run.end(), options.begin(), options.end());
    REQUIRE(test::runNpusim(write).exitCode == 0);
    REQUIRE(test::runNpusim(run).exitCode == 0);
    const nlohmann::json result = nlohmann::json::parse(test::readText(tmp.path() / "run.json"));
    const fs::path launchCsv = tmp.path() / "launches.csv";
    const size_t launches = test::readCsvTable(launchCsv).size() - 1;
    // The beat columns and the PMU counters they count (U85: the SRAM and EXT groups; U55: each port).
    std::vector<std::pair<std::string, std::string>> beats;
    const bool u85 = result["pmu"].contains("SRAM_RD_DATA_BEAT_RECEIVED");
    const std::vector<std::string> groups = u85 ? std::vector<std::string>{"sram", "ext"} : std::vector<std::string>{"axi0", "axi1"};
    for (const std::string& group : groups) {
      std::string upper = group;
      std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char ch) { return std::toupper(ch); });
      beats.emplace_back(group + "_rd_beats", upper + "_RD_DATA_BEAT_RECEIVED");
      beats.emplace_back(group + "_wr_beats", upper + "_WR_DATA_BEAT_WRITTEN");
    }

    // Records of 1, 2, 3, 5 and 16 launches (a full mask) in turn, the tail over at least one;
    // their simulated beats add up to the PMU's.
    std::vector<size_t> sizes;
    size_t covered = 0;
    for (size_t k = 0;; ++k) {
      const size_t g = std::vector<size_t>{1, 2, 3, 5, 16}[k % 5];
      if (covered + g >= launches) break;
      sizes.push_back(g);
      covered += g;
    }
    std::vector<std::string> beatColumns;
    for (const auto& b : beats) beatColumns.push_back(b.first);
    std::ofstream(tmp.path() / "records.csv") << recordsFromRun(result, sizes, beatColumns);
    const test::ProcessResult c = test::runNpusim({"probe", "compare", launchCsv.string(),
                                                   (tmp.path() / "records.csv").string(), "--csv",
                                                   (tmp.path() / "c.csv").string()});
    INFO("stderr: ", c.err);
    REQUIRE(c.exitCode == 0);
    const std::vector<test::CsvRow> rows = test::readCsvTable(tmp.path() / "c.csv");
    REQUIRE(rows.size() == sizes.size() + 1);
    for (size_t k = 0; k < rows.size(); ++k) {
      CHECK(rows[k]["launches"] == std::to_string(k < sizes.size() ? sizes[k] : launches - covered));
      CHECK(rows[k]["measured_cycles"] == rows[k]["simulated_cycles"]);
      CHECK(rows[k]["measured_running"] == rows[k]["simulated_running"]);
    }
    CHECK(rows.back()["tail"] == "1");
    CHECK(c.out.find("mean |error| 0.0%") != std::string::npos);
    for (const auto& [column, event] : beats) {
      uint64_t sum = 0;
      for (const test::CsvRow& r : rows) sum += std::stoull(r["simulated_" + column]);
      CHECK(sum == result["pmu"][event].get<uint64_t>());
    }

    // One tail record over the whole run, measured as the PMU counted it: no error in any beat.
    std::ostringstream tail;
    tail << "ccnt,irq_mask,is_tail";
    for (const auto& b : beats) tail << ',' << b.first;
    tail << '\n' << result["pmu"]["CYCLE"].get<uint64_t>() << ",,1";
    for (const auto& b : beats) tail << ',' << result["pmu"][b.second].get<uint64_t>();
    tail << '\n';
    std::ofstream(tmp.path() / "tail.csv") << tail.str();
    REQUIRE(test::runNpusim({"probe", "compare", launchCsv.string(), (tmp.path() / "tail.csv").string(), "--json",
                             (tmp.path() / "t.json").string()})
                .exitCode == 0);
    const nlohmann::json t = nlohmann::json::parse(test::readText(tmp.path() / "t.json"));
    REQUIRE(t["records"].size() == 1);
    CHECK(t["records"][0]["launches"] == launches);
    CHECK(t["records"][0]["measured_running"] == t["records"][0]["simulated_running"]);
    REQUIRE(t["beat_columns"].size() == beats.size());
    for (const auto& b : beats) {
      INFO("beats: ", b.first);
      CHECK(t["records"][0]["beats"][b.first]["measured"] == t["records"][0]["beats"][b.first]["simulated"]);
    }
  }
}

TEST_CASE("probe compare: the 15 cells of fvp-perop, each record mapped to the launches the study's attribution.csv gives") {
  const auto dir = test::fixtureOrSkip("fvp-perop/cells.csv");
  if (!dir) return;
  const fs::path perop = dir->parent_path();
  const std::vector<test::CsvRow> cells = test::readCsvTable(perop / "cells.csv");
  const std::vector<test::CsvRow> attribution = test::readCsvTable(perop / "attribution.csv");
  REQUIRE(cells.size() == 15);
  for (const test::CsvRow& cell : cells) {
    INFO("cell: ", cell["model"], " ", cell["config"]);
    test::TempDir tmp;
    const test::ProcessResult write =
        test::runNpusim({"probe", "write", (perop / cell["file"]).string(), "--irq", "--out", tmp.path().string(),
                         "--system-config", "Corstone_320_FVP", "--memory-mode", "Dedicated_Sram"});
    INFO("stderr: ", write.err);
    REQUIRE(write.exitCode == 0);
    // As many launches as the study inserted interrupts.
    CHECK(test::readCsvTable(tmp.path() / "launches.csv").size() - 1 == std::stoul(cell["irqs"]));
    const test::ProcessResult c = test::runNpusim(
        {"probe", "compare", (tmp.path() / "launches.csv").string(), (perop / "segments.csv").string(), "--where",
         "model=" + cell["model"], "--where", "config=" + cell["config"], "--csv", (tmp.path() / "c.csv").string()});
    INFO("stderr: ", c.err);
    REQUIRE(c.exitCode == 0);
    const std::vector<test::CsvRow> rows = test::readCsvTable(tmp.path() / "c.csv");
    std::vector<std::string> want;
    for (const test::CsvRow& a : attribution) {
      if (a["workload"] == cell["model"] && a["binding"] == cell["config"]) want.push_back(a["launches"]);
    }
    REQUIRE(rows.size() == want.size());
    for (size_t k = 0; k < rows.size(); ++k) {
      INFO("record ", k);
      CHECK(rows[k]["launches"] == want[k]);
    }
  }
}

TEST_CASE("probe compare --quantum: each boundary at the first quantum edge after its launch's end, the tail by its npu_active") {
  test::TempDir tmp;
  // Three launches ending at 400, 1,010 and 2,500 cycles, the run at 3,100. At a 1,000-cycle
  // quantum, with the reads 55 cycles (the first: the run started inside its quantum) and 15
  // cycles after the edge, as the records' ccnt say, the interrupts are seen at 1,055 (launch 0),
  // 1,070 (launch 1 ended before the next read: a record of 15 cycles) and 3,085 (launch 2: two
  // quanta after the read at 1,085); the tail is the 15 cycles to the end.
  std::ofstream(tmp.path() / "l.csv")
      << "launch,irq_mask,network_operator,index,command_offset,kind,type,layer,source_operator,simulated_end\n"
         "0,0x0001,0,2,8,CONV,conv,,,400\n1,0x0002,0,3,12,POOL,pooling,,,1010\n2,0x0004,0,4,16,CONV,conv,,,2500\n"
         ",,,,,END,,,,3100\n";
  // The tail's ccnt counts the NPU's idle cycles up to the read; npu_active its busy ones.
  std::ofstream(tmp.path() / "r.csv") << "ccnt,npu_active,irq_mask,is_tail\n1055,1054,0x1,0\n15,14,0x2,0\n"
                                         "2015,2014,0x4,0\n1030,90,,1\n";
  const auto compare = [&](const std::vector<std::string>& more) {
    std::vector<std::string> args{"probe", "compare", (tmp.path() / "l.csv").string(), (tmp.path() / "r.csv").string(),
                                  "--json", (tmp.path() / "c.json").string()};
    args.insert(args.end(), more.begin(), more.end());
    const test::ProcessResult p = test::runNpusim(args);
    INFO(p.err);
    REQUIRE(p.exitCode == 0);
    return nlohmann::json::parse(test::readText(tmp.path() / "c.json"));
  };
  const auto column = [](const nlohmann::json& j, const char* key) {
    std::vector<uint64_t> v;
    for (const auto& r : j["records"]) v.push_back(r[key].get<uint64_t>());
    return v;
  };
  const nlohmann::json q = compare({"--quantum", "1000"});
  CHECK(q["quantum"] == 1000);
  CHECK(column(q, "simulated_running") == std::vector<uint64_t>{1055, 1070, 3085, 3100});
  CHECK(column(q, "simulated_cycles") == std::vector<uint64_t>{1055, 15, 2015, 15});
  CHECK(column(q, "measured_cycles") == std::vector<uint64_t>{1055, 15, 2015, 90});
  CHECK(column(q, "measured_running") == std::vector<uint64_t>{1055, 1070, 3085, 3175});
  // Without it, each boundary is its launch's end.
  const nlohmann::json exact = compare({});
  CHECK(exact["quantum"] == 0);
  CHECK(column(exact, "simulated_running") == std::vector<uint64_t>{400, 1010, 2500, 3100});
  // A run that ends before the last record's read: the tail takes no cycles; without npu_active
  // it is measured by its ccnt.
  std::ofstream(tmp.path() / "l.csv", std::ios::trunc)
      << "launch,irq_mask,network_operator,index,command_offset,kind,type,layer,source_operator,simulated_end\n"
         "0,0x0001,0,2,8,CONV,conv,,,500\n,,,,,END,,,,600\n";
  std::ofstream(tmp.path() / "r.csv", std::ios::trunc) << "ccnt,irq_mask,is_tail\n1015,0x1,0\n1030,,1\n";
  const nlohmann::json early = compare({"--quantum", "1000"});
  CHECK(column(early, "simulated_running") == std::vector<uint64_t>{1015, 1015});
  CHECK(column(early, "measured_cycles") == std::vector<uint64_t>{1015, 1030});
}

TEST_CASE("probe --irq: bad records, manifests and options get one error line and exit 2") {
  test::TempDir tmp;
  REQUIRE(test::runNpusim({"probe", "write", "--irq", "--out", tmp.path().string()}).exitCode == 0);
  const std::string launches = (tmp.path() / "launches.csv").string();
  const size_t count = test::readCsvTable(launches).size() - 1;
  REQUIRE(count >= 3);
  const auto records = [&](const std::string& text, const std::vector<std::string>& more = {}) {
    std::ofstream(tmp.path() / "r.csv") << text;
    std::vector<std::string> args{"probe", "compare", launches, (tmp.path() / "r.csv").string()};
    args.insert(args.end(), more.begin(), more.end());
    return test::runNpusim(args);
  };
  const std::string r = (tmp.path() / "r.csv").string();
  test::checkOneErrorLine(records("cycles,irq_mask,is_tail\n5,0x1,0\n"), r + ": key 'ccnt': the header line has no column 'ccnt'");
  test::checkOneErrorLine(records("ccnt,irq_mask\n5,0x1\n"), "no column 'is_tail'");
  test::checkOneErrorLine(records("ccnt,irq_mask,is_tail\n5k,0x1,0\n"), "key 'ccnt': line 2: '5k' is not a cycle count");
  test::checkOneErrorLine(records("ccnt,irq_mask,is_tail\n5,0x1G,0\n"), "line 2: '0x1G' is not a 16-bit IRQ mask");
  test::checkOneErrorLine(records("ccnt,irq_mask,is_tail\n5,0x10000,0\n"), "'0x10000' is not a 16-bit IRQ mask");
  test::checkOneErrorLine(records("ccnt,irq_mask,is_tail\n5,0x1,2\n"), "line 2: '2' is not 0 or 1");
  test::checkOneErrorLine(records("ccnt,npu_active,irq_mask,is_tail\n5,x,0x1,0\n"),
                          "key 'npu_active': line 2: 'x' is not a cycle count");
  test::checkOneErrorLine(records("ccnt,irq_mask,is_tail\n5,0x1,0\n5,0x0,0\n"),
                          "key 'irq_mask': line 3: irq_mask 0x0000 covers no launch");
  test::checkOneErrorLine(records("ccnt,irq_mask,is_tail\n5,0x1,0\n5,0x4,0\n"),
                          "line 3: irq_mask 0x0004 is not the bits of consecutive launches from the next one, launch 1");
  test::checkOneErrorLine(records("ccnt,irq_mask,is_tail\n5,0x5,0\n"), "line 2: irq_mask 0x0005 is not the bits");
  // One record per launch, then one more.
  std::ostringstream tooMany;
  tooMany << "ccnt,irq_mask,is_tail\n";
  for (size_t k = 0; k <= count; ++k) tooMany << "5," << maskText(k) << ",0\n";
  test::checkOneErrorLine(records(tooMany.str()), "line " + std::to_string(count + 2) + ": irq_mask " + maskText(count) +
                                                      " covers launches " + std::to_string(count) + " to " +
                                                      std::to_string(count) + ", past the model's last launch");
  test::checkOneErrorLine(records("ccnt,irq_mask,is_tail\n5,x,1\n5,0x1,0\n"),
                          "line 3: a record after the tail record (line 2");
  test::checkOneErrorLine(records("rec,ccnt,irq_mask,is_tail\n0,5,0x1,0\n0,5,0x2,0\n"),
                          "key 'rec': line 3: record 0 where record 1 was expected");
  test::checkOneErrorLine(records(""), r + ": byte 0 (0x0): empty file");
  // Selections.
  const std::string cell = "model,ccnt,irq_mask,is_tail\na,5,0x1,0\nb,6,0x1,0\n";
  test::checkOneErrorLine(records(cell, {"--where", "config=x"}), "key 'config': the header line has no column 'config'");
  test::checkOneErrorLine(records(cell, {"--where", "model=c"}), r + ": byte 0 (0x0): no record with model=c");
  test::checkOneErrorLine(records(cell, {"--where", "model"}), "--where: 'model' is not COLUMN=VALUE");
  CHECK(records(cell, {"--where", "model=b"}).exitCode == 0);
  // Beats the model's manifest does not count (the demo is a U55: axi0, axi1) are named, once.
  const test::ProcessResult other = records("ccnt,irq_mask,is_tail,sram_rd_beats\n5,0x1,0,3\n");
  CHECK(other.exitCode == 0);
  CHECK(other.err == "npusim: warning: " + r +
                         ": column sram_rd_beats is not compared: the model's beat columns are axi0_rd_beats, "
                         "axi0_wr_beats, axi1_rd_beats, axi1_wr_beats\n");
  // --where on a probe manifest; --irq with --every or --jobs; a model instrumented already.
  REQUIRE(test::runNpusim({"probe", "write", "--out", (tmp.path() / "p").string()}).exitCode == 0);
  std::ofstream(tmp.path() / "m.csv") << "file,npu_active\ndemo.probe1.tflite,5\n";
  test::checkOneErrorLine(test::runNpusim({"probe", "compare", (tmp.path() / "p" / "probes.csv").string(),
                                           (tmp.path() / "m.csv").string(), "--where", "a=b"}),
                          "--where: applies to per-record measurements");
  test::checkOneErrorLine(test::runNpusim({"probe", "compare", (tmp.path() / "p" / "probes.csv").string(),
                                           (tmp.path() / "m.csv").string(), "--quantum", "1000"}),
                          "--quantum: applies to per-record measurements");
  test::checkOneErrorLine(records("ccnt,irq_mask,is_tail\n5,0x1,0\n", {"--quantum", "-1"}), "--quantum");
  test::checkOneErrorLine(test::runNpusim({"probe", "write", "--irq", "--every", "2", "--out", tmp.path().string()}),
                          "excludes");
  test::checkOneErrorLine(test::runNpusim({"probe", "write", "--irq", "-j", "2", "--out", tmp.path().string()}),
                          "excludes");
  const std::string irqModel = (tmp.path() / "demo.irq.tflite").string();
  test::checkOneErrorLine(test::runNpusim({"probe", "write", irqModel, "--irq", "--out", (tmp.path() / "q").string()}),
                          "the stream already has an NPU_OP_IRQ");
  // Launch manifests that are not one.
  const auto manifest = [&](const std::string& text) {
    std::ofstream(tmp.path() / "l.csv") << text;
    std::ofstream(tmp.path() / "r.csv") << "ccnt,irq_mask,is_tail\n5,0x1,0\n";
    return test::runNpusim({"probe", "compare", (tmp.path() / "l.csv").string(), r});
  };
  const std::string header =
      "launch,irq_mask,network_operator,index,command_offset,kind,type,layer,source_operator,simulated_end\n";
  test::checkOneErrorLine(manifest(header + "0,0x0001,0,2,8,CONV,conv,,,10\n1,0x0001,0,3,12,CONV,conv,,,20\n,,,,,END,,,,30\n"),
                          "key 'irq_mask': line 3: 0x0001 is not launch 1's bit 0x0002");
  test::checkOneErrorLine(manifest(header + "0,0x0001,0,2,8,CONV,conv,,,10\n"), "no END row");
  test::checkOneErrorLine(manifest(header + "1,0x0002,0,2,8,CONV,conv,,,10\n,,,,,END,,,,30\n"),
                          "line 2: launch 1 where launch 0 was expected");
  test::checkOneErrorLine(manifest(header + "0,0x0001,0,2,8,CONV,conv,,,10\n,,,,,END,,,,5\n"),
                          "line 3: 5 is before the previous row's 10");
}

} // namespace npusim
