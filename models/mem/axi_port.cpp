// SPDX-License-Identifier: Apache-2.0
#include "models/mem/axi_port.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace npusim::mem {

size_t MemoryRouter::add(uint64_t base, uint64_t end, MemoryTiming& memory) {
  ranges_.push_back({base, end, &memory});
  return ranges_.size() - 1;
}

size_t MemoryRouter::route(uint64_t address, uint64_t bytes) const {
  for (size_t i = 0; i < ranges_.size(); ++i) {
    if (address >= ranges_[i].base && address + bytes <= ranges_[i].end) {
      return i;
    }
  }
  throw std::out_of_range("address " + std::to_string(address) + " is not mapped to a memory");
}

AxiPort::AxiPort(EventQueue& queue, const AxiPortParams& params, MemoryRouter& memories, PortCounters& counters,
                 AdapterSlot* adapter)
    : AxiPort(queue, params, &memories, nullptr, counters, adapter) {}

AxiPort::AxiPort(EventQueue& queue, const AxiPortParams& params, BurstTarget& target, PortCounters& counters,
                 AdapterSlot* adapter)
    : AxiPort(queue, params, nullptr, &target, counters, adapter) {}

AxiPort::AxiPort(EventQueue& queue, const AxiPortParams& params, MemoryRouter* memories, BurstTarget* target,
                 PortCounters& counters, AdapterSlot* adapter)
    : queue_(queue), p_(params), memories_(memories), target_(target), counters_(counters),
      adapter_(adapter != nullptr && !adapter->adapter.transparent() ? adapter : nullptr) {
  setLimits(params.maxBurstBytes, params.maxReads, params.maxWrites);
  if (adapter_ != nullptr) {
    adapter_->ports.push_back(this);
  }
}

void AxiPort::setLimits(uint32_t maxBurstBytes, uint32_t maxReads, uint32_t maxWrites) {
  p_.maxBurstBytes = maxBurstBytes;
  p_.maxReads = maxReads;
  p_.maxWrites = maxWrites;
  channel(Direction::Read).limit = std::max<uint32_t>(maxReads, 1);
  channel(Direction::Write).limit = std::max<uint32_t>(maxWrites, 1);
}

uint32_t AxiPort::newTransfer() {
  if (!freeTransfers_.empty()) {
    const uint32_t i = freeTransfers_.back();
    freeTransfers_.pop_back();
    return i;
  }
  transfers_.emplace_back();
  return static_cast<uint32_t>(transfers_.size() - 1);
}

uint32_t AxiPort::newBurst() {
  if (!freeBursts_.empty()) {
    const uint32_t i = freeBursts_.back();
    freeBursts_.pop_back();
    return i;
  }
  bursts_.emplace_back();
  return static_cast<uint32_t>(bursts_.size() - 1);
}

void AxiPort::transfer(Direction dir, double start, const TransferShape& shape, TransferSink& sink, uint64_t token,
                       uint8_t* data) {
  const uint32_t index = newTransfer();
  Transfer& t = transfers_[index];
  t = Transfer{};
  t.dir = dir;
  t.shape = shape;
  t.sink = &sink;
  t.token = token;
  t.order = order_++;
  t.burstBytes = shape.pieceBytes > 0 ? std::min<uint64_t>(p_.maxBurstBytes, shape.pieceBytes)
                                      : uint64_t{p_.maxBurstBytes};
  t.stride = shape.runStride == 0 ? shape.runBytes : shape.runStride;
  // A windowed transfer keeps at most window bytes' worth of the port's data beats in flight (at
  // least one burst), counted over its whole stream when it belongs to one (the stream's FIFO).
  t.window = shape.window == 0 ? 0 : std::max<uint64_t>(1, shape.window / p_.bytesPerBeat);
  t.ready = start;
  if (shape.pace > 0 && shape.bytes() > 0) {
    t.ready = std::max(start, shape.paceFrom + shape.pace * double(std::min<uint64_t>(t.burstBytes, shape.runBytes)));
  }
  t.data = data;
  t.live = true;
  ++active_;
  if (shape.bytes() == 0) {
    t.run = shape.runs;
    queue_.schedule(start, *this, kEmpty, index);
    return;
  }
  // A transfer joins the arbitration at its start (so it never holds up the choice before then).
  if (start > queue_.now()) {
    queue_.schedule(start, *this, kArrive, index);
  } else {
    arrive(index);
  }
}

void AxiPort::arrive(uint32_t index) {
  const Transfer& t = transfers_[index];
  Channel& ch = channel(t.dir);
  if (constrained(t)) {
    const auto at = std::upper_bound(ch.waiting.begin(), ch.waiting.end(), t.order,
                                     [this](uint64_t order, uint32_t w) { return order < transfers_[w].order; });
    ch.waiting.insert(at, index);
  } else {
    ch.free.insert({t.ready, t.order, index});
  }
  ++version_;
  scheduleTry(t.dir, std::max(queue_.now(), ch.addrFree));
}

void AxiPort::scheduleTry(Direction d, double t) {
  Channel& ch = channel(d);
  t = std::max(t, queue_.now());
  if (t < ch.tryAt) {
    ch.tryAt = t;
    queue_.schedule(t, *this, d == Direction::Read ? kTryRead : kTryWrite);
  }
}

void AdapterSlot::arbitrate() {
  // One burst at a time, the one that could have gone earliest (ties: the first port, reads
  // first), until the adapter refuses or no burst waits for it.
  for (;;) {
    AxiPort* first = nullptr;
    Direction dir = Direction::Read;
    double earliest = EventQueue::kNever;
    for (AxiPort* port : ports) {
      for (const Direction d : {Direction::Read, Direction::Write}) {
        const double ready = port->waitingForAdapter(d);
        if (ready < earliest) {
          earliest = ready;
          first = port;
          dir = d;
        }
      }
    }
    if (first == nullptr || !first->issue(dir)) return;
  }
}

void AdapterSlot::arbitrateAt(double t) {
  if (t < at_) {
    at_ = t;
    queue_.schedule(t, *this);
  }
}

void AdapterSlot::onEvent(uint32_t, uint64_t) {
  if (queue_.now() != at_) return; // superseded by an earlier arbitration
  at_ = EventQueue::kNever;
  arbitrate();
}

double AxiPort::waitingForAdapter(Direction d) {
  const Channel& ch = channel(d);
  const uint32_t i = best(d);
  if (i == kNone || ch.inflight >= ch.limit) return EventQueue::kNever;
  const double ready = std::max(transfers_[i].ready, ch.addrFree);
  return ready <= queue_.now() ? ready : EventQueue::kNever;
}

void AxiPort::tryIssue(Direction d) {
  Channel& ch = channel(d);
  if (queue_.now() != ch.tryAt) {
    return; // superseded by an earlier attempt
  }
  ch.tryAt = EventQueue::kNever;
  issue(d);
}

uint32_t AxiPort::best(Direction d) const {
  // The waiting transfer whose next burst could go first (ties: the older transfer); one whose
  // window is full waits for bursts to complete, and a stream's transfers go oldest first
  // (`waiting` is in submission order, so the first of each stream met is its oldest). The
  // unconstrained transfers' best is the first of their set.
  const Channel& ch = channel(d);
  if (ch.bestVersion == version_) return ch.bestTransfer;
  uint32_t best = kNone;
  double bestReady = EventQueue::kNever;
  uint64_t bestOrder = UINT64_MAX;
  if (!ch.free.empty()) {
    const FreeEntry& first = *ch.free.begin();
    best = first.transfer;
    bestReady = first.ready;
    bestOrder = first.order;
  }
  uint64_t seenStreams = 0;
  for (const uint32_t i : ch.waiting) {
    const Transfer& t = transfers_[i];
    const bool full = windowFull(t);
    if (t.shape.stream != 0) {
      const uint64_t bit = uint64_t{1} << (t.shape.stream % 64);
      const bool younger = (seenStreams & bit) != 0;
      // An older transfer of the stream goes first; with windows of their own, a younger one may
      // go while every older one waits for its window.
      if (!t.shape.ownWindow || !full) seenStreams |= bit;
      if (younger) continue;
    }
    if (full) continue;
    if (best == kNone || t.ready < bestReady || (t.ready == bestReady && t.order < bestOrder)) {
      best = i;
      bestReady = t.ready;
      bestOrder = t.order;
    }
  }
  ch.bestVersion = version_;
  ch.bestTransfer = best;
  return best;
}

bool AxiPort::issue(Direction d) {
  Channel& ch = channel(d);
  const double now = queue_.now();
  const uint32_t index = best(d);
  if (index == kNone) {
    return false;
  }
  Transfer& x = transfers_[index];
  const double ready = std::max(x.ready, ch.addrFree);
  if (ready > now) {
    scheduleTry(d, ready);
    return false;
  }
  // 2. An outstanding slot of the port, then the timing adapter's admission.
  if (ch.inflight >= ch.limit) {
    if (ch.block == Block::None) {
      ch.block = Block::Limit;
      ch.blockedAt = now;
    }
    return false; // a completing burst tries again
  }
  const uint64_t bytes = nextBurstBytes(x);
  const uint64_t address = nextAddress(x);
  const uint64_t beats = beatsOf(address, bytes);
  const size_t memory = memories_ != nullptr ? memories_->route(address, bytes) : 0;
  if (adapter_ != nullptr) {
    double retry = EventQueue::kNever;
    if (!adapter_->adapter.admit(d, now, beats, &retry)) {
      if (ch.block != Block::Adapter) {
        ch.block = Block::Adapter;
        ch.blockedAt = now;
      }
      if (retry != EventQueue::kNever) {
        adapter_->arbitrateAt(retry);
      }
      return false; // else a transaction the adapter releases lets the group's bursts try
    }
  }
  // 3. Issue: the address phase takes this cycle; the data follows the latency.
  if (now > ready) {
    const double waited = now - ready;
    if (ch.block == Block::Adapter) {
      counters_.adapterStall += waited;
    } else {
      (d == Direction::Read ? counters_.readLimitStall : counters_.writeLimitStall) += waited;
    }
  }
  ch.block = Block::None;
  const uint32_t b = newBurst();
  Burst& burst = bursts_[b];
  burst.transfer = index;
  burst.event = BurstEvent{d, address, bytes, beats, ready, now, 0, 0, 0, memory};
  ch.addrFree = now + 1;
  ++version_;
  ++ch.inflight;
  ++x.inflight;
  if (x.window > 0) {
    x.inflightBeats += beats;
    if (x.shape.stream != 0) streamInflightBeats_.at(streamSlot(x)) += beats;
  }
  // The burst's bytes: the transfer's runs are packed, and its bursts go in order.
  uint8_t* data = x.data != nullptr ? x.data + x.run * x.shape.runBytes + x.offset : nullptr;
  const bool unconstrained = !constrained(x);
  // An unconstrained transfer's entry (usually the first: the best of its set).
  auto entry = ch.free.end();
  if (unconstrained) {
    entry = ch.free.begin()->transfer == index ? ch.free.begin() : ch.free.find({x.ready, x.order, index});
  }
  x.ready = now + 1;
  x.offset += bytes;
  x.issuedBytes += bytes;
  if (x.offset >= x.shape.runBytes) {
    x.offset = 0;
    ++x.run;
  }
  if (x.shape.pace > 0 && hasBurst(x)) {
    // The next burst's data exists once the unit has produced everything up to its end.
    x.ready = std::max(x.ready, x.shape.paceFrom + x.shape.pace * double(x.issuedBytes + nextBurstBytes(x)));
  }
  if (unconstrained && !hasBurst(x)) {
    ch.free.erase(entry);
  } else if (unconstrained) {
    if (const auto next = std::next(entry); next == ch.free.end() || FreeEntry{x.ready, x.order, index} < *next) {
      entry->ready = x.ready;  // still before the next entry: in place
    } else {
      auto node = ch.free.extract(entry);
      node.value().ready = x.ready;
      ch.free.insert(std::move(node));
    }
  } else if (!hasBurst(x)) {
    ch.waiting.erase(std::find(ch.waiting.begin(), ch.waiting.end(), index));
  }
  if (d == Direction::Read) {
    counters_.readBytes += bytes;
    counters_.readBeats += beats;
    ++counters_.readBursts;
  } else {
    counters_.writeBytes += bytes;
    counters_.writeBeats += beats;
    ++counters_.writeBursts;
  }
  if (target_ != nullptr) {
    targetBurst(b, data);
  } else {
    const MemoryTiming& m = memories_->memory(memory);
    const double latency = d == Direction::Read && adapter_ != nullptr
                               ? std::max(adapter_->adapter.minimumLatency(d), m.latency(d))
                               : m.latency(d);
    if (latency > 0) {
      queue_.schedule(now + latency, *this, kData, b);
    } else {
      dataReady(b);
    }
  }
  // The next burst's address may go in the next cycle, or when the best waiting burst may (a paced
  // one: once its data exists); at the limit, or with every window full, a completing burst tries.
  if (!ch.idle() && ch.inflight < ch.limit) {
    if (const uint32_t next = best(d); next != kNone) {
      scheduleTry(d, std::max(now + 1, transfers_[next].ready));
    }
  }
  return true;
}

void AxiPort::targetBurst(uint32_t b, uint8_t* data) {
  // The target answers with the end of the burst's data. A timing adapter in front of it holds
  // read data until RLATENCY after admission (then a beat per cycle) and the write response
  // WLATENCY after the last beat.
  BurstEvent& e = bursts_[b].event;
  const double now = queue_.now();
  const double minLatency = e.dir == Direction::Read && adapter_ != nullptr ? adapter_->adapter.minimumLatency(e.dir) : 0;
  const BurstAnswer a = target_->burst(e.dir, e.address, e.bytes, e.beats, data, now, p_.lane, minLatency);
  double end = std::max(now, a.dataEnd);
  if (minLatency > 0) {
    end = std::max(end, now + minLatency + double(e.beats));
  }
  counters_.contention += a.contention;
  e.dataEnd = end;
  e.dataStart = std::min(std::max(now, a.dataStart), end);
  e.memory = a.memory;
  e.done = e.dir == Direction::Write && adapter_ != nullptr ? end + adapter_->adapter.minimumLatency(e.dir) : end;
  // The completion is scheduled when the data is ready, as on npusim's memories (events at
  // equal times keep the order they would have there).
  const double ready = std::max(now, e.dataStart - a.contention);
  if (ready > now) {
    queue_.schedule(ready, *this, kData, b);
  } else {
    queue_.schedule(e.done, *this, kDone, b);
  }
}

void AxiPort::dataReady(uint32_t b) {
  BurstEvent& e = bursts_[b].event;
  if (target_ != nullptr) {
    queue_.schedule(e.done, *this, kDone, b);  // timed by the target already
    return;
  }
  const double now = queue_.now();
  double end = 0;
  e.dataStart = memories_->memory(e.memory).occupy(e.dir, p_.lane, now, e.bytes, e.beats, &end);
  e.dataEnd = end;
  counters_.contention += e.dataStart - now;
  e.done = e.dir == Direction::Write && adapter_ != nullptr ? end + adapter_->adapter.minimumLatency(e.dir) : end;
  queue_.schedule(e.done, *this, kDone, b);
}

void AxiPort::complete(uint32_t b) {
  const BurstEvent e = bursts_[b].event;
  const uint32_t index = bursts_[b].transfer;
  freeBursts_.push_back(b);
  Channel& ch = channel(e.dir);
  --ch.inflight;
  ++version_;
  Transfer& x = transfers_[index];
  --x.inflight;
  if (x.window > 0) {
    x.inflightBeats -= e.beats;
    if (x.shape.stream != 0) streamInflightBeats_.at(streamSlot(x)) -= e.beats;
  }
  if (observer_ != nullptr) {
    observer_->burst(e);
  }
  if (adapter_ != nullptr) {
    adapter_->adapter.release(e.dir);
    adapter_->arbitrate();
    // The group's arbitration takes the bursts that could go by now; one of this channel that may
    // go later (a paced write, a stream's window just reopened) tries then.
    if (ch.inflight < ch.limit && ch.tryAt == EventQueue::kNever) {
      const uint32_t i = best(e.dir);
      if (i != kNone) {
        const double ready = std::max(transfers_[i].ready, ch.addrFree);
        if (ready > queue_.now()) scheduleTry(e.dir, ready);
      }
    }
  } else if (!ch.idle() && ch.tryAt != queue_.now()) {
    issue(e.dir);
  }
  if (!hasBurst(x) && x.inflight == 0) {
    // The sink may start transfers (and grow transfers_): take what it needs first.
    TransferSink* sink = x.sink;
    const uint64_t token = x.token;
    x.live = false;
    freeTransfers_.push_back(index);
    --active_;
    sink->transferDone(token);
  }
}

void AxiPort::onEvent(uint32_t kind, uint64_t data) {
  switch (static_cast<Event>(kind)) {
  case kTryRead: tryIssue(Direction::Read); return;
  case kTryWrite: tryIssue(Direction::Write); return;
  case kArrive: arrive(static_cast<uint32_t>(data)); return;
  case kData: dataReady(static_cast<uint32_t>(data)); return;
  case kDone: complete(static_cast<uint32_t>(data)); return;
  case kEmpty: {
    const uint32_t index = static_cast<uint32_t>(data);
    TransferSink* sink = transfers_[index].sink;
    const uint64_t token = transfers_[index].token;
    transfers_[index].live = false;
    freeTransfers_.push_back(index);
    --active_;
    sink->transferDone(token);
    return;
  }
  }
  throw std::logic_error("AxiPort: unknown event " + std::to_string(kind));
}

} // namespace npusim::mem
