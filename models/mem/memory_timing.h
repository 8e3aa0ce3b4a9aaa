// SPDX-License-Identifier: Apache-2.0
#pragma once
// Burst-level AXI timing in plain C++: the shape of a transfer, a memory's data paths and the
// timing adapter that may sit between an NPU port and the interconnect, each deciding in time
// order (the AxiPort that drives them runs on an EventQueue). Times are NPU clock cycles.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/config/system_params.h"

namespace npusim::mem {

using config::TimingAdapterParams;

enum class Direction : uint8_t { Read, Write };

// The shape of one transfer: `runs` contiguous runs of `runBytes` bytes each.
// `window` > 0 bounds the bytes of the transfer in flight: a burst is issued only while its data
// beats and those in flight fit in `window` bytes' worth of beats of the port (a stream read
// through a FIFO of that size, which holds bus words: a burst of a few bytes takes a beat, not a
// whole burst's place), or when none is in flight.
// `address` is where the first run starts (an offset in its region where the NPU's units plan the
// transfer, the bus address once its port has added the region's base) and `runStride` the
// distance from one run's start to the next (0: the runs follow each other); they place the
// bursts on the data beats (a run that does not start on a beat boundary takes an extra beat at
// each end it spills). `pieceBytes` splits runs into the unit's own bursts.
struct TransferShape {
  uint64_t runs = 1;
  uint64_t runBytes = 0;
  uint64_t window = 0;
  uint64_t address = 0;
  uint64_t runStride = 0;
  // > 0: the unit moves each run in pieces of at most this many bytes from the run's start, each
  // its own burst (the output unit's NHWC writes); 0: runs split only at the port's burst limit.
  uint64_t pieceBytes = 0;
  // > 0: the transfer belongs to an in-order stream of its unit (a weight decoder reading its
  // stream through its FIFO): a port issues a stream's transfers one after another, never
  // interleaving their bursts; 0: independent.
  uint32_t stream = 0;
  // With a stream: false, the window counts the whole stream's bursts in flight and its transfers go
  // strictly one after another (one FIFO); true, each transfer keeps its own window and a younger
  // one may issue while every older one of the stream waits for its window (a fetch per buffer,
  // the older served first).
  bool ownWindow = false;
  // > 0: the unit produces the transfer's data at this many cycles per byte from cycle `paceFrom`
  // (the output unit writing an OFM block as it computes it): a burst goes only once its data exists.
  double pace = 0;
  double paceFrom = 0;
  // true: the rest of a transfer whose first word the unit started just before as a transfer of
  // its own (to know when that word is in): on the bus it is the same transfer, through the same
  // port.
  bool continuesPrevious = false;
  uint64_t bytes() const { return runs * runBytes; }
};

// Timing of one memory device behind the interconnect: bandwidth (bytes per cycle = port width x
// clock scale x ports used) and a fixed access latency per burst. The memory serves `lanes` ports
// at once (Vela 5.0's ports used), each lane at an equal share of the bandwidth: a port's bursts
// take the lane of its position in its port group, so no port moves more than its share. Reads
// and writes share each lane's data path (a single-ported SRAM or flash; Vela's access-cycle
// formula adds them too) unless `separateReadWrite`, when each direction has its own (AXI's
// independent read and write data channels all the way to a dual-ported memory). A path serves
// bursts first come first served by the time their data is ready, each for its bytes at the lane's
// bandwidth but no less than one cycle per data beat (a port moves one beat per cycle). Contract:
// the calls of one path come in non-decreasing ready time (the event order of the ports that drive
// it); outOfOrder() counts the calls that did not.
class MemoryTiming {
public:
  MemoryTiming(double bytesPerCycle, double readLatency, double writeLatency, bool separateReadWrite = false,
               uint32_t lanes = 1);

  double latency(Direction d) const { return latency_[static_cast<size_t>(d)]; }
  double bytesPerCycle() const { return bytesPerCycle_; }
  uint32_t lanes() const { return lanes_; }
  // The data path a burst of direction `d` on lane `lane` uses (lanes wrap around).
  size_t path(Direction d, uint32_t lane) const;
  // Serves a burst of `bytes` in `beats` data beats of direction `d` on lane `lane` whose data is
  // ready at `ready`: returns when the path starts it; *end gets when its last beat is done.
  double occupy(Direction d, uint32_t lane, double ready, uint64_t bytes, uint64_t beats, double* end);
  uint64_t outOfOrder() const { return outOfOrder_; }

private:
  struct Path {
    double free = 0;       // when its last burst's data ends
    double lastReady = 0;
  };
  double bytesPerCycle_;
  double latency_[2];
  bool separate_;
  uint32_t lanes_;
  std::vector<Path> paths_;  // per lane: reads (or both), then writes when separate
  uint64_t outOfOrder_ = 0;
};

// One timing adapter (Corstone-300/-320, timing doc 5.4): admits a transaction's address while
// its pending slots allow, the pulse is on and the pulse cycle's word counter is below the cap
// (the last admitted transaction may overshoot it); the read data comes no earlier than RLATENCY
// after admission and the write response WLATENCY after the last data beat. Decisions come in
// time order, so the counter is the words admitted earlier in the pulse cycle, as the hardware's.
class TimingAdapter {
public:
  explicit TimingAdapter(const TimingAdapterParams& params) : p_(params), phase_(params.pulsePhase()) {}
  // No register set: every transaction passes unchanged.
  bool transparent() const { return p_.transparent(); }
  const TimingAdapterParams& params() const { return p_; }

  // Admits a transaction of `words` bus words in direction `dir` at time `t` (calls in
  // non-decreasing t) when the rules allow it, counting it as pending until release(). Otherwise
  // returns false and sets *retry to the earliest later time the pulse or the cap may allow it,
  // or to EventQueue::kNever when only a pending transaction's release can.
  bool admit(Direction dir, double t, uint64_t words, double* retry);
  // A pending transaction of `dir` completed.
  void release(Direction dir);
  double minimumLatency(Direction dir) const { return dir == Direction::Read ? p_.readLatency : p_.writeLatency; }

private:
  TimingAdapterParams p_;
  double phase_;                 // p_.pulsePhase(), once
  uint32_t pending_[2] = {0, 0};
  uint64_t cycle_ = 0;           // the pulse cycle the counter counts
  uint64_t words_ = 0;           // words admitted in it
};

// Counters one initiator port keeps (AXI beats, bursts, stall cycles); the port adds each burst
// to them.
struct PortCounters {
  uint64_t readBytes = 0, writeBytes = 0;
  uint64_t readBeats = 0, writeBeats = 0;
  uint64_t readBursts = 0, writeBursts = 0;
  double readLimitStall = 0, writeLimitStall = 0; // waiting for a free outstanding slot
  double adapterStall = 0;                        // waiting for the timing adapter to admit
  double contention = 0;                          // waiting for the memory's data path
};

// One AXI burst as its port ran it (timeline traces, the invariant checker).
struct BurstEvent {
  Direction dir = Direction::Read;
  uint64_t address = 0;
  uint64_t bytes = 0, beats = 0;
  double ready = 0;      // the burst could have issued (its transfer reached it, the address channel free)
  double issue = 0;      // address accepted (after outstanding-limit and timing-adapter waits)
  double dataStart = 0;  // its first data beat on the memory's data path
  double dataEnd = 0;    // its last data beat
  double done = 0;       // read: the last data beat; write: the write response
  size_t memory = 0;     // index of the memory instance that served it
};

// Sees every burst of a port; the port calls it only when one is attached.
class BurstObserver {
public:
  virtual ~BurstObserver() = default;
  virtual void burst(const BurstEvent& event) = 0;
};

} // namespace npusim::mem
