// SPDX-License-Identifier: Apache-2.0
#include "models/npu/npu_core.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace npusim::npu {

NpuModuleParams NpuModuleParams::of(const config::SystemParams& p) {
  NpuModuleParams out{p.hardware(), p.coreClockHz, config::RegionMap(p), p.commandStreamArea, {}, {}};
  for (size_t i = 0; i < p.ports.size(); ++i) {
    const config::PortParams& port = p.ports[i];
    const arch::PortId id{static_cast<uint8_t>(i)};
    // A port's memory lane: its position among the ports of its area (the U85's SRAM ports each
    // reach the SRAM through their own lane).
    const std::vector<arch::PortId> group = p.portsIn(p.portDesc(id).area);
    const auto at = std::find(group.begin(), group.end(), id);
    const uint32_t lane = at == group.end() ? 0 : static_cast<uint32_t>(at - group.begin());
    config::TimingAdapterParams adapter = port.adapter;
    adapter.pulseStart = p.adapterPulseStart;
    out.ports.push_back({{port.dataWidthBits / 8, port.maxBurstBytes, port.maxOutstandingReads,
                          port.maxOutstandingWrites, lane},
                         adapter,
                         -1});
  }
  if (p.adapterPerArea) {
    for (arch::AreaId area : arch::kAreas) {
      const std::vector<arch::PortId> group = p.portsIn(area);
      if (group.empty()) continue;
      out.sharedAdapters.push_back(out.ports.at(group.front().index).adapter);
      for (arch::PortId port : group) {
        out.ports.at(port.index).sharedAdapter = static_cast<int>(out.sharedAdapters.size() - 1);
      }
    }
  }
  return out;
}

namespace {

const NpuModuleParams& checked(const NpuModuleParams& params) {
  if (params.hardware == nullptr) {
    throw std::logic_error("NpuCore: no hardware configuration");
  }
  if (params.ports.size() != params.hardware->ports().size() || params.ports.size() > PortBytes::kMaxPorts) {
    throw std::logic_error("NpuCore: " + std::to_string(params.ports.size()) + " port parameters for the " +
                           std::to_string(params.hardware->ports().size()) + " ports of " +
                           std::string(params.hardware->name));
  }
  return params;
}

} // namespace

NpuCore::NpuCore(const NpuModuleParams& params, mem::MemoryRouter& memories, Pmu& pmu)
    : params_(checked(params)), pmu_(pmu), kernel_(*params.hardware, queue_, *this, *this),
      dma_(queue_, *this, params.hardware->dmaChunkBytes(), *this, params.hardware->dmaStepBytes()),
      commands_(*params.hardware, queue_, *this, kernel_, dma_, stats_) {
  build(nullptr, &memories);
}

NpuCore::NpuCore(const NpuModuleParams& params, const std::vector<mem::BurstTarget*>& targets, Pmu& pmu)
    : params_(checked(params)), pmu_(pmu), kernel_(*params.hardware, queue_, *this, *this),
      dma_(queue_, *this, params.hardware->dmaChunkBytes(), *this, params.hardware->dmaStepBytes()),
      commands_(*params.hardware, queue_, *this, kernel_, dma_, stats_), movesData_(true), targets_(targets) {
  if (targets.size() != params_.ports.size()) {
    throw std::logic_error("NpuCore: " + std::to_string(targets.size()) + " burst targets for " +
                           std::to_string(params_.ports.size()) + " ports");
  }
  build(&targets, nullptr);
}

void NpuCore::build(const std::vector<mem::BurstTarget*>* targets, mem::MemoryRouter* memories) {
  std::vector<mem::AdapterSlot*> shared;
  for (const config::TimingAdapterParams& a : params_.sharedAdapters) {
    adapters_.emplace_back(queue_, a);
    shared.push_back(&adapters_.back());
  }
  for (size_t i = 0; i < params_.ports.size(); ++i) {
    const NpuPortParams& port = params_.ports[i];
    mem::AdapterSlot* adapter = nullptr;
    if (port.sharedAdapter >= 0) {
      adapter = shared.at(static_cast<size_t>(port.sharedAdapter));
    } else if (!port.adapter.transparent()) {
      adapters_.emplace_back(queue_, port.adapter);
      adapter = &adapters_.back();
    }
    mem::PortCounters& counters = pmu_.port(arch::PortId{static_cast<uint8_t>(i)});
    if (targets != nullptr) {
      ports_.push_back(std::make_unique<mem::AxiPort>(queue_, port.link, *targets->at(i), counters, adapter));
    } else {
      ports_.push_back(std::make_unique<mem::AxiPort>(queue_, port.link, *memories, counters, adapter));
    }
  }
  std::array<arch::AreaId, 8> areas{};
  for (uint8_t region = 0; region < 8; ++region) {
    areas[region] = params_.regions.area(region);
  }
  route(areas, params_.commandStreamArea);
}

void NpuCore::route(const std::array<arch::AreaId, 8>& regionAreas, arch::AreaId commandStreamArea) {
  // REGIONCFG and QCONFIG pick an area: one port on the U55 and U65, a group of ports on the U85
  // (transfer() gives each of a region's transfers to the group's least loaded port; the command
  // stream is fetched through the group's first port).
  const auto some = [this](const std::vector<arch::PortId>& group, arch::AreaId area) {
    if (group.empty()) {
      throw std::logic_error("NpuCore: the " + std::string(params_.hardware->arch->name) + " has no port to area " +
                             std::string(arch::areaName(area)));
    }
    return group;
  };
  for (uint8_t region = 0; region < 8; ++region) {
    regionPorts_[region] = some(params_.regions.portsIn(regionAreas[region]), regionAreas[region]);
  }
  commandPort_ = some(params_.regions.portsIn(commandStreamArea), commandStreamArea).front();
}

bool NpuCore::halted() const {
  for (const mem::BurstTarget* t : targets_) {
    if (t->refused()) return true;
  }
  return false;
}

void NpuCore::setObserver(NpuObserver* observer) {
  kernel_.setObserver(observer);
  commands_.setObserver(observer);
}

StreamOutcome NpuCore::run(const cmd::Program& program, uint64_t qbase, const std::array<uint64_t, 8>& basep,
                           double start, uint32_t invocation) {
  basep_ = basep;
  queue_.advanceTo(std::max(start, queue_.now()));
  running_ = true;
  outcome_ = StreamOutcome{};
  commands_.start(program, qbase, invocation, *this);
  return finish(start);
}

StreamOutcome NpuCore::runFromMemory(uint64_t qbase, uint32_t qsize, const std::array<uint64_t, 8>& basep,
                                     double start, uint32_t invocation) {
  if (!movesData_) {
    throw std::logic_error("NpuCore: reading a stream from memory needs ports that move data");
  }
  basep_ = basep;
  queue_.advanceTo(std::max(start, queue_.now()));
  running_ = true;
  outcome_ = StreamOutcome{};
  stream_.clear();
  commands_.startFromMemory(qbase, qsize, invocation, *this);
  return finish(start);
}

StreamOutcome NpuCore::finish(double start) {
  queue_.run();
  if (running_) {
    throw std::logic_error("NpuCore: the command stream stalled before its end");
  }
  if (!outcome_.stopped) {
    // Stopped early: the units finished what they had (moving nothing more after a bus abort).
    outcome_.end = std::max(start, queue_.now());
    stats_.activeCycles.push_back(outcome_.end - start);
    pmu_.streamDone(outcome_.end - start);
  }
  outcome_.stopMask = commands_.stopMask();
  outcome_.parsed = commands_.parsed();
  return outcome_;
}

// A region reached through several ports (the U85's SRAM or EXT port group) gives each transfer
// to the port that has moved the fewest bytes in its direction so far (the first of equals), and
// the rest of a transfer whose first word went alone to the same port: how the hardware assigns
// traffic to its ports is not documented (ethos-u85.md 1.3, 8), and taking the ports in turn, a
// transfer each, loads one port more than another where a unit's transfers come in a repeating
// pattern (docs/timing-model.md).
void NpuCore::transfer(uint8_t region, uint64_t offset, mem::Direction dir, const mem::TransferShape& shape,
                       double start, PortBytes& bytes, mem::TransferSink& sink, uint64_t token) {
  const std::vector<arch::PortId>& group = regionPorts_[region & 7];
  const size_t d = static_cast<size_t>(dir);
  arch::PortId& port = lastPort_[region & 7];
  if (!shape.continuesPrevious || std::find(group.begin(), group.end(), port) == group.end()) {
    port = *std::min_element(group.begin(), group.end(), [&](arch::PortId a, arch::PortId b) {
      return portLoad_[a.index][d] < portLoad_[b.index][d];
    });
  }
  portLoad_[port.index][d] += shape.bytes();
  bytes.add(port, dir, shape.bytes());
  mem::TransferShape bus = shape;
  bus.address = basep_[region & 7] + offset;
  if (!movesData_) {
    ports_[port.index]->transfer(dir, start, bus, sink, token);
    return;
  }
  // The bytes: a read's land in its buffer; a write sends the DMA engine's last read, or the
  // kernel's OFM, which the model does not compute (zeros).
  Moving& m = moving(sink, token, dir, shape.bytes());
  if (dir == mem::Direction::Write) {
    if (&sink == &dma_ && dmaBytes_.size() == m.bytes.size()) {
      std::copy(dmaBytes_.begin(), dmaBytes_.end(), m.bytes.begin());
    } else {
      std::fill(m.bytes.begin(), m.bytes.end(), uint8_t{0});
    }
  }
  ports_[port.index]->transfer(dir, start, bus, m, 0, m.bytes.data());
}

void NpuCore::fetch(uint64_t address, uint32_t bytes, double start, mem::TransferSink& sink, uint64_t token) {
  if (!movesData_) {
    ports_[commandPort_.index]->transfer(mem::Direction::Read, start, {1, bytes, 0, address}, sink, token);
    return;
  }
  Moving& m = moving(sink, token, mem::Direction::Read, bytes);
  m.fetch = true;
  m.streamOffset = stream_.size();
  stream_.resize(stream_.size() + bytes);
  ports_[commandPort_.index]->transfer(mem::Direction::Read, start, {1, bytes, 0, address}, m, 0, m.bytes.data());
}

NpuCore::Moving& NpuCore::moving(mem::TransferSink& sink, uint64_t token, mem::Direction dir, uint64_t bytes) {
  if (freeMoving_.empty()) {
    movingPool_.push_back(std::make_unique<Moving>());
    freeMoving_.push_back(movingPool_.back().get());
  }
  Moving& m = *freeMoving_.back();
  freeMoving_.pop_back();
  m.core = this;
  m.sink = &sink;
  m.token = token;
  m.dir = dir;
  m.fetch = false;
  m.bytes.resize(static_cast<size_t>(bytes));
  return m;
}

void NpuCore::moved(Moving& m) {
  if (m.fetch) {
    std::copy(m.bytes.begin(), m.bytes.end(), stream_.begin() + static_cast<std::ptrdiff_t>(m.streamOffset));
  } else if (m.dir == mem::Direction::Read && m.sink == &dma_) {
    dmaBytes_.swap(m.bytes);
  }
  // The sink may start transfers: the record is free again first.
  mem::TransferSink* sink = m.sink;
  const uint64_t token = m.token;
  freeMoving_.push_back(&m);
  sink->transferDone(token);
}

void NpuCore::kernelStarted(double at) { commands_.kernelStarted(at); }

void NpuCore::kernelDone(size_t record, const KernelTiming& k) {
  pmu_.kernelDone(k);
  OperationRecord& rec = stats_.operations.at(record);
  rec.start = k.start;
  rec.end = k.end;
  rec.macCycles = k.macCycles;
  rec.outputCycles = k.outputCycles;
  rec.blocks = k.blocks;
  rec.stallIfm = k.stallIfm;
  rec.stallWeights = k.stallWeights;
  rec.stallOutput = k.stallOutput;
  rec.stallBlockdep = k.stallBlockdep;
  rec.stallShramReconfig = k.stallShramReconfig;
  rec.writeTail = k.writeTail;
  rec.bytes = k.bytes;
  commands_.unitDone(Unit::Kernel);
}

void NpuCore::dmaDone(size_t record, const DmaTiming& d) {
  OperationRecord& rec = stats_.operations.at(record);
  rec.start = d.start;
  rec.end = d.end;
  rec.bytes = d.bytes;
  commands_.unitDone(Unit::Dma);
}

void NpuCore::streamDone(double started, double end) {
  stats_.activeCycles.push_back(end - started);
  pmu_.streamDone(end - started);
  running_ = false;
  outcome_.end = end;
}

void NpuCore::streamStopped(double, const std::string& why, bool parseError) {
  running_ = false;
  outcome_.stopped = false;
  outcome_.parseError = parseError;
  outcome_.why = why;
}

void NpuCore::interrupt(uint32_t mask) { outcome_.interrupts.push_back({queue_.now(), mask}); }

} // namespace npusim::npu
