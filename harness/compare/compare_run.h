// SPDX-License-Identifier: Apache-2.0
#pragma once
// `npusim compare` orchestration: one model simulated and estimated in this process, or every
// model of a fixture-style tree, each in a child process of the process pool.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/analytic/network_estimate.h"
#include "harness/compare/compare_report.h"
#include "harness/compare/comparison.h"
#include "sim/config/config.h"
#include "sim/io/compiled_network.h"
#include "sim/io/decoded_network.h"

namespace npusim::compare {

// Simulates (one SystemC elaboration: once per process) and estimates `net` (its command
// streams `decoded`) on `params`, next to Vela's per-layer CSV (`velaCsv`, or the one beside
// `modelPath`: config::velaCsvsBeside) and cycles_total of the summary CSV of the compile
// (config::compileSections) when there are any; an empty `modelPath` looks for nothing beside.
// `warn` receives warnings as they arise (a debug database that does not describe the model:
// rows are then grouped without it).
// `vela` picks the Vela model the estimate reproduces (nullopt: the one that compiled `net`).
ModelComparison compareModel(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                             const config::SystemParams& params, const std::string& modelPath,
                             const std::string& velaCsv, std::optional<config::VelaVersion> vela,
                             const std::function<void(const std::string&)>& warn);

// Comparisons of a tree's models, in listing order, and the models that could not be compared.
struct TreeComparison {
  std::vector<ModelComparison> comparisons;
  std::vector<std::string> failures;   // "<model path>: <the child's error message or exit status>"
};

// Runs `<executable> compare <model> --system-config S --memory-mode M --format json` for every
// model of `listing`, `jobs` at a time, and reads the comparisons the children print; with
// `velaIni` the sections come from that file, with `vela` the children estimate with that model.
TreeComparison compareTreeModels(const TreeListing& listing, const std::string& executable, unsigned jobs,
                                 const std::string& velaIni, std::optional<config::VelaVersion> vela);

} // namespace npusim::compare
