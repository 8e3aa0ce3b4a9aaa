// SPDX-License-Identifier: Apache-2.0
#include "harness/compare/compare_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "sim/common/error.h"
#include "sim/common/counts.h"
#include "sim/common/csv.h"
#include "sim/config/system_params.h"
#include "sim/config/vela_compile.h"

namespace npusim::compare {
namespace {

// Counts (f == nullptr) follow the one rounding rule of sim/common/counts.h.
std::string num(double v, const char* f = nullptr) {
  if (f == nullptr) return std::to_string(roundCount(v));
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string opt(const std::optional<double>& v, const char* f = nullptr) { return v ? num(*v, f) : "-"; }

std::optional<double> ratio(double a, const std::optional<double>& b) {
  if (!b || *b <= 0 || a <= 0) return std::nullopt;
  return a / *b;
}

std::string shortName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

void writeSummaryLines(std::ostream& os, const ComparisonSummary& s, const std::vector<LayerComparison>& layers,
                       const std::string& prefix) {
  os << prefix << "geometric-mean ratio sim/estimate " << opt(s.geomeanSimOverEstimate, "%.3f") << ", sim/Vela "
     << opt(s.geomeanSimOverVela, "%.3f") << "; " << num(100 * s.shareOver20, "%.1f")
     << "% of simulated cycles are in layers where simulation and estimate differ by more than 20%\n";
  for (size_t i : s.worst) {
    const auto& l = layers[i];
    os << prefix << "  worst: layer " << l.subgraph << "." << l.layer << " " << l.nngOperator << " sim "
       << num(l.simCycles) << " vs estimate " << num(l.estimateCycles) << " (" << l.bound << ")\n";
  }
}

} // namespace

void writeModelComparison(std::ostream& os, const ModelComparison& c, CompareFormat format) {
  switch (format) {
  case CompareFormat::Json:
    os << comparisonJson(c).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
    return;
  case CompareFormat::Csv:
    writeLayerCsv(os, {c});
    return;
  case CompareFormat::Text:
  case CompareFormat::Md: {
    const bool md = format == CompareFormat::Md;
    os << (md ? "### " : "npusim compare: ") << c.model << " (" << c.accelerator << ", " << c.systemConfig << ", "
       << c.memoryMode << "; estimate: Vela " << c.vela << "'s model)\n" << (md ? "\n" : "")
       << "from " << config::sectionsFrom(c.systemConfigFrom, c.memoryModeFrom) << "\n\n";
    if (md) os << "| layer | TFLite | Vela op | sim | estimate | Vela | sim/est | sim/Vela | bound | name |\n|---|---|---|--:|--:|--:|--:|--:|---|---|\n";
    else {
      char head[200];
      std::snprintf(head, sizeof head, "%-7s %-18s %-22s %10s %10s %10s %8s %8s  %-10s %s\n", "layer", "TFLite",
                    "Vela op", "sim", "estimate", "Vela", "sim/est", "sim/Vela", "bound", "name");
      os << head;
    }
    for (const auto& l : c.layers) {
      const std::string id = std::to_string(l.subgraph) + "." + std::to_string(l.layer);
      const auto re = ratio(l.simCycles, l.estimateCycles), rv = ratio(l.simCycles, l.velaCycles);
      if (md) {
        os << "| " << id << " | " << l.tfliteOperator << " | " << l.nngOperator << " | " << num(l.simCycles) << " | "
           << num(l.estimateCycles) << " | " << opt(l.velaCycles) << " | " << opt(re, "%.2f") << " | "
           << opt(rv, "%.2f") << " | " << l.bound << " | " << l.name << " |\n";
      } else {
        char line[300];
        std::snprintf(line, sizeof line, "%-7s %-18.18s %-22.22s %10s %10s %10s %8s %8s  %-10s ", id.c_str(),
                      l.tfliteOperator.c_str(), l.nngOperator.c_str(), num(l.simCycles).c_str(),
                      num(l.estimateCycles).c_str(), opt(l.velaCycles).c_str(), opt(re, "%.2f").c_str(),
                      opt(rv, "%.2f").c_str(), l.bound.c_str());
        os << line << l.name << '\n';
      }
    }
    os << "\ntotal: simulated NPU active " << num(c.simNpuActive) << " (whole run " << num(c.simTotal)
       << "), estimate " << num(c.estimateTotal) << ", Vela " << opt(c.velaTotal) << "\n";
    if (!c.note.empty()) os << "note: " << c.note << '\n';
    writeSummaryLines(os, c.summary, c.layers, "");
    return;
  }
  }
}

void writeLayerCsv(std::ostream& os, const std::vector<ModelComparison>& models) {
  os << "model,accelerator,system_config,memory_mode,vela,subgraph,layer,tflite_operator,nng_operator,sim_cycles,"
        "estimate_cycles,vela_cycles,macs,bound,name\n";
  for (const auto& c : models) {
    for (const auto& l : c.layers) {
      os << csvField(c.model) << ',' << c.accelerator << ',' << c.systemConfig << ',' << c.memoryMode << ',' << c.vela
         << ',' << l.subgraph << ',' << l.layer << ',' << l.tfliteOperator << ',' << l.nngOperator << ','
         << num(l.simCycles) << ',' << num(l.estimateCycles, "%.1f") << ',' << (l.velaCycles ? num(*l.velaCycles, "%.1f") : "")
         << ',' << l.macs << ',' << l.bound << ',' << csvField(l.name) << '\n';
    }
  }
}

void writeTreeComparison(std::ostream& os, const std::vector<ModelComparison>& models, CompareFormat format) {
  std::vector<LayerComparison> all;
  for (const auto& c : models) all.insert(all.end(), c.layers.begin(), c.layers.end());
  const ComparisonSummary overall = summarize(all);
  switch (format) {
  case CompareFormat::Json: {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& c : models) j.push_back(comparisonJson(c));
    os << nlohmann::ordered_json{{"models", j},
                                 {"summary",
                                  {{"geomean_sim_over_estimate", overall.geomeanSimOverEstimate.value_or(0)},
                                   {"geomean_sim_over_vela", overall.geomeanSimOverVela.value_or(0)},
                                   {"share_of_cycles_over_20pct", overall.shareOver20}}}}
              .dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
       << '\n';
    return;
  }
  case CompareFormat::Csv:
    os << "model,accelerator,system_config,memory_mode,vela,sim_npu_active_cycles,sim_total_cycles,estimate_cycles,"
          "vela_cycles,sim_over_estimate,sim_over_vela,layer_geomean_sim_over_estimate,share_over_20pct\n";
    for (const auto& c : models) {
      os << csvField(shortName(c.model)) << ',' << c.accelerator << ',' << c.systemConfig << ',' << c.memoryMode << ','
         << c.vela << ',' << num(c.simNpuActive) << ',' << num(c.simTotal) << ',' << num(c.estimateTotal, "%.1f") << ','
         << (c.velaTotal ? num(*c.velaTotal, "%.1f") : "") << ',' << opt(ratio(c.simNpuActive, c.estimateTotal), "%.4f")
         << ',' << opt(ratio(c.simNpuActive, c.velaTotal), "%.4f") << ','
         << opt(c.summary.geomeanSimOverEstimate, "%.4f") << ',' << num(c.summary.shareOver20, "%.4f") << '\n';
    }
    return;
  case CompareFormat::Text:
  case CompareFormat::Md: {
    const bool md = format == CompareFormat::Md;
    if (md) os << "| model | accelerator | system | memory mode | model of Vela | sim NPU active | estimate | Vela | sim/est | sim/Vela |\n|---|---|---|---|---|--:|--:|--:|--:|--:|\n";
    for (const auto& c : models) {
      const auto re = ratio(c.simNpuActive, c.estimateTotal), rv = ratio(c.simNpuActive, c.velaTotal);
      if (md) {
        os << "| " << shortName(c.model) << " | " << c.accelerator << " | " << c.systemConfig << " | " << c.memoryMode
           << " | " << c.vela << " | " << num(c.simNpuActive) << " | " << num(c.estimateTotal) << " | " << opt(c.velaTotal) << " | "
           << opt(re, "%.2f") << " | " << opt(rv, "%.2f") << " |\n";
      } else {
        char line[400];
        std::snprintf(line, sizeof line, "%-44.44s %-13s %-27s %-11s %-4s %10s %10s %10s %6s %6s\n",
                      shortName(c.model).c_str(), c.accelerator.c_str(), c.systemConfig.c_str(), c.memoryMode.c_str(),
                      c.vela.c_str(),
                      num(c.simNpuActive).c_str(), num(c.estimateTotal).c_str(), opt(c.velaTotal).c_str(),
                      opt(re, "%.2f").c_str(), opt(rv, "%.2f").c_str());
        os << line;
      }
    }
    os << "\n" << models.size() << " model x config pairs, " << all.size() << " layers\n";
    writeSummaryLines(os, overall, all, "");
    return;
  }
  }
}

TreeListing findTreeModels(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    InputError::Location loc;
    loc.file = dir;
    throw InputError(loc, "not a directory");
  }
  TreeListing out;
  for (const auto& modelDir : fs::directory_iterator(dir)) {
    if (!modelDir.is_directory()) continue;
    for (const auto& folder : fs::directory_iterator(modelDir.path())) {
      if (!folder.is_directory()) continue;
      std::string tflite;
      for (const auto& f : fs::directory_iterator(folder.path())) {
        const std::string n = f.path().filename().string();
        if (n.size() > 12 && n.compare(n.size() - 12, 12, "_vela.tflite") == 0) tflite = f.path().string();
      }
      if (tflite.empty()) continue;
      // The sections of the compile: Vela's summary CSV beside the model, else the folder name.
      std::vector<std::string> warnings;
      const std::optional<config::CompileSections> compiled = config::compileSections(tflite, "", &warnings);
      if (!compiled) {
        std::string why = "neither a Vela summary CSV beside the model nor the folder name (expected "
                          "<accelerator>_<system_config>_<memory_mode>[_suffix]) names a known system config and memory mode";
        for (const std::string& w : warnings) why += "; " + w;
        out.skipped.push_back(folder.path().string() + ": " + why);
        continue;
      }
      out.models.push_back({modelDir.path().filename().string(), folder.path().filename().string(), tflite,
                            compiled->names.systemConfig, compiled->names.memoryMode});
    }
  }
  std::sort(out.models.begin(), out.models.end(),
            [](const TreeModel& a, const TreeModel& b) { return a.path < b.path; });
  std::sort(out.skipped.begin(), out.skipped.end());
  return out;
}

} // namespace npusim::compare
