// SPDX-License-Identifier: Apache-2.0
#pragma once
// Subcommand registration for the npusim executable.

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace npusim::cli {

// Holds the action of the subcommand the user chose; CLI11 callbacks only record it so that
// errors thrown by the action are mapped to exit codes in one place (main).
class Registry {
public:
  void select(std::function<int()> action) { action_ = std::move(action); }
  int run() const { return action_ ? action_() : 0; }

private:
  std::function<int()> action_;
};

// Parses and runs one npusim command line (argv[0] first); returns its exit status. sweep and
// regress run their points through it in forked children.
int runCommandLine(int argc, char** argv);
int runCommandLine(const std::vector<std::string>& args);

void addInspect(CLI::App& app, Registry& registry);
void addEstimate(CLI::App& app, Registry& registry);
void addConfig(CLI::App& app, Registry& registry);
void addRun(CLI::App& app, Registry& registry);
void addSweep(CLI::App& app, Registry& registry);
void addSweepMerge(CLI::App& app, Registry& registry);
void addReport(CLI::App& app, Registry& registry);
void addRegress(CLI::App& app, Registry& registry);
void addCompare(CLI::App& app, Registry& registry);
void addCompareRuns(CLI::App& app, Registry& registry);
void addProbe(CLI::App& app, Registry& registry);

} // namespace npusim::cli
