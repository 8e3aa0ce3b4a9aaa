// SPDX-License-Identifier: Apache-2.0
// npusim command line: subcommands parse their options, call the libraries and print.

#include <iostream>

#include <CLI/CLI.hpp>

#include "sim/cli/commands.h"
#include "sim/common/error.h"

int main(int argc, char** argv) {
  CLI::App app{"npusim: cycle-approximate Cortex-M55 + Ethos-U55 simulator and benchmark harness"};
  app.set_version_flag("--version", std::string("npusim ") + NPUSIM_VERSION);
  app.require_subcommand(1);
  npusim::cli::Registry registry;
  npusim::cli::addInspect(app, registry);
  npusim::cli::addEstimate(app, registry);
  npusim::cli::addConfig(app, registry);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "npusim: error: " << e.what() << '\n';
    return 2;
  }
  try {
    return registry.run();
  } catch (const npusim::InputError& e) {
    std::cerr << "npusim: error: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "npusim: internal error: " << e.what() << '\n';
    return 1;
  }
}
