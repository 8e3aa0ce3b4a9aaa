// SPDX-License-Identifier: Apache-2.0
#include <iostream>
#include <memory>

#include "harness/process/process_pool.h"
#include "harness/regress/regress.h"
#include "sim/cli/commands.h"

namespace npusim::cli {

void addRegress(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand(
      "regress", "Re-simulate the baseline's fixtures and fail (exit 1) if any cycle or PMU count changed");
  // Options of `npusim regress`.
  struct Options {
    regress::RegressOptions run;
    bool update = false;
  };
  auto opts = std::make_shared<Options>();
  sub->add_option("--baseline", opts->run.baseline, "baseline file")->capture_default_str();
  sub->add_option("--fixtures", opts->run.fixtures,
                  "fixtures root the entries' paths are relative to (default: $NPUSIM_FIXTURES, else the "
                  "baseline's \"fixtures\")");
  auto* update = sub->add_flag("--update", opts->update,
                               "re-record the counts (of the present fixtures) and write the baseline");
  sub->add_option("--spec", opts->run.specs,
                  "with --update: take the entries from this sweep spec's points (repeatable)")
      ->allow_extra_args(false)
      ->needs(update);
  sub->add_option("-j,--jobs", opts->run.jobs, "parallel simulation processes (default: the number of cores)");
  sub->footer("Exit status: 0 no count changed (entries whose fixture is absent are listed as skipped), 1 some "
              "count changed or a simulation failed, 2 unreadable baseline or bad options.");
  sub->callback([opts, &registry] {
    registry.select([opts] {
      opts->run.executable = process::selfExecutable();
      opts->run.inProcess = [](const std::vector<std::string>& args) { return runCommandLine(args); };
      return opts->update ? regress::updateBaseline(opts->run, std::cout) : regress::runRegress(opts->run, std::cout);
    });
  });
}

} // namespace npusim::cli
