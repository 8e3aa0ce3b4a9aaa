// SPDX-License-Identifier: Apache-2.0
#pragma once
// One AXI manager port as an event-driven model in plain C++: it splits transfers into bursts at
// the port's burst limit (and the unit's pieces), issues one burst address per cycle and
// direction, keeps at most the port's outstanding limit of bursts of each direction in flight,
// passes each burst through the timing adapter in front of the interconnect (when the platform has
// one, possibly shared by a group of ports) and times its data on the memory that holds its
// address. Every decision is taken at the event of its time (EventQueue), first come first served
// by the time a burst could go, so the limits hold at every instant and nothing decided moves.
// Its bursts go to npusim's memories (a MemoryRouter), or each to a BurstTarget: a TLM-2.0 target
// the NPU reaches through its socket (models/npu), called when the burst's address is accepted.

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "models/mem/event_queue.h"
#include "models/mem/memory_timing.h"

namespace npusim::mem {

// Receives the completion of a transfer it started.
class TransferSink {
public:
  virtual ~TransferSink() = default;
  // The transfer started with `token` is complete (its last burst's last data beat, or write
  // response) at the queue's current time.
  virtual void transferDone(uint64_t token) = 0;
};

// The memory instances behind the interconnect, by address range.
class MemoryRouter {
public:
  // Adds the instance `memory` at [base, end); returns its index. Contract: ranges are disjoint.
  size_t add(uint64_t base, uint64_t end, MemoryTiming& memory);
  // The index of the instance holding [address, address + bytes) (std::out_of_range when none).
  size_t route(uint64_t address, uint64_t bytes) const;
  MemoryTiming& memory(size_t index) { return *ranges_.at(index).memory; }
  uint64_t base(size_t index) const { return ranges_.at(index).base; }
  size_t size() const { return ranges_.size(); }

private:
  struct Range {
    uint64_t base, end;
    MemoryTiming* memory;
  };
  std::vector<Range> ranges_;
};

// How a BurstTarget served a burst: when its data moved (the last beat at `dataEnd`), in which of
// npusim's memories (0 for another target's), and how long it waited for a busy data path (0
// where the target does not say).
struct BurstAnswer {
  double dataStart = 0, dataEnd = 0;
  size_t memory = 0;
  double contention = 0;
};

// Where a port's bursts go when they are not timed on npusim's memories: one TLM-2.0 transaction
// each (models/npu's socket target), called in time order at the burst's issue.
class BurstTarget {
public:
  virtual ~BurstTarget() = default;
  // Moves the burst of `bytes` (`beats` data beats) at `address`, accepted at `issue` (the queue's
  // time), from or to `data` (null: the transfer carries no data); its data ends no earlier than
  // `issue`. `lane` is the port's memory lane, `minLatency` what a timing adapter in front of the
  // target holds read data back (0: none), for a target that can use them.
  virtual BurstAnswer burst(Direction dir, uint64_t address, uint64_t bytes, uint64_t beats, uint8_t* data,
                            double issue, uint32_t lane, double minLatency) = 0;
  // The target refused a burst (an error response: a bus abort); it takes no more.
  virtual bool refused() const = 0;
};

// A port's own link parameters (the driver's AXI_LIMIT and the bus).
struct AxiPortParams {
  uint32_t bytesPerBeat = 8;
  uint32_t maxBurstBytes = 64;
  uint32_t maxReads = 1, maxWrites = 1;
  uint32_t lane = 0;          // the memory lane it uses (its position in its port group)
};

class AxiPort;

// A timing adapter passed by one port or shared by a group of ports (Corstone-320: one per port
// group). When it frees a pending slot or opens a pulse cycle, the bursts that wait only for it go
// first come first served by the time they could have gone, whichever port of the group they are on.
class AdapterSlot : public EventTarget {
public:
  AdapterSlot(EventQueue& queue, const TimingAdapterParams& params) : adapter(params), queue_(queue) {}
  TimingAdapter adapter;
  std::vector<AxiPort*> ports;
  // Lets the waiting bursts of its ports try in ready-time order, as long as it admits them.
  void arbitrate();
  // Arbitrates at `t` (a pulse cycle that opens).
  void arbitrateAt(double t);
  void onEvent(uint32_t kind, uint64_t data) override;

private:
  EventQueue& queue_;
  double at_ = EventQueue::kNever;   // an arbitration scheduled then
};

class AxiPort : public EventTarget {
public:
  // Stream ids a port tells apart (TransferShape::stream < kMaxStreams).
  static constexpr size_t kMaxStreams = 32;
  // `adapter` null: no timing adapter. The port adds every burst to `counters`.
  AxiPort(EventQueue& queue, const AxiPortParams& params, MemoryRouter& memories, PortCounters& counters,
          AdapterSlot* adapter = nullptr);
  // The same with its bursts going to `target` instead of npusim's memories.
  AxiPort(EventQueue& queue, const AxiPortParams& params, BurstTarget& target, PortCounters& counters,
          AdapterSlot* adapter = nullptr);
  AxiPort(const AxiPort&) = delete;
  AxiPort& operator=(const AxiPort&) = delete;

  // Starts a transfer of `shape` (shape.address: the bus address of its first run) whose first
  // burst may issue at `start` (>= the queue's time); calls sink.transferDone(token) when its last
  // burst completes (an empty transfer completes at `start`). Throws std::out_of_range when a
  // burst's address is not in a memory. With a BurstTarget, `data` holds the transfer's bytes
  // (its runs packed, shape.bytes() of them; null: none) until it completes.
  void transfer(Direction dir, double start, const TransferShape& shape, TransferSink& sink, uint64_t token,
                uint8_t* data = nullptr);
  // The burst split and outstanding limits from now on (the driver's AXI limit registers);
  // transfers already started keep their burst split.
  void setLimits(uint32_t maxBurstBytes, uint32_t maxReads, uint32_t maxWrites);
  // Reports every burst to `observer` (null: none, the default).
  void setObserver(BurstObserver* observer) { observer_ = observer; }
  const AxiPortParams& params() const { return p_; }
  // Bursts still to issue or in flight (0 once every transfer has completed).
  size_t busy() const { return active_; }
  // When the burst that would go next in direction `d` could have gone, if it waits for its timing
  // adapter alone now; kNever otherwise.
  double waitingForAdapter(Direction d);
  // Issues the best waiting burst of direction `d` at the current time if the rules allow it (true
  // when it did), and schedules the next attempt.
  bool issue(Direction d);

  void onEvent(uint32_t kind, uint64_t data) override;

private:
  enum Event : uint32_t { kTryRead, kTryWrite, kArrive, kData, kDone, kEmpty };
  enum class Block : uint8_t { None, Limit, Adapter };
  struct Transfer {
    Direction dir = Direction::Read;
    TransferShape shape;
    TransferSink* sink = nullptr;
    uint64_t token = 0;
    uint64_t order = 0;
    uint64_t burstBytes = 0, stride = 0;
    uint64_t run = 0, offset = 0;  // the next burst to issue
    uint64_t issuedBytes = 0;      // bytes of the bursts issued so far
    uint64_t window = 0;           // most data beats in flight (0: no window)
    uint64_t inflight = 0;         // bursts in flight
    uint64_t inflightBeats = 0;    // their data beats (counted with a window)
    double ready = 0;              // when its next burst may request the address channel
    uint8_t* data = nullptr;       // its bytes (a BurstTarget's transfers)
    bool live = false;
  };
  struct Burst {
    uint32_t transfer = 0;
    BurstEvent event;
  };
  // An unconstrained transfer's place among its channel's: by the time its next burst may go, then
  // by submission. `ready` only grows; while the transfer stays before the next entry it is updated
  // in place (the set's order is unchanged), which spares the set a removal and an insertion at
  // most of the bursts a transfer issues.
  struct FreeEntry {
    mutable double ready;
    uint64_t order;
    uint32_t transfer;
    bool operator<(const FreeEntry& o) const { return ready < o.ready || (ready == o.ready && order < o.order); }
  };
  struct Channel {
    uint32_t limit = 1;
    uint32_t inflight = 0;
    double addrFree = 0;                 // the address channel's next free cycle
    // Started transfers with bursts to issue: those in a stream or with a window (which may have
    // to wait for others) in submission order, the rest by (ready time, submission order).
    std::vector<uint32_t> waiting;
    std::set<FreeEntry> free;
    double tryAt = EventQueue::kNever;   // an issue attempt scheduled then
    Block block = Block::None;           // why the channel could not issue, since `blockedAt`
    double blockedAt = 0;
    // best()'s answer while the port's state is at `bestVersion` (a group's arbitration asks
    // every port each time one of them issues).
    mutable uint64_t bestVersion = UINT64_MAX;
    mutable uint32_t bestTransfer = kNone;
    bool idle() const { return waiting.empty() && free.empty(); }
  };
  static constexpr uint32_t kNone = UINT32_MAX;
  // The public constructors' shared part: bursts to `memories` or, when null, to `target`.
  AxiPort(EventQueue& queue, const AxiPortParams& params, MemoryRouter* memories, BurstTarget* target,
          PortCounters& counters, AdapterSlot* adapter);
  // Whether a transfer may have to wait for others (its stream's older ones, its window).
  static bool constrained(const Transfer& t) { return t.shape.stream != 0 || t.window > 0; }
  Channel& channel(Direction d) { return channels_[static_cast<size_t>(d)]; }
  const Channel& channel(Direction d) const { return channels_[static_cast<size_t>(d)]; }
  void scheduleTry(Direction d, double t);
  // Puts transfer `index` among its channel's waiting transfers (in submission order) at its start.
  void arrive(uint32_t index);
  // The attempt scheduled for now: issue() unless an earlier attempt superseded it.
  void tryIssue(Direction d);
  // The waiting transfer whose next burst goes first (an index into transfers_), kNone when none
  // may go.
  uint32_t best(Direction d) const;
  void dataReady(uint32_t burst);
  void complete(uint32_t burst);
  uint32_t newTransfer();
  uint32_t newBurst();
  bool hasBurst(const Transfer& t) const { return t.run < t.shape.runs; }
  // A stream's counter: streams are told apart per direction.
  static size_t streamSlot(const Transfer& t) { return 2 * size_t{t.shape.stream} + static_cast<size_t>(t.dir); }
  // The data beats in flight a transfer's window counts: its stream's (unless it has a window of
  // its own), or its own.
  uint64_t inflightBeats(const Transfer& t) const {
    return t.shape.stream != 0 && !t.shape.ownWindow ? streamInflightBeats_.at(streamSlot(t)) : t.inflightBeats;
  }
  uint64_t nextBurstBytes(const Transfer& t) const {
    return std::min<uint64_t>(t.burstBytes, t.shape.runBytes - t.offset);
  }
  // The data beats of a burst of `bytes` from `address` (its first and last partial beats whole).
  uint64_t beatsOf(uint64_t address, uint64_t bytes) const {
    return (address % p_.bytesPerBeat + bytes + p_.bytesPerBeat - 1) / p_.bytesPerBeat;
  }
  uint64_t nextAddress(const Transfer& t) const { return t.shape.address + t.run * t.stride + t.offset; }
  // Whether a transfer's next burst waits for its window.
  bool windowFull(const Transfer& t) const {
    if (t.window == 0) return false;
    const uint64_t inflight = inflightBeats(t);
    return inflight > 0 && inflight + beatsOf(nextAddress(t), nextBurstBytes(t)) > t.window;
  }

  // Times the data of a burst just issued on a BurstTarget and schedules its completion.
  void targetBurst(uint32_t burst, uint8_t* data);

  EventQueue& queue_;
  AxiPortParams p_;
  MemoryRouter* memories_;   // npusim's memories, or null with a BurstTarget
  BurstTarget* target_ = nullptr;
  PortCounters& counters_;
  AdapterSlot* adapter_;
  BurstObserver* observer_ = nullptr;
  Channel channels_[2];
  uint64_t version_ = 0;  // changes whenever a waiting list, a transfer's progress or a count in flight does
  std::vector<Transfer> transfers_;
  std::vector<uint32_t> freeTransfers_;
  std::vector<Burst> bursts_;
  std::vector<uint32_t> freeBursts_;
  uint64_t order_ = 0;
  size_t active_ = 0;
  std::array<uint64_t, 2 * kMaxStreams> streamInflightBeats_{};
};

} // namespace npusim::mem
