// SPDX-License-Identifier: Apache-2.0
#include "harness/report/run_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <map>

#include "harness/report/run_json.h"
#include "sim/common/counts.h"
#include "sim/common/csv.h"
#include "sim/common/text_table.h"

namespace npusim::report {
namespace {

using nlohmann::ordered_json;

int64_t cyc(double v) { return roundCount(v); }

std::string layerName(const LayerMap& layers, const platform::OperationReport& o) {
  const LayerInfo* l = layers.find(o.networkOp, o.record.index);
  return l == nullptr ? "" : l->name;
}

std::string sourceOperator(const LayerMap& layers, const platform::OperationReport& o) {
  const LayerInfo* l = layers.find(o.networkOp, o.record.index);
  return l == nullptr ? "" : l->tfliteOperator;
}

// "flash 61%, compute 30%": the labels with at least 5% of the charged cycles.
std::string boundShares(const platform::BoundCycles& b) {
  const double total = b.total();
  std::string out;
  if (total <= 0) return out;
  std::vector<std::pair<double, platform::Bound>> parts;
  for (size_t i = 0; i < platform::kBoundCount; ++i) {
    parts.emplace_back(b.cycles[i], static_cast<platform::Bound>(i));
  }
  std::stable_sort(parts.begin(), parts.end(), [](auto& a, auto& z) { return a.first > z.first; });
  for (const auto& [cycles, label] : parts) {
    if (cycles < 0.05 * total) break;
    out += (out.empty() ? "" : ", ") + std::string(platform::boundName(label)) + " " +
           std::to_string(roundCount(100.0 * cycles / total)) + "%";
  }
  return out;
}

ordered_json boundJson(const platform::BoundCycles& b) {
  ordered_json j;
  for (size_t i = 0; i < platform::kBoundCount; ++i) {
    j[std::string(platform::boundName(static_cast<platform::Bound>(i)))] = cyc(b.cycles[i]);
  }
  return j;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// One breakdown as table rows: label, cycles, share of the run.
std::vector<std::vector<std::string>> breakdownRows(const std::vector<std::pair<std::string, double>>& parts,
                                                     const NetworkBreakdown& b, const char* heading) {
  std::vector<std::vector<std::string>> rows{{heading, "cycles", "share"}};
  const auto row = [&](const std::string& label, double cycles) {
    rows.push_back({label, std::to_string(cyc(cycles)), fmt("%.1f%%", b.total > 0 ? 100.0 * cycles / b.total : 0.0)});
  };
  for (const auto& [label, cycles] : parts) row(label, cycles);
  if (b.cpuOperators > 0) row("CPU operators", b.cpuOperators);
  row("other", b.other);
  row("total", b.total);
  return rows;
}

ordered_json breakdownJson(const std::vector<std::pair<std::string, double>>& parts, const NetworkBreakdown& b) {
  ordered_json j = ordered_json::object();
  for (const auto& [label, cycles] : parts) j[label] = cyc(cycles);
  j[run_json::kCpuOperators] = cyc(b.cpuOperators);
  j[run_json::kOther] = cyc(b.other);
  return j;
}

} // namespace

NetworkBreakdown networkBreakdown(const platform::RunResult& r) {
  NetworkBreakdown b;
  b.total = r.totalCycles;
  std::map<cmd::OpKind, double> byKind;
  platform::BoundCycles byBound;
  double charged = 0;
  for (const auto& o : r.operations) {
    if (!cmd::isKernel(o.record.kind)) continue;
    byKind[o.record.kind] += o.chargedCycles;
    byBound += o.boundCycles;
    charged += o.chargedCycles;
  }
  for (const auto& n : r.networkOps) {
    if (!n.npu) b.cpuOperators += n.end - n.start;
  }
  for (const auto& [kind, cycles] : byKind) b.byKind.emplace_back(std::string(cmd::opKindName(kind)), cycles);
  for (size_t i = 0; i < platform::kBoundCount; ++i) {
    if (byBound.cycles[i] > 0) {
      b.byBound.emplace_back(std::string(platform::boundName(static_cast<platform::Bound>(i))), byBound.cycles[i]);
    }
  }
  b.other = b.total - charged - b.cpuOperators;
  return b;
}

std::vector<LayerTime> layerTimes(const platform::RunResult& r, const LayerMap& layers) {
  std::vector<LayerTime> byLayer(layers.layers.size());
  for (size_t i = 0; i < byLayer.size(); ++i) byLayer[i].layer = i;
  for (const auto& o : r.operations) {
    if (!cmd::isKernel(o.record.kind)) continue;
    const size_t l = layers.indexOf(o.networkOp, o.record.index);
    if (l == SIZE_MAX) continue;
    byLayer[l].cycles += o.chargedCycles;
    byLayer[l].bound += o.boundCycles;
    ++byLayer[l].operations;
  }
  std::vector<LayerTime> out;
  for (const LayerTime& t : byLayer) {
    if (t.operations > 0) out.push_back(t);
  }
  return out;
}

void writeRunSummary(std::ostream& os, const platform::RunResult& r, const LayerMap& layers, size_t slowest) {
  const auto& p = r.params;
  const double mhz = p.coreClockHz / 1e6;
  os << "npusim run: " << r.model << '\n';
  os << "  system   " << p.accelerator << ", " << p.systemConfig << ", " << p.memoryMode << ", " << fmt("%.0f", mhz)
     << " MHz\n";
  os << "  from     " << config::sectionsFrom(p.systemConfigFrom, p.memoryModeFrom) << '\n';
  os << "  total    " << cyc(r.totalCycles) << " cycles = " << fmt("%.4f", r.totalCycles / p.coreClockHz * 1e3)
     << " ms\n";
  os << "  NPU      active " << cyc(r.npuActive) << " cycles, idle " << cyc(r.npuIdle) << " cycles, " << r.macs
     << " MAC operations (" << fmt("%.1f", r.npuActive > 0 ? 100.0 * double(r.macs) / (r.npuActive * p.hardware()->macs) : 0.0)
     << "% MAC utilisation over NPU active)\n";
  os << "\n  operators\n";
  for (const auto& n : r.networkOps) {
    os << "    " << n.index << ' ' << n.name << (n.npu ? " (NPU)" : " (CPU)") << "  " << cyc(n.end - n.start)
       << " cycles";
    if (n.npu) os << " (NPU active " << cyc(n.npuActive) << ")";
    os << '\n';
  }
  if (r.check) {
    os << "  check    " << r.check->violations << " violations of the model's own rules in " << r.check->bursts
       << " AXI bursts, " << r.check->blocks << " OFM blocks, " << r.check->operations << " operations\n";
    for (const std::string& e : r.check->examples) os << "    " << e << '\n';
  }
  os << "\n  memory ports\n";
  for (const auto& pr : r.ports) {
    const double bytes = double(pr.readBytes + pr.writeBytes);
    const double util = r.npuActive > 0 ? 100.0 * bytes / (pr.bytesPerCycle * r.npuActive) : 0.0;
    os << "    " << pr.name << " (" << pr.memory << ")  read " << pr.readBytes << " B, write " << pr.writeBytes
       << " B, " << fmt("%.1f", util) << "% of peak " << fmt("%.3g", pr.bytesPerCycle) << " B/cycle over NPU active; "
       << "limit stalls " << cyc(pr.readLimitStall + pr.writeLimitStall) << ", contention " << cyc(pr.contention)
       << " cycles (both summed over bursts"
       << (std::max(pr.readLimitStall + pr.writeLimitStall, pr.contention) > r.totalCycles
               ? ", which wait at the same time: more than the run's " + std::to_string(cyc(r.totalCycles)) + " cycles"
               : std::string())
       << ")\n";
  }
  os << "\n  PMU\n";
  for (const auto& [name, value] : r.pmu) {
    os << "    " << name << " = " << value << '\n';
  }
  std::vector<const platform::OperationReport*> kernels;
  for (const auto& o : r.operations) {
    if (cmd::isKernel(o.record.kind)) kernels.push_back(&o);
  }
  std::stable_sort(kernels.begin(), kernels.end(), [](auto* a, auto* b) {
    return (a->record.end - a->record.start) > (b->record.end - b->record.start);
  });
  std::vector<LayerTime> times = layerTimes(r, layers);
  std::stable_sort(times.begin(), times.end(), [](const LayerTime& a, const LayerTime& b) { return a.cycles > b.cycles; });
  os << "\n  slowest layers (charged cycles; bound: shares of them)\n";
  for (size_t i = 0; i < std::min(slowest, times.size()); ++i) {
    const LayerTime& t = times[i];
    const LayerInfo& l = layers.layers[t.layer];
    os << "    " << l.name << (l.tfliteOperator.empty() ? "" : " (" + l.tfliteOperator + ")") << "  " << cyc(t.cycles)
       << " cycles, " << t.operations << (t.operations == 1 ? " operation" : " operations") << ", bound: "
       << platform::boundName(t.bound.largest()) << " (" << boundShares(t.bound) << ")\n";
  }
  os << "\n  slowest operations (start to end)\n";
  for (size_t i = 0; i < std::min(slowest, kernels.size()); ++i) {
    const auto& o = *kernels[i];
    os << "    op " << o.networkOp << " #" << o.record.index << ' ' << cmd::opKindName(o.record.kind) << " @0x" << std::hex
       << o.record.commandOffset << std::dec << " [" << layerName(layers, o) << "]  " << cyc(o.record.end - o.record.start)
       << " cycles, MAC cycles " << cyc(o.record.macCycles) << ", output cycles " << cyc(o.record.outputCycles)
       << ", bound: " << o.bound << '\n';
  }
  const NetworkBreakdown b = networkBreakdown(r);
  os << "\n  whole run (kernel operations: charged cycles, the waits before each included; other: the driver, and\n"
        "  each command stream before its first and after its last kernel operation)\n";
  writeAligned(os, breakdownRows(b.byKind, b, "by operation kind"), "    ");
  os << '\n';
  writeAligned(os, breakdownRows(b.byBound, b, "by bound"), "    ");
}

ordered_json runJson(const platform::RunResult& r, const LayerMap& layers) {
  using namespace run_json;
  const auto& p = r.params;
  ordered_json j;
  j[kFormatVersion] = kFormat;
  j[kModel] = r.model;
  j[kConfig] = {{kAccelerator, p.accelerator}, {kSystemConfig, p.systemConfig}, {kMemoryMode, p.memoryMode},
                {kCoreClock, p.coreClockHz}, {kSystemConfigFrom, p.systemConfigFrom}, {kMemoryModeFrom, p.memoryModeFrom}};
  j[kTotalCycles] = cyc(r.totalCycles);
  j[kTimeSeconds] = r.totalCycles / p.coreClockHz;
  j[kNpuActiveCycles] = cyc(r.npuActive);
  j[kNpuIdleCycles] = cyc(r.npuIdle);
  j[kMacs] = r.macs;
  j[kLayerNamesFrom] = layers.fromDebugDb ? "vela_debug_database" : "tflite";
  ordered_json pmu;
  for (const auto& [name, value] : r.pmu) pmu[name] = value;
  j[kPmu] = pmu;
  ordered_json ports = ordered_json::array();
  for (const auto& pr : r.ports) {
    ports.push_back({{kName, pr.name}, {kMemory, pr.memory}, {kReadBytes, pr.readBytes},
                     {kWriteBytes, pr.writeBytes}, {kReadBeats, pr.readBeats}, {kWriteBeats, pr.writeBeats},
                     {kReadBursts, pr.readBursts}, {kWriteBursts, pr.writeBursts},
                     {kReadLimitStallCycles, cyc(pr.readLimitStall)},
                     {kWriteLimitStallCycles, cyc(pr.writeLimitStall)}, {kContentionCycles, cyc(pr.contention)},
                     {kPeakBytesPerCycle, pr.bytesPerCycle}});
  }
  j[kPorts] = ports;
  ordered_json netOps = ordered_json::array();
  for (const auto& n : r.networkOps) {
    ordered_json o{{kIndex, n.index}, {kOperator, n.name}, {kKind, n.npu ? kKindNpu : kKindCpu},
                   {kStartCycle, cyc(n.start)}, {kEndCycle, cyc(n.end)}};
    if (n.npu) {
      o[kNpuActiveCycles] = cyc(n.npuActive);
      o[kNpuIdleCycles] = cyc(n.npuIdle);
      o[kPmuStartCycle] = cyc(n.pmuStart);
      o[kPmuEndCycle] = cyc(n.pmuEnd);
    }
    netOps.push_back(o);
  }
  j[kNetworkOperators] = netOps;
  ordered_json ops = ordered_json::array();
  for (const auto& o : r.operations) {
    const auto& rec = o.record;
    ordered_json read = ordered_json::array(), write = ordered_json::array();
    for (uint8_t i = 0; i < r.ports.size(); ++i) {
      read.push_back(rec.bytes.read({i}));
      write.push_back(rec.bytes.write({i}));
    }
    ops.push_back({{kNetworkOperator, o.networkOp}, {kIndex, rec.index}, {kLayer, layerName(layers, o)},
                   {kSourceOperator, sourceOperator(layers, o)},
                   {kKind, std::string(cmd::opKindName(rec.kind))}, {kCommandOffset, rec.commandOffset},
                   {kIssueCycle, cyc(rec.issue)}, {kStartCycle, cyc(rec.start)}, {kEndCycle, cyc(rec.end)},
                   {kMacCycles, cyc(rec.macCycles)}, {kOutputCycles, cyc(rec.outputCycles)},
                   {kBlocks, rec.blocks}, {kMacs, rec.macs},
                   {kBytes, {{kRead, std::move(read)}, {kWrite, std::move(write)}}},
                   {kStallCycles, {{kStallIfm, cyc(rec.stallIfm)}, {kStallWeights, cyc(rec.stallWeights)},
                                   {kStallAccumulator, cyc(rec.stallOutput)}, {kStallBlockdep, cyc(rec.stallBlockdep)},
                                   {kStallCommandProcessor, cyc(rec.ccWait)}, {kStallCommandFetch, cyc(rec.fetchWait)}}},
                   {kChargedCycles, cyc(o.chargedCycles)}, {kBound, o.bound},
                   {kBoundCycles, boundJson(o.boundCycles)}});
  }
  j[kOperations] = ops;
  ordered_json layerList = ordered_json::array();
  for (const LayerTime& t : layerTimes(r, layers)) {
    const LayerInfo& l = layers.layers[t.layer];
    layerList.push_back({{kName, l.name}, {kSourceOperator, l.tfliteOperator}, {kNetworkOperator, l.networkOp},
                         {kOperations, t.operations}, {kChargedCycles, cyc(t.cycles)},
                         {kBound, std::string(platform::boundName(t.bound.largest()))},
                         {kBoundCycles, boundJson(t.bound)}});
  }
  j[kLayers] = layerList;
  const NetworkBreakdown b = networkBreakdown(r);
  j[kBreakdown] = {{kByKind, breakdownJson(b.byKind, b)}, {kByBound, breakdownJson(b.byBound, b)}};
  if (r.check) {
    j[kCheck] = {{kCheckedBursts, r.check->bursts}, {kCheckedBlocks, r.check->blocks},
                 {kCheckedOperations, r.check->operations}, {kViolations, r.check->violations},
                 {kExamples, r.check->examples}};
  }
  return j;
}

void writeRunCsv(std::ostream& os, const platform::RunResult& r, const LayerMap& layers) {
  os << "network_operator,layer,source_operator,index,kind,command_offset,issue_cycle,start_cycle,end_cycle,cycles,mac_cycles,output_cycles,"
        "blocks,macs,";
  for (const auto& pr : r.ports) {
    os << pr.name << "_read_bytes," << pr.name << "_write_bytes,";
  }
  os << "stall_ifm,stall_weights,stall_accumulator,stall_blockdep,stall_command_processor,stall_command_fetch,"
        "charged_cycles,bound\n";
  for (const auto& o : r.operations) {
    const auto& rec = o.record;
    os << o.networkOp << ',' << csvField(layerName(layers, o)) << ',' << csvField(sourceOperator(layers, o)) << ','
       << rec.index << ',' << cmd::opKindName(rec.kind) << ',' << rec.commandOffset << ','
       << cyc(rec.issue) << ',' << cyc(rec.start) << ',' << cyc(rec.end) << ',' << cyc(rec.end - rec.start) << ','
       << cyc(rec.macCycles) << ',' << cyc(rec.outputCycles) << ',' << rec.blocks << ',' << rec.macs << ',';
    for (uint8_t i = 0; i < r.ports.size(); ++i) {
      os << rec.bytes.read({i}) << ',' << rec.bytes.write({i}) << ',';
    }
    os << cyc(rec.stallIfm) << ',' << cyc(rec.stallWeights) << ',' << cyc(rec.stallOutput) << ','
       << cyc(rec.stallBlockdep) << ',' << cyc(rec.ccWait) << ',' << cyc(rec.fetchWait) << ','
       << cyc(o.chargedCycles) << ',' << o.bound << '\n';
  }
}

} // namespace npusim::report
