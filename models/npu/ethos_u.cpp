// SPDX-License-Identifier: Apache-2.0
#include "models/npu/ethos_u.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "models/mem/memory_system.h"

namespace npusim::npu {

// Books unit traffic on the AXI sockets: region -> port (REGIONCFG) and address (BASEP).
class EthosU::Transport : public NpuTransport {
public:
  explicit Transport(EthosU& npu) : npu_(npu) {}

  double send(arch::PortId port, uint64_t address, mem::Direction dir, const mem::TransferShape& shape,
              double start) {
    tlm::tlm_generic_payload trans;
    mem::TransferExtension ext;
    ext.shape = shape;
    ext.shape.address = address;
    ext.counters = &npu_.pmu_.port(port);
    trans.set_extension(&ext);
    // The payload deletes the extensions still set when it is destroyed: detach this stack
    // object on every path, also when b_transport throws (it used to free a stack address).
    struct Detach {
      tlm::tlm_generic_payload& trans;
      mem::TransferExtension& ext;
      ~Detach() { trans.clear_extension(&ext); }
    } detach{trans, ext};
    trans.set_command(dir == mem::Direction::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    trans.set_address(address);
    trans.set_data_length(static_cast<unsigned int>(std::min<uint64_t>(shape.bytes(), UINT32_MAX)));
    trans.set_data_ptr(nullptr);
    sc_core::sc_time delay = npu_.period_ * std::max(0.0, start - npu_.now());
    npu_.ports[port.index]->b_transport(trans, delay);
    return (sc_core::sc_time_stamp() + delay) / npu_.period_;
  }

  // A region reached through several ports (the U85's SRAM or EXT port group) takes them in
  // turn, a transfer each: how the hardware assigns traffic to its ports is not documented
  // (ethos-u85.md 1.3, 8); docs/timing-model.md.
  double transfer(uint8_t region, uint64_t offset, mem::Direction dir, const mem::TransferShape& shape, double start,
                  PortBytes& bytes) override {
    const std::vector<arch::PortId>& group = npu_.regionPorts_[region & 7];
    size_t& turn = npu_.regionTurn_[region & 7];
    const arch::PortId port = group[turn];
    turn = (turn + 1) % group.size();
    bytes.add(port, dir, shape.bytes());
    return send(port, npu_.basep_[region & 7] + offset, dir, shape, start);
  }

private:
  EthosU& npu_;
};

// Forwards a kernel unit's block events to the observer with the operation's record index.
class EthosU::BlockForwarder : public BlockSink {
public:
  BlockForwarder(NpuObserver& observer, const size_t& record) : observer_(observer), record_(record) {}
  void block(const BlockEvent& event) override { observer_.block(record_, event); }

private:
  NpuObserver& observer_;
  const size_t& record_;
};

// Advances the calling SystemC thread to a unit's next step.
class EthosU::Clock : public UnitClock {
public:
  explicit Clock(EthosU& npu) : npu_(npu) {}
  void sync(double t) override { npu_.syncTo(t); }

private:
  EthosU& npu_;
};

namespace {

// The hardware configuration, checked before anything is built from it.
const arch::NpuConfig& checkedHardware(const NpuModuleParams& params) {
  if (params.hardware == nullptr) {
    throw std::logic_error("EthosU: no hardware configuration");
  }
  return *params.hardware;
}

} // namespace

EthosU::EthosU(sc_core::sc_module_name name, const NpuModuleParams& params)
    : sc_module(name), ports("port"), apb("apb"), params_(params),
      period_(sc_core::sc_time(1.0 / params.clockHz, sc_core::SC_SEC)), pmu_(checkedHardware(params)) {
  const std::vector<arch::PortDesc>& descs = params.hardware->ports();
  if (descs.size() > PortBytes::kMaxPorts) {
    throw std::logic_error("EthosU: " + std::to_string(descs.size()) + " ports, more than the " +
                           std::to_string(PortBytes::kMaxPorts) + " an operation's byte counts hold");
  }
  ports.init(descs.size(), [&descs](const char*, size_t i) {
    return new tlm_utils::simple_initiator_socket<EthosU>(std::string(descs[i].name).c_str());
  });
  routePorts();
  apb.register_b_transport(this, &EthosU::registerWrite);
  SC_THREAD(commandProcessor);
  SC_THREAD(kernelThread);
  SC_THREAD(dmaThread);
}

void EthosU::routePorts() {
  // REGIONCFG and QCONFIG pick an area: one port on the U55 and U65, a group of ports on the U85
  // (Transport::transfer gives a region's transfers to its group in turn; the command stream is
  // fetched through the group's first port).
  const arch::Architecture& architecture = *params_.hardware->arch;
  const auto some = [&architecture](const std::vector<arch::PortId>& group, arch::AreaId area) {
    if (group.empty()) {
      throw std::logic_error("EthosU: the " + std::string(architecture.name) + " has no port to area " +
                             std::string(arch::areaName(area)));
    }
    return group;
  };
  for (uint8_t region = 0; region < 8; ++region) {
    regionPorts_[region] = some(params_.regions.ports(region), params_.regions.area(region));
  }
  commandPort_ = some(params_.regions.portsIn(params_.commandStreamArea), params_.commandStreamArea).front();
}

void EthosU::registerWrite(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  if (!trans.is_write() || trans.get_data_length() < 4) {
    return;
  }
  uint32_t value = 0;
  std::memcpy(&value, trans.get_data_ptr(), 4);
  const uint64_t a = trans.get_address();
  if (a == reg::kQbase) {
    qbase_ = value;
  } else if (a == reg::kQsize) {
    qsize_ = value;
  } else if (a >= reg::kBasep && a < reg::kBasep + 64 && (a - reg::kBasep) % 8 == 0) {
    basep_[(a - reg::kBasep) / 8] = value;
  } else if (a == reg::kCmd && (value & 1) != 0) {
    start_.notify(delay);
  } else if (a == params_.hardware->arch->pmu.controlRegister) {
    pmu_.setEnabled((value & 1) != 0, (sc_core::sc_time_stamp() + delay) / period_);
  }
}

void EthosU::waitOutstanding(UnitQueue& unit, size_t allowed) {
  // Wake at the earliest known end or when the unit books another operation, whichever comes
  // first, and count again.
  for (;;) {
    const double t = now();
    if (unit.outstanding.count(t) <= allowed) {
      return;
    }
    if (const std::optional<double> earliest = unit.outstanding.nextEnd()) {
      wait(period_ * (*earliest - t), unit.progress);
    } else {
      wait(unit.progress);
    }
  }
}

void EthosU::shutdown() {
  stopping_ = true;
  shutdown_.notify(sc_core::SC_ZERO_TIME);
}

template <typename Execute>
void EthosU::serve(UnitQueue& unit, Execute&& execute) {
  for (;;) {
    while (unit.pending.empty()) {
      if (stopping_) {
        return;
      }
      wait(unit.queued | shutdown_);
    }
    const auto [op, recordIndex] = unit.pending.front();
    // execute() waits while it steps, and the command processor appends records meanwhile, so
    // the record is looked up again afterwards.
    const double end = execute(*op, stats_.operations[recordIndex].issue, recordIndex);
    unit.outstanding.booked(end);
    unit.pending.erase(unit.pending.begin());
    unit.progress.notify(sc_core::SC_ZERO_TIME);
  }
}

void EthosU::kernelThread() {
  Transport transport(*this);
  Clock clock(*this);
  KernelUnit kernel(*params_.hardware, transport, clock);
  size_t current = 0;
  std::optional<BlockForwarder> forwarder;
  if (observer_ != nullptr) {
    forwarder.emplace(*observer_, current);
    kernel.setBlockSink(&*forwarder);
  }
  serve(kernels_, [&](const cmd::Operation& op, double issue, size_t recordIndex) {
    current = recordIndex;
    const KernelTiming k = kernel.execute(op, issue);
    pmu_.kernelDone(k);
    OperationRecord& rec = stats_.operations[recordIndex];
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
    return k.end;
  });
}

void EthosU::dmaThread() {
  Transport transport(*this);
  Clock clock(*this);
  DmaUnit dma(transport, clock, params_.hardware->dmaChunkBytes());
  serve(dmas_, [&](const cmd::Operation& op, double issue, size_t recordIndex) {
    const DmaTiming d = dma.execute(op.dma, issue);
    OperationRecord& rec = stats_.operations[recordIndex];
    rec.start = d.start;
    rec.end = d.end;
    rec.bytes = d.bytes;
    return d.end;
  });
}

void EthosU::syncTo(double t) {
  const double n = now();
  if (t > n) {
    wait(period_ * (t - n));
  }
}

double EthosU::fetchCommands(uint64_t qbase, uint32_t streamBytes, uint32_t upTo, double t) {
  // Request chunks up to `upTo` plus the prefetch window, one after another from time t.
  Transport transport(*this);
  const uint32_t chunkBytes = params_.hardware->arch->commandFetchBytes;
  const uint32_t want = std::min(streamBytes, upTo + params_.hardware->arch->commandPrefetchChunks * chunkBytes);
  while (fetchRequested_ < want) {
    const uint32_t bytes = std::min(chunkBytes, streamBytes - fetchRequested_);
    const double issue = chunkDone_.empty() ? t : std::max(t, now());
    chunkDone_.push_back(transport.send(commandPort_, qbase + fetchRequested_, mem::Direction::Read,
                                        {1, bytes}, issue));
    stats_.commandFetchBytes += bytes;
    fetchRequested_ += bytes;
  }
  const size_t chunk = upTo == 0 ? 0 : (upTo - 1) / chunkBytes;
  return std::max(t, chunkDone_[std::min(chunk, chunkDone_.size() - 1)]);
}

void EthosU::commandProcessor() {
  for (;;) {
    wait(start_ | shutdown_);
    if (stopping_) {
      return;
    }
    const NpuProgram* loaded = nullptr;
    for (const NpuProgram& p : programs_) {
      if (p.qbase == qbase_) {
        loaded = &p;
      }
    }
    if (loaded == nullptr || loaded->program->streamBytes() != qsize_) {
      throw std::logic_error("NPU started with QBASE/QSIZE that match no loaded command stream");
    }
    const cmd::Program& program = *loaded->program;
    const uint32_t streamBytes = program.streamBytes();
    const double started = now();
    double t = started;
    fetchRequested_ = 0;
    chunkDone_.clear();
    size_t opIndex = 0;
    double fetchWait = 0;
    for (const cmd::Command& c : program.commands) {
      // 1. Fetch (through the command FIFO) and parse.
      const double fetched = fetchCommands(loaded->qbase, streamBytes, c.offset + c.sizeBytes(), t);
      fetchWait += fetched - t;
      if (observer_ != nullptr && fetched > t) {
        observer_->commandFetchWait(t, fetched);
      }
      t = fetched + params_.hardware->arch->parseCyclesPerCommand;
      if (!c.info->isOperation) {
        continue;
      }
      // 2. Dispatch, waiting for queue space and for the waits' conditions.
      const cmd::Operation& op = program.operations[opIndex];
      syncTo(t);
      OperationRecord rec;
      rec.invocation = invocation_;
      rec.index = static_cast<uint32_t>(opIndex++);
      rec.kind = op.kind;
      rec.commandOffset = op.byteOffset;
      rec.macs = op.macs();
      const double before = now();
      const DispatchRule rule = dispatchRule(*params_.hardware, op);
      for (size_t w = 0; w < rule.waitCount; ++w) {
        waitOutstanding(queueOf(rule.waits[w].unit), rule.waits[w].allowed);
      }
      t = now();
      rec.issue = t;
      rec.ccWait = t - before;
      rec.fetchWait = fetchWait;
      fetchWait = 0;
      rec.start = rec.end = t;
      stats_.operations.push_back(rec);
      if (rule.queue) {
        UnitQueue& queue = queueOf(*rule.queue);
        queue.pending.emplace_back(&op, stats_.operations.size() - 1);
        queue.outstanding.dispatched();
        queue.queued.notify(sc_core::SC_ZERO_TIME);
      }
    }
    syncTo(t);
    stats_.activeCycles.push_back(t - started);
    pmu_.streamDone(t - started);
    ++invocation_;
    irq.notify(sc_core::SC_ZERO_TIME);
  }
}

} // namespace npusim::npu
