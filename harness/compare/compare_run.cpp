// SPDX-License-Identifier: Apache-2.0
#include "harness/compare/compare_run.h"

#include <optional>

#include "harness/analytic/network_estimate.h"
#include "harness/analytic/vela_artifacts.h"
#include "harness/compare/vela_reports.h"
#include "harness/process/process_pool.h"
#include "harness/report/layer_map.h"
#include "sim/config/vela_compile.h"
#include "sim/io/decoded_network.h"
#include "models/platform/compile_target.h"
#include "models/platform/platform.h"

namespace npusim::compare {

ModelComparison compareModel(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                             const config::SystemParams& params, const std::string& modelPath,
                             const std::string& velaCsv, std::optional<config::VelaVersion> vela,
                             const std::function<void(const std::string&)>& warn) {
  // Layer names first: a debug database that does not describe the model only warns, and the
  // estimate then groups rows without it.
  std::vector<std::string> warnings;
  const analytic::VelaArtifacts artifacts = analytic::findVelaArtifacts(net.path, "");
  const report::LayerMap names = report::mapLayers(net, decoded, artifacts, &warnings);
  for (const std::string& w : warnings) warn(w);
  const bool grouped = names.fromDebugDb;
  const analytic::NetworkEstimate estimate =
      analytic::estimateNetwork(net, decoded, params, grouped ? &*artifacts.db : nullptr,
                                vela.value_or(platform::compiledBy(net)),
                                grouped && artifacts.source ? &*artifacts.source : nullptr);
  const platform::RunResult run = platform::simulate(net, decoded, params);
  std::optional<std::vector<VelaLayerRow>> rows;
  std::optional<double> velaTotal;
  std::optional<std::string> csv;
  if (!velaCsv.empty()) {
    csv = velaCsv;
  } else if (!modelPath.empty()) {
    const std::vector<std::string> beside = config::velaCsvsBeside(modelPath, "_per-layer");
    if (!beside.empty()) csv = beside.front();
  }
  if (csv) rows = readVelaPerLayerCsv(*csv);
  if (!modelPath.empty()) {
    const auto compiled = config::compileSections(modelPath, params.accelerator, nullptr);
    if (compiled && !compiled->summaryCsv.empty()) {
      const auto values = config::readVelaSummaryCsv(compiled->summaryCsv);
      if (const auto it = values.find("cycles_total"); it != values.end()) velaTotal = std::stod(it->second);
    }
  }
  return buildComparison(run, estimate, rows ? &*rows : nullptr, velaTotal, &names);
}

TreeComparison compareTreeModels(const TreeListing& listing, const std::string& executable, unsigned jobs,
                                 const std::string& velaIni, std::optional<config::VelaVersion> vela) {
  std::vector<std::vector<std::string>> commands;
  for (const TreeModel& m : listing.models) {
    commands.push_back({executable, "compare", m.path, "--system-config", m.systemConfig, "--memory-mode",
                        m.memoryMode, "--format", "json"});
    if (!velaIni.empty()) {
      commands.back().insert(commands.back().end(), {"--vela-ini", velaIni});
    }
    if (vela) {
      commands.back().insert(commands.back().end(), {"--vela", std::string(config::velaVersionName(*vela))});
    }
  }
  const std::vector<process::ChildResult> results = process::runAll(commands, jobs);
  TreeComparison out;
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].exitCode != 0) {
      const std::string& err = results[i].err;
      std::string message = err.empty() ? "exit " + std::to_string(results[i].exitCode) : err;
      if (message.back() == '\n') message.pop_back();
      out.failures.push_back(listing.models[i].path + ": " + message);
      continue;
    }
    out.comparisons.push_back(comparisonFromJson(nlohmann::json::parse(results[i].out)));
  }
  return out;
}

} // namespace npusim::compare
