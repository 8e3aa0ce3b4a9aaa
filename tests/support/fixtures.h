// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test helpers: locating the shared Vela fixtures, reading files, running the npusim binary,
// and extracting Vela register listings from text.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/common/error.h"
#include "sim/io/compiled_network.h"

namespace npusim::test {

// The fixtures root: env NPUSIM_FIXTURES if set, else the build's NPUSIM_FIXTURES_DEFAULT;
// nullopt when that folder has no vela/ subfolder.
std::optional<std::filesystem::path> fixturesDir();

// Like fixturesDir(), but calls skip() (support/skip.h) naming the missing folder when absent,
// so that a test returning early on nullopt reports skipped.
std::optional<std::filesystem::path> fixturesDirOrSkip();

// <fixtures>/<relative> (a tree such as vela, vela-rnn, vela-u65, mlek, or a file or folder
// inside one) when it exists; otherwise calls skip() naming it and returns nullopt.
std::optional<std::filesystem::path> fixtureOrSkip(const std::string& relative);

// One compiled-model folder <fixtures>/vela/<model>/<config>/.
struct VelaFolder {
  std::string model, config;
  std::filesystem::path dir;
  std::filesystem::path tflite;   // <model>_vela.tflite
  std::filesystem::path listing;  // register_command_stream.txt
  std::string name() const { return model + "/" + config; }
};

// Every folder under <root>/<tree>/*/* that holds both a _vela.tflite and a register listing,
// sorted by model then config (tree: vela, vela-u65, vela-rnn).
std::vector<VelaFolder> velaFolders(const std::filesystem::path& root, const std::string& tree = "vela");

// velaFolders(root, tree), calling skip() when there is none (a test looping over them checks nothing).
std::vector<VelaFolder> velaFoldersOrSkip(const std::filesystem::path& root, const std::string& tree = "vela");

// The folder of `model` compiled for `config`; throws std::runtime_error when absent.
VelaFolder velaFolder(const std::filesystem::path& root, const std::string& model, const std::string& config);

// The folder's compiled model, loaded with the file's path as its name (the file is read in
// one go, which is much faster than loadNetwork() in sanitizer builds).
io::CompiledNetwork loadModel(const VelaFolder& folder);

// Every compiled model under `root` (files *_vela*.tflite, any depth), sorted by path.
std::vector<std::filesystem::path> compiledModels(const std::filesystem::path& root);

// True in the sanitizer build (NPUSIM_SANITIZE), whose CI stage runs tests over the fixtures on
// a sample: the Release stage runs every model.
constexpr bool kSanitizerBuild = NPUSIM_TEST_SANITIZED != 0;

// `models` (paths under `root`, sorted) as a whole-fixture test runs them: all of them in the
// Release build; in the sanitizer build the first model of each network and the first of each
// accelerator configuration (ethos-uNN-MMM in its path) of every fixture tree (the top folder
// under `root`): every kind of network and hardware at about 40% of the run time.
std::vector<std::filesystem::path> sanitizerSample(const std::vector<std::filesystem::path>& models,
                                                   const std::filesystem::path& root);

// The InputError that `f` throws; a failed check when it throws none.
InputError errorOf(const std::function<void()>& f);

// One row of a CSV file with a header line: its fields by column name.
struct CsvRow {
  std::map<std::string, std::string> field;
  // The field of column `name` (std::out_of_range when the file has no such column).
  const std::string& operator[](const std::string& name) const { return field.at(name); }
};
// The rows of the CSV file at `path` (first line: the column names); throws std::runtime_error when
// a row has another number of fields than the header.
std::vector<CsvRow> readCsvTable(const std::filesystem::path& path);

// Whole file contents; throws std::runtime_error when the file cannot be read.
std::vector<uint8_t> readBytes(const std::filesystem::path& path);
std::string readText(const std::filesystem::path& path);
void writeBytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes);

// A fresh, uniquely named directory under the system temp dir, removed on destruction.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

struct ProcessResult {
  int exitCode = -1;   // exit status, or 128 + signal number when killed by a signal
  std::string out;     // stdout
  std::string err;     // stderr
};

// Runs the npusim binary of this build (NPUSIM_BINARY) with `args` and captures its output.
ProcessResult runNpusim(const std::vector<std::string>& args);
// The same, run in working directory `cwd`.
ProcessResult runNpusimIn(const std::filesystem::path& cwd, const std::vector<std::string>& args);

// doctest CHECKs that `run` is a refusal as npusim gives one for bad input: exit 2, nothing on
// stdout, one stderr line starting "npusim: error: " that contains `mustContain`.
void checkOneErrorLine(const ProcessResult& run, const std::string& mustContain);

// `text` split into lines, each with runs of whitespace collapsed to one space and trimmed;
// empty lines dropped.
std::vector<std::string> normalizedLines(const std::string& text);

// The "Register-Level Command Stream: Output" ... "Command stream length = N bytes" sections
// of `text`, in order, as normalized lines (header and footer lines included).
std::vector<std::vector<std::string>> velaListings(const std::string& text);

// Vela 5.0's register listings in `text` (`vela --verbose-register-command-stream` with its C++
// back end, or `npusim inspect --format vela` of such a model), each from its "Register command
// stream:" line through its last command line, lines as written (not normalized). Vela's `//`
// annotation lines are left out: they come from its compiler state, not the compiled model.
std::vector<std::vector<std::string>> vela5Listings(const std::string& text);

// Index of the first line where `a` and `b` differ (the shorter size when one is a prefix of
// the other), or nullopt when equal.
std::optional<size_t> firstDifference(const std::vector<std::string>& a, const std::vector<std::string>& b);

} // namespace npusim::test
