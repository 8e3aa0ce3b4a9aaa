// SPDX-License-Identifier: Apache-2.0
// npusim command line: subcommands parse their options, call the libraries and print.

#include <algorithm>
#include <iostream>

#include <CLI/CLI.hpp>

#include "harness/cli/commands.h"
#include "sim/common/edit_distance.h"
#include "sim/common/error.h"
#include "models/platform/systemc_entry.h"

// SystemC's library references sc_main: main() hands over to SystemC, which calls it.
int main(int argc, char** argv) { return npusim::platform::runUnderSystemC(argc, argv); }

int sc_main(int argc, char** argv) { return npusim::cli::runCommandLine(argc, argv); }

namespace npusim::cli {
namespace {

// The first word that is not an option names the subcommand; CLI11 would call an unknown one a
// missing subcommand. Returns the error line's message for an unknown one or for none at all
// (no argument), else "".
std::string unknownSubcommand(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string_view> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  if (argc <= 1) {
    std::string list;
    for (const std::string_view name : names) list += (list.empty() ? "" : ", ") + std::string(name);
    return "a subcommand is required (" + list + "); npusim --help says what each does";
  }
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    if (std::find(names.begin(), names.end(), word) != names.end()) return "";
    const std::string nearest = nearestName(word, names, 3);
    return "unknown subcommand '" + word + "'" + (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") +
           "; npusim --help lists them";
  }
  return "";
}

} // namespace

int runCommandLine(const std::vector<std::string>& args) {
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  return runCommandLine(static_cast<int>(args.size()), argv.data());
}

int runCommandLine(int argc, char** argv) {
  CLI::App app{"npusim: cycle-approximate simulator of Arm Ethos-U55, U65 and U85 NPU systems, and benchmark harness"};
  app.set_version_flag("--version", std::string("npusim ") + NPUSIM_VERSION);
  app.require_subcommand(1);
  Registry registry;
  addInspect(app, registry);
  addEstimate(app, registry);
  addConfig(app, registry);
  addRun(app, registry);
  addSweep(app, registry);
  addSweepMerge(app, registry);
  addReport(app, registry);
  addRegress(app, registry);
  addCompare(app, registry);
  addCompareRuns(app, registry);
  addProbe(app, registry);
  if (const std::string unknown = unknownSubcommand(app, argc, argv); !unknown.empty()) {
    std::cerr << "npusim: error: " << unknown << '\n';
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "npusim: error: " << e.what() << '\n';
    return 2;
  }
  try {
    return registry.run();
  } catch (const npusim::InputError& e) {
    std::cerr << "npusim: error: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "npusim: internal error: " << e.what() << '\n';
    return 1;
  }
}

} // namespace npusim::cli
