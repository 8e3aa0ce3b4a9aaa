// SPDX-License-Identifier: Apache-2.0
#include "harness/compare/comparison.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>

#include "sim/common/counts.h"

namespace npusim::compare {

ModelComparison buildComparison(const platform::RunResult& run, const analytic::NetworkEstimate& estimate,
                                const std::vector<VelaLayerRow>* velaRows, std::optional<double> velaTotal,
                                const report::LayerMap* names) {
  ModelComparison c;
  c.model = run.model;
  c.accelerator = run.params.accelerator;
  c.systemConfig = run.params.systemConfig;
  c.vela = std::string(config::velaVersionName(estimate.vela));
  c.memoryMode = run.params.memoryMode;
  c.systemConfigFrom = run.params.systemConfigFrom;
  c.memoryModeFrom = run.params.memoryModeFrom;
  c.simNpuActive = run.npuActive;
  c.simTotal = run.totalCycles;
  c.estimateTotal = estimate.totals.totalCycles;
  for (const analytic::SubgraphEstimate& sg : estimate.subgraphs) {
    // 1. The simulated records of this ethos-u operator, by operation index.
    std::vector<const platform::OperationReport*> records;
    for (const auto& o : run.operations) {
      if (o.networkOp != sg.operatorIndex) continue;
      if (records.size() <= o.record.index) records.resize(o.record.index + 1, nullptr);
      records[o.record.index] = &o;
    }
    // 2. Each layer's labels, estimate and bound; which layer each operation belongs to.
    std::vector<size_t> layerOf(records.size(), SIZE_MAX);
    const size_t first = c.layers.size();
    for (size_t i = 0; i < sg.layers.size(); ++i) {
      const analytic::Layer& layer = sg.layers[i];
      LayerComparison lc;
      lc.subgraph = sg.operatorIndex;
      lc.layer = i;
      lc.tfliteOperator = layer.tfliteOperator;
      lc.nngOperator = layer.nngOperator;
      lc.name = layer.name;
      if (!estimate.rowsNamed && names != nullptr && !layer.operations.empty()) {
        if (const report::LayerInfo* info = names->find(sg.operatorIndex, layer.operations.front())) lc.name = info->name;
      }
      lc.estimateCycles = sg.estimates[i].totalCycles;
      lc.macs = sg.estimates[i].macs;
      platform::BoundCycles bound;
      for (size_t opIndex : layer.operations) {
        if (opIndex >= records.size() || records[opIndex] == nullptr) continue;
        layerOf[opIndex] = first + i;
        bound += records[opIndex]->boundCycles;
      }
      if (bound.total() > 0) lc.bound = std::string(platform::boundName(bound.largest()));
      c.layers.push_back(lc);
    }
    // 3. A layer sums its operations' charged cycles (platform::chargedIntervals).
    for (size_t k = 0; k < records.size(); ++k) {
      if (records[k] != nullptr && layerOf[k] != SIZE_MAX) c.layers[layerOf[k]].simCycles += records[k]->chargedCycles;
    }
  }
  if (velaRows != nullptr) {
    if (velaRows->size() == c.layers.size()) {
      for (size_t i = 0; i < c.layers.size(); ++i) c.layers[i].velaCycles = (*velaRows)[i].opCycles;
      if (!velaTotal) {
        double sum = 0;
        for (const auto& r : *velaRows) sum += r.opCycles;
        velaTotal = sum;
      }
    } else {
      c.note = "Vela's per-layer CSV has " + std::to_string(velaRows->size()) + " rows, the estimate " +
               std::to_string(c.layers.size()) + " (no debug database beside the model?); per-layer Vela column left empty";
    }
  }
  c.velaTotal = velaTotal;
  c.summary = summarize(c.layers);
  return c;
}

ComparisonSummary summarize(const std::vector<LayerComparison>& layers) {
  ComparisonSummary s;
  double logEst = 0, logVela = 0, total = 0, over = 0;
  size_t nEst = 0, nVela = 0;
  std::vector<std::pair<double, size_t>> deviation;
  for (size_t i = 0; i < layers.size(); ++i) {
    const auto& l = layers[i];
    total += l.simCycles;
    if (l.simCycles > 0 && l.estimateCycles > 0) {
      const double r = l.simCycles / l.estimateCycles;
      logEst += std::log(r);
      ++nEst;
      deviation.emplace_back(std::abs(std::log(r)), i);
      if (std::abs(r - 1) > 0.2) over += l.simCycles;
    }
    if (l.simCycles > 0 && l.velaCycles && *l.velaCycles > 0) {
      logVela += std::log(l.simCycles / *l.velaCycles);
      ++nVela;
    }
  }
  if (nEst > 0) s.geomeanSimOverEstimate = std::exp(logEst / double(nEst));
  if (nVela > 0) s.geomeanSimOverVela = std::exp(logVela / double(nVela));
  s.shareOver20 = total > 0 ? over / total : 0;
  std::stable_sort(deviation.begin(), deviation.end(), [](auto& a, auto& b) { return a.first > b.first; });
  for (size_t k = 0; k < std::min<size_t>(5, deviation.size()); ++k) s.worst.push_back(deviation[k].second);
  return s;
}

nlohmann::ordered_json comparisonJson(const ModelComparison& c) {
  nlohmann::ordered_json j{{"model", c.model}, {"accelerator", c.accelerator}, {"system_config", c.systemConfig},
                           {"memory_mode", c.memoryMode}, {"system_config_from", c.systemConfigFrom},
                           {"memory_mode_from", c.memoryModeFrom}, {"vela", c.vela},
                           {"sim_npu_active_cycles", roundCount(c.simNpuActive)},
                           {"sim_total_cycles", roundCount(c.simTotal)}, {"estimate_cycles", c.estimateTotal}};
  j["vela_cycles"] = c.velaTotal ? nlohmann::ordered_json(*c.velaTotal) : nlohmann::ordered_json();
  if (!c.note.empty()) j["note"] = c.note;
  nlohmann::ordered_json layers = nlohmann::ordered_json::array();
  for (const auto& l : c.layers) {
    layers.push_back({{"subgraph", l.subgraph}, {"layer", l.layer}, {"tflite_operator", l.tfliteOperator},
                      {"nng_operator", l.nngOperator}, {"name", l.name}, {"sim_cycles", roundCount(l.simCycles)},
                      {"estimate_cycles", l.estimateCycles},
                      {"vela_cycles", l.velaCycles ? nlohmann::ordered_json(*l.velaCycles) : nlohmann::ordered_json()},
                      {"macs", l.macs}, {"bound", l.bound}});
  }
  j["layers"] = layers;
  const auto& s = c.summary;
  j["summary"] = {{"geomean_sim_over_estimate", s.geomeanSimOverEstimate ? nlohmann::ordered_json(*s.geomeanSimOverEstimate) : nlohmann::ordered_json()},
                  {"geomean_sim_over_vela", s.geomeanSimOverVela ? nlohmann::ordered_json(*s.geomeanSimOverVela) : nlohmann::ordered_json()},
                  {"share_of_cycles_over_20pct", s.shareOver20},
                  {"worst_layers", s.worst}};
  return j;
}

ModelComparison comparisonFromJson(const nlohmann::json& j) {
  ModelComparison c;
  c.model = j.at("model").get<std::string>();
  c.accelerator = j.at("accelerator").get<std::string>();
  c.systemConfig = j.at("system_config").get<std::string>();
  c.memoryMode = j.at("memory_mode").get<std::string>();
  c.systemConfigFrom = j.at("system_config_from").get<std::string>();
  c.memoryModeFrom = j.at("memory_mode_from").get<std::string>();
  c.vela = j.at("vela").get<std::string>();
  c.simNpuActive = j.at("sim_npu_active_cycles").get<double>();
  c.simTotal = j.at("sim_total_cycles").get<double>();
  c.estimateTotal = j.at("estimate_cycles").get<double>();
  if (!j.at("vela_cycles").is_null()) c.velaTotal = j.at("vela_cycles").get<double>();
  if (j.contains("note")) c.note = j.at("note").get<std::string>();
  for (const auto& l : j.at("layers")) {
    LayerComparison lc;
    lc.subgraph = l.at("subgraph").get<size_t>();
    lc.layer = l.at("layer").get<size_t>();
    lc.tfliteOperator = l.at("tflite_operator").get<std::string>();
    lc.nngOperator = l.at("nng_operator").get<std::string>();
    lc.name = l.at("name").get<std::string>();
    lc.simCycles = l.at("sim_cycles").get<double>();
    lc.estimateCycles = l.at("estimate_cycles").get<double>();
    if (!l.at("vela_cycles").is_null()) lc.velaCycles = l.at("vela_cycles").get<double>();
    lc.macs = l.at("macs").get<uint64_t>();
    lc.bound = l.at("bound").get<std::string>();
    c.layers.push_back(lc);
  }
  c.summary = summarize(c.layers);
  return c;
}

} // namespace npusim::compare
