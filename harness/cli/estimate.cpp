// SPDX-License-Identifier: Apache-2.0
#include <fstream>
#include <iostream>
#include <optional>

#include "harness/analytic/estimate_report.h"
#include "harness/analytic/network_estimate.h"
#include "harness/cli/commands.h"
#include "harness/cli/output.h"
#include "harness/cli/config_options.h"
#include "harness/cli/workload.h"
#include "sim/io/demo_network.h"
#include "sim/common/error.h"
#include "sim/config/config.h"
#include "models/platform/platform.h"

namespace npusim::cli {


void addEstimate(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand("estimate", "Vela-style analytic performance estimate (Vela 3.10's or 5.0's model) of a compiled model");
  struct Options {
    std::string model;
    config::ConfigRequest request;
    std::string json, csv, debugDb, vela;
    bool noDebugDb = false;
    bool strict = false;
  };
  auto opts = std::make_shared<Options>();
  sub->add_option("model", opts->model, "Vela-compiled .tflite (default: the built-in demo network)");
  addConfigOptions(sub, opts->request);
  addVelaOption(sub, opts->vela);
  sub->add_option("--json", opts->json, "Also write the estimate as JSON to FILE");
  sub->add_option("--csv", opts->csv, "Also write Vela's per-layer CSV format to FILE");
  sub->add_option("--debug-db", opts->debugDb,
                  "Vela debug database for the row grouping (default: <model>_debug.xml beside the model)");
  sub->add_flag("--no-debug-db", opts->noDebugDb, "Ignore the debug database: one row per NPU kernel operation");
  sub->add_flag("--strict", opts->strict,
                "refuse (exit 2) a configuration that contradicts what the model was compiled for, instead of warning");
  sub->callback([opts, &registry] {
    registry.select([opts] {
      // 1. Model, command streams and the system it runs on (MACs from the COP1 header).
      const io::CompiledNetwork net = io::loadModelOrDemo(opts->model);
      applyVelaOption(opts->vela, opts->request);
      const config::SystemParams params = platform::resolveForModel(opts->request, net);
      printConfigWarnings(params);
      const auto decoded = decodeChecked(net, params);
      checkCompileTarget(net, decoded, params, opts->strict);
      // 2. Vela's row grouping and names, when its debug database and source model are there.
      analytic::VelaArtifacts artifacts;
      if (!opts->noDebugDb) {
        artifacts = analytic::findVelaArtifacts(opts->model, opts->debugDb);
      }
      // 3. Estimate and report.
      const analytic::NetworkEstimate estimate =
          analytic::estimateNetwork(net, decoded, params, artifacts.db ? &*artifacts.db : nullptr,
                                    chooseVela(opts->vela, net), artifacts.source ? &*artifacts.source : nullptr);
      if (!artifacts.sourceWarning.empty()) std::cerr << "npusim: warning: " << artifacts.sourceWarning << '\n';
      analytic::writeEstimateTable(std::cout, estimate);
      if (!opts->csv.empty()) {
        std::ofstream out = openOutput(opts->csv);
        analytic::writeVelaPerLayerCsv(out, estimate);
      }
      if (!opts->json.empty()) {
        std::ofstream out = openOutput(opts->json);
        analytic::writeEstimateJson(out, estimate);
      }
      return 0;
    });
  });
}

} // namespace npusim::cli
