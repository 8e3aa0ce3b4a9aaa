// SPDX-License-Identifier: Apache-2.0
#pragma once
// Burst-level AXI timing in plain C++: a memory's data-path timelines, the timing adapter that
// may sit between an NPU port and the interconnect, and an initiator's outstanding-transaction
// window. Times are in NPU clock cycles (double).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/config/system_params.h"

namespace npusim::mem {

using config::TimingAdapterParams;

enum class Direction : uint8_t { Read, Write };

// The shape of one transfer: `runs` contiguous runs of `runBytes` bytes each.
// `window` > 0 bounds the bytes of the transfer in flight: a burst is issued only once the burst
// `window` bytes before it has completed (a stream read through a FIFO of that size). `address`
// is where the first run starts (an offset in its region where the NPU's units plan the transfer,
// the bus address once its port has added the region's base) and `runStride` the distance from
// one run's start to the next (0: the runs follow each other); they place the bursts on the data
// beats (a run that does not start on a beat boundary takes an extra beat at each end it spills).
// `pieceBytes` splits runs into the unit's own bursts.
struct TransferShape {
  uint64_t runs = 1;
  uint64_t runBytes = 0;
  uint64_t window = 0;
  uint64_t address = 0;
  uint64_t runStride = 0;
  // > 0: the unit moves each run in pieces of at most this many bytes from the run's start, each
  // its own burst (the output unit's NHWC writes); 0: runs split only at the port's burst limit.
  uint64_t pieceBytes = 0;
  uint64_t bytes() const { return runs * runBytes; }
};

// The occupancy of one data path: one interval per burst, first come first served by the time
// its data is ready. Units book traffic ahead of simulated time, so a burst booked later may be
// ready earlier than bursts already booked: it then goes first, and the later-ready bursts it
// overlaps move back by what it takes (their completion times were already reported, so they
// finish up to one burst early, but the path's occupancy stays exact for everything booked
// afterwards). Without this, whichever unit books first would win the path and a memory made
// slower could make a network faster.
// The intervals are kept in one vector ordered by data-ready time, which is also their order in
// time (bookings land near its end, moved intervals shift in place), so a reservation is a
// binary search and allocates nothing once the vector has grown.
class BusyTimeline {
public:
  // Reserves `duration` cycles for data ready at `ready`; returns the start of the reservation.
  double reserve(double ready, double duration);
  // Forgets intervals that end before `horizon` (no caller books earlier than that).
  void retire(double horizon);

private:
  struct Interval {
    double start, end, ready;
  };
  std::vector<Interval> busy_; // from head_ on: ready times and starts in order, no overlaps
  size_t head_ = 0;            // intervals before it are retired
};

// Transactions in flight (start -> done) ordered by completion, oldest first, so that the
// outstanding-transaction limits are answered from the latest completions backwards and
// retiring drops a prefix: no scan of the whole window and no allocation per transaction.
class CompletionWindow {
public:
  void add(double start, double done);
  // Forgets transactions that completed before `horizon`.
  void retire(double horizon);
  // The earliest time >= t at which fewer than `limit` (>= 1) transactions of `a` (and `b`) are
  // in flight (start <= t < done): t itself, or the completion that leaves limit - 1 of them.
  static double slotFree(double t, uint32_t limit, const CompletionWindow& a, const CompletionWindow* b = nullptr);

private:
  struct Entry {
    double start, done;
  };
  // The entries that can be in flight at t: those done after t, less those done so late that
  // they started after t (done > t + the longest duration of the window).
  size_t walkEnd(double t) const;

  std::vector<Entry> entries_; // from head_ on: done in non-decreasing order
  size_t head_ = 0;
  double longest_ = 0;         // the longest done - start of the entries kept (an upper bound)
};

// Timing of one memory device behind the interconnect: bandwidth (bytes per cycle = port width
// x clock scale) and a fixed access latency per burst. Reads and writes share one data path
// (a single-ported SRAM or flash; Vela's access-cycle formula adds them too) unless
// `separateReadWrite`, when each direction has its own (AXI's independent read and write data
// channels all the way to a dual-ported memory).
class MemoryTiming {
public:
  MemoryTiming(double bytesPerCycle, double readLatency, double writeLatency, bool separateReadWrite = false)
      : bytesPerCycle_(bytesPerCycle), latency_{readLatency, writeLatency}, separate_(separateReadWrite) {}

  double latency(Direction d) const { return latency_[static_cast<size_t>(d)]; }
  // Reserves the data path of direction `d` for `bytes` no earlier than `ready`; returns when the
  // data is done and adds the wait for a free gap to `contention`.
  double occupy(Direction d, double ready, uint64_t bytes, double* contention);
  void retire(double horizon);

private:
  double bytesPerCycle_;
  double latency_[2];
  bool separate_;
  BusyTimeline path_[2]; // [0] reads (or both directions), [1] writes when separate
};

// One timing adapter: admits a transaction's address when a pending slot is free, the pulse is
// on and the pulse cycle's word counter is below the cap (the last admitted transaction may
// overshoot it); holds read data until the minimum latency after admission and the write
// response until the minimum latency after the last data beat. The counter is read at the
// transaction's time, like the hardware's: the units book traffic ahead of simulated time, and
// words booked later in the pulse cycle by another unit do not hold back a transaction that is
// ready earlier (they were admitted as if it were not there; they keep their times).
class TimingAdapter {
public:
  explicit TimingAdapter(const TimingAdapterParams& params) : p_(params) {}
  // No register set: every transaction passes unchanged.
  bool transparent() const { return p_.transparent(); }

  // The earliest time >= `ready` at which a transaction of `words` bus words (data beats) in direction
  // `dir` is admitted; books its word count into that pulse cycle.
  double admit(Direction dir, double ready, uint64_t words);
  // Records the admitted transaction as pending from `admitted` to `done`.
  void complete(Direction dir, double admitted, double done);
  double minimumLatency(Direction dir) const { return dir == Direction::Read ? p_.readLatency : p_.writeLatency; }
  // Forgets transactions that completed and pulse cycles that ended before `horizon`.
  void retire(double horizon);

private:
  struct PulseWords {
    uint64_t cycle, words;
  };
  struct Admission {
    double time;
    uint64_t words;
  };
  // Index in words_ of pulse cycle `cycle`, or where it would be inserted.
  size_t pulseIndex(uint64_t cycle) const;
  // The pulse cycle's word counter at time t: the words of its transactions admitted by then.
  uint64_t wordsBy(uint64_t cycle, double t) const;
  // Counts `words` admitted at t into pulse cycle `cycle`.
  void book(uint64_t cycle, double t, uint64_t words);
  // Of `added` words just booked into `cycle`, those beyond its cap.
  uint64_t overCap(uint64_t cycle, uint64_t added) const;
  TimingAdapterParams p_;
  CompletionWindow pending_[2];       // admitted -> done, per direction
  std::vector<PulseWords> words_;     // from wordsHead_ on: pulse cycles in order, their words
  std::vector<Admission> admissions_; // from admissionsHead_ on: admitted transactions in time order
  size_t wordsHead_ = 0, admissionsHead_ = 0;
};

// Counters one initiator port keeps (AXI beats, bursts, stall cycles); the links add each burst
// to the counters of the port it came from.
struct PortCounters {
  uint64_t readBytes = 0, writeBytes = 0;
  uint64_t readBeats = 0, writeBeats = 0;
  uint64_t readBursts = 0, writeBursts = 0;
  double readLimitStall = 0, writeLimitStall = 0; // waiting for a free outstanding slot
  double adapterStall = 0;                        // waiting for the timing adapter to admit
  double contention = 0;                          // waiting for the memory's data path
};

// One AXI burst as a port booked it (for timeline traces).
struct BurstEvent {
  Direction dir = Direction::Read;
  uint64_t bytes = 0, beats = 0;
  double ready = 0;   // the burst could have issued (data ready, previous address phase done)
  double issue = 0;   // address accepted (after outstanding-limit and timing-adapter waits)
  double done = 0;    // last data beat (read) or write response
};

// Sees every burst of a link; AxiLinkTiming calls it only when one is attached.
class BurstObserver {
public:
  virtual ~BurstObserver() = default;
  virtual void burst(const BurstEvent& event) = 0;
};

// The link from one AXI manager port of an initiator into the memory system: splits transfers
// into bursts at the burst-split alignment, limits outstanding reads and writes, passes each
// burst through the link's timing adapter (when it has one) and times it on the memory.
class AxiLinkTiming {
public:
  AxiLinkTiming(uint32_t bytesPerBeat, uint32_t maxBurstBytes, uint32_t maxReads, uint32_t maxWrites,
                const TimingAdapterParams& adapter = {});

  // Times a transfer that may start issuing at `start`; returns the completion time of its
  // last burst and adds its bursts to `counters` (the initiator port's; null: nobody counts).
  // Contract: calls are made in non-decreasing simulation time per caller.
  double transfer(MemoryTiming& memory, Direction dir, double start, const TransferShape& shape,
                  PortCounters* counters);

  // Passes every burst through `shared` (an adapter other links pass too, kept by the caller)
  // instead of the link's own.
  void shareAdapter(TimingAdapter& shared) {
    shared_ = &shared;
    hasAdapter_ = !shared.transparent();
  }
  // Reports every burst to `observer` (null: none, the default).
  void setObserver(BurstObserver* observer) { observer_ = observer; }
  // Forgets bursts that completed before `horizon`.
  void retire(double horizon);

private:
  double issueBurst(MemoryTiming& memory, Direction dir, double ready, uint64_t address, uint64_t bytes,
                    double* issued, PortCounters& counters);
  std::vector<double> windowDone_; // completions of the current windowed transfer's bursts
  uint32_t bytesPerBeat_;
  uint32_t maxBurstBytes_;
  uint32_t limit_[2];
  TimingAdapter& adapter() { return shared_ != nullptr ? *shared_ : own_; }
  bool hasAdapter_;
  TimingAdapter own_;
  TimingAdapter* shared_ = nullptr; // an adapter shared with other links, else own_ is used
  CompletionWindow inflight_[2]; // booked bursts (issue -> done) not yet retired
  BurstObserver* observer_ = nullptr;
};

} // namespace npusim::mem
