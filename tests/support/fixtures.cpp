// SPDX-License-Identifier: Apache-2.0
#include "support/fixtures.h"

#include "sim/common/csv.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include <doctest/doctest.h>

#include "support/skip.h"

namespace npusim::test {
namespace fs = std::filesystem;

namespace {

constexpr const char* kListingBegin = "Register-Level Command Stream: Output";
constexpr const char* kListingEnd = "Command stream length";

fs::path configuredFixturesDir() {
  const char* env = std::getenv("NPUSIM_FIXTURES");
  return env != nullptr && *env != '\0' ? fs::path(env) : fs::path(NPUSIM_FIXTURES_DEFAULT);
}

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) {
    q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  }
  return q + "'";
}

std::optional<VelaFolder> folderAt(const fs::path& dir) {
  VelaFolder f;
  f.model = dir.parent_path().filename().string();
  f.config = dir.filename().string();
  f.dir = dir;
  f.tflite = dir / (f.model + "_vela.tflite");
  f.listing = dir / "register_command_stream.txt";
  if (!fs::is_regular_file(f.tflite) || !fs::is_regular_file(f.listing)) {
    return std::nullopt;
  }
  return f;
}

} // namespace

std::optional<fs::path> fixturesDir() {
  const fs::path dir = configuredFixturesDir();
  std::error_code ec;
  if (!fs::is_directory(dir / "vela", ec)) {
    return std::nullopt;
  }
  return dir;
}

std::optional<fs::path> fixturesDirOrSkip() {
  auto dir = fixturesDir();
  if (!dir) {
    skip("no Vela fixtures at " + (configuredFixturesDir() / "vela").string() +
         " (set NPUSIM_FIXTURES to the fixtures folder)");
  }
  return dir;
}

std::optional<fs::path> fixtureOrSkip(const std::string& relative) {
  const fs::path path = configuredFixturesDir() / relative;
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    skip("no fixture " + path.string() + " (set NPUSIM_FIXTURES to the fixtures folder)");
    return std::nullopt;
  }
  return path;
}

std::vector<VelaFolder> velaFolders(const fs::path& root, const std::string& tree) {
  std::vector<VelaFolder> folders;
  if (!fs::is_directory(root / tree)) {
    return folders;
  }
  for (const auto& model : fs::directory_iterator(root / tree)) {
    if (!model.is_directory()) {
      continue;
    }
    for (const auto& config : fs::directory_iterator(model.path())) {
      if (!config.is_directory()) {
        continue;
      }
      if (auto f = folderAt(config.path())) {
        folders.push_back(std::move(*f));
      }
    }
  }
  std::sort(folders.begin(), folders.end(),
            [](const VelaFolder& a, const VelaFolder& b) { return a.name() < b.name(); });
  return folders;
}

std::vector<VelaFolder> velaFoldersOrSkip(const fs::path& root, const std::string& tree) {
  std::vector<VelaFolder> folders = velaFolders(root, tree);
  if (folders.empty()) {
    skip("no compiled model folders (<model>/<config>/ with a _vela.tflite and a register listing) under " +
         (root / tree).string());
  }
  return folders;
}

std::vector<fs::path> compiledModels(const fs::path& root) {
  std::vector<fs::path> models;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.find("_vela") != std::string::npos && entry.path().extension() == ".tflite") {
      models.push_back(entry.path());
    }
  }
  std::sort(models.begin(), models.end());
  return models;
}

std::vector<fs::path> sanitizerSample(const std::vector<fs::path>& models, const fs::path& root) {
  if (!kSanitizerBuild) {
    return models;
  }
  static const std::regex accelerator("ethos-u[0-9]+-[0-9]+");
  std::set<std::string> networks, accelerators;
  std::vector<fs::path> sample;
  for (const fs::path& model : models) {
    const fs::path relative = model.lexically_relative(root);
    const std::string tree = relative.begin()->string();
    std::smatch m;
    const std::string text = relative.string();
    const std::string config = std::regex_search(text, m, accelerator) ? m.str() : "";
    const bool newNetwork = networks.insert(tree + "/" + model.filename().string()).second;
    const bool newAccelerator = accelerators.insert(tree + "/" + config).second;
    if (newNetwork || newAccelerator) {
      sample.push_back(model);
    }
  }
  return sample;
}

VelaFolder velaFolder(const fs::path& root, const std::string& model, const std::string& config) {
  auto f = folderAt(root / "vela" / model / config);
  if (!f) {
    throw std::runtime_error("fixture folder " + (root / "vela" / model / config).string() + " is incomplete");
  }
  return *f;
}

io::CompiledNetwork loadModel(const VelaFolder& folder) {
  return io::loadNetworkFromBytes(readBytes(folder.tflite), folder.tflite.string());
}

InputError errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  return InputError({}, "");
}

std::vector<uint8_t> readBytes(const fs::path& path) {
  const std::string text = readText(path);
  return {text.begin(), text.end()};
}

std::vector<CsvRow> readCsvTable(const fs::path& path) {
  const std::vector<CsvLine> lines = readCsvFile(path.string());
  std::vector<CsvRow> rows;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].fields.size() != lines[0].fields.size()) {
      throw std::runtime_error(path.string() + ":" + std::to_string(lines[i].number) + ": " +
                               std::to_string(lines[i].fields.size()) + " fields, the header has " +
                               std::to_string(lines[0].fields.size()));
    }
    CsvRow row;
    for (size_t c = 0; c < lines[0].fields.size(); ++c) row.field[lines[0].fields[c]] = lines[i].fields[c];
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  std::string text;
  if (in) {
    text.resize(static_cast<size_t>(in.tellg()));
    in.seekg(0);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
  }
  if (!in) {
    throw std::runtime_error("cannot read " + path.string());
  }
  return text;
}

void writeBytes(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    throw std::runtime_error("cannot write " + path.string());
  }
}

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "npusim-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed for " + pattern);
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

ProcessResult runNpusim(const std::vector<std::string>& args) { return runNpusimIn({}, args); }

ProcessResult runNpusimIn(const fs::path& cwd, const std::vector<std::string>& args) {
  // 1. Build the shell command; stderr goes to a file, stdout through the pipe.
  const TempDir tmp;
  const fs::path errFile = tmp.path() / "stderr.txt";
  std::string command = cwd.empty() ? std::string() : "cd " + shellQuote(cwd.string()) + " && ";
  command += shellQuote(NPUSIM_BINARY);
  for (const std::string& a : args) {
    command += ' ' + shellQuote(a);
  }
  command += " 2>" + shellQuote(errFile.string());

  // 2. Run it and collect stdout.
  std::fflush(nullptr);
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    throw std::runtime_error("popen failed: " + command);
  }
  ProcessResult result;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) {
    result.out.append(buf.data(), n);
  }
  const int status = pclose(pipe);

  // 3. Decode the wait status and read stderr.
  if (status == -1) {
    throw std::runtime_error("pclose failed: " + command);
  }
  if (WIFEXITED(status)) {
    result.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exitCode = 128 + WTERMSIG(status);
  }
  result.err = readText(errFile);
  return result;
}

std::vector<std::string> normalizedLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string word, normal;
    while (words >> word) {
      normal += (normal.empty() ? "" : " ") + word;
    }
    if (!normal.empty()) {
      lines.push_back(std::move(normal));
    }
  }
  return lines;
}

std::vector<std::vector<std::string>> velaListings(const std::string& text) {
  std::vector<std::vector<std::string>> listings;
  bool inside = false;
  for (std::string& line : normalizedLines(text)) {
    if (startsWith(line, kListingBegin)) {
      listings.emplace_back();
      inside = true;
    }
    if (!inside) {
      continue;
    }
    const bool last = startsWith(line, kListingEnd);
    listings.back().push_back(std::move(line));
    inside = !last;
  }
  return listings;
}

std::vector<std::vector<std::string>> vela5Listings(const std::string& text) {
  std::vector<std::vector<std::string>> listings;
  std::istringstream in(text);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (startsWith(line, "Register command stream:")) {
      listings.emplace_back();
      inside = true;
    } else if (inside && startsWith(line, "//")) {
      continue;
    } else if (!startsWith(line, "0x") && !startsWith(line, "  Offset:")) {
      inside = false;
    }
    if (inside) {
      listings.back().push_back(line);
    }
  }
  return listings;
}

std::optional<size_t> firstDifference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const auto mismatch = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  if (mismatch.first == a.end() && mismatch.second == b.end()) {
    return std::nullopt;
  }
  return static_cast<size_t>(mismatch.first - a.begin());
}

void checkOneErrorLine(const ProcessResult& run, const std::string& mustContain) {
  CHECK(run.exitCode == 2);
  CHECK(run.out.empty());
  INFO("stderr: ", run.err);
  REQUIRE_FALSE(run.err.empty());
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(run.err.back() == '\n');
  CHECK(run.err.rfind("npusim: error: ", 0) == 0);
  CHECK(run.err.find(mustContain) != std::string::npos);
}

} // namespace npusim::test
