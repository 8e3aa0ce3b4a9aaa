// SPDX-License-Identifier: Apache-2.0
#pragma once
// The NPU's timing in plain C++, everything behind its register interface: the command
// processor, the kernel and DMA units and one AXI port per port of its configuration (with the
// timing adapters the platform puts in front of them), all on one EventQueue, against the memories
// a MemoryRouter reaches (npusim's fast path) or through one BurstTarget per port (a TLM-2.0
// socket: then the transfers carry their real bytes and the stream is read from memory). The
// SystemC module EthosU runs one command stream at a time on it.

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
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

// How a command stream ended: at its NPU_OP_STOP, or stopped early by a bus abort or a command
// that could not be parsed; and the NPU_OP_IRQs it raised on the way.
struct StreamOutcome {
  double end = 0;
  bool stopped = true;              // it reached its NPU_OP_STOP
  uint32_t stopMask = 0;            // its interrupt mask
  bool parseError = false;          // stopped by a command that could not be parsed
  std::string why;                  // what stopped it early
  uint32_t parsed = 0;              // the offset after the last command parsed (QREAD)
  struct Interrupt {
    double at = 0;
    uint32_t mask = 0;
  };
  std::vector<Interrupt> interrupts;
};

class NpuCore : public NpuTransport,
                public UnitListener,
                public CommandProcessor::Fetch,
                public CommandProcessor::Listener {
public:
  // The NPU of `params` against `memories`; its counts go to `pmu`.
  NpuCore(const NpuModuleParams& params, mem::MemoryRouter& memories, Pmu& pmu);
  // The same with port i's bursts going to targets[i], with data.
  NpuCore(const NpuModuleParams& params, const std::vector<mem::BurstTarget*>& targets, Pmu& pmu);
  NpuCore(const NpuCore&) = delete;
  NpuCore& operator=(const NpuCore&) = delete;

  // Runs `program` (fetched from `qbase`, regions at `basep`) from cycle `start` to its end; its
  // operations are recorded under `invocation`. Contract: the core is on npusim's memories.
  StreamOutcome run(const cmd::Program& program, uint64_t qbase, const std::array<uint64_t, 8>& basep,
                    double start, uint32_t invocation);
  // Runs the `qsize` bytes at `qbase`, read from memory and decoded as they arrive. Contract: the
  // core's ports have BurstTargets.
  StreamOutcome runFromMemory(uint64_t qbase, uint32_t qsize, const std::array<uint64_t, 8>& basep, double start,
                              uint32_t invocation);
  // Its ports carry data (BurstTargets), or are timed on npusim's memories.
  bool movesData() const { return movesData_; }
  // The area (port group) each region's transfers and the command stream's fetches go to
  // (REGIONCFG, QCONFIG).
  void route(const std::array<arch::AreaId, 8>& regionAreas, arch::AreaId commandStreamArea);
  // Port `port`'s burst split and outstanding limits (its AXI limit registers).
  void setLimits(arch::PortId port, uint32_t maxBurstBytes, uint32_t maxReads, uint32_t maxWrites) {
    ports_.at(port.index)->setLimits(maxBurstBytes, maxReads, maxWrites);
  }

  const NpuStats& stats() const { return stats_; }
  void setObserver(NpuObserver* observer);
  void setBurstObserver(arch::PortId port, mem::BurstObserver* observer) { ports_.at(port.index)->setObserver(observer); }

  void transfer(uint8_t region, uint64_t offset, mem::Direction dir, const mem::TransferShape& shape, double start,
                PortBytes& bytes, mem::TransferSink& sink, uint64_t token) override;
  size_t portsOf(uint8_t region) const override { return regionPorts_[region & 7].size(); }
  void fetch(uint64_t address, uint32_t bytes, double start, mem::TransferSink& sink, uint64_t token) override;
  const uint8_t* fetched() const override { return stream_.data(); }
  // A target refused a burst (a bus abort): the NPU stops.
  bool halted() const override;
  void kernelDone(size_t record, const KernelTiming& timing) override;
  void kernelStarted(double at) override;
  void dmaDone(size_t record, const DmaTiming& timing) override;
  void streamDone(double started, double end) override;
  void streamStopped(double started, const std::string& why, bool parseError) override;
  void interrupt(uint32_t mask) override;

private:
  // A transfer's bytes while it runs (ports with BurstTargets), and whom its completion goes to:
  // a read of the DMA engine keeps its bytes for the engine's write, a command-stream chunk goes
  // to its place in the stream.
  struct Moving : mem::TransferSink {
    NpuCore* core = nullptr;
    mem::TransferSink* sink = nullptr;
    uint64_t token = 0;
    mem::Direction dir = mem::Direction::Read;
    bool fetch = false;
    uint64_t streamOffset = 0;
    std::vector<uint8_t> bytes;
    void transferDone(uint64_t) override { core->moved(*this); }
  };
  void build(const std::vector<mem::BurstTarget*>* targets, mem::MemoryRouter* memories);
  Moving& moving(mem::TransferSink& sink, uint64_t token, mem::Direction dir, uint64_t bytes);
  void moved(Moving& m);
  StreamOutcome finish(double start);
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
  // Bytes given to each port so far, per direction (Direction order), and the port of each
  // region's last transfer.
  std::array<std::array<uint64_t, 2>, PortBytes::kMaxPorts> portLoad_{};
  std::array<arch::PortId, 8> lastPort_{};
  arch::PortId commandPort_;
  std::array<uint64_t, 8> basep_{};
  bool running_ = false;
  bool movesData_ = false;
  std::vector<mem::BurstTarget*> targets_;
  StreamOutcome outcome_;
  std::vector<std::unique_ptr<Moving>> movingPool_;
  std::vector<Moving*> freeMoving_;
  std::vector<uint8_t> dmaBytes_;   // the DMA engine's buffer: its last read
  std::vector<uint8_t> stream_;     // the stream read from memory, as fetched
};

} // namespace npusim::npu
