// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test benches for the plain-C++ timing (no SystemC): AXI ports on an EventQueue against plain
// memories, and the NPU's units on such ports.

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "models/mem/axi_port.h"
#include "models/mem/event_queue.h"
#include "models/mem/memory_timing.h"
#include "models/npu/npu_units.h"

namespace npusim::test {

// Ports and memories on one EventQueue. Memories are placed one after another at 1 GiB steps in
// the order they are added (memory k at k << 30); ports are numbered in the order they are added.
class PortBench : public mem::TransferSink {
public:
  struct Memory {
    double bytesPerCycle = 8;
    double readLatency = 0, writeLatency = 0;
    bool separateReadWrite = false;
    uint32_t lanes = 1;
  };
  // Adds a memory; returns its base address.
  uint64_t addMemory(const Memory& m);
  // Adds a port with the given link and adapter (all zero: none); `shared` >= 0 makes it pass the
  // adapter of that earlier port instead. Returns its index.
  size_t addPort(const mem::AxiPortParams& link, const mem::TimingAdapterParams& adapter = {}, int shared = -1);
  mem::AxiPort& port(size_t index) { return *ports_.at(index); }
  mem::PortCounters& counters(size_t index) { return counters_.at(index); }
  mem::MemoryTiming& memory(size_t index) { return memories_.at(index); }
  mem::EventQueue& queue() { return queue_; }
  mem::MemoryRouter& router() { return router_; }

  // Starts a transfer (shape.address is relative to memory `memory`'s base); returns its id.
  size_t submit(size_t port, mem::Direction dir, double start, mem::TransferShape shape, size_t memory = 0);
  void run() { queue_.run(); }
  // When transfer `id` completed (contract: after run()).
  double done(size_t id) const { return done_.at(id); }
  // submit + run + done.
  double transfer(size_t port, mem::Direction dir, double start, const mem::TransferShape& shape, size_t memory = 0);

  void transferDone(uint64_t token) override { done_.at(token) = queue_.now(); }

private:
  mem::EventQueue queue_;
  std::deque<mem::MemoryTiming> memories_;
  mem::MemoryRouter router_;
  std::deque<mem::AdapterSlot> adapters_;
  std::vector<mem::AdapterSlot*> portAdapter_;
  std::deque<mem::PortCounters> counters_;
  std::vector<std::unique_ptr<mem::AxiPort>> ports_;
  std::vector<double> done_;
};

// The NPU's kernel and DMA units on a PortBench of two ports: region 0 on the flash behind port 1
// (AXI1), every other region on the SRAM behind port 0 (AXI0), like Shared_Sram.
class UnitBench : public npu::NpuTransport, public npu::UnitListener {
public:
  struct Range {
    uint8_t region;
    uint64_t end;
  };
  UnitBench(const arch::NpuConfig& npu, const PortBench::Memory& sram, const PortBench::Memory& flash,
            const mem::AxiPortParams& axi0, const mem::AxiPortParams& axi1, uint32_t dmaChunkBytes = 256,
            uint32_t dmaStepBytes = 0);

  // Dispatches `op` at the queue's time (or at `at`, moving the clock there first), runs until
  // the units are idle and returns its timing.
  npu::KernelTiming runKernel(const cmd::Operation& op);
  npu::DmaTiming runDma(const cmd::DmaTransfer& dma);
  // Dispatches both at the queue's time and runs them together.
  std::pair<npu::KernelTiming, npu::DmaTiming> runBoth(const cmd::Operation& op, const cmd::DmaTransfer& dma);
  // Dispatches several kernel operations at the queue's time, in order.
  std::vector<npu::KernelTiming> runKernels(const std::vector<cmd::Operation>& ops);
  mem::PortCounters& counters(size_t port) { return ports_.counters(port); }
  const std::vector<Range>& ranges() const { return ranges_; }
  PortBench& ports() { return ports_; }

  void transfer(uint8_t region, uint64_t offset, mem::Direction dir, const mem::TransferShape& shape, double start,
                npu::PortBytes& bytes, mem::TransferSink& sink, uint64_t token) override;
  size_t portsOf(uint8_t) const override { return 1; }
  void kernelDone(size_t record, const npu::KernelTiming& timing) override;
  void dmaDone(size_t record, const npu::DmaTiming& timing) override;
  void kernelStarted(double) override {}

private:
  PortBench ports_;
  npu::KernelUnit kernel_;
  npu::DmaUnit dma_;
  std::vector<npu::KernelTiming> kernels_;
  std::vector<npu::DmaTiming> dmas_;
  std::vector<Range> ranges_;
};

} // namespace npusim::test
