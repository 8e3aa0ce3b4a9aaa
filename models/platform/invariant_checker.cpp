// SPDX-License-Identifier: Apache-2.0
#include "models/platform/invariant_checker.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "models/npu/block_plan.h"
#include "models/npu/command_policy.h"
#include "models/npu/npu_core.h"
#include "models/platform/soc.h"

namespace npusim::platform {

namespace {

// Times are doubles summed from fractional cycles: compare with a margin far below a cycle.
constexpr double kEps = 1e-6;
constexpr size_t kExamples = 20;

void violation(CheckReport& report, const std::string& what) {
  ++report.violations;
  if (report.examples.size() < kExamples) report.examples.push_back(what);
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

const char* dirName(mem::Direction d) { return d == mem::Direction::Read ? "read" : "write"; }

// The most intervals [start, end) open at once, and when that was first reached.
std::pair<size_t, double> mostOpen(std::vector<std::pair<double, double>> spans) {
  std::vector<std::pair<double, int>> edges;
  edges.reserve(2 * spans.size());
  for (const auto& [s, e] : spans) {
    edges.push_back({s, +1});
    edges.push_back({e, -1});
  }
  std::sort(edges.begin(), edges.end()); // at equal times an end (-1) comes before a start
  size_t open = 0, most = 0;
  double at = 0;
  for (const auto& [t, step] : edges) {
    open = step > 0 ? open + 1 : open - 1;
    if (open > most) {
      most = open;
      at = t;
    }
  }
  return {most, at};
}

} // namespace

InvariantChecker::InvariantChecker(const config::SystemParams& params) : hardware_(params.hardware()) {
  const npu::NpuModuleParams npu = npu::NpuModuleParams::of(params);
  adapters_ = npu.sharedAdapters;
  for (size_t i = 0; i < npu.ports.size(); ++i) {
    const npu::NpuPortParams& p = npu.ports[i];
    PortDesc d;
    d.name = std::string(params.portDescs()[i].name);
    d.bytesPerBeat = p.link.bytesPerBeat;
    d.maxBurstBytes = p.link.maxBurstBytes;
    d.maxReads = p.link.maxReads;
    d.maxWrites = p.link.maxWrites;
    d.lane = p.link.lane;
    if (p.sharedAdapter >= 0) {
      d.adapter = p.sharedAdapter;
    } else if (!p.adapter.transparent()) {
      adapters_.push_back(p.adapter);
      d.adapter = static_cast<int>(adapters_.size() - 1);
    }
    portDescs_.push_back(d);
  }
  for (const mem::MemoryInstanceParams& m : memorySystemParams(params, MemoryMap::standard()).memories) {
    memories_.push_back({m.bytesPerCycle, m.lanes, m.separateReadWrite, m.readLatency, m.writeLatency});
  }
  ports_.resize(portDescs_.size());
}

InvariantChecker::InvariantChecker(std::vector<PortDesc> ports, std::vector<config::TimingAdapterParams> adapters,
                                   std::vector<MemoryDesc> memories)
    : portDescs_(std::move(ports)), adapters_(std::move(adapters)), memories_(std::move(memories)),
      ports_(portDescs_.size()) {}

RunObservers InvariantChecker::observers() {
  RunObservers o;
  o.npu = &blocks_;
  for (PortLog& p : ports_) o.ports.push_back(&p);
  return o;
}

CheckReport InvariantChecker::checkBursts() const {
  CheckReport report;
  checkBursts(report);
  return report;
}

CheckReport InvariantChecker::check(const RunResult& run, const std::vector<io::DecodedNpuOp>& decoded) const {
  CheckReport report;
  checkBursts(report);
  checkOperations(run, decoded, report);
  return report;
}

void InvariantChecker::checkBursts(CheckReport& report) const {
  struct Seen {
    const mem::BurstEvent* e;
    size_t port;
  };
  std::map<std::pair<size_t, size_t>, std::vector<Seen>> paths;   // (memory, path) -> bursts
  std::map<int, std::vector<Seen>> adapters;                      // adapter -> bursts
  for (size_t p = 0; p < ports_.size(); ++p) {
    const PortDesc& port = portDescs_[p];
    const std::vector<mem::BurstEvent>& all = ports_[p].bursts;
    report.bursts += all.size();
    for (const mem::Direction d : {mem::Direction::Read, mem::Direction::Write}) {
      std::vector<const mem::BurstEvent*> bursts;
      for (const mem::BurstEvent& e : all) {
        if (e.dir == d) bursts.push_back(&e);
      }
      const std::string where = port.name + " " + dirName(d) + "s";
      // 1. Each burst in order: ready, issue, data, done.
      for (const mem::BurstEvent* e : bursts) {
        if (!(e->issue >= e->ready - kEps && e->dataStart >= e->issue - kEps && e->dataEnd >= e->dataStart - kEps &&
              e->done >= e->dataEnd - kEps)) {
          violation(report, where + ": a burst's times are out of order (ready " + num(e->ready) + ", issue " +
                                num(e->issue) + ", data " + num(e->dataStart) + ".." + num(e->dataEnd) + ", done " +
                                num(e->done) + ")");
        }
        if (e->bytes > port.maxBurstBytes) {
          violation(report, where + ": a burst of " + std::to_string(e->bytes) + " bytes, above the port's " +
                                std::to_string(port.maxBurstBytes));
        }
      }
      // 2. In flight (address accepted to completion) at most the port's limit at any instant.
      const uint32_t limit = d == mem::Direction::Read ? port.maxReads : port.maxWrites;
      std::vector<std::pair<double, double>> spans;
      for (const mem::BurstEvent* e : bursts) spans.push_back({e->issue, e->done});
      if (const auto [most, at] = mostOpen(spans); most > limit) {
        violation(report, where + ": " + std::to_string(most) + " bursts in flight at cycle " + num(at) +
                              ", above the limit of " + std::to_string(limit));
      }
      // 3. At most a beat per cycle: the beats of bursts i..j (by the end of their data) fit in
      //    the cycles from the start of i's data to the end of j's, plus one burst.
      std::vector<const mem::BurstEvent*> byEnd = bursts;
      std::sort(byEnd.begin(), byEnd.end(), [](auto* a, auto* b) { return a->dataEnd < b->dataEnd; });
      const double burstBeats = std::ceil(double(port.maxBurstBytes) / port.bytesPerBeat) + 1;
      double beats = 0, best = 1e300;
      for (const mem::BurstEvent* e : byEnd) {
        best = std::min(best, beats - e->dataStart);
        beats += double(e->beats);
        if (beats - e->dataEnd - best > burstBeats + kEps) {
          violation(report, where + ": " + num(beats - best - e->dataEnd) +
                                " beats more than one per cycle in a window ending at cycle " + num(e->dataEnd));
          break;
        }
      }
    }
    for (const mem::BurstEvent& e : all) {
      if (e.memory >= memories_.size()) {
        violation(report, port.name + ": a burst served by memory " + std::to_string(e.memory) + ", which is not one");
        continue;
      }
      const MemoryDesc& m = memories_[e.memory];
      const size_t lane = port.lane % std::max<uint32_t>(m.lanes, 1);
      const size_t path = lane * (m.separateReadWrite ? 2 : 1) + (m.separateReadWrite ? static_cast<size_t>(e.dir) : 0);
      paths[{e.memory, path}].push_back({&e, p});
      if (port.adapter >= 0) adapters[port.adapter].push_back({&e, p});
    }
  }
  // 4. Each memory data path: one burst at a time, at most its lane's bandwidth, after its latency.
  for (auto& [key, bursts] : paths) {
    const MemoryDesc& m = memories_[key.first];
    const double laneRate = m.bytesPerCycle / std::max<uint32_t>(m.lanes, 1);
    std::sort(bursts.begin(), bursts.end(), [](const Seen& a, const Seen& b) { return a.e->dataStart < b.e->dataStart; });
    const std::string where = "memory " + std::to_string(key.first) + " path " + std::to_string(key.second);
    for (size_t i = 0; i < bursts.size(); ++i) {
      const mem::BurstEvent& e = *bursts[i].e;
      if (i > 0 && e.dataStart < bursts[i - 1].e->dataEnd - kEps) {
        violation(report, where + ": two bursts' data overlap at cycle " + num(e.dataStart));
      }
      if (e.dataEnd - e.dataStart < double(e.bytes) / laneRate - kEps) {
        violation(report, where + ": " + std::to_string(e.bytes) + " bytes in " + num(e.dataEnd - e.dataStart) +
                              " cycles, faster than " + num(laneRate) + " bytes per cycle");
      }
      const double latency = e.dir == mem::Direction::Read ? m.readLatency : m.writeLatency;
      if (e.dataStart < e.issue + latency - kEps) {
        violation(report, where + ": data at cycle " + num(e.dataStart) + ", before the latency of " + num(latency) +
                              " after its issue at " + num(e.issue));
      }
    }
  }
  // 5. Each timing adapter over the bursts of every port that passes it.
  for (auto& [index, bursts] : adapters) {
    const config::TimingAdapterParams& ta = adapters_.at(static_cast<size_t>(index));
    const std::string where = "timing adapter " + std::to_string(index);
    std::vector<std::pair<double, double>> reads, writes, both;
    for (const Seen& s : bursts) {
      (s.e->dir == mem::Direction::Read ? reads : writes).push_back({s.e->issue, s.e->done});
      both.push_back({s.e->issue, s.e->done});
      if (s.e->dir == mem::Direction::Read && s.e->dataStart < s.e->issue + ta.readLatency - kEps) {
        violation(report, where + ": read data at cycle " + num(s.e->dataStart) + ", before RLATENCY " +
                              std::to_string(ta.readLatency) + " after admission at " + num(s.e->issue));
      }
      if (s.e->dir == mem::Direction::Write && s.e->done < s.e->dataEnd + ta.writeLatency - kEps) {
        violation(report, where + ": write response at cycle " + num(s.e->done) + ", before WLATENCY " +
                              std::to_string(ta.writeLatency) + " after the last beat at " + num(s.e->dataEnd));
      }
    }
    const auto pending = [&](const std::vector<std::pair<double, double>>& spans, uint32_t limit, const char* what) {
      if (limit == 0) return;
      if (const auto [most, at] = mostOpen(spans); most > limit) {
        violation(report, where + ": " + std::to_string(most) + " " + what + " pending at cycle " + num(at) +
                              ", above its limit of " + std::to_string(limit));
      }
    };
    pending(reads, ta.maxReads, "reads");
    pending(writes, ta.maxWrites, "writes");
    pending(both, ta.maxPending, "transactions");
    const double period = double(ta.pulseOn) + double(ta.pulseOff);
    if (period <= 0) continue;
    // Admission order; the bursts a shared adapter admitted in one cycle (from several ports) are
    // taken smallest first, the order in which the cap is least likely to be passed: if any order of
    // them keeps the rule, that one does.
    std::sort(bursts.begin(), bursts.end(), [](const Seen& a, const Seen& b) {
      return a.e->issue != b.e->issue ? a.e->issue < b.e->issue : a.e->beats < b.e->beats;
    });
    std::map<uint64_t, uint64_t> words;   // pulse cycle -> words admitted so far
    const double phase = ta.pulsePhase();
    for (const Seen& s : bursts) {
      const double cycle = std::floor((s.e->issue + phase) / period);
      if (s.e->issue + phase - cycle * period >= double(ta.pulseOn) + kEps) {
        violation(report, where + ": an address admitted at cycle " + num(s.e->issue) + ", in the pulse's off phase");
      }
      uint64_t& counted = words[static_cast<uint64_t>(cycle)];
      if (ta.bandwidthCap > 0 && counted >= ta.bandwidthCap) {
        violation(report, where + ": an address admitted at cycle " + num(s.e->issue) + " with " +
                              std::to_string(counted) + " words already admitted in its pulse cycle (BWCAP " +
                              std::to_string(ta.bandwidthCap) + ")");
      }
      counted += s.e->beats;
    }
  }
}

void InvariantChecker::checkOperations(const RunResult& run, const std::vector<io::DecodedNpuOp>& decoded,
                                       CheckReport& report) const {
  if (hardware_ == nullptr) return;
  const auto operationOf = [&](const OperationReport& o) -> const cmd::Operation& {
    const auto it = std::find_if(decoded.begin(), decoded.end(),
                                 [&](const io::DecodedNpuOp& d) { return d.operatorIndex == o.networkOp; });
    return it->operations.at(o.record.index);
  };
  // Blocks by operation record, in block order.
  std::map<size_t, std::vector<const npu::BlockEvent*>> blocks;
  for (const auto& [record, e] : blocks_.blocks) blocks[record].push_back(&e);
  report.blocks = blocks_.blocks.size();
  report.operations = run.operations.size();
  const auto where = [](const OperationReport& o) {
    return "operation " + std::to_string(o.record.index) + " (" + std::string(cmd::opKindName(o.record.kind)) +
           ") of stream " + std::to_string(o.record.invocation);
  };
  const OperationReport* prevKernel = nullptr;
  const OperationReport* prevDma = nullptr;
  // Per unit, the ends of the operations dispatched to it in the current stream, not yet ended.
  std::array<std::vector<double>, 2> running;
  uint32_t stream = 0;
  for (size_t i = 0; i < run.operations.size(); ++i) {
    const OperationReport& o = run.operations[i];
    const npu::OperationRecord& r = o.record;
    const cmd::Operation& op = operationOf(o);
    if (r.start < r.issue - kEps || r.end < r.start - kEps) {
      violation(report, where(o) + ": issued at " + num(r.issue) + ", started at " + num(r.start) + ", ended at " +
                            num(r.end));
    }
    // 1. Dispatched only when its unit's queue and the waits allowed: the operations of each
    //    unit dispatched before it (in its stream) and not ended by its issue.
    if (r.invocation != stream) {
      stream = r.invocation;
      running = {};
    }
    for (std::vector<double>& ends : running) {
      ends.erase(std::remove_if(ends.begin(), ends.end(), [&](double e) { return e <= r.issue + kEps; }), ends.end());
    }
    const npu::DispatchRule rule = npu::dispatchRule(*hardware_, op);
    for (size_t w = 0; w < rule.waitCount; ++w) {
      const size_t outstanding = running[static_cast<size_t>(rule.waits[w].unit)].size();
      if (outstanding > rule.waits[w].allowed) {
        violation(report, where(o) + ": dispatched at " + num(r.issue) + " with " + std::to_string(outstanding) +
                              " operations of its unit outstanding, where its waits allow " +
                              std::to_string(rule.waits[w].allowed));
      }
    }
    if (rule.queue) running[static_cast<size_t>(*rule.queue)].push_back(r.end);
    // 2. One DMA at a time.
    if (r.kind == cmd::OpKind::DmaStart) {
      if (prevDma != nullptr && r.start < prevDma->record.end - kEps) {
        violation(report, where(o) + ": started at " + num(r.start) + " before the previous DMA ended at " +
                              num(prevDma->record.end));
      }
      prevDma = &o;
    }
    if (!cmd::isKernel(r.kind)) continue;
    // 3. BLOCKDEP: block j reads its IFM after the previous operation's blocks 0..k it needs
    //    (npu::BlockPlan::previousBlocksNeeded) were written.
    const std::vector<const npu::BlockEvent*>& mine = blocks[i];
    if (prevKernel != nullptr) {
      const std::vector<const npu::BlockEvent*>& prev = blocks[static_cast<size_t>(prevKernel - run.operations.data())];
      std::vector<double> writtenUpTo;   // the latest write among the previous operation's blocks 0..k
      double latest = 0;
      for (const npu::BlockEvent* b : prev) writtenUpTo.push_back(latest = std::max(latest, b->writeDone));
      const npu::BlockPlan plan(*hardware_, op);
      for (const npu::BlockEvent* b : mine) {
        const uint64_t j = b->block;
        const std::optional<uint64_t> k = plan.previousBlocksNeeded(j, writtenUpTo.size());
        const double needed = k ? writtenUpTo[static_cast<size_t>(*k)] : 0.0;
        if (b->ifmStart < needed - kEps) {
          violation(report, where(o) + ": block " + std::to_string(j) + " read its IFM at " + num(b->ifmStart) +
                                ", before the previous operation's OFM it depends on (BLOCKDEP " +
                                std::to_string(op.blockDep) + ") was written at " + num(needed));
        }
      }
    }
    if (mine.size() != r.blocks) {
      violation(report, where(o) + ": " + std::to_string(mine.size()) + " blocks seen of its " +
                            std::to_string(r.blocks));
    }
    prevKernel = &o;
  }
}

} // namespace npusim::platform
