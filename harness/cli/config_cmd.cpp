// SPDX-License-Identifier: Apache-2.0
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "harness/cli/commands.h"
#include "harness/cli/config_options.h"
#include "sim/common/text_table.h"
#include "sim/config/config_schema.h"
#include "sim/config/json_config.h"
#include "sim/config/presets.h"
#include "sim/io/compiled_network.h"
#include "sim/io/decoded_network.h"
#include "models/platform/compile_target.h"
#include "models/platform/platform.h"

namespace npusim::cli {

namespace {

void printKeys(std::ostream& out, bool withSources) {
  std::vector<std::vector<std::string>> rows{{"KEY", "TYPE", "UNIT", "DEFAULT", "ALLOWED", "DESCRIPTION"}};
  if (withSources) {
    rows.front().push_back("SOURCE OF DEFAULT");
  }
  for (const auto& key : config::schema()) {
    rows.push_back({std::string(key.path), std::string(config::keyTypeName(config::keyType(key))),
                    key.unit.empty() ? "-" : std::string(key.unit),
                    key.defaultText.empty() ? "\"\"" : std::string(key.defaultText), config::allowedText(key),
                    std::string(key.description)});
    if (withSources) {
      rows.back().push_back(std::string(key.source));
    }
  }
  writeAligned(out, rows, "");
}

void printPresets(std::ostream& out) {
  std::vector<std::vector<std::string>> rows{{"OPTION", "NAME", "NPU", "SUMMARY"}};
  for (const auto& preset : config::presetTable()) {
    const std::string name(preset.name);
    const size_t dot = name.find('.');
    const bool system = name.compare(0, dot, "System_Config") == 0;
    std::string npus;
    for (const arch::Architecture* a : preset.architectures) {
      npus += (npus.empty() ? "" : ",") + std::string(a->name);
    }
    rows.push_back({system ? "--system-config" : "--memory-mode", name.substr(dot + 1), npus.empty() ? "any" : npus,
                    std::string(preset.summary)});
  }
  writeAligned(out, rows, "");
}

} // namespace

void addConfig(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand("config", "List configuration keys and presets, or show a resolved configuration");
  // What `npusim config` was asked to print, and the configuration to resolve for --show.
  struct Options {
    bool list = false;
    bool show = false;
    bool presets = false;
    bool sources = false;
    config::ConfigRequest request;
    std::string vela, model;
  };
  auto opts = std::make_shared<Options>();
  auto* action = sub->add_option_group("action", "what to print (exactly one)");
  action->add_flag("--list", opts->list, "every key: path, type, unit, default, description");
  auto* show = action->add_flag("--show", opts->show,
                                 "the resolved configuration as JSON (loadable with --config); with MODEL, the one "
                                 "`npusim run MODEL` simulates");
  action->add_flag("--presets", opts->presets, "the built-in system configs and memory modes (Vela's vela.ini), with the NPUs each is for");
  action->require_option(1);
  sub->add_flag("--sources", opts->sources, "with --list: add where each default comes from");
  sub->add_option("model", opts->model,
                  "with --show: a Vela-compiled .tflite, resolved as run resolves it (its accelerator, the system "
                  "config and memory mode of its compile)")
      ->needs(show);
  addConfigOptions(sub, opts->request);
  addVelaOption(sub, opts->vela);
  sub->callback([opts, &registry] {
    registry.select([opts] {
      if (opts->list) {
        printKeys(std::cout, opts->sources);
      } else if (opts->presets) {
        printPresets(std::cout);
      } else {
        applyVelaOption(opts->vela, opts->request);
        if (opts->model.empty()) {
          const config::SystemParams params = config::resolveConfig(opts->request);
          printConfigWarnings(params);
          std::cout << config::toJson(params).dump(2) << '\n';
          return 0;
        }
        // As `run` resolves it: warned about (not refused) where it contradicts the compile.
        const io::CompiledNetwork net = io::loadNetwork(opts->model);
        const config::SystemParams params = platform::resolveForModel(opts->request, net);
        printConfigWarnings(params);
        checkCompileTarget(net, io::decodeAll(net), params, false);
        std::cerr << "npusim: " << net.path << ": " << params.accelerator << ", " << params.systemConfig << ", "
                  << params.memoryMode << " (" << config::sectionsFrom(params.systemConfigFrom, params.memoryModeFrom)
                  << ")\n";
        std::cout << config::toJson(params).dump(2) << '\n';
      }
      return 0;
    });
  });
}

} // namespace npusim::cli
