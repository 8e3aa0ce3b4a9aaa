// SPDX-License-Identifier: Apache-2.0
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "harness/process/process_pool.h"
#include "harness/regress/regress.h"
#include "harness/cli/commands.h"
#include "sim/common/error.h"

namespace npusim::cli {
namespace {

// "--tolerance" text as a percentage >= 0; throws InputError naming the option otherwise.
double parseTolerance(const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno != 0) {
    throwForKey("<command line>", "--tolerance", "expected a percentage (e.g. 0.5), got '" + text + "'");
  }
  return regress::checkedTolerance(v, "<command line>", "--tolerance");
}

} // namespace

void addRegress(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand(
      "regress", "Re-simulate the baseline's models and fail (exit 1) if any cycle or PMU count changed beyond tolerance");
  // Options of `npusim regress`.
  struct Options {
    regress::RegressOptions run;
    std::string tolerance = "0";
    bool update = false;
  };
  auto opts = std::make_shared<Options>();
  sub->add_option("--baseline", opts->run.baseline, "baseline file")->capture_default_str();
  sub->add_option("--fixtures", opts->run.fixtures,
                  "fixtures root the entries' \"fixture\" paths are relative to (default: $NPUSIM_FIXTURES, else the "
                  "baseline's \"fixtures\")");
  auto* update = sub->add_flag("--update", opts->update,
                               "re-record the counts and model sha256 (of the present models) and write the baseline");
  sub->add_option("--spec", opts->run.specs,
                  "with --update: take the entries from this sweep spec's points (repeatable)")
      ->allow_extra_args(false)
      ->needs(update);
  sub->add_option("--tolerance", opts->tolerance,
                  "allowed change in percent for counts without a tolerance in the baseline (default 0: exact)");
  sub->add_option("--junit", opts->run.junit, "write a JUnit XML report (one testcase per entry)");
  sub->add_option("--json", opts->run.json, "write a JSON report (every entry, its status and changed counts)");
  sub->add_option("-j,--jobs", opts->run.jobs, "parallel simulation processes (default: the number of cores)");
  sub->footer("Exit status: 0 no count changed beyond tolerance (absent optional models and absent fixture trees "
              "are listed as skipped), 1 some count changed or a simulation failed, 2 unreadable baseline, bad "
              "options, a missing model or model bytes that differ from the recorded sha256.");
  sub->callback([opts, &registry] {
    registry.select([opts] {
      opts->run.tolerancePercent = parseTolerance(opts->tolerance);
      opts->run.executable = process::selfExecutable();
      opts->run.inProcess = [](const std::vector<std::string>& args) { return runCommandLine(args); };
      return opts->update ? regress::updateBaseline(opts->run, std::cout) : regress::runRegress(opts->run, std::cout);
    });
  });
}

} // namespace npusim::cli
