// SPDX-License-Identifier: Apache-2.0
#pragma once
// Configuration options shared by the subcommands that need a SystemParams.

#include <CLI/CLI.hpp>

#include "sim/config/config.h"
#include "sim/config/vela_version.h"
#include "sim/io/compiled_network.h"
#include "sim/io/decoded_network.h"

namespace npusim::cli {

// Adds --system-config, --memory-mode, --vela-ini, --config and --set (repeatable) to `sub`,
// writing into `request`, which must outlive parsing; resolve it with config::resolveConfig.
void addConfigOptions(CLI::App* sub, config::ConfigRequest& request);

// Adds --vela 3.10|5.0 (which Vela to follow: the performance model an estimate reproduces
// and the reading of --vela-ini) to `sub`, writing the word into `vela`; empty when not given.
void addVelaOption(CLI::App* sub, std::string& vela);

// The --vela word, when given, as the Vela whose reading of --vela-ini `request` asks for.
void applyVelaOption(const std::string& vela, config::ConfigRequest& request);

// Prints the configuration's warnings (config::SystemParams::warnings) to stderr.
void printConfigWarnings(const config::SystemParams& params);

// Where `params` contradicts what `net` was compiled for (platform::configMismatches): one
// `npusim: warning:` line each, or, when `strict`, an InputError naming the file for the first.
void checkCompileTarget(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                        const config::SystemParams& params, bool strict);

// The model `vela` names, or the one matching the Vela that compiled `net` when it is empty.
config::VelaVersion chooseVela(const std::string& vela, const io::CompiledNetwork& net);

} // namespace npusim::cli
