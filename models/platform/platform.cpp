// SPDX-License-Identifier: Apache-2.0
#include "models/platform/platform.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "models/cpu/cortex_m55.h"
#include "models/cpu/cpu_op_cost.h"
#include "models/mem/memory_system.h"
#include "models/npu/ethos_u.h"
#include "models/npu/work_bounds.h"
#include "sim/common/error.h"
#include "sim/common/int_math.h"
#include "models/platform/compile_target.h"
#include "models/platform/sanitizer_stack.h"
#include "models/platform/soc.h"

namespace npusim::platform {
namespace {

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

// The host program's step for one network operator (the NPU program is bound separately).
cpu::HostStep hostStep(const io::CompiledNetwork& net, const io::Operator& op, const config::SystemParams& params,
                       const MemoryMap& map) {
  cpu::HostStep step;
  step.networkOp = op.index;
  if (op.kind == io::OperatorKind::Cpu) {
    step.cpuCycles = cpu::cpuOpCycles(describeCpuOp(net, op), params.host);
    step.dataAddress = arenaAddress(params, map);
    for (int t : op.inputs) {
      if (t >= 0 && !net.tensors[static_cast<size_t>(t)].data) step.readBytes += net.tensors[static_cast<size_t>(t)].bytes();
    }
    for (int t : op.outputs) step.writeBytes += net.tensors[static_cast<size_t>(t)].bytes();
    return step;
  }
  DriverJob job = driverJob(net, op, params, map);
  step.npu = true;
  step.qbase = job.qbase;
  step.qsize = job.qsize;
  step.basep = std::move(job.basep);
  step.qconfig = job.qconfig;
  step.regioncfg = job.regioncfg;
  return step;
}

// Budgets of one simulation, all operations of all command streams together. Vela output is
// far below them (mobilenet_v2 224x224 on ethos-u55-128: 5.3e3 OFM blocks, 6e5 AXI bursts,
// 0.4 s wall), while reaching them takes npusim minutes.
constexpr double kMaxBlocks = 1e8;
constexpr double kMaxBursts = 1e9;
// Simulated time must stay well inside SystemC's range (2^64 time-resolution units).
constexpr double kMaxTimeFraction = 0.5;

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// Upper bound of one NPU burst's cycles on any port: latency, data beats, address phase.
npu::BurstCost npuBurstCost(const config::SystemParams& p) {
  npu::BurstCost cost;
  cost.maxBurstBytes = UINT32_MAX;
  cost.cyclesPerBurst = 0;
  for (uint8_t i = 0; i < p.ports.size(); ++i) {
    const arch::PortId port{i};
    const config::MemoryParams& m = p.memory(p.memoryOn(port));
    cost.maxBurstBytes = std::min(cost.maxBurstBytes, p.port(port).maxBurstBytes);
    cost.cyclesPerBurst = std::max(cost.cyclesPerBurst, std::max(m.readLatency, m.writeLatency) + 1.0 +
                                                            p.port(port).maxBurstBytes / p.bytesPerCycle(port));
  }
  return cost;
}

// Running totals of checkSimulationWork against the budgets; `refuse` throws the InputError
// for the operation being added.
class WorkTotals {
public:
  explicit WorkTotals(const config::SystemParams& params)
      : params_(params),
        maxCycles_(sc_core::sc_max_time().to_seconds() * params.coreClockHz * kMaxTimeFraction) {}

  template <typename Refuse>
  void add(const npu::WorkBound& w, const std::string& what, Refuse&& refuse) {
    blocks_ += w.blocks;
    bursts_ += w.bursts;
    cycles_ += w.cycles;
    const auto over = [&](const char* quantity, double value, double total, double limit) {
      refuse(what + " needs " + sci(value) + " " + quantity + " (" + sci(total) + " for the network so far, limit " +
             sci(limit) + "): refusing a command stream of unreasonable size (corrupted dimensions?)");
    };
    if (blocks_ > kMaxBlocks) over("OFM blocks", w.blocks, blocks_, kMaxBlocks);
    if (bursts_ > kMaxBursts) over("AXI bursts", w.bursts, bursts_, kMaxBursts);
    if (!(cycles_ <= maxCycles_)) {
      refuse(what + " could take up to " + sci(w.cycles) + " NPU cycles (" + sci(cycles_) +
             " for the network so far), more than the " + sci(maxCycles_) +
             " that SystemC can simulate at system.core_clock " + sci(params_.coreClockHz) +
             " Hz: check its dimensions and the clock and memory timing configuration");
    }
  }

private:
  const config::SystemParams& params_;
  double maxCycles_;
  double blocks_ = 0, bursts_ = 0, cycles_ = 0;
};

} // namespace

config::SystemParams resolveForModel(config::ConfigRequest request, const io::CompiledNetwork& net) {
  if (const arch::NpuConfig* hw = net.hardware()) {
    request.accelerator = hw->name;
  }
  if (!request.vela) {
    request.vela = velaReadingFor(net);
  }
  std::vector<std::string> compileWarnings;
  request = requestForCompile(std::move(request), net, compileWarnings);
  config::SystemParams params = config::resolveConfig(request);
  params.warnings.insert(params.warnings.begin(), compileWarnings.begin(), compileWarnings.end());
  for (const io::Operator& op : net.operators) {
    if (op.kind != io::OperatorKind::Npu) continue;
    const std::string compiled(op.npu.header.hardware->name);
    if (params.accelerator != compiled) {
      throwForKey(net.path, "accelerator", "the model was compiled for " + compiled + "; it cannot run on " +
                                               params.accelerator + " (recompile it with Vela)");
    }
  }
  return params;
}

void checkSimulationWork(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                         const config::SystemParams& params) {
  const arch::NpuConfig& hardware = *params.hardware();
  const npu::BurstCost burst = npuBurstCost(params);
  const double hostToNpu = params.host.clockHz > 0 ? params.coreClockHz / params.host.clockHz : 1.0;
  const config::RegionMap regions(params);
  const config::MemoryKind constMemory = regions.memory(arch::kConstantRegion);
  const config::MemoryKind arenaMemory = regions.memory(arch::kArenaRegion);
  const config::MemoryParams& arena = params.memory(arenaMemory);
  const double cpuBurstCycles = std::max(arena.readLatency, arena.writeLatency) + 1.0 +
                                mem::kCpuBurstBytes / params.bytesPerCycle(regions.ports(arch::kArenaRegion).at(0));
  const MemoryMap& map = MemoryMap::standard();
  const auto windowEnd = [&map](config::MemoryKind kind) { return map.of(kind).end(); };
  const auto window = [&map](config::MemoryKind kind) {
    return std::to_string(map.of(kind).size >> 20) + " MiB " + std::string(config::memoryKindName(kind)) + " window";
  };
  WorkTotals totals(params);
  for (const io::Operator& op : net.operators) {
    const cpu::HostStep step = hostStep(net, op, params, map);
    const std::string name = "operator " + std::to_string(op.index) + " (" + op.opName + ")";
    if (op.kind == io::OperatorKind::Cpu) {
      // 1. CPU operator: its activation traffic at the arena base, and its compute.
      const auto refuse = [&](const std::string& message) {
        InputError::Location loc;
        loc.file = net.path;
        throw InputError(loc, message);
      };
      if (std::max(step.readBytes, step.writeBytes) > map.of(arenaMemory).size) {
        refuse(name + " moves " + std::to_string(std::max(step.readBytes, step.writeBytes)) +
               " bytes of activations, more than the " + window(arenaMemory) + " of the arena");
      }
      npu::WorkBound w;
      w.bursts = std::ceil(double(step.readBytes) / mem::kCpuBurstBytes) + std::ceil(double(step.writeBytes) / mem::kCpuBurstBytes);
      w.cycles = double(step.cpuCycles) * hostToNpu + w.bursts * cpuBurstCycles;
      totals.add(w, name, refuse);
      continue;
    }
    // 2. ethos-u operator: driver overheads, command fetch, then each NPU operation.
    const auto it = std::find_if(decoded.begin(), decoded.end(),
                                 [&](const io::DecodedNpuOp& d) { return d.operatorIndex == op.index; });
    if (it == decoded.end()) {
      throw std::logic_error("checkSimulationWork: " + name + " was not decoded");
    }
    const auto refuseAt = [&](std::optional<uint32_t> command, uint64_t streamOffset) {
      return [&net, &op, command, streamOffset](const std::string& message) {
        InputError::Location loc;
        loc.file = net.path;
        loc.byteOffset = op.npu.commands.offset + streamOffset;
        loc.commandIndex = command;
        throw InputError(loc, message);
      };
    };
    if (step.qbase + step.qsize > windowEnd(constMemory)) {
      refuseAt(std::nullopt, 0)("the command stream of " + name + " ends at model byte " +
                                std::to_string(op.npu.commands.offset + step.qsize) + ", past the end of the " +
                                window(constMemory) + " that holds the model");
    }
    npu::WorkBound invoke;
    invoke.bursts = std::ceil(double(step.qsize) / hardware.arch->commandFetchBytes);
    invoke.cycles = double(params.host.driverOverheadCycles + params.host.irqOverheadCycles) * hostToNpu +
                    double(it->commands.size()) + invoke.bursts * burst.cyclesPerBurst;
    totals.add(invoke, name, refuseAt(std::nullopt, 0));
    for (const cmd::Operation& operation : it->operations) {
      const auto refuse = refuseAt(operation.commandIndex, operation.byteOffset);
      const std::string what = std::string(cmd::opKindName(operation.kind));
      const npu::WorkBound w = npu::operationWork(hardware, operation, burst);
      totals.add(w, what, refuse);
      for (const npu::RegionAccess& a : w.accesses) {
        if (a.region >= step.basep.size()) {
          refuse(what + ": the " + a.what + " is in region " + std::to_string(a.region) + ", but " + name +
                 " has tensors for regions 0.." + std::to_string(step.basep.size() - 1) + " only");
        }
        const config::MemoryKind kind = regions.memory(a.region);
        const uint64_t base = step.basep[a.region];
        if (base > windowEnd(kind) || a.end > windowEnd(kind) - base) {
          refuse(what + ": the " + a.what + " reaches offset " + std::to_string(a.end) + " of region " +
                 std::to_string(a.region) + ", whose base is " + std::to_string(base - map.of(kind).base) +
                 " bytes into the " + window(kind) + ": past its end");
        }
      }
    }
  }
}

// Control flow (a U85 BRANCH, TOSA if/else) needs the condition flag the operations before it
// set, which a timing model does not compute: a stream with one is refused before it runs.
void refuseBranches(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded) {
  for (const io::DecodedNpuOp& d : decoded) {
    const io::Operator& op = net.operators.at(d.operatorIndex);
    for (const cmd::Operation& operation : d.operations) {
      if (operation.kind == cmd::OpKind::Branch) {
        InputError::Location loc;
        loc.file = net.path;
        loc.byteOffset = op.npu.commands.offset + operation.byteOffset;
        loc.commandIndex = operation.commandIndex;
        throw InputError(loc, "BRANCH: the command processor's branches (control flow) are not simulated; "
                              "npusim inspect and estimate read this model");
      }
    }
  }
}

void ObserverFanout::add(const RunObservers& observers) {
  if (observers.npu != nullptr) npu_.push_back(observers.npu);
  if (ports_.size() < observers.ports.size()) ports_.resize(observers.ports.size());
  for (size_t i = 0; i < observers.ports.size(); ++i) {
    if (observers.ports[i] != nullptr) ports_[i].list.push_back(observers.ports[i]);
  }
}

RunObservers ObserverFanout::observers() {
  RunObservers o;
  o.npu = npu_.empty() ? nullptr : this;
  for (Port& p : ports_) o.ports.push_back(p.list.empty() ? nullptr : &p);
  return o;
}

void ObserverFanout::block(size_t record, const npu::BlockEvent& event) {
  for (npu::NpuObserver* o : npu_) o->block(record, event);
}

void ObserverFanout::commandFetchWait(double from, double to) {
  for (npu::NpuObserver* o : npu_) o->commandFetchWait(from, to);
}

void ObserverFanout::Port::burst(const mem::BurstEvent& event) {
  for (mem::BurstObserver* o : list) o->burst(event);
}

RunResult simulate(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                   const config::SystemParams& params, const RunObservers& observers) {
  checkSimulationWork(net, decoded, params);
  refuseBranches(net, decoded);
  RunResult result;
  result.model = net.path;
  result.params = params;
  const double period = 1.0 / params.coreClockHz;

  // 1. Elaborate: memory system, NPU, host; wire each NPU port to the memory system. With the
  //    "tlm" transport the memory system keeps data and takes the NPU's bursts as standard TLM-2.0
  //    transactions; with "fast" the NPU times its bursts against the memories itself.
  const bool tlm = params.transport == "tlm";
  const MemoryMap& map = MemoryMap::standard();
  npu::EthosU npuModule("ethos_u", npu::NpuModuleParams::of(params));
  mem::MemorySystemParams memoryParams = memorySystemParams(params, map);
  memoryParams.storeData = tlm;
  mem::MemorySystem memory("memory", memoryParams, npuModule.ports.size());
  cpu::CortexM55 host("cortex_m55", {params.coreClockHz, params.host, &params.architecture()});
  sc_core::sc_signal<bool> irq("npu_irq");
  for (size_t i = 0; i < npuModule.ports.size(); ++i) {
    const arch::PortId port{static_cast<uint8_t>(i)};
    if (observers.binder != nullptr) {
      observers.binder->bind(port, npuModule, memory);
    } else {
      npuModule.ports[i].bind(memory.npuPorts[i]);
    }
    npuModule.setBurstObserver(port, i < observers.ports.size() ? observers.ports[i] : nullptr);
  }
  npuModule.setObserver(observers.npu);
  npuModule.irq.bind(irq);
  host.npuIrq.bind(irq);
  host.apb.bind(npuModule.apb);
  host.axi.bind(memory.cpu);

  // 2. Place the model (command streams, flash tensor) in the constant memory and the arena in
  //    the arena memory; build the host program with the driver's base addresses. The fast path
  //    hands the NPU its streams decoded; with data the NPU reads them from the model's bytes.
  if (tlm) {
    memory.load(modelAddress(params, map), net.bytes.data(), net.bytes.size());
  }
  std::vector<cpu::HostStep> steps;
  for (const io::Operator& op : net.operators) {
    cpu::HostStep step = hostStep(net, op, params, map);
    if (step.npu && !tlm) {
      const auto it = std::find_if(decoded.begin(), decoded.end(),
                                   [&](const io::DecodedNpuOp& d) { return d.operatorIndex == op.index; });
      npuModule.addProgram({step.qbase, &*it});
    }
    steps.push_back(std::move(step));
  }
  host.setProgram(std::move(steps));

  // 3. Run, bounded by the simulated-cycle limit (a limit past SystemC's time range is none).
  //    At the end of the events simulated time must stay where the network finished, not run
  //    on to the limit (SystemC's default starvation policy).
  const double limitSeconds = period * double(params.cycleLimit);
  const bool bounded =
      params.cycleLimit > 0 && limitSeconds < sc_core::sc_max_time().to_seconds() * kMaxTimeFraction;
  if (bounded) {
    sc_core::sc_start(sc_core::sc_time(limitSeconds, sc_core::SC_SEC), sc_core::SC_EXIT_ON_STARVATION);
  } else {
    sc_core::sc_start();
  }
  if (host.finished()) {
    // Let the NPU's threads return so their stacks unwind; no timed events remain.
    npuModule.shutdown();
    sc_core::sc_start();
  }
  resyncSanitizerStack();
  if (!host.finished()) {
    if (!bounded) {
      throw std::logic_error("the simulation ran out of events before the network finished");
    }
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
  const auto networkOpOf = [&](const npu::OperationRecord& rec) {
    return rec.invocation < invocationOp.size() ? invocationOp[rec.invocation] : 0;
  };
  const std::vector<std::pair<double, double>> charged = chargedIntervals(result.npuStats.operations);
  const std::vector<BoundCycles> bounds =
      boundCycles(result.npuStats.operations, params, [&](const npu::OperationRecord& rec) -> const cmd::Operation& {
        const size_t networkOp = networkOpOf(rec);
        const auto it = std::find_if(decoded.begin(), decoded.end(),
                                     [&](const io::DecodedNpuOp& d) { return d.operatorIndex == networkOp; });
        return it->operations.at(rec.index);
      });
  for (size_t i = 0; i < result.npuStats.operations.size(); ++i) {
    const npu::OperationRecord& rec = result.npuStats.operations[i];
    OperationReport o;
    o.networkOp = networkOpOf(rec);
    o.record = rec;
    if (cmd::isKernel(rec.kind)) {
      o.boundCycles = bounds[i];
      o.chargedCycles = charged[i].second - charged[i].first;
      o.bound = std::string(boundName(bounds[i].largest()));
    }
    result.macs += rec.macs;
    result.operations.push_back(o);
  }
  // NPU active and idle per invocation: the NPU's PMU windows, one per ethos-u operator.
  const npu::Pmu& pmu = npuModule.pmu();
  for (size_t k = 0, inv = 0; k < result.networkOps.size(); ++k) {
    NetworkOpRecord& n = result.networkOps[k];
    if (!n.npu || inv >= pmu.windows().size()) continue;
    const npu::PmuWindow& w = pmu.windows()[inv++];
    n.npuActive = w.active;
    n.npuIdle = w.idle;
    n.pmuStart = w.start;
    n.pmuEnd = w.end;
    result.npuActive += n.npuActive;
    result.npuIdle += n.npuIdle;
  }

  // 5. Each NPU port under its name in the accelerator's port list, and the PMU's counters.
  for (uint8_t i = 0; i < params.ports.size(); ++i) {
    const arch::PortId port{i};
    const mem::PortCounters& c = pmu.port(port);
    PortReport pr;
    pr.name = std::string(params.portDesc(port).name);
    pr.memory = std::string(config::memoryKindName(params.memoryOn(port)));
    pr.readBytes = c.readBytes; pr.writeBytes = c.writeBytes; pr.readBeats = c.readBeats; pr.writeBeats = c.writeBeats;
    pr.readBursts = c.readBursts; pr.writeBursts = c.writeBursts;
    pr.readLimitStall = c.readLimitStall; pr.writeLimitStall = c.writeLimitStall; pr.contention = c.contention;
    pr.bytesPerCycle = params.portPeakBytesPerCycle(port);
    result.ports.push_back(pr);
  }
  result.pmu = pmu.counts();
  return result;
}

} // namespace npusim::platform
