// SPDX-License-Identifier: Apache-2.0
#include <iostream>
#include <memory>

#include "harness/sweep/compare_runs.h"
#include "harness/cli/commands.h"

namespace npusim::cli {

void addCompareRuns(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand(
      "compare-runs", "Speed-up between two runs or sweep points: total, per layer type, per bound, per operation");
  // Options of `npusim compare-runs`.
  struct Options {
    std::string a, b;
    size_t rows = 15;
  };
  auto opts = std::make_shared<Options>();
  sub->add_option("A", opts->a, "first run: an `npusim run --json` file, or RESULTS.jsonl@INDEX (a sweep point)")
      ->required();
  sub->add_option("B", opts->b, "second result; speed-up is cycles A / cycles B")->required();
  sub->add_option("--rows", opts->rows, "operations listed (those with the largest change)")->capture_default_str();
  sub->footer("Per-operation rows and bound shifts need both runs to have the same command stream (one model at two "
              "settings); across compiles (e.g. 128 vs 256 MACs) the layer-type table compares them.");
  sub->callback([opts, &registry] {
    registry.select([opts] { return compare_runs::compareRuns(opts->a, opts->b, opts->rows, std::cout); });
  });
}

} // namespace npusim::cli
