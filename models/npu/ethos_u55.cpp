// SPDX-License-Identifier: Apache-2.0
#include "models/npu/ethos_u55.h"

#include <algorithm>
#include <stdexcept>

#include "models/mem/memory_system.h"

namespace npusim::npu {
namespace {

constexpr uint32_t kFetchChunk = 64;       // command fetch burst (AXI_LIMIT burst split)
constexpr uint32_t kFetchAhead = 2;        // chunks the command FIFO prefetches
constexpr double kParseCyclesPerCommand = 1.0;
constexpr size_t kKernelQueue = 2;         // kernels outstanding (running + latched)
constexpr size_t kDmaQueue = 1;            // DMAs outstanding on U55

// Time at which at most `allowed` of `ends` are still in the future, no earlier than `t`.
double whenAtMost(std::vector<double>& ends, size_t allowed, double t) {
  ends.erase(std::remove_if(ends.begin(), ends.end(), [t](double e) { return e <= t; }), ends.end());
  if (ends.size() <= allowed) {
    return t;
  }
  std::vector<double> sorted = ends;
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  return sorted[allowed];
}

} // namespace

// Books unit traffic on the AXI sockets: region -> port (REGIONCFG) and address (BASEP).
class EthosU55::Transport : public NpuTransport {
public:
  explicit Transport(EthosU55& npu) : npu_(npu) {}

  config::AxiPort portFor(uint8_t region) const {
    return region == 0 ? npu_.params_.mode.constMemArea : npu_.params_.mode.arenaMemArea;
  }

  double send(config::AxiPort port, uint64_t address, mem::Direction dir, const mem::TransferShape& shape,
              double start) {
    tlm::tlm_generic_payload trans;
    mem::TransferExtension ext;
    ext.shape = shape;
    trans.set_extension(&ext);
    trans.set_command(dir == mem::Direction::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    trans.set_address(address);
    trans.set_data_length(static_cast<unsigned int>(std::min<uint64_t>(shape.bytes(), UINT32_MAX)));
    trans.set_data_ptr(nullptr);
    sc_core::sc_time delay = npu_.period_ * std::max(0.0, start - npu_.now());
    auto& socket = port == config::AxiPort::Axi0 ? npu_.axi0 : npu_.axi1;
    socket->b_transport(trans, delay);
    trans.clear_extension(&ext);
    return (sc_core::sc_time_stamp() + delay) / npu_.period_;
  }

  double transfer(uint8_t region, uint64_t offset, mem::Direction dir, const mem::TransferShape& shape, double start,
                  uint8_t* port) override {
    const config::AxiPort p = portFor(region);
    *port = static_cast<uint8_t>(p);
    return send(p, npu_.basep_[region & 7] + offset, dir, shape, start);
  }

private:
  EthosU55& npu_;
};

EthosU55::EthosU55(sc_core::sc_module_name name, const config::SystemParams& params, uint32_t macs)
    : sc_module(name), axi0("axi0"), axi1("axi1"), apb("apb"), params_(params), arch_(u55Arch(macs)),
      period_(sc_core::sc_time(1.0 / params.coreClockHz, sc_core::SC_SEC)) {
  apb.register_b_transport(this, &EthosU55::registerWrite);
  SC_THREAD(commandProcessor);
}

void EthosU55::registerWrite(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
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
  }
}

void EthosU55::syncTo(double t) {
  const double n = now();
  if (t > n) {
    wait(period_ * (t - n));
  }
}

double EthosU55::fetchCommands(uint64_t qbase, uint32_t streamBytes, uint32_t upTo, double t) {
  // Request chunks up to `upTo` plus the prefetch window, one after another from time t.
  Transport transport(*this);
  const uint32_t want = std::min(streamBytes, upTo + kFetchAhead * kFetchChunk);
  while (fetchRequested_ < want) {
    const uint32_t bytes = std::min(kFetchChunk, streamBytes - fetchRequested_);
    const double issue = chunkDone_.empty() ? t : std::max(t, now());
    chunkDone_.push_back(transport.send(params_.commandStreamPort, qbase + fetchRequested_, mem::Direction::Read,
                                        {1, bytes}, issue));
    stats_.commandFetchBytes += bytes;
    fetchRequested_ += bytes;
  }
  const size_t chunk = upTo == 0 ? 0 : (upTo - 1) / kFetchChunk;
  return std::max(t, chunkDone_[std::min(chunk, chunkDone_.size() - 1)]);
}

void EthosU55::commandProcessor() {
  Transport transport(*this);
  KernelUnit kernel(arch_, transport);
  DmaUnit dma(transport);
  for (;;) {
    wait(start_);
    const NpuProgram* program = nullptr;
    for (const NpuProgram& p : programs_) {
      if (p.qbase == qbase_) {
        program = &p;
      }
    }
    if (program == nullptr || program->streamBytes != qsize_) {
      throw std::logic_error("NPU started with QBASE/QSIZE that match no loaded command stream");
    }
    const double started = now();
    double t = started;
    fetchRequested_ = 0;
    chunkDone_.clear();
    std::vector<double> kernelEnds, dmaEnds;
    size_t opIndex = 0;
    for (const cmd::Command& c : *program->commands) {
      // 1. Fetch (through the command FIFO) and parse.
      const double fetched = fetchCommands(program->qbase, program->streamBytes, c.offset + c.sizeBytes(), t);
      stats_.ccStallFetch += fetched - t;
      t = fetched + kParseCyclesPerCommand;
      ++stats_.commandsParsed;
      if (!c.info->isOperation) {
        continue;
      }
      // 2. Dispatch.
      const cmd::Operation& op = (*program->operations)[opIndex];
      OperationRecord rec;
      rec.invocation = invocation_;
      rec.index = static_cast<uint32_t>(opIndex++);
      rec.kind = op.kind;
      rec.commandOffset = op.byteOffset;
      const double before = t;
      switch (op.kind) {
      case cmd::OpKind::Conv:
      case cmd::OpKind::Depthwise:
      case cmd::OpKind::Pool:
      case cmd::OpKind::Elementwise: {
        t = whenAtMost(kernelEnds, kKernelQueue - 1, t);
        stats_.ccStallQueueFull += t - before;
        syncTo(t);
        const KernelTiming k = kernel.execute(op, t);
        kernelEnds.push_back(k.end);
        rec.start = k.start;
        rec.end = k.end;
        rec.macCycles = k.macCycles;
        rec.outputCycles = k.outputCycles;
        rec.blocks = k.blocks;
        rec.macs = op.macs();
        rec.stallIfm = k.stallIfm;
        rec.stallWeights = k.stallWeights;
        rec.stallOutput = k.stallOutput;
        rec.stallBlockdep = k.stallBlockdep;
        rec.bytes = k.bytes;
        break;
      }
      case cmd::OpKind::DmaStart: {
        t = whenAtMost(dmaEnds, kDmaQueue - 1, t);
        stats_.ccStallQueueFull += t - before;
        syncTo(t);
        const DmaTiming d = dma.execute(op.dma, t);
        dmaEnds.push_back(d.end);
        rec.start = d.start;
        rec.end = d.end;
        rec.bytes = d.bytes;
        break;
      }
      case cmd::OpKind::DmaWait:
        t = whenAtMost(dmaEnds, op.waitCount, t);
        stats_.ccStallDmaWait += t - before;
        rec.start = before;
        rec.end = t;
        break;
      case cmd::OpKind::KernelWait:
        t = whenAtMost(kernelEnds, op.waitCount, t);
        stats_.ccStallKernelWait += t - before;
        rec.start = before;
        rec.end = t;
        break;
      case cmd::OpKind::Stop:
        t = std::max(whenAtMost(kernelEnds, 0, t), whenAtMost(dmaEnds, 0, t));
        rec.start = before;
        rec.end = t;
        break;
      case cmd::OpKind::Irq:
      case cmd::OpKind::PmuMask:
        rec.start = rec.end = t;
        break;
      }
      rec.issue = before;
      rec.ccWait = t - before;
      stats_.operations.push_back(rec);
    }
    syncTo(t);
    stats_.activeCycles.push_back(t - started);
    ++invocation_;
    irq.notify(sc_core::SC_ZERO_TIME);
  }
}

} // namespace npusim::npu
