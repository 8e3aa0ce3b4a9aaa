// SPDX-License-Identifier: Apache-2.0
#include <iostream>
#include <map>

#include "harness/report/inspect_report.h"
#include "harness/cli/choice.h"
#include "harness/cli/commands.h"
#include "harness/cli/config_options.h"
#include "models/platform/compile_target.h"
#include "harness/cli/workload.h"
#include "sim/io/demo_network.h"
#include "sim/config/config.h"
#include "models/platform/platform.h"

namespace npusim::cli {

void addInspect(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand("inspect", "Show the operators, NPU operations and command streams of a model");
  struct Options {
    std::string model;
    report::InspectFormat format = report::InspectFormat::Text;
    bool weights = false;
    std::string vela;
  };
  auto opts = std::make_shared<Options>();
  sub->add_option("model", opts->model, "Vela-compiled .tflite (default: the built-in demo network)");
  const std::map<std::string, report::InspectFormat> formats{
      {"text", report::InspectFormat::Text}, {"vela", report::InspectFormat::Vela}, {"json", report::InspectFormat::Json}};
  sub->add_option("--format", opts->format, "text | vela (Vela's register listing) | json")
      ->transform(choiceOf(formats));
  sub->add_flag("--weights", opts->weights,
                "each operation's weight streams decoded: format, weight decoder, length and weights (text: a summary; "
                "json: every weight in stream order)");
  addVelaOption(sub, opts->vela);
  sub->callback([opts, &registry] {
    registry.select([opts] {
      const io::CompiledNetwork net = io::loadModelOrDemo(opts->model);
      // A model is refused here as `run` would refuse it (its work bound).
      const auto decoded = decodeChecked(net, platform::resolveForModel({}, net));
      report::writeInspect(std::cout, net, decoded, opts->format, opts->weights, chooseVela(opts->vela, net));
      if (opts->format == report::InspectFormat::Text) {
        std::cout << "compiled for: " << platform::describe(platform::compileTarget(net, decoded)) << '\n';
      }
      return 0;
    });
  });
}

} // namespace npusim::cli
