// SPDX-License-Identifier: Apache-2.0
#include "harness/report/run_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace npusim::report {
namespace {

using nlohmann::ordered_json;

int64_t cyc(double v) { return static_cast<int64_t>(std::llround(v)); }

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

} // namespace

void writeRunSummary(std::ostream& os, const platform::RunResult& r, size_t slowest) {
  const auto& p = r.params;
  const double mhz = p.coreClockHz / 1e6;
  os << "npusim run: " << r.model << '\n';
  os << "  system   " << p.accelerator << ", " << p.systemConfig << ", " << p.memoryMode << ", " << fmt("%.0f", mhz)
     << " MHz\n";
  os << "  total    " << cyc(r.totalCycles) << " cycles = " << fmt("%.4f", r.totalCycles / p.coreClockHz * 1e3)
     << " ms\n";
  os << "  NPU      active " << cyc(r.npuActive) << " cycles, idle " << cyc(r.npuIdle) << " cycles, " << r.macs
     << " MACs (" << fmt("%.1f", r.npuActive > 0 ? 100.0 * double(r.macs) / (r.npuActive * p.macs()) : 0.0)
     << "% MAC utilisation)\n";
  os << "\n  operators\n";
  for (const auto& n : r.networkOps) {
    os << "    " << n.index << ' ' << n.name << (n.npu ? " (NPU)" : " (CPU)") << "  " << cyc(n.end - n.start)
       << " cycles";
    if (n.npu) os << " (NPU active " << cyc(n.npuActive) << ")";
    os << '\n';
  }
  os << "\n  memory ports\n";
  for (const auto& pr : r.ports) {
    const double bytes = double(pr.readBytes + pr.writeBytes);
    const double util = r.npuActive > 0 ? 100.0 * bytes / (pr.bytesPerCycle * r.npuActive) : 0.0;
    os << "    " << pr.name << " (" << pr.memory << ")  read " << pr.readBytes << " B, write " << pr.writeBytes
       << " B, " << fmt("%.1f", util) << "% of peak " << fmt("%.3g", pr.bytesPerCycle) << " B/cycle over NPU active; "
       << "limit stalls " << cyc(pr.readLimitStall + pr.writeLimitStall) << ", contention " << cyc(pr.contention)
       << " cycles\n";
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
  os << "\n  slowest operations\n";
  for (size_t i = 0; i < std::min(slowest, kernels.size()); ++i) {
    const auto& o = *kernels[i];
    os << "    op " << o.networkOp << " #" << o.record.index << ' ' << cmd::opKindName(o.record.kind) << " @0x" << std::hex
       << o.record.commandOffset << std::dec << "  " << cyc(o.record.end - o.record.start) << " cycles, MAC "
       << cyc(o.record.macCycles) << ", output " << cyc(o.record.outputCycles) << ", bound: " << o.bound << '\n';
  }
}

ordered_json runJson(const platform::RunResult& r) {
  const auto& p = r.params;
  ordered_json j;
  j["model"] = r.model;
  j["config"] = {{"accelerator", p.accelerator}, {"system_config", p.systemConfig}, {"memory_mode", p.memoryMode},
                 {"core_clock", p.coreClockHz}};
  j["total_cycles"] = cyc(r.totalCycles);
  j["time_s"] = r.totalCycles / p.coreClockHz;
  j["npu_active_cycles"] = cyc(r.npuActive);
  j["npu_idle_cycles"] = cyc(r.npuIdle);
  j["macs"] = r.macs;
  ordered_json pmu;
  for (const auto& [name, value] : r.pmu) pmu[name] = value;
  j["pmu"] = pmu;
  ordered_json ports = ordered_json::array();
  for (const auto& pr : r.ports) {
    ports.push_back({{"port", pr.name}, {"memory", pr.memory}, {"read_bytes", pr.readBytes},
                     {"write_bytes", pr.writeBytes}, {"read_beats", pr.readBeats}, {"write_beats", pr.writeBeats},
                     {"read_bursts", pr.readBursts}, {"write_bursts", pr.writeBursts},
                     {"read_limit_stall_cycles", cyc(pr.readLimitStall)},
                     {"write_limit_stall_cycles", cyc(pr.writeLimitStall)}, {"contention_cycles", cyc(pr.contention)},
                     {"peak_bytes_per_cycle", pr.bytesPerCycle}});
  }
  j["ports"] = ports;
  ordered_json netOps = ordered_json::array();
  for (const auto& n : r.networkOps) {
    ordered_json o{{"index", n.index}, {"operator", n.name}, {"kind", n.npu ? "npu" : "cpu"},
                   {"start_cycle", cyc(n.start)}, {"end_cycle", cyc(n.end)}};
    if (n.npu) {
      o["npu_active_cycles"] = cyc(n.npuActive);
      o["npu_idle_cycles"] = cyc(n.npuIdle);
    }
    netOps.push_back(o);
  }
  j["network_operators"] = netOps;
  ordered_json ops = ordered_json::array();
  for (const auto& o : r.operations) {
    const auto& rec = o.record;
    ops.push_back({{"network_operator", o.networkOp}, {"index", rec.index},
                   {"kind", std::string(cmd::opKindName(rec.kind))}, {"command_offset", rec.commandOffset},
                   {"issue_cycle", cyc(rec.issue)}, {"start_cycle", cyc(rec.start)}, {"end_cycle", cyc(rec.end)},
                   {"mac_cycles", cyc(rec.macCycles)}, {"output_cycles", cyc(rec.outputCycles)},
                   {"blocks", rec.blocks}, {"macs", rec.macs},
                   {"bytes", {{"axi0_read", rec.bytes.read[0]}, {"axi0_write", rec.bytes.write[0]},
                              {"axi1_read", rec.bytes.read[1]}, {"axi1_write", rec.bytes.write[1]}}},
                   {"stall_cycles", {{"ifm", cyc(rec.stallIfm)}, {"weights", cyc(rec.stallWeights)},
                                     {"accumulator", cyc(rec.stallOutput)}, {"blockdep", cyc(rec.stallBlockdep)},
                                     {"command_processor", cyc(rec.ccWait)}}},
                   {"bound", o.bound}});
  }
  j["operations"] = ops;
  return j;
}

void writeRunCsv(std::ostream& os, const platform::RunResult& r) {
  os << "network_operator,index,kind,command_offset,issue_cycle,start_cycle,end_cycle,cycles,mac_cycles,output_cycles,"
        "blocks,macs,axi0_read_bytes,axi0_write_bytes,axi1_read_bytes,axi1_write_bytes,stall_ifm,stall_weights,"
        "stall_accumulator,stall_blockdep,stall_command_processor,bound\n";
  for (const auto& o : r.operations) {
    const auto& rec = o.record;
    os << o.networkOp << ',' << rec.index << ',' << cmd::opKindName(rec.kind) << ',' << rec.commandOffset << ','
       << cyc(rec.issue) << ',' << cyc(rec.start) << ',' << cyc(rec.end) << ',' << cyc(rec.end - rec.start) << ','
       << cyc(rec.macCycles) << ',' << cyc(rec.outputCycles) << ',' << rec.blocks << ',' << rec.macs << ','
       << rec.bytes.read[0] << ',' << rec.bytes.write[0] << ',' << rec.bytes.read[1] << ',' << rec.bytes.write[1]
       << ',' << cyc(rec.stallIfm) << ',' << cyc(rec.stallWeights) << ',' << cyc(rec.stallOutput) << ','
       << cyc(rec.stallBlockdep) << ',' << cyc(rec.ccWait) << ',' << o.bound << '\n';
  }
}

} // namespace npusim::report
