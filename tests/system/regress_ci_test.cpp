// SPDX-License-Identifier: Apache-2.0
// The README's "Regression checks in your CI" walkthrough, followed literally: its spec and its
// commands are read from README.md and run in a scratch repository with a fixture model as
// "your model". Then: a changed model is caught with a table (exit 2), a missing model fails
// (exit 2), the tolerance is honoured, and the JUnit file is valid XML with one testcase per entry.

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace npusim {
namespace {

namespace fs = std::filesystem;

// The walkthrough's spec (its ```json block) and its npusim commands (lines of its ```sh blocks).
struct Walkthrough {
  std::string spec;
  std::vector<std::vector<std::string>> commands;  // arguments after "npusim"
};

Walkthrough readWalkthrough() {
  const std::string readme = test::readText(fs::path(NPUSIM_SOURCE_DIR) / "README.md");
  const size_t begin = readme.find("\n## Regression checks in your CI\n");
  REQUIRE(begin != std::string::npos);
  const size_t end = readme.find("\n## ", begin + 1);
  std::istringstream section(readme.substr(begin, end - begin));
  Walkthrough w;
  std::string line, fence;
  while (std::getline(section, line)) {
    const size_t indent = line.find_first_not_of(' ');
    const std::string text = indent == std::string::npos ? "" : line.substr(indent);
    if (text.rfind("```", 0) == 0) {
      fence = fence.empty() ? (text.size() > 3 ? text.substr(3) : "plain") : "";
      continue;
    }
    if (fence == "json") w.spec += text + "\n";
    if (fence == "sh" && text.rfind("npusim ", 0) == 0) {
      std::istringstream words(text.substr(7));
      std::vector<std::string> args;
      for (std::string word; words >> word;) args.push_back(word);
      w.commands.push_back(args);
    }
  }
  return w;
}

test::ProcessResult run(const std::vector<std::string>& args) {
  const test::ProcessResult r = test::runNpusim(args);
  INFO(r.out, r.err);
  return r;
}

// Number of <testcase> elements of a well-formed XML file (Python's XML parser; -1 when the file
// does not parse).
int junitTestcases(const fs::path& file) {
  const std::string command = "/usr/bin/python3 -c \"import sys, xml.etree.ElementTree as E; "
                              "sys.exit(len(E.parse(sys.argv[1]).getroot().findall('.//testcase')))\" '" +
                              file.string() + "' 2>/dev/null";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) && WEXITSTATUS(status) != 1 ? WEXITSTATUS(status) : -1;
}

} // namespace

TEST_CASE("regress CI walkthrough of the README: record, pass, changed model, missing model, tolerance, JUnit") {
  const auto fixtures = test::fixturesDirOrSkip();
  if (!fixtures) return;
  const test::VelaFolder mine =
      test::velaFolder(*fixtures, "kws_ref_model", "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram");
  const test::VelaFolder recompiled = test::velaFolder(
      *fixtures, "kws_ref_model", "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram_optimiseSize");

  const Walkthrough w = readWalkthrough();
  REQUIRE(w.commands.size() == 2);
  REQUIRE(w.commands[0].front() == "regress");
  REQUIRE(std::find(w.commands[0].begin(), w.commands[0].end(), "--update") != w.commands[0].end());

  // A scratch repository: models/kws_vela.tflite and the README's ci/regress.json.
  const test::TempDir repo;
  fs::current_path(repo.path());
  fs::create_directories("models");
  fs::create_directories("ci");
  fs::copy_file(mine.tflite, "models/kws_vela.tflite");
  std::ofstream("ci/regress.json") << w.spec;

  // 1. Record.
  const test::ProcessResult record = run(w.commands[0]);
  REQUIRE(record.exitCode == 0);
  const nlohmann::json baseline = nlohmann::json::parse(test::readText("ci/baseline.json"));
  REQUIRE(baseline.at("entries").size() == 2);
  CHECK(baseline.at("entries").at(0).at("model") == "../models/kws_vela.tflite");
  CHECK(baseline.at("entries").at(0).at("sha256").get<std::string>().size() == 64);

  // 2. Check: passes; the JUnit file is valid XML with one testcase per entry.
  const std::vector<std::string> check = w.commands[1];
  const auto junitAt = std::find(check.begin(), check.end(), "--junit");
  REQUIRE(junitAt != check.end());
  const fs::path junit = *(junitAt + 1);
  test::ProcessResult pass = run(check);
  CHECK(pass.exitCode == 0);
  CHECK(pass.out.find("regress: OK: 2 entries") != std::string::npos);
  CHECK(junitTestcases(junit) == 2);
  CHECK(test::readText(junit).find("<failure") == std::string::npos);

  // 3. A recompiled model: its counts in a table, and exit 2 naming the changed bytes.
  fs::copy_file(recompiled.tflite, "models/kws_vela.tflite", fs::copy_options::overwrite_existing);
  const test::ProcessResult changed = run(check);
  CHECK(changed.exitCode == 2);
  const auto lines = test::normalizedLines(changed.out);
  const auto table = std::find(lines.begin(), lines.end(), "changed counts (expected -> actual):");
  REQUIRE(lines.end() - table >= 3);
  CHECK(table[1] == "../models/kws_vela.tflite (Ethos_U55_High_End_Embedded, Shared_Sram)");
  const int64_t recorded = baseline.at("entries").at(0).at("total_cycles").get<int64_t>();
  CHECK(table[2].rfind("total_cycles " + std::to_string(recorded) + " -> ", 0) == 0);
  CHECK(changed.err.find("key 'entries[0].model': the bytes of") != std::string::npos);
  CHECK(changed.err.find("differ from the baseline's (sha256") != std::string::npos);
  CHECK(std::count(changed.err.begin(), changed.err.end(), '\n') == 1);
  CHECK(junitTestcases(junit) == 2);
  CHECK(test::readText(junit).find("<failure") != std::string::npos);

  // 4. A missing model: exit 2, one line naming the baseline key and the file.
  fs::remove("models/kws_vela.tflite");
  const test::ProcessResult missing = run(check);
  CHECK(missing.exitCode == 2);
  CHECK(missing.err.find("ci/baseline.json: key 'entries[0].model': model ") != std::string::npos);
  CHECK(missing.err.find("kws_vela.tflite not found") != std::string::npos);
  CHECK(std::count(missing.err.begin(), missing.err.end(), '\n') == 1);

  // 5. Tolerance: a recorded total 0.3% off passes at the README's 0.5% and fails at 0.1%.
  fs::copy_file(mine.tflite, "models/kws_vela.tflite");
  nlohmann::json edited = baseline;
  const int64_t off = recorded - recorded * 3 / 1000;
  edited["entries"][0]["total_cycles"] = off;
  std::ofstream("ci/baseline.json") << edited.dump(2);
  const test::ProcessResult tolerated = run(check);
  CHECK(tolerated.exitCode == 0);
  const auto toleratedLines = test::normalizedLines(tolerated.out);
  CHECK(std::any_of(toleratedLines.begin(), toleratedLines.end(), [&](const std::string& l) {
    return l.rfind("total_cycles " + std::to_string(off) + " -> " + std::to_string(recorded) + " ", 0) == 0;
  }));
  CHECK(tolerated.out.find("within 0.5%") != std::string::npos);
  std::vector<std::string> strict = check;
  *(std::find(strict.begin(), strict.end(), "--tolerance") + 1) = "0.1";
  const test::ProcessResult beyond = run(strict);
  CHECK(beyond.exitCode == 1);
  CHECK(beyond.out.find("beyond 0.1%") != std::string::npos);
  CHECK(beyond.out.find("regress: FAIL: 1 counts changed in 1 of 2 entries") != std::string::npos);
}

} // namespace npusim
