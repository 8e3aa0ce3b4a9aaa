// SPDX-License-Identifier: Apache-2.0
// The committed corpus of malformed inputs (tests/corpus, written by scripts/make_corpus.py):
// every file makes npusim exit with code 2 and exactly one stderr line naming the file, for
// each subcommand its manifest entry lists; the unmutated base model runs cleanly.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/io/demo_network.h"
#include "support/fixtures.h"

namespace npusim {
namespace {

namespace fs = std::filesystem;

struct CorpusEntry {
  fs::path file;
  std::string kind;  // model | json | vela_ini
  int expect = 2;
  std::vector<std::string> commands;
  std::string systemConfig, memoryMode;
  std::string why;
};

fs::path corpusDir() { return fs::path(NPUSIM_SOURCE_DIR) / "tests" / "corpus"; }

std::vector<CorpusEntry> manifest() {
  const nlohmann::json m = nlohmann::json::parse(test::readText(corpusDir() / "manifest.json"));
  std::vector<CorpusEntry> entries;
  for (const auto& e : m.at("files")) {
    CorpusEntry c;
    c.file = corpusDir() / e.at("path").get<std::string>();
    c.kind = e.at("kind").get<std::string>();
    c.expect = e.at("expect").get<int>();
    c.commands = e.at("commands").get<std::vector<std::string>>();
    c.systemConfig = e.value("system_config", "");
    c.memoryMode = e.value("memory_mode", "");
    c.why = e.at("why").get<std::string>();
    entries.push_back(std::move(c));
  }
  return entries;
}

// `probe write`, with or without --irq, refuses what `run` refuses: it runs the entries that list `run`.
const std::string kProbeWrite = "probe-write";
const std::string kProbeWriteIrq = "probe-write-irq";

// The npusim arguments that feed `entry` to `command`.
std::vector<std::string> arguments(const CorpusEntry& entry, const std::string& command) {
  if (entry.kind == "model" && command == "inspect-weights") {
    return {"inspect", "--format", "json", "--weights", entry.file.string()};
  }
  if (entry.kind == "model" && command == kProbeWrite) {
    static const test::TempDir out;
    return {"probe", "write", entry.file.string(), "--out", out.path().string()};
  }
  if (entry.kind == "model" && command == kProbeWriteIrq) {
    static const test::TempDir out;
    return {"probe", "write", entry.file.string(), "--irq", "--out", out.path().string()};
  }
  if (entry.kind == "model") {
    return {command, entry.file.string()};
  }
  if (entry.kind == "json") {
    return {command, "--config", entry.file.string()};
  }
  REQUIRE(entry.kind == "vela_ini");
  return {command, "--vela-ini", entry.file.string(), "--system-config", entry.systemConfig, "--memory-mode",
          entry.memoryMode};
}

// Runs every manifest entry of `kind` that lists `command`; returns how many ran.
int runCorpus(const std::string& kind, const std::string& command) {
  int ran = 0;
  for (const CorpusEntry& entry : manifest()) {
    const std::string listed = command == kProbeWrite || command == kProbeWriteIrq ? "run" : command;
    if (entry.kind != kind || std::find(entry.commands.begin(), entry.commands.end(), listed) == entry.commands.end()) {
      continue;
    }
    const std::vector<std::string> args = arguments(entry, command);
    INFO("npusim ", command, " ", entry.file.filename().string(), " (", entry.why, ")");
    REQUIRE(fs::is_regular_file(entry.file));
    const test::ProcessResult run = test::runNpusim(args);
    INFO("stderr: ", run.err);
    CHECK(run.exitCode == entry.expect);
    if (entry.expect == 2) {
      const std::string prefix = "npusim: error: " + entry.file.string() + ": ";
      CHECK(run.err.rfind(prefix, 0) == 0);
      CHECK(run.err.find('\n') == run.err.size() - 1);
    } else {
      CHECK(run.err.find("npusim: error") == std::string::npos);
    }
    ++ran;
  }
  return ran;
}

} // namespace

TEST_CASE("corpus: the manifest lists at least 50 malformed inputs, each present") {
  int malformed = 0;
  for (const CorpusEntry& entry : manifest()) {
    INFO(entry.file.string());
    CHECK(fs::is_regular_file(entry.file));
    CHECK_FALSE(entry.commands.empty());
    malformed += entry.expect == 2 ? 1 : 0;
  }
  CHECK(malformed >= 50);
}

TEST_CASE("corpus: the base model is npusim's own demo network for ethos-u55-128, byte for byte") {
  // The corpus is generated, not collected: scripts/make_corpus.py mutates this file.
  CHECK(test::readBytes(corpusDir() / "valid" / "demo_128.tflite") == io::buildDemoNetworkTflite(128));
}

TEST_CASE("corpus: npusim inspect refuses every malformed model") { CHECK(runCorpus("model", "inspect") > 0); }

TEST_CASE("corpus: npusim inspect --weights refuses every malformed weight stream") {
  CHECK(runCorpus("model", "inspect-weights") > 1);
}

TEST_CASE("corpus: npusim run refuses every malformed model") { CHECK(runCorpus("model", "run") > 0); }

TEST_CASE("corpus: npusim probe write refuses every malformed model run refuses") {
  CHECK(runCorpus("model", kProbeWrite) > 0);
}

TEST_CASE("corpus: npusim probe write --irq refuses every malformed model run refuses") {
  CHECK(runCorpus("model", kProbeWriteIrq) > 0);
}

TEST_CASE("corpus: npusim estimate refuses every malformed model") { CHECK(runCorpus("model", "estimate") > 0); }

TEST_CASE("corpus: npusim run refuses every malformed JSON config") { CHECK(runCorpus("json", "run") > 0); }

TEST_CASE("corpus: npusim estimate refuses every malformed JSON config") { CHECK(runCorpus("json", "estimate") > 0); }

TEST_CASE("corpus: npusim run refuses every malformed vela.ini") { CHECK(runCorpus("vela_ini", "run") > 0); }

TEST_CASE("corpus: npusim estimate refuses every malformed vela.ini") { CHECK(runCorpus("vela_ini", "estimate") > 0); }

} // namespace npusim
