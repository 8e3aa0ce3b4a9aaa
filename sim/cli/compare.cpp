// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "harness/analytic/network_estimate.h"
#include "harness/analytic/vela_debug_db.h"
#include "harness/compare/compare_report.h"
#include "harness/process/process_pool.h"
#include "sim/cli/choice.h"
#include "sim/cli/commands.h"
#include "sim/cli/output.h"
#include "sim/cli/config_options.h"
#include "sim/cli/workload.h"
#include "sim/common/error.h"
#include "sim/platform/platform.h"

namespace npusim::cli {
namespace {

struct CompareOptions {
  std::string model, velaCsv, tree, csv;
  compare::CompareFormat format = compare::CompareFormat::Text;
  unsigned jobs = 0;
  config::ConfigRequest config;
};


// Simulates and estimates one model in this process (one SystemC elaboration).
compare::ModelComparison compareOne(const CompareOptions& o) {
  const io::CompiledNetwork net = loadWorkload(o.model);
  const auto decoded = io::decodeAll(net);
  const config::SystemParams params = platform::resolveForModel(o.config, net);
  // Layer names first: a debug database that does not describe the model only warns, and the
  // estimate then groups rows without it.
  std::vector<std::string> warnings;
  const report::LayerMap names = report::mapLayers(net, decoded, &warnings);
  for (const std::string& w : warnings) std::cerr << "npusim: warning: " << w << '\n';
  std::optional<analytic::VelaDebugDb> db;
  if (names.fromDebugDb) {
    db = analytic::readVelaDebugDb(analytic::velaDebugDbPath(net.path));
  }
  const analytic::NetworkEstimate estimate = analytic::estimateNetwork(net, decoded, params, db ? &*db : nullptr);
  const platform::RunResult run = platform::simulate(net, decoded, params);
  std::optional<std::vector<compare::VelaLayerRow>> rows;
  std::optional<double> velaTotal;
  const auto csv = !o.velaCsv.empty() ? std::optional<std::string>(o.velaCsv)
                   : o.model.empty()  ? std::nullopt
                                      : compare::findBeside(o.model, "_per-layer");
  if (csv) rows = compare::readVelaPerLayerCsv(*csv);
  if (!o.model.empty()) {
    if (const auto summary = compare::findBeside(o.model, "_summary_")) {
      const auto values = compare::readVelaSummaryCsv(*summary);
      if (const auto it = values.find("cycles_total"); it != values.end()) velaTotal = std::stod(it->second);
    }
  }
  return compare::buildComparison(run, estimate, rows ? &*rows : nullptr, velaTotal, &names);
}

// Runs `npusim compare` for every model of a fixture-style tree, in parallel child processes.
int compareTree(const CompareOptions& o) {
  const compare::TreeListing listing = compare::findTreeModels(o.tree);
  const auto& models = listing.models;
  for (const std::string& s : listing.skipped) {
    std::cerr << "npusim: skipped " << s << '\n';
  }
  std::vector<std::vector<std::string>> commands;
  const std::string self = process::selfExecutable();
  for (const auto& m : models) {
    commands.push_back({self, "compare", m.path, "--system-config", m.systemConfig, "--memory-mode", m.memoryMode,
                        "--format", "json"});
  }
  const unsigned jobs = o.jobs > 0 ? o.jobs : process::availableCores();
  const auto results = process::runAll(commands, jobs);
  std::vector<compare::ModelComparison> comparisons;
  int failures = 0;
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].exitCode != 0) {
      ++failures;
      const std::string& err = results[i].err;
      std::cerr << "npusim: error: " << models[i].path << ": "
                << (err.empty() ? "exit " + std::to_string(results[i].exitCode) + "\n" : err)
                << (err.empty() || err.back() == '\n' ? "" : "\n");
      continue;
    }
    comparisons.push_back(compare::comparisonFromJson(nlohmann::json::parse(results[i].out)));
  }
  compare::writeTreeComparison(std::cout, comparisons, o.format);
  if (!o.csv.empty()) {
    auto out = openOutput(o.csv);
    compare::writeLayerCsv(out, comparisons);
  }
  return failures > 0 ? 1 : 0;
}

} // namespace

void addCompare(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand("compare", "Simulated cycles next to npusim's and Vela's estimates, per layer");
  auto opts = std::make_shared<CompareOptions>();
  sub->add_option("model", opts->model, "Vela-compiled .tflite (default: the built-in demo network)");
  sub->add_option("--vela-csv", opts->velaCsv, "Vela's per-layer CSV (default: *_per-layer.csv beside the model)");
  sub->add_option("--tree", opts->tree, "compare every model under DIR laid out like fixtures/vela");
  sub->add_option("-j,--jobs", opts->jobs, "parallel simulations with --tree (default: cores)");
  sub->add_option("--csv", opts->csv, "with --tree: write every layer of every model as CSV");
  const std::map<std::string, compare::CompareFormat> formats{{"text", compare::CompareFormat::Text},
                                                              {"csv", compare::CompareFormat::Csv},
                                                              {"json", compare::CompareFormat::Json},
                                                              {"md", compare::CompareFormat::Md}};
  sub->add_option("--format", opts->format, "text | csv | json | md")
      ->transform(choiceOf(formats));
  addConfigOptions(sub, opts->config);
  sub->callback([opts, &registry] {
    registry.select([opts] {
      if (!opts->tree.empty()) {
        return compareTree(*opts);
      }
      compare::writeModelComparison(std::cout, compareOne(*opts), opts->format);
      return 0;
    });
  });
}

} // namespace npusim::cli
