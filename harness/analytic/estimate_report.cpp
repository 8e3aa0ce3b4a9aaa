// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/estimate_report.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/common/csv.h"
#include "sim/config/system_params.h"

namespace npusim::analytic {

const char* const kVelaPerLayerHeader =
    "TFLite_operator,NNG Operator,SRAM Usage,Peak%,Op Cycles,Network%,NPU,SRAM AC,DRAM AC,OnFlash AC,OffFlash AC,"
    "MAC Count,Network%,Util%,Name";
const char* const kVela5PerLayerHeader =
    "Original Operator,NNG Operator,Target,Staging Usage,Peak% (Staging),Op Cycles,Network% (cycles),NPU,SRAM AC,"
    "DRAM AC,OnFlash AC,OffFlash AC,MAC Count,Network% (MAC),Util% (MAC),Name";

namespace {

// Vela's _percentage: a zero whole counts as 100%.
double percentage(double part, double whole) { return whole == 0 ? 100.0 : part / whole * 100.0; }

double utilisation(const LayerEstimate& e, uint32_t macsPerCycle) {
  return percentage(static_cast<double>(e.macs), e.totalCycles * macsPerCycle);
}

std::string fixed(double value, int decimals) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(decimals) << value;
  return s.str();
}

nlohmann::json shapeJson(const Shape3& s) { return {s.height, s.width, s.depth}; }

nlohmann::json mapJson(const FeatureMapInfo& f) {
  return {{"shape", shapeJson(f.shape)},
          {"format", cmd::dataFormatName(f.format)},
          {"bits", f.bits},
          {"area", memAreaName(f.area)}};
}

nlohmann::json queryJson(const LayerQuery& q) {
  nlohmann::json j{{"ifm", mapJson(q.ifm)},
                   {"ofm", mapJson(q.ofm)},
                   {"kernel", {q.kernel.width, q.kernel.height}},
                   {"stride", {q.kernel.strideX, q.kernel.strideY}},
                   {"ofm_block", shapeJson(q.block.ofmBlock)},
                   {"ifm_block", shapeJson(q.block.ifmBlock)},
                   {"acc40", q.block.acc40},
                   {"part_kernel_first", q.block.partKernel}};
  if (q.ifm2) {
    j["ifm2"] = mapJson(*q.ifm2);
  }
  return j;
}

nlohmann::json trafficJson(const AreaTraffic& t) {
  return {{"feature_map_read_bytes", t.featureMapRead}, {"feature_map_write_bytes", t.featureMapWrite},
          {"weight_read_bytes", t.weightRead},          {"weight_write_bytes", t.weightWrite},
          {"other_read_bytes", t.otherRead},            {"total_bytes", t.total()}};
}

// Vela's summary names of the access-cycle sums, indexed like kAccessAreas.
constexpr std::array<const char*, 4> kAccessKeys{"cycles_sram_access", "cycles_dram_access",
                                                 "cycles_on_chip_flash_access", "cycles_off_chip_flash_access"};
constexpr std::array<const char*, 4> kAreaKeys{"sram", "dram", "on_chip_flash", "off_chip_flash"};

} // namespace

std::string pythonFloat(double value) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  char buf[64];
  const double magnitude = std::fabs(value);
  std::to_chars_result r{};
  if (magnitude != 0 && (magnitude >= 1e16 || magnitude < 1e-4)) {
    r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  } else {
    r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  }
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) {
    s += ".0";
  }
  return s;
}

void writeEstimateTable(std::ostream& out, const NetworkEstimate& est) {
  out << est.model << ": Vela " << config::velaVersionName(est.vela) << "'s model, " << est.hardware->name << ", "
      << est.systemConfig << ", " << est.memoryMode << ", " << fixed(est.coreClockHz / 1e6, 0) << " MHz, rows "
      << (est.rowsFromDebugDb                  ? "from Vela's debug database"
          : est.vela == config::VelaVersion::V5_0 ? "grouped from the command stream"
                                          : "one per NPU kernel operation")
      << "\nfrom " << config::sectionsFrom(est.systemConfigFrom, est.memoryModeFrom) << "\n";
  bool approximated = false;
  for (const SubgraphEstimate& sub : est.subgraphs) {
    out << (sub.onCpu ? "\nCPU operator (operator " : "\nNPU subgraph (operator ") << sub.operatorIndex << ")\n";
    out << std::left << std::setw(20) << "TFLite operator" << ' ' << std::setw(20) << "NNG operator" << std::right;
    for (const char* h : {"Op cycles", "NPU", "SRAM AC", "DRAM AC", "OnFlash AC", "OffFlash AC", "MACs"}) {
      out << ' ' << std::setw(11) << h;
    }
    out << "  weights\n";
    for (size_t i = 0; i < sub.layers.size(); ++i) {
      const Layer& l = sub.layers[i];
      const LayerEstimate& e = sub.estimates[i];
      out << std::left << std::setw(20) << l.tfliteOperator << ' ' << std::setw(20) << l.nngOperator << std::right;
      out << ' ' << std::setw(11) << fixed(e.totalCycles, 1) << ' ' << std::setw(11) << fixed(e.npuCycles, 1);
      for (double ac : e.accessCycles) {
        out << ' ' << std::setw(11) << fixed(ac, 1);
      }
      out << ' ' << std::setw(11) << e.macs << "  "
          << (sub.vela5.empty() ? weightBufferingName(l.weights.buffering) : vela5::weightTransferName(sub.vela5[i].weights))
          << (e.fullTransferApproximated ? "*" : "") << "\n";
      approximated = approximated || e.fullTransferApproximated;
    }
  }
  if (approximated) {
    out << "\n* NPU cycles use the depth slices' total weight bytes for the full weight transfer; Vela uses\n"
           "  the weights encoded in one piece, which could not be recomputed here.\n";
  }
  const EstimateTotals& t = est.totals;
  out << "\nNetwork totals\n";
  out << "  NPU cycles             " << fixed(t.npuCycles, 1) << "\n";
  out << "  SRAM access cycles     " << fixed(t.accessCycles[0], 1) << "\n";
  out << "  DRAM access cycles     " << fixed(t.accessCycles[1], 1) << "\n";
  out << "  OnFlash access cycles  " << fixed(t.accessCycles[2], 1) << "\n";
  out << "  OffFlash access cycles " << fixed(t.accessCycles[3], 1) << "\n";
  out << "  Total cycles           " << fixed(t.totalCycles, 1) << "\n";
  out << "  NN MACs                " << t.macs << "\n";
  if (est.coreClockHz > 0) {
    out << "  Inference time         " << fixed(t.totalCycles / est.coreClockHz * 1e3, 4) << " ms\n";
  }
}

namespace {

// Vela 5.0's _percentage over integers: Python's true division, and the integer 100 for a zero whole.
std::string integerPercentage(int64_t part, int64_t whole) {
  return whole == 0 ? "100" : pythonFloat(static_cast<double>(part * 100) / static_cast<double>(whole));
}

void writeVela5PerLayerCsv(std::ostream& out, const NetworkEstimate& est) {
  const EstimateTotals& t = est.totals;
  const auto total = static_cast<int64_t>(t.totalCycles);
  out << kVela5PerLayerHeader << "\n";
  for (const SubgraphEstimate& sub : est.subgraphs) {
    for (size_t i = 0; i < sub.layers.size(); ++i) {
      const Layer& l = sub.layers[i];
      const LayerEstimate& e = sub.estimates[i];
      const auto cycles = static_cast<int64_t>(e.totalCycles);
      const auto macs = static_cast<int64_t>(e.macs);
      out << csvField(l.tfliteOperator.empty() ? "N/A" : l.tfliteOperator) << ',' << csvField(l.nngOperator)
          << ',' << (sub.onCpu ? "CPU" : "NPU") << ',' << e.sramUsage << ',' << integerPercentage(static_cast<int64_t>(e.sramUsage), static_cast<int64_t>(est.fastStorageBytes))
          << ',' << cycles << ',' << integerPercentage(cycles, total) << ','
          << static_cast<int64_t>(e.npuCycles);
      for (double ac : e.accessCycles) {
        out << ',' << static_cast<int64_t>(ac);
      }
      out << ',' << macs << ',' << integerPercentage(macs, static_cast<int64_t>(t.macs)) << ','
          << integerPercentage(macs, cycles * est.hardware->macs) << ',' << csvField(l.name) << "\n";
    }
  }
}

} // namespace

void writeVelaPerLayerCsv(std::ostream& out, const NetworkEstimate& est) {
  if (est.vela == config::VelaVersion::V5_0) {
    writeVela5PerLayerCsv(out, est);
    return;
  }
  const EstimateTotals& t = est.totals;
  for (const SubgraphEstimate& sub : est.subgraphs) {
    out << kVelaPerLayerHeader << "\r\n";
    for (size_t i = 0; i < sub.layers.size(); ++i) {
      const Layer& l = sub.layers[i];
      const LayerEstimate& e = sub.estimates[i];
      // Vela's Peak% is 0 when no SRAM is used at all.
      const double peak =
          est.fastStorageBytes > 0 ? percentage(static_cast<double>(e.sramUsage), double(est.fastStorageBytes)) : 0.0;
      out << csvField(l.tfliteOperator) << ',' << csvField(l.nngOperator) << ',' << e.sramUsage << ','
          << pythonFloat(peak) << ',' << pythonFloat(e.totalCycles)
          << ',' << pythonFloat(percentage(e.totalCycles, t.totalCycles)) << ',' << pythonFloat(e.npuCycles);
      for (double ac : e.accessCycles) {
        out << ',' << pythonFloat(ac);
      }
      out << ',' << e.macs << ',' << pythonFloat(percentage(static_cast<double>(e.macs), static_cast<double>(t.macs)))
          << ',' << pythonFloat(utilisation(e, est.hardware->macs)) << ',' << csvField(l.name) << "\r\n";
    }
  }
}

void writeEstimateJson(std::ostream& out, const NetworkEstimate& est) {
  nlohmann::json j;
  j["model"] = est.model;
  j["vela"] = std::string(config::velaVersionName(est.vela));
  j["accelerator"] = std::string(est.hardware->name);
  j["system_config"] = est.systemConfig;
  j["memory_mode"] = est.memoryMode;
  j["system_config_from"] = est.systemConfigFrom;
  j["memory_mode_from"] = est.memoryModeFrom;
  j["core_clock_hz"] = est.coreClockHz;
  j["rows_from_debug_db"] = est.rowsFromDebugDb;
  j["subgraphs"] = nlohmann::json::array();
  for (const SubgraphEstimate& sub : est.subgraphs) {
    nlohmann::json layers = nlohmann::json::array();
    for (size_t i = 0; i < sub.layers.size(); ++i) {
      const Layer& l = sub.layers[i];
      const LayerEstimate& e = sub.estimates[i];
      nlohmann::json row{{"tflite_operator", l.tfliteOperator},
                         {"nng_operator", l.nngOperator},
                         {"name", l.name},
                         {"npu_op_offsets", l.byteOffsets},
                         {"op_cycles", e.totalCycles},
                         {"npu_cycles", e.npuCycles},
                         {"compute_cycles", e.computeCycles},
                         {"slack_cycles", e.slackCycles},
                         {"sram_usage_bytes", e.sramUsage},
                         {"full_transfer_approximated", e.fullTransferApproximated},
                         {"macs", e.macs},
                         {"weight_buffering", weightBufferingName(l.weights.buffering)},
                         {"weight_depth_slices", l.weights.depthSlices},
                         {"encoded_weight_bytes", l.weights.encodedBytes},
                         {"one_piece_weight_bytes", l.weights.onePieceBytes},
                         {"query", queryJson(l.query)}};
      if (est.vela == config::VelaVersion::V5_0) {
        // Vela 5.0: its own query, weight transfer and staging-memory use instead of Vela 3.10's
        // (a CPU operator has none).
        for (const char* key : {"weight_buffering", "weight_depth_slices", "encoded_weight_bytes", "one_piece_weight_bytes",
                                "query", "full_transfer_approximated", "sram_usage_bytes"}) {
          row.erase(key);
        }
        row["staging_usage_bytes"] = e.sramUsage;
        if (!sub.onCpu) row["vela5"] = vela5::scheduledOpJson(sub.vela5[i]);
      }
      for (size_t a = 0; a < kAccessAreas.size(); ++a) {
        row[kAccessKeys[a]] = e.accessCycles[a];
        row["bytes"][kAreaKeys[a]] = trafficJson(e.traffic[a]);
      }
      layers.push_back(row);
    }
    j["subgraphs"].push_back(
        {{"operator_index", sub.operatorIndex}, {"target", sub.onCpu ? "CPU" : "NPU"}, {"layers", layers}});
  }
  const EstimateTotals& t = est.totals;
  nlohmann::json totals{{"cycles_npu", t.npuCycles}, {"cycles_total", t.totalCycles}, {"nn_macs", t.macs}};
  totals[est.vela == config::VelaVersion::V3_10 ? "fast_storage_bytes" : "staging_allocated_bytes"] = est.fastStorageBytes;
  for (size_t a = 0; a < kAccessAreas.size(); ++a) {
    totals[kAccessKeys[a]] = t.accessCycles[a];
    totals["bytes"][kAreaKeys[a]] = trafficJson(t.traffic[a]);
  }
  if (est.coreClockHz > 0) {
    totals["inference_time_s"] = t.totalCycles / est.coreClockHz;
  }
  j["totals"] = totals;
  out << j.dump(2) << "\n";
}

} // namespace npusim::analytic
