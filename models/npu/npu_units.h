// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Ethos-U's execution units as event-driven models in plain C++: the kernel pipeline (IFM
// fetch, weight fetch, MAC array, output unit, OFM write per OFM block) and the DMA engine. They
// run on an EventQueue and start their AXI traffic through an NpuTransport, which tells them
// when each transfer has completed; times are NPU cycles.

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "models/mem/axi_port.h"
#include "models/mem/event_queue.h"
#include "models/mem/memory_timing.h"
#include "models/npu/block_plan.h"
#include "models/npu/npu_observer.h"
#include "sim/arch/npu_config.h"
#include "sim/cmdstream/operation.h"

namespace npusim::npu {

// Bytes moved per NPU port by one operation; a port it did not use reads 0. Held in place (one
// record per operation, no allocation): up to kMaxPorts ports, more than any Ethos-U has (the
// U85: 4 SRAM + 2 EXT); EthosU checks its configuration against it.
class PortBytes {
public:
  static constexpr size_t kMaxPorts = 8;
  void add(arch::PortId port, mem::Direction dir, uint64_t n) { bytes_.at(port.index)[static_cast<size_t>(dir)] += n; }
  uint64_t read(arch::PortId port) const { return of(port, mem::Direction::Read); }
  uint64_t write(arch::PortId port) const { return of(port, mem::Direction::Write); }

private:
  uint64_t of(arch::PortId port, mem::Direction dir) const {
    return port.index < bytes_.size() ? bytes_[port.index][static_cast<size_t>(dir)] : 0;
  }
  std::array<std::array<uint64_t, 2>, kMaxPorts> bytes_{}; // per port: read, write (Direction order)
};

// How a unit reaches memory: region + offset, as the command stream addresses it.
class NpuTransport {
public:
  virtual ~NpuTransport() = default;
  // Starts a transfer whose first burst may go at `start` (>= the queue's time), adds its bytes
  // to `bytes` under the NPU ports it uses, and calls sink.transferDone(token) when it completes.
  virtual void transfer(uint8_t region, uint64_t offset, mem::Direction dir, const mem::TransferShape& shape,
                        double start, PortBytes& bytes, mem::TransferSink& sink, uint64_t token) = 0;
  // The ports a region's transfers share (a U85 port group; 1 elsewhere).
  virtual size_t portsOf(uint8_t region) const = 0;
};

// Timing of one kernel operation.
struct KernelTiming {
  double start = 0, end = 0;
  double macCycles = 0, outputCycles = 0;
  uint64_t blocks = 0;
  double stallIfm = 0;        // MAC array waiting for IFM data
  double stallWeights = 0;    // MAC array waiting for weights
  double stallOutput = 0;     // MAC array waiting for a free accumulator buffer (output unit busy)
  double stallBlockdep = 0;   // first block waiting for the previous operation's OFM (BLOCKDEP)
  double stallShramReconfig = 0; // first block waiting for the previous operation to leave SHRAM (new layout)
  double writeTail = 0;       // end minus the last block's output-unit end: the final OFM write
  PortBytes bytes;
};

struct DmaTiming {
  double start = 0, end = 0;
  PortBytes bytes;
};

// Told when a unit has finished an operation (at the queue's time, its end).
class UnitListener {
public:
  virtual ~UnitListener() = default;
  virtual void kernelDone(size_t record, const KernelTiming& timing) = 0;
  virtual void dmaDone(size_t record, const DmaTiming& timing) = 0;
  // An operation's first block has its IFM fetch (the operation's start) at `at` (now or later).
  virtual void kernelStarted(double at) = 0;
};

// The kernel pipeline. Each OFM block goes through, in order: weight and scale fetch (as soon as
// its operation is dispatched and a decoded-weight buffer is free), IFM fetch (an IFM buffer free,
// the previous operation's OFM written as far as BLOCKDEP says, the SHRAM laid out for the
// operation), MAC array (inputs and weights arrived, an accumulator buffer free), output unit,
// OFM write. Buffers are double: block b reuses the buffers of block b - 2, across operations.
class KernelUnit : public mem::TransferSink {
public:
  KernelUnit(const arch::NpuConfig& npu, mem::EventQueue& queue, NpuTransport& transport, UnitListener& listener);
  // Queues `op`, dispatched at the queue's time; operations run in order, each overlapping the
  // previous one as its BLOCKDEP allows. Contract: `op` outlives its run.
  void dispatch(const cmd::Operation& op, size_t record);
  // Reports every block's stage times to `observer` (null: none, the default).
  void setObserver(NpuObserver* observer) { sink_ = observer; }
  bool idle() const { return ops_.empty(); }
  void transferDone(uint64_t token) override;

private:
  // One dispatched operation.
  struct OpRun {
    OpRun(const arch::NpuConfig& npu, const cmd::Operation& o, double at, size_t rec)
        : op(&o), issue(at), record(rec), plan(npu, o), blocks(plan.blockCount()) {}
    const cmd::Operation* op;
    double issue;
    size_t record;
    BlockPlan plan;
    uint64_t blocks;
    uint64_t first = 0;          // global index of its first block
    KernelTiming timing;
    std::array<uint64_t, cmd::kMaxWeightStreams> weightOffset{}, scaleOffset{};
    std::vector<double> written; // per block: when its OFM write completed (-1: not yet)
    uint64_t writes = 0;         // blocks written
    std::vector<double> writtenUpTo; // for the written prefix of blocks 0..k: the latest write among them
    double end = 0;              // the latest write so far
    double lastAoDone = -1;      // its last block's output-unit end, once run
    double aoFreeAfter = 0;
  };
  // A block between its first fetch and its MAC run (at most four: fetches run two ahead).
  struct BlockRun {
    uint64_t global = UINT64_MAX;
    BlockWork work;
    double fetch = 0, wFetch = 0;
    uint32_t ifmPending = 0, ifmFirstPending = 0, weightPending = 0, weightFirstPending = 0;
    double ifmDone = 0, weightDone = 0;
    double ifmFirst = 0;      // the first part of each input in (elementwise)
    double weightFirst = 0;   // the first word of each weight stream in
    // Staggered weight streams (Architecture::weightStreamsStaggered, an operation's first block):
    // the next stream to request once the last requested one's first word is in
    // (kMaxWeightStreams: none), and where each stream's slice of the block starts.
    size_t nextWeightStream = cmd::kMaxWeightStreams;
    std::array<uint64_t, cmd::kMaxWeightStreams> weightSliceStart{};
    // Every weight and scale slice of the block requested and in.
    bool weightsIn() const {
      return weightPending == 0 && weightFirstPending == 0 && nextWeightStream == cmd::kMaxWeightStreams;
    }
  };
  enum class Token : uint64_t { Ifm = 0, Weights = 1, Ofm = 2, WeightsFirst = 3, IfmFirst = 4 };
  static uint64_t token(Token kind, uint64_t op, uint64_t block) { return (uint64_t(kind) << 60) | (op << 32) | block; }
  // Runs every stage that can go now.
  void advance();
  OpRun& opOf(uint64_t index) { return ops_[index - opBase_]; }
  const OpRun& opOf(uint64_t index) const { return ops_[index - opBase_]; }
  // The operation holding global block `g`, from the stage cursor `op` (advanced past earlier ops).
  bool locate(uint64_t g, uint64_t& op);
  BlockRun& slot(uint64_t g);
  // Block g's run if the ring holds it (between its first fetch and its MAC run), else null.
  const BlockRun* held(uint64_t g) const {
    const BlockRun& s = ring_[g % ring_.size()];
    return s.global == g ? &s : nullptr;
  }
  bool fetchWeights(uint64_t g);
  // Requests weight stream `i`'s slice of block g (of operation `index`) from cycle `at`.
  void readWeightSlice(uint64_t g, uint64_t index, size_t i, double at);
  // The first weight stream from `from` on with a slice in block `s` (kMaxWeightStreams: none).
  static size_t nextWeightSlice(const BlockRun& s, size_t from);
  // Whether a kernel block's MAC array takes its IFM window as it streams in
  // (Architecture::macStreamsIfm; kernels are the blocks with MAC work).
  bool ifmStreamsIntoMac(const BlockWork& b) const { return npu_.arch->macStreamsIfm && b.macCycles > 0; }
  bool fetchIfm(uint64_t g);
  bool runMac(uint64_t g);
  // When block j of operation `index` may read its IFM as far as the previous operation is
  // concerned: its OFM written as BLOCKDEP says, its SHRAM left for a new layout.
  struct Dependency {
    double blockdep = 0, shram = 0;
  };
  // nullopt while that is not known yet.
  std::optional<Dependency> dependency(uint64_t index, uint64_t j);
  // When the output unit of the operation before `index` drains its last accumulators (0 for the
  // first operation; nullopt while that is not known yet).
  std::optional<double> previousOutputDone(uint64_t index) const;
  void written(uint64_t op, uint64_t block);

  const arch::NpuConfig& npu_;
  mem::EventQueue& queue_;
  NpuTransport& transport_;
  UnitListener& listener_;
  NpuObserver* sink_ = nullptr;
  std::deque<OpRun> ops_;       // dispatched and not yet retired
  uint64_t opBase_ = 0;         // operation index of ops_.front()
  uint64_t blocks_ = 0;         // global blocks of the dispatched operations
  uint64_t wNext_ = 0, fNext_ = 0, mNext_ = 0;  // stage cursors (global blocks)
  uint64_t wOp_ = 0, fOp_ = 0, mOp_ = 0;        // the operation each cursor is in
  std::array<BlockRun, 4> ring_{};
  double macFree_ = 0, aoFree_ = 0;
  double decoderFree_ = 0;  // the weight decoders have decoded everything fetched before then
  std::array<double, 2> ifmBufferFree_{}, weightBufferFree_{}, accBufferFree_{};
  // The operation before the oldest one kept, once retired: its end, its blocks' written times
  // (the last eight, running maximum), its SHRAM layout and accumulator format.
  struct Retired {
    double end = 0;
    std::vector<double> tail;
    uint64_t blocks = 0;
    std::optional<cmd::ShramLayout> shram;
    cmd::AccFormat accFormat = cmd::AccFormat::Int32;
    double lastAoDone = 0;
  };
  std::optional<Retired> retired_;
  // Block events waiting for their OFM write (only with a sink attached), in block order.
  struct PendingEvent {
    uint64_t global;
    size_t record;
    BlockEvent event;
    bool written;
  };
  std::deque<PendingEvent> pendingEvents_;
};

// The DMA engine: one transfer at a time, through one buffer of `chunkBytes` (NpuConfig) taken
// in steps of `stepBytes`: a step is read into a free part of the buffer, then written out, and
// the part is free again once written. With one step the buffer's size, the next read waits for
// the previous write (U55, U65); with smaller steps the buffer streams (U85). docs/timing-model.md
// has the evidence. SHRAM destinations (LUT loads) take no AXI write.
class DmaUnit : public mem::TransferSink, public mem::EventTarget {
public:
  DmaUnit(mem::EventQueue& queue, NpuTransport& transport, uint32_t chunkBytes, UnitListener& listener,
          uint32_t stepBytes = 0)
      : queue_(queue), transport_(transport), listener_(listener),
        step_(std::max<uint32_t>(1, stepBytes > 0 && stepBytes < chunkBytes ? stepBytes : chunkBytes)),
        slots_(std::max<uint32_t>(1, chunkBytes / step_)) {}
  // Queues `dma`, dispatched at the queue's time. Contract: `dma` outlives its run.
  void dispatch(const cmd::DmaTransfer& dma, size_t record);
  bool idle() const { return jobs_.empty(); }
  void transferDone(uint64_t token) override;
  void onEvent(uint32_t kind, uint64_t data) override;

private:
  struct Job {
    const cmd::DmaTransfer* dma;
    double issue;
    size_t record;
  };
  // Starts the front job when the engine is free.
  void startJob();
  // Starts the next buffer's read, or finishes the job.
  void nextStep();
  mem::EventQueue& queue_;
  NpuTransport& transport_;
  UnitListener& listener_;
  uint32_t step_;   // bytes read per step (at least 1)
  uint32_t slots_;  // steps the buffer holds
  // A step: a part of the buffer read and not yet written out.
  struct Step {
    uint64_t index = 0, dst = 0, rows = 1, bytes = 0;
  };
  std::deque<Job> jobs_;
  bool running_ = false;
  DmaTiming timing_;
  double bufferFree_ = 0, busyUntil_ = 0;
  uint64_t z_ = 0, y_ = 0, offset_ = 0;   // the next step
  bool cursorDone_ = false;               // every step of the job issued
  uint64_t nextIndex_ = 0;
  std::deque<Step> steps_;
};

} // namespace npusim::npu
