// SPDX-License-Identifier: Apache-2.0
#pragma once
// Configuration options shared by the subcommands that need a SystemParams.

#include <CLI/CLI.hpp>

#include "sim/config/config.h"

namespace npusim::cli {

// Adds --system-config, --memory-mode, --vela-ini, --config and --set (repeatable) to `sub`,
// writing into `request`, which must outlive parsing; resolve it with config::resolveConfig.
void addConfigOptions(CLI::App* sub, config::ConfigRequest& request);

} // namespace npusim::cli
