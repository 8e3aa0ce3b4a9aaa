// SPDX-License-Identifier: Apache-2.0
#pragma once
// Subcommand registration for the npusim executable.

#include <functional>

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

} // namespace npusim::cli
