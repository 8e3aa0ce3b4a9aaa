// SPDX-License-Identifier: Apache-2.0
#include "sim/platform/platform.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "models/cpu/cortex_m55.h"
#include "models/cpu/cpu_op_cost.h"
#include "models/mem/memory_system.h"
#include "models/npu/ethos_u55.h"
#include "sim/common/error.h"

namespace npusim::platform {
namespace {

uint64_t round16(uint64_t v) { return (v + 15) / 16 * 16; }

cpu::CpuOpDesc describeCpuOp(const io::CompiledNetwork& net, const io::Operator& op) {
  cpu::CpuOpDesc d;
  d.name = op.opName;
  for (int t : op.outputs) {
    d.elements += net.tensors[static_cast<size_t>(t)].elements();
  }
  // MACs of conv-like operators: output elements x (filter elements / output channels).
  if (op.inputs.size() >= 2 && op.inputs[1] >= 0 && !op.outputs.empty()) {
    const auto& w = net.tensors[static_cast<size_t>(op.inputs[1])];
    const auto& out = net.tensors[static_cast<size_t>(op.outputs[0])];
    const uint64_t outChannels = out.shape.empty() ? 1 : static_cast<uint64_t>(std::max(out.shape.back(), 1));
    switch (cpu::classify(op.opName)) {
    case cpu::CpuOpClass::Conv: d.macs = out.elements() * (w.elements() / std::max<uint64_t>(outChannels, 1)); break;
    case cpu::CpuOpClass::Depthwise: d.macs = out.elements() * (w.elements() / std::max<uint64_t>(outChannels, 1)); break;
    case cpu::CpuOpClass::Elementwise: break;
    }
  }
  return d;
}

std::string boundOf(const npu::OperationRecord& r, const config::SystemParams& p) {
  const double duration = std::max(r.end - r.start, 1e-9);
  double memory[2] = {0, 0};
  for (size_t port = 0; port < 2; ++port) {
    const double bpc = p.bytesPerCycle(static_cast<config::AxiPort>(port));
    memory[port] = double(r.bytes.read[port] + r.bytes.write[port]) / std::max(bpc, 1e-9);
  }
  const double compute = std::max(r.macCycles, r.outputCycles);
  const double mem = std::max(memory[0], memory[1]);
  if (r.stallBlockdep > 0.5 * duration) return "dependency";
  if (compute >= 0.6 * duration && compute >= mem) return r.macCycles >= r.outputCycles ? "compute" : "output";
  if (mem >= 0.6 * duration) {
    const size_t port = memory[1] > memory[0] ? 1 : 0;
    switch (p.memoryOn(static_cast<config::AxiPort>(port))) {
    case config::MemoryKind::Sram: return "sram";
    case config::MemoryKind::Dram: return "dram";
    case config::MemoryKind::OnChipFlash: case config::MemoryKind::OffChipFlash: return "flash";
    }
  }
  return "latency";
}

} // namespace

config::SystemParams bindAccelerator(config::SystemParams params, const io::CompiledNetwork& net) {
  for (const io::Operator& op : net.operators) {
    if (op.kind != io::OperatorKind::Npu) continue;
    const std::string compiled = "ethos-u55-" + std::to_string(op.npu.header.macs);
    if (params.accelerator.empty()) {
      params.accelerator = compiled;
    } else if (params.accelerator != compiled) {
      throwForKey(net.path, "accelerator", "the model was compiled for " + compiled + "; it cannot run on " +
                                               params.accelerator + " (recompile it with Vela)");
    }
  }
  return params;
}

RunResult simulate(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                   const config::SystemParams& params) {
  RunResult result;
  result.model = net.path;
  result.params = params;
  const double period = 1.0 / params.coreClockHz;

  // 1. Elaborate: memory system, NPU, host; wire sockets.
  mem::MemorySystem memory("memory", params);
  npu::EthosU55 npuModule("ethos_u55", params, params.macs());
  cpu::CortexM55 host("cortex_m55", params, npuModule.irq);
  npuModule.axi0.bind(memory.npuAxi0);
  npuModule.axi1.bind(memory.npuAxi1);
  host.apb.bind(npuModule.apb);
  host.axi.bind(memory.cpu);

  // 2. Place the model (command streams, flash tensor) in the constant memory and the arena in
  //    the arena memory; build the host program with the driver's base addresses.
  const uint64_t modelBase = mem::memoryBase(params.memoryOn(params.mode.constMemArea));
  const uint64_t arenaBase = mem::memoryBase(params.memoryOn(params.mode.arenaMemArea));
  std::vector<cpu::HostStep> steps;
  for (const io::Operator& op : net.operators) {
    cpu::HostStep step;
    step.networkOp = op.index;
    if (op.kind == io::OperatorKind::Cpu) {
      step.cpuCycles = cpu::cpuOpCycles(describeCpuOp(net, op), params.host);
      step.dataAddress = arenaBase;
      for (int t : op.inputs) {
        if (t >= 0 && !net.tensors[static_cast<size_t>(t)].data) step.readBytes += net.tensors[static_cast<size_t>(t)].bytes();
      }
      for (int t : op.outputs) step.writeBytes += net.tensors[static_cast<size_t>(t)].bytes();
    } else {
      step.npu = true;
      step.qbase = modelBase + op.npu.commands.offset;
      step.qsize = static_cast<uint32_t>(op.npu.commands.size);
      auto arenaAddress = [&](int tensor) {
        const auto& t = net.tensors[static_cast<size_t>(tensor)];
        return arenaBase + static_cast<uint64_t>(std::max<int64_t>(t.arenaOffset.value_or(0), 0));
      };
      step.basep.push_back(modelBase + round16(op.npu.flash.offset));
      step.basep.push_back(arenaAddress(op.npu.scratchTensorIndex));
      step.basep.push_back(arenaAddress(op.npu.scratchFastTensorIndex));
      for (size_t i = 4; i < op.inputs.size(); ++i) if (op.inputs[i] >= 0) step.basep.push_back(arenaAddress(op.inputs[i]));
      for (int t : op.outputs) step.basep.push_back(arenaAddress(t));
      const auto it = std::find_if(decoded.begin(), decoded.end(),
                                   [&](const io::DecodedNpuOp& d) { return d.operatorIndex == op.index; });
      npuModule.addProgram({step.qbase, step.qsize, &it->commands, &it->operations});
    }
    steps.push_back(std::move(step));
  }
  host.setProgram(std::move(steps));

  // 3. Run, bounded by the simulated-cycle limit.
  if (params.cycleLimit > 0) {
    sc_core::sc_start(sc_core::sc_time(period * double(params.cycleLimit), sc_core::SC_SEC));
  } else {
    sc_core::sc_start();
  }
  if (host.finished()) {
    // Let the NPU's threads return so their stacks unwind; no timed events remain.
    npuModule.shutdown();
    sc_core::sc_start();
  }
  if (!host.finished()) {
    throwForKey(net.path, "sim.cycle_limit", "simulation stopped at the limit of " + std::to_string(params.cycleLimit) +
                                                 " cycles before the network finished");
  }

  // 4. Collect.
  result.totalCycles = sc_core::sc_time_stamp().to_seconds() / period;
  result.npuStats = npuModule.stats();
  std::vector<size_t> invocationOp;
  for (const cpu::HostRecord& r : host.records()) {
    const io::Operator& op = net.operators[r.networkOp];
    NetworkOpRecord n{op.index, op.opName, op.kind == io::OperatorKind::Npu, r.start, r.end, 0, 0};
    if (n.npu) {
      invocationOp.push_back(op.index);
    }
    result.networkOps.push_back(n);
  }
  for (const npu::OperationRecord& rec : result.npuStats.operations) {
    OperationReport o;
    o.networkOp = rec.invocation < invocationOp.size() ? invocationOp[rec.invocation] : 0;
    o.record = rec;
    o.bound = cmd::isKernel(rec.kind) ? boundOf(rec, params) : "";
    result.macs += rec.macs;
    result.operations.push_back(o);
  }
  // NPU active per invocation = stream start -> end; idle = rest of the PMU window.
  for (size_t k = 0, inv = 0; k < result.networkOps.size(); ++k) {
    NetworkOpRecord& n = result.networkOps[k];
    if (!n.npu || inv >= result.npuStats.activeCycles.size()) continue;
    const cpu::HostRecord& hr = host.records()[k];
    n.npuActive = result.npuStats.activeCycles[inv++];
    n.npuIdle = std::max(0.0, hr.pmuEnd - hr.pmuStart - n.npuActive);
    result.npuActive += n.npuActive;
    result.npuIdle += n.npuIdle;
  }

  const std::array<std::pair<mem::Link, config::AxiPort>, 2> npuLinks{
      std::make_pair(mem::Link::NpuAxi0, config::AxiPort::Axi0), std::make_pair(mem::Link::NpuAxi1, config::AxiPort::Axi1)};
  for (const auto& [link, port] : npuLinks) {
    const mem::PortCounters& c = memory.counters(link);
    PortReport pr;
    pr.name = port == config::AxiPort::Axi0 ? "axi0" : "axi1";
    pr.memory = std::string(config::memoryKindName(params.memoryOn(port)));
    pr.readBytes = c.readBytes; pr.writeBytes = c.writeBytes; pr.readBeats = c.readBeats; pr.writeBeats = c.writeBeats;
    pr.readBursts = c.readBursts; pr.writeBursts = c.writeBursts;
    pr.readLimitStall = c.readLimitStall; pr.writeLimitStall = c.writeLimitStall; pr.contention = c.contention;
    pr.bytesPerCycle = params.bytesPerCycle(port);
    result.ports.push_back(pr);
  }

  // 5. PMU counters under the driver's event names.
  auto cnt = [](double v) { return static_cast<uint64_t>(std::llround(v)); };
  auto& pmu = result.pmu;
  pmu["CYCLE"] = cnt(result.npuActive + result.npuIdle);
  pmu["NPU_ACTIVE"] = cnt(result.npuActive);
  pmu["NPU_IDLE"] = cnt(result.npuIdle);
  for (size_t i = 0; i < 2; ++i) {
    const PortReport& pr = result.ports[i];
    const std::string p = i == 0 ? "AXI0" : "AXI1";
    pmu[p + "_RD_DATA_BEAT_RECEIVED"] = pr.readBeats;
    pmu[p + "_WR_DATA_BEAT_WRITTEN"] = pr.writeBeats;
    pmu[p + "_RD_TRANS_ACCEPTED"] = pr.readBursts;
    pmu[p + "_WR_TRANS_ACCEPTED"] = pr.writeBursts;
    pmu[p + "_RD_STALL_LIMIT"] = cnt(pr.readLimitStall);
    pmu[p + "_WR_STALL_LIMIT"] = cnt(pr.writeLimitStall);
  }
  double mac = 0, ao = 0, ib = 0, wd = 0, acc = 0, bd = 0;
  for (const auto& o : result.operations) {
    mac += o.record.macCycles; ao += o.record.outputCycles; ib += o.record.stallIfm; wd += o.record.stallWeights;
    acc += o.record.stallOutput; bd += o.record.stallBlockdep;
  }
  pmu["MAC_ACTIVE"] = cnt(mac);
  pmu["AO_ACTIVE"] = cnt(ao);
  pmu["MAC_STALLED_BY_IB"] = cnt(ib);
  pmu["MAC_STALLED_BY_WD"] = cnt(wd);
  pmu["MAC_STALLED_BY_ACC"] = cnt(acc);
  pmu["CC_STALLED_ON_BLOCKDEP"] = cnt(bd);
  return result;
}

} // namespace npusim::platform
