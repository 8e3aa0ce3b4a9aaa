// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <iostream>
#include <map>

#include "harness/compare/compare_report.h"
#include "harness/compare/compare_run.h"
#include "harness/process/process_pool.h"
#include "harness/cli/choice.h"
#include "harness/cli/commands.h"
#include "harness/cli/config_options.h"
#include "harness/cli/output.h"
#include "harness/cli/workload.h"
#include "sim/common/error.h"
#include "sim/io/demo_network.h"
#include "models/platform/platform.h"

namespace npusim::cli {
namespace {

struct CompareOptions {
  std::string model, velaCsv, tree, csv, vela;
  compare::CompareFormat format = compare::CompareFormat::Text;
  unsigned jobs = 0;
  bool strict = false;
  config::ConfigRequest config;
};

std::optional<config::VelaVersion> velaChoice(const CompareOptions& o) {
  return o.vela.empty() ? std::nullopt : config::parseVelaVersion(o.vela);
}

// One model (or the built-in demo network), simulated and estimated in this process.
int compareOne(const CompareOptions& o) {
  const io::CompiledNetwork net = io::loadModelOrDemo(o.model);
  config::ConfigRequest request = o.config;
  applyVelaOption(o.vela, request);
  const config::SystemParams params = platform::resolveForModel(request, net);
  printConfigWarnings(params);
  const std::vector<io::DecodedNpuOp> decoded = io::decodeAll(net);
  checkCompileTarget(net, decoded, params, o.strict);
  const compare::ModelComparison c = compare::compareModel(
      net, decoded, params, o.model, o.velaCsv, velaChoice(o),
      [](const std::string& w) { std::cerr << "npusim: warning: " << w << '\n'; });
  compare::writeModelComparison(std::cout, c, o.format);
  if (!o.csv.empty()) {
    auto out = openOutput(o.csv);
    compare::writeLayerCsv(out, {c});
  }
  return 0;
}

// Every model of a fixture-style tree, in parallel child processes (npusim itself).
int compareTree(const CompareOptions& o) {
  // Each model runs on the sections of its own compile: options that would choose others, or
  // another model, are refused rather than dropped.
  const std::pair<const char*, bool> ignored[] = {
      {"MODEL", !o.model.empty()},
      {"--vela-csv", !o.velaCsv.empty()},
      {"--system-config", !o.config.systemConfig.empty()},
      {"--memory-mode", !o.config.memoryMode.empty()},
      {"--config", !o.config.jsonFile.empty()},
      {"--set", !o.config.overrides.empty()},
      {"--strict", o.strict}};
  for (const auto& [option, given] : ignored) {
    if (given) {
      throwForKey("<command line>", option,
                  "compare --tree compares each model of the tree on the system config and memory mode of its "
                  "compile; it takes no " + std::string(option));
    }
  }
  const compare::TreeListing listing = compare::findTreeModels(o.tree);
  for (const std::string& s : listing.skipped) {
    std::cerr << "npusim: skipped " << s << '\n';
  }
  const unsigned jobs = o.jobs > 0 ? o.jobs : process::availableCores();
  // The tree's own vela.ini (the one its models were compiled with), unless one was given.
  std::string velaIni = o.config.velaIni;
  if (velaIni.empty() && std::filesystem::is_regular_file(std::filesystem::path(o.tree) / "vela.ini")) {
    velaIni = (std::filesystem::path(o.tree) / "vela.ini").string();
  }
  const compare::TreeComparison tree =
      compare::compareTreeModels(listing, process::selfExecutable(), jobs, velaIni, velaChoice(o));
  for (const std::string& f : tree.failures) {
    std::cerr << "npusim: error: " << f << '\n';
  }
  compare::writeTreeComparison(std::cout, tree.comparisons, o.format);
  if (!o.csv.empty()) {
    auto out = openOutput(o.csv);
    compare::writeLayerCsv(out, tree.comparisons);
  }
  return tree.failures.empty() ? 0 : 1;
}

} // namespace

void addCompare(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand("compare", "Simulated cycles next to npusim's and Vela's estimates, per layer");
  auto opts = std::make_shared<CompareOptions>();
  sub->add_option("model", opts->model, "Vela-compiled .tflite (default: the built-in demo network)");
  sub->add_option("--vela-csv", opts->velaCsv, "Vela's per-layer CSV (default: *_per-layer.csv beside the model)");
  auto* tree = sub->add_option("--tree", opts->tree, "compare every model under DIR laid out like fixtures/vela");
  sub->add_option("-j,--jobs", opts->jobs, "parallel simulations with --tree (default: cores)")->needs(tree);
  sub->add_option("--csv", opts->csv, "write every layer (of every model with --tree) as CSV");
  const std::map<std::string, compare::CompareFormat> formats{{"text", compare::CompareFormat::Text},
                                                              {"csv", compare::CompareFormat::Csv},
                                                              {"json", compare::CompareFormat::Json},
                                                              {"md", compare::CompareFormat::Md}};
  sub->add_option("--format", opts->format, "text | csv | json | md")
      ->transform(choiceOf(formats));
  addConfigOptions(sub, opts->config);
  addVelaOption(sub, opts->vela);
  sub->add_flag("--strict", opts->strict,
                "refuse (exit 2) a configuration that contradicts what the model was compiled for, instead of warning");
  sub->callback([opts, &registry] {
    registry.select([opts] {
      return opts->tree.empty() ? compareOne(*opts) : compareTree(*opts);
    });
  });
}

} // namespace npusim::cli
