// SPDX-License-Identifier: Apache-2.0
#include "support/timing_bench.h"

#include <stdexcept>

namespace npusim::test {

namespace {

constexpr uint64_t kMemoryStep = uint64_t{1} << 30;

} // namespace

uint64_t PortBench::addMemory(const Memory& m) {
  memories_.emplace_back(m.bytesPerCycle, m.readLatency, m.writeLatency, m.separateReadWrite, m.lanes);
  const uint64_t base = (memories_.size() - 1) * kMemoryStep;
  router_.add(base, base + kMemoryStep, memories_.back());
  return base;
}

size_t PortBench::addPort(const mem::AxiPortParams& link, const mem::TimingAdapterParams& adapter, int shared) {
  mem::AdapterSlot* slot = nullptr;
  if (shared >= 0) {
    slot = portAdapter_.at(static_cast<size_t>(shared));
  } else if (!adapter.transparent()) {
    adapters_.emplace_back(queue_, adapter);
    slot = &adapters_.back();
  }
  portAdapter_.push_back(slot);
  counters_.emplace_back();
  ports_.push_back(std::make_unique<mem::AxiPort>(queue_, link, router_, counters_.back(), slot));
  return ports_.size() - 1;
}

size_t PortBench::submit(size_t port, mem::Direction dir, double start, mem::TransferShape shape, size_t memory) {
  shape.address += memory * kMemoryStep;
  done_.push_back(-1);
  ports_.at(port)->transfer(dir, start, shape, *this, done_.size() - 1);
  return done_.size() - 1;
}

double PortBench::transfer(size_t port, mem::Direction dir, double start, const mem::TransferShape& shape,
                           size_t memory) {
  const size_t id = submit(port, dir, start, shape, memory);
  run();
  return done(id);
}

UnitBench::UnitBench(const arch::NpuConfig& npu, const PortBench::Memory& sram, const PortBench::Memory& flash,
                     const mem::AxiPortParams& axi0, const mem::AxiPortParams& axi1, uint32_t dmaChunkBytes,
                     uint32_t dmaStepBytes)
    : kernel_(npu, ports_.queue(), *this, *this), dma_(ports_.queue(), *this, dmaChunkBytes, *this, dmaStepBytes) {
  ports_.addMemory(sram);
  ports_.addMemory(flash);
  ports_.addPort(axi0);
  ports_.addPort(axi1);
}

void UnitBench::transfer(uint8_t region, uint64_t offset, mem::Direction dir, const mem::TransferShape& shape,
                         double start, npu::PortBytes& bytes, mem::TransferSink& sink, uint64_t token) {
  const size_t port = region == 0 ? 1 : 0;
  bytes.add(arch::PortId{static_cast<uint8_t>(port)}, dir, shape.bytes());
  ranges_.push_back({region, offset + shape.bytes()});
  mem::TransferShape bus = shape;
  bus.address = offset + (region == 0 ? kMemoryStep : 0);
  ports_.port(port).transfer(dir, start, bus, sink, token);
}

void UnitBench::kernelDone(size_t, const npu::KernelTiming& timing) { kernels_.push_back(timing); }

void UnitBench::dmaDone(size_t, const npu::DmaTiming& timing) { dmas_.push_back(timing); }

npu::KernelTiming UnitBench::runKernel(const cmd::Operation& op) { return runKernels({op}).at(0); }

std::vector<npu::KernelTiming> UnitBench::runKernels(const std::vector<cmd::Operation>& ops) {
  kernels_.clear();
  for (const cmd::Operation& op : ops) kernel_.dispatch(op, 0);
  ports_.run();
  if (kernels_.size() != ops.size()) throw std::logic_error("UnitBench: an operation did not finish");
  return kernels_;
}

npu::DmaTiming UnitBench::runDma(const cmd::DmaTransfer& dma) {
  dmas_.clear();
  dma_.dispatch(dma, 0);
  ports_.run();
  if (dmas_.size() != 1) throw std::logic_error("UnitBench: the DMA did not finish");
  return dmas_.at(0);
}

std::pair<npu::KernelTiming, npu::DmaTiming> UnitBench::runBoth(const cmd::Operation& op, const cmd::DmaTransfer& dma) {
  kernels_.clear();
  dmas_.clear();
  dma_.dispatch(dma, 0);
  kernel_.dispatch(op, 0);
  ports_.run();
  return {kernels_.at(0), dmas_.at(0)};
}

} // namespace npusim::test
