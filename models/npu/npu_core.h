// SPDX-License-Identifier: Apache-2.0
#pragma once
// The NPU's timing in plain C++, everything behind its register interface: the command
// processor, the kernel and DMA units and one AXI port per port of its configuration (with the
// timing adapters the platform puts in front of them), all on one EventQueue, against the memories
// a MemoryRouter reaches. The SystemC module EthosU runs one command stream at a time on it.

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "models/mem/axi_port.h"
#include "models/mem/event_queue.h"
#include "models/npu/command_processor.h"
#include "models/npu/npu_observer.h"
#include "models/npu/npu_stats.h"
#include "models/npu/npu_units.h"
#include "models/npu/pmu.h"
#include "sim/config/region_map.h"
#include "sim/config/system_params.h"

namespace npusim::npu {

// One NPU port: its link (bus width, the driver's AXI_LIMIT: burst split and outstanding
// transactions, its memory lane) and the timing adapter in front of it: its own (`adapter`, all
// zero: none) or one it shares with the other ports of its group (`sharedAdapter` >= 0).
struct NpuPortParams {
  mem::AxiPortParams link;
  config::TimingAdapterParams adapter;
  int sharedAdapter = -1;  // index into NpuModuleParams::sharedAdapters
};

// What the NPU needs of the system: its hardware configuration, its clock, where the driver's
// REGIONCFG / QCONFIG put each region and the command stream (a Vela memory area, whose ports
// the module's sockets are), and its ports.
struct NpuModuleParams {
  const arch::NpuConfig* hardware = nullptr;
  double clockHz = 500e6;
  config::RegionMap regions;
  arch::AreaId commandStreamArea;
  std::vector<NpuPortParams> ports;                          // in arch::PortId order
  std::vector<config::TimingAdapterParams> sharedAdapters;   // adapters a group of ports passes

  // The module's view of a bound system configuration (npu.adapter_per_area: the ports of an area
  // pass one adapter, its first port's).
  static NpuModuleParams of(const config::SystemParams& p);
};

class NpuCore : public NpuTransport,
                public UnitListener,
                public CommandProcessor::Fetch,
                public CommandProcessor::Listener {
public:
  // The NPU of `params` against `memories`; its counts go to `pmu`.
  NpuCore(const NpuModuleParams& params, mem::MemoryRouter& memories, Pmu& pmu);
  NpuCore(const NpuCore&) = delete;
  NpuCore& operator=(const NpuCore&) = delete;

  // Runs `program` (fetched from `qbase`, regions at `basep`) from cycle `start` to its end, which
  // it returns; its operations are recorded under `invocation`.
  double run(const cmd::Program& program, uint64_t qbase, const std::array<uint64_t, 8>& basep, double start,
             uint32_t invocation);
  const NpuStats& stats() const { return stats_; }
  void setObserver(NpuObserver* observer);
  void setBurstObserver(arch::PortId port, mem::BurstObserver* observer) { ports_.at(port.index)->setObserver(observer); }

  void transfer(uint8_t region, uint64_t offset, mem::Direction dir, const mem::TransferShape& shape, double start,
                PortBytes& bytes, mem::TransferSink& sink, uint64_t token) override;
  void fetch(uint64_t address, uint32_t bytes, double start, mem::TransferSink& sink, uint64_t token) override;
  void kernelDone(size_t record, const KernelTiming& timing) override;
  void dmaDone(size_t record, const DmaTiming& timing) override;
  void streamDone(double started, double end) override;

private:
  NpuModuleParams params_;
  Pmu& pmu_;
  mem::EventQueue queue_;
  std::deque<mem::AdapterSlot> adapters_;            // stable addresses: ports point into it
  std::vector<std::unique_ptr<mem::AxiPort>> ports_;
  NpuStats stats_;
  KernelUnit kernel_;
  DmaUnit dma_;
  CommandProcessor commands_;
  std::array<std::vector<arch::PortId>, 8> regionPorts_{};
  std::array<size_t, 8> regionTurn_{};   // the port of its group a region's next transfer takes
  arch::PortId commandPort_;
  std::array<uint64_t, 8> basep_{};
  bool running_ = false;
  double end_ = 0;
};

} // namespace npusim::npu
