// SPDX-License-Identifier: Apache-2.0
#include "models/npu/npu_units.h"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>

namespace npusim::npu {

namespace {

// The previous operation's blocks a BLOCKDEP window reaches back over (BLOCKDEP is at most 7).
constexpr size_t kTail = 8;

// The weight and scale streams are concatenations of per-depth-block chunks that start on 16-byte
// boundaries (Vela pads them); a block's share of the stream is proportional, so its start is
// taken at the boundary below.
uint64_t chunkStart(uint64_t offset) { return offset / 16 * 16; }

// The in-order streams of the units' reads (mem::TransferShape::stream): each weight decoder's
// weight stream, each core's scale stream and the kernels' IFM reads.
constexpr uint32_t kWeightStream = 1, kScaleStream = 1 + cmd::kMaxWeightStreams,
                   kIfmStream = kScaleStream + cmd::kMaxWeightStreams;

// What a weight decoder needs of its stream to start: one 16-byte word (the streams are padded to
// 16 bytes).
constexpr uint64_t kWeightWordBytes = 16;

} // namespace

KernelUnit::KernelUnit(const arch::NpuConfig& npu, mem::EventQueue& queue, NpuTransport& transport,
                       UnitListener& listener)
    : npu_(npu), queue_(queue), transport_(transport), listener_(listener) {}

void KernelUnit::dispatch(const cmd::Operation& op, size_t record) {
  ops_.emplace_back(npu_, op, queue_.now(), record);
  OpRun& run = ops_.back();
  run.first = blocks_;
  run.timing.blocks = run.blocks;
  run.timing.start = run.timing.end = run.issue;
  run.written.assign(run.blocks, -1.0);
  blocks_ += run.blocks;
  if (run.blocks == 0) {
    throw std::logic_error("KernelUnit: an operation without OFM blocks");
  }
  advance();
}

bool KernelUnit::locate(uint64_t g, uint64_t& op) {
  while (true) {
    const OpRun& o = opOf(op);
    if (g < o.first + o.blocks) {
      return true;
    }
    ++op;
  }
}

KernelUnit::BlockRun& KernelUnit::slot(uint64_t g) {
  BlockRun& s = ring_[g % ring_.size()];
  if (s.global != g) {
    // The first stage to reach block g claims its slot (block g - 4 has run its MAC long since).
    const uint64_t op = std::min(wOp_, fOp_);
    uint64_t at = op;
    locate(g, at);
    const OpRun& o = opOf(at);
    s = BlockRun{};
    s.global = g;
    s.work = o.plan.block(g - o.first);
  }
  return s;
}

std::optional<KernelUnit::Dependency> KernelUnit::dependency(uint64_t index, uint64_t j) {
  const OpRun& o = opOf(index);
  const cmd::Operation& op = *o.op;
  // The previous operation: still kept, or the summary of the retired one.
  const OpRun* prev = index > opBase_ ? &opOf(index - 1) : nullptr;
  Dependency d;
  if (prev == nullptr && !retired_) {
    return d;
  }
  // 1. BLOCKDEP (BlockPlan::previousBlocksNeeded): the previous operation's blocks 0..k written.
  const uint64_t prevBlocks = prev != nullptr ? prev->blocks : retired_->blocks;
  if (const std::optional<uint64_t> k = o.plan.previousBlocksNeeded(j, prevBlocks)) {
    if (prev != nullptr) {
      if (prev->writtenUpTo.size() <= *k) return std::nullopt;
      d.blockdep = prev->writtenUpTo[static_cast<size_t>(*k)];
    } else {
      d.blockdep = retired_->tail[retired_->tail.size() - 1 - static_cast<size_t>(prevBlocks - 1 - *k)];
    }
  }
  // 2. A SHRAM layout other than the previous operation's (IFM and accumulator areas, accumulator
  //    format) is set up once that operation's output unit has drained its last accumulators: until
  //    then its blocks hold the SHRAM (the command processor's CC_STALLED_ON_SHRAM_RECONFIG; timing
  //    doc 5.2). Architectures without a SHRAM have no layout and never wait.
  const std::optional<cmd::ShramLayout>& prevShram = prev != nullptr ? prev->op->shram : retired_->shram;
  const cmd::AccFormat prevAcc = prev != nullptr ? prev->op->accFormat : retired_->accFormat;
  const bool relayout = op.shram && prevShram &&
                        (op.shram->ibEnd != prevShram->ibEnd || op.shram->abStart != prevShram->abStart ||
                         op.shram->ifm2IbStart != prevShram->ifm2IbStart || op.accFormat != prevAcc);
  if (relayout) {
    const std::optional<double> aoDone = previousOutputDone(index);
    if (!aoDone) return std::nullopt;
    d.shram = *aoDone;
  }
  return d;
}

std::optional<double> KernelUnit::previousOutputDone(uint64_t index) const {
  const double done = index > opBase_ ? opOf(index - 1).lastAoDone : retired_ ? retired_->lastAoDone : 0.0;
  if (done < 0) return std::nullopt;
  return done;
}

bool KernelUnit::fetchWeights(uint64_t g) {
  // A weight decoder's stream is read in order: while the previous block's staggered slices are
  // still to be requested, this block's wait behind them.
  if (const BlockRun* previous = g > 0 ? held(g - 1) : nullptr;
      previous != nullptr && previous->nextWeightStream < cmd::kMaxWeightStreams) {
    return false;
  }
  locate(g, wOp_);
  OpRun& o = opOf(wOp_);
  const cmd::Operation& op = *o.op;
  // One block's weight slices per port of the weights' region at a time
  // (Architecture::weightBlockPerPort): the block as many blocks back must have all of its in.
  if (npu_.arch->weightBlockPerPort) {
    const size_t ports = transport_.portsOf(op.weights[0].region);
    if (const BlockRun* earlier = ports < ring_.size() && g >= o.first + ports ? held(g - ports) : nullptr;
        earlier != nullptr && !earlier->weightsIn()) {
      return false;
    }
  }
  // An operation with BLOCKDEP 0 fetches nothing before the previous one's output unit is done
  // (Architecture::weightsWaitOnBlockdepZero).
  double previousDone = 0;
  if (npu_.arch->weightsWaitOnBlockdepZero && g == o.first && op.blockDep == 0) {
    const std::optional<double> done = previousOutputDone(wOp_);
    if (!done) return false;
    previousDone = *done;
  }
  BlockRun& s = slot(g);
  const size_t buf = g % 2;
  s.wFetch = std::max({o.issue, weightBufferFree_[buf], previousDone, queue_.now()});
  s.weightDone = s.weightFirst = s.wFetch;
  // Each core (U65-512: two) fetches its scale and weight streams' slices of the block's depth.
  // The scale slices go at once; the weight slices at once, or, at an operation's first block
  // where the weight decoders' streams are opened in turn (Architecture::weightStreamsStaggered),
  // one after another, each once the previous slice's first word is in (transferDone).
  for (size_t i = 0; i < cmd::kMaxWeightStreams; ++i) {
    const uint64_t scaleBytes = s.work.scaleBytes[i];
    if (scaleBytes > 0) {
      const cmd::Stream& stream = op.scales[i];
      mem::TransferShape shape{1, scaleBytes, 0};
      shape.stream = kScaleStream + uint32_t(i);
      shape.ownWindow = npu_.arch->weightWindowPerBuffer;
      ++s.weightPending;
      transport_.transfer(stream.region, stream.base + chunkStart(o.scaleOffset[i]), mem::Direction::Read, shape,
                          s.wFetch, o.timing.bytes, *this, token(Token::Weights, wOp_, g));
      o.scaleOffset[i] = (o.scaleOffset[i] + scaleBytes) % std::max<uint64_t>(stream.length, 1);
    }
    const uint64_t weightBytes = s.work.weightBytes[i];
    if (weightBytes > 0) {
      s.weightSliceStart[i] = op.weights[i].base + chunkStart(o.weightOffset[i]);
      o.weightOffset[i] = (o.weightOffset[i] + weightBytes) % std::max<uint64_t>(op.weights[i].length, 1);
    }
  }
  const bool staggered = npu_.arch->weightStreamsStaggered && g == o.first;
  s.nextWeightStream = cmd::kMaxWeightStreams;
  for (size_t i = nextWeightSlice(s, 0); i < cmd::kMaxWeightStreams; i = nextWeightSlice(s, i + 1)) {
    readWeightSlice(g, wOp_, i, s.wFetch);
    if (staggered) {
      s.nextWeightStream = nextWeightSlice(s, i + 1); // requested when this slice's first word is in
      break;
    }
  }
  return true;
}

size_t KernelUnit::nextWeightSlice(const BlockRun& s, size_t from) {
  while (from < cmd::kMaxWeightStreams && s.work.weightBytes[from] == 0) ++from;
  return from;
}

void KernelUnit::readWeightSlice(uint64_t g, uint64_t index, size_t i, double at) {
  BlockRun& s = slot(g);
  OpRun& o = opOf(index);
  const cmd::Stream& stream = o.op->weights[i];
  const uint64_t bytes = s.work.weightBytes[i];
  // Each core's (weight decoder's) weight stream is read in order, at most weightWindowBytes() in
  // flight per weight buffer (Architecture::weightWindowPerBuffer) or over the stream. Where the
  // decoders stream weights into the MAC array as they come (Architecture::macStreamsWeights), or
  // their fetches are staggered, the slice's first bus word is its own transfer (the stream keeps
  // the two in order): the block's MAC work can start once the first word of each slice is in,
  // and the next staggered slice is requested then. Elsewhere weightFirst stays the fetch's start
  // and the MAC array waits for weightDone.
  const bool firstWord = npu_.arch->macStreamsWeights || npu_.arch->weightStreamsStaggered;
  const uint64_t first = firstWord ? std::min<uint64_t>(bytes, kWeightWordBytes) : 0;
  const uint32_t id = kWeightStream + (npu_.arch->weightStreamsInOrder ? 0u : uint32_t(i));
  const auto read = [&](uint64_t from, uint64_t to, Token kind, uint32_t& pending) {
    if (to <= from) return;
    ++pending;
    mem::TransferShape shape{1, to - from, npu_.weightWindowBytes()};
    shape.stream = id;
    shape.ownWindow = npu_.arch->weightWindowPerBuffer;
    shape.continuesPrevious = from > 0;
    transport_.transfer(stream.region, s.weightSliceStart[i] + from, mem::Direction::Read, shape, at, o.timing.bytes,
                        *this, token(kind, index, g));
  };
  read(0, first, Token::WeightsFirst, s.weightFirstPending);
  read(first, bytes, Token::Weights, s.weightPending);
}

bool KernelUnit::fetchIfm(uint64_t g) {
  locate(g, fOp_);
  OpRun& o = opOf(fOp_);
  const uint64_t j = g - o.first;
  const std::optional<Dependency> dep = dependency(fOp_, j);
  if (!dep) {
    return false;
  }
  BlockRun& s = slot(g);
  const cmd::Operation& op = *o.op;
  const size_t buf = g % 2;
  const double bufferFree = std::max(o.issue, ifmBufferFree_[buf]);
  s.fetch = std::max({bufferFree, dep->blockdep, dep->shram, queue_.now()});
  if (j == 0) {
    o.timing.start = s.fetch;
    listener_.kernelStarted(s.fetch);
    o.timing.stallBlockdep = std::max(0.0, dep->blockdep - bufferFree);
    o.timing.stallShramReconfig = std::max(0.0, dep->shram - std::max(bufferFree, dep->blockdep));
  }
  s.ifmDone = s.ifmFirst = s.fetch;
  // An elementwise operation's output unit works on its inputs as they come (there are no
  // accumulators to complete): the first word of each input is its own transfer, so that it can
  // start then. Kernels fetch the blocks' IFM windows one after another, in block order: a block's
  // reads go once the previous block's have all been requested (docs/timing-model.md has the
  // evidence). Their MAC array takes the window whole (the U55's and U65's double-buffered IFM
  // area) or, where it streams in (Architecture::macStreamsIfm), from its first word, which is
  // then the stream's first transfer.
  const bool streams = op.kind == cmd::OpKind::Elementwise;
  const bool firstWord = streams || ifmStreamsIntoMac(s.work);
  const auto read = [&](uint8_t region, const mem::TransferShape& shape) {
    if (shape.bytes() == 0) return;
    mem::TransferShape rest = shape;
    if (firstWord) {
      // The head: the first word of a single run, or the first of several runs.
      mem::TransferShape head = shape;
      head.runs = 1;
      if (shape.runs == 1) {
        head.runBytes = std::min<uint64_t>(shape.runBytes, kWeightWordBytes);
        rest.runBytes -= head.runBytes;
        rest.address += head.runBytes;
      } else {
        rest.runs -= 1;
        rest.address += shape.runStride == 0 ? shape.runBytes : shape.runStride;
      }
      if (!streams) head.stream = kIfmStream;
      ++s.ifmFirstPending;
      transport_.transfer(region, head.address, mem::Direction::Read, head, s.fetch, o.timing.bytes, *this,
                          token(Token::IfmFirst, fOp_, g));
    }
    if (rest.bytes() == 0) return;
    if (!streams) rest.stream = kIfmStream;
    rest.continuesPrevious = firstWord;
    ++s.ifmPending;
    transport_.transfer(region, rest.address, mem::Direction::Read, rest, s.fetch, o.timing.bytes, *this,
                        token(Token::Ifm, fOp_, g));
  };
  for (size_t p = 0; p < s.work.ifm.count; ++p) {
    read(op.ifm.region, s.work.ifm.parts[p]);
  }
  read(op.ifm2.region, s.work.ifm2);
  return true;
}

bool KernelUnit::runMac(uint64_t g) {
  BlockRun& s = slot(g);
  if (s.ifmPending > 0 || s.ifmFirstPending > 0 || !s.weightsIn()) {
    return false;
  }
  locate(g, mOp_);
  OpRun& o = opOf(mOp_);
  const uint64_t j = g - o.first;
  const size_t buf = g % 2;
  const BlockWork& b = s.work;
  KernelTiming& t = o.timing;
  // MAC array: in order, needs inputs, its weights (the first of them where they stream in as it
  // works: it then ends no earlier than the last of them) and a free accumulator buffer.
  const double ready = std::max(macFree_, accBufferFree_[buf]);
  // (An elementwise operation's inputs, and a kernel's IFM window where it streams in, likewise.)
  const bool streams = o.op->kind == cmd::OpKind::Elementwise;
  const bool ifmStreams = ifmStreamsIntoMac(b);
  const double inputs = streams || ifmStreams ? s.ifmFirst : s.ifmDone;
  const double weights = npu_.arch->macStreamsWeights ? s.weightFirst : s.weightDone;
  const double macStart = std::max({ready, inputs, weights});
  double macDone = std::max({macStart + b.macCycles, s.weightDone, ifmStreams ? s.ifmDone : 0.0});
  // The weight decoders (one per weight stream, working in parallel; the fast format's single
  // stream has them all) decode the block's weights in order, from the first word in, at their
  // rate; the array cannot finish before them.
  const arch::Architecture& a = *npu_.arch;
  const double rate = o.op->weightFormat == arch::WeightFormat::Fast
                          ? a.fastWeightsDecodedPerCycle
                          : a.weightsDecodedPerCycle * o.op->weightStreamCount;
  if (rate > 0 && b.weights > 0) {
    const double decoded = std::max(std::max(s.weightFirst, decoderFree_) + double(b.weights) / rate, s.weightDone);
    decoderFree_ = decoded;
    macDone = std::max(macDone, decoded);
  }
  t.stallIfm += std::max(0.0, inputs - std::max(ready, weights));
  t.stallWeights += std::max(0.0, weights - std::max(ready, inputs)) + (macDone - macStart - b.macCycles);
  t.stallOutput += std::max(0.0, accBufferFree_[buf] - std::max(macFree_, std::max(inputs, weights)));
  macFree_ = macDone;
  ifmBufferFree_[buf] = macDone;
  weightBufferFree_[buf] = macDone;
  t.macCycles += b.macCycles;
  // Output unit (scale, bias, activation) once the accumulators are complete (an elementwise
  // operation's as its inputs come: it ends no earlier than the last of them), then the OFM write,
  // each burst as soon as the output unit has produced its data.
  const double aoStart = std::max(macDone, aoFree_);
  const double aoDone = std::max(aoStart + b.outputCycles, streams ? s.ifmDone : 0.0);
  aoFree_ = aoDone;
  accBufferFree_[buf] = aoDone;
  t.outputCycles += b.outputCycles;
  if (j + 1 == o.blocks) {
    o.lastAoDone = aoDone;
    o.aoFreeAfter = aoFree_;
  }
  if (sink_ != nullptr) {
    pendingEvents_.push_back({g, o.record,
                              BlockEvent{j, b.origin, b.extent, s.fetch, s.ifmDone, s.wFetch, s.weightDone, macStart,
                                         macDone, b.macCycles, aoStart, aoDone, aoDone,
                                         b.ifm.bytes() + b.ifm2.bytes(), b.weightBytes[0] + b.scaleBytes[0],
                                         b.ofm.bytes()},
                              false});
  }
  mem::TransferShape ofm = b.ofm;
  if (ofm.bytes() > 0 && aoDone > aoStart) {
    ofm.pace = (aoDone - aoStart) / double(ofm.bytes());
    ofm.paceFrom = aoStart;
  }
  transport_.transfer(o.op->ofm.region, b.ofm.address, mem::Direction::Write, ofm, std::max(aoStart, queue_.now()),
                      t.bytes, *this, token(Token::Ofm, mOp_, j));
  return true;
}

void KernelUnit::advance() {
  for (bool progress = true; progress;) {
    progress = false;
    if (wNext_ < blocks_ && wNext_ <= mNext_ + 1 && fetchWeights(wNext_)) {
      ++wNext_;
      progress = true;
    }
    if (fNext_ < blocks_ && fNext_ <= mNext_ + 1 && fetchIfm(fNext_)) {
      ++fNext_;
      progress = true;
    }
    if (mNext_ < fNext_ && mNext_ < wNext_ && runMac(mNext_)) {
      ++mNext_;
      progress = true;
    }
  }
}

void KernelUnit::written(uint64_t index, uint64_t j) {
  OpRun& o = opOf(index);
  const double now = queue_.now();
  o.written[j] = now;
  ++o.writes;
  o.end = std::max(o.end, now);
  while (o.writtenUpTo.size() < o.blocks && o.written[o.writtenUpTo.size()] >= 0) {
    const double w = o.written[o.writtenUpTo.size()];
    o.writtenUpTo.push_back(o.writtenUpTo.empty() ? w : std::max(o.writtenUpTo.back(), w));
  }
  if (sink_ != nullptr) {
    // Block events go out in block order, each once its OFM write has completed.
    const uint64_t g = o.first + j;
    pendingEvents_.at(static_cast<size_t>(g - pendingEvents_.front().global)).event.writeDone = now;
    pendingEvents_.at(static_cast<size_t>(g - pendingEvents_.front().global)).written = true;
    while (!pendingEvents_.empty() && pendingEvents_.front().written) {
      sink_->block(pendingEvents_.front().record, pendingEvents_.front().event);
      pendingEvents_.pop_front();
    }
  }
  if (o.writes == o.blocks) {
    o.timing.end = o.end;
    o.timing.writeTail = std::max(0.0, o.end - o.aoFreeAfter);
    listener_.kernelDone(o.record, o.timing);
  }
  // Retire finished operations from the front, in order: the last one retired stays as the summary
  // its successor's dependencies read.
  while (!ops_.empty() && ops_.front().writes == ops_.front().blocks) {
    const OpRun& f = ops_.front();
    Retired r;
    r.end = f.end;
    r.blocks = f.blocks;
    r.shram = f.op->shram;
    r.accFormat = f.op->accFormat;
    r.lastAoDone = f.lastAoDone;
    r.tail.assign(f.writtenUpTo.end() - static_cast<std::ptrdiff_t>(std::min<uint64_t>(kTail, f.blocks)),
                  f.writtenUpTo.end());
    retired_ = std::move(r);
    ops_.pop_front();
    ++opBase_;
    wOp_ = std::max(wOp_, opBase_);
    fOp_ = std::max(fOp_, opBase_);
    mOp_ = std::max(mOp_, opBase_);
  }
}

void KernelUnit::transferDone(uint64_t tok) {
  const auto kind = static_cast<Token>(tok >> 60);
  const uint64_t op = (tok >> 32) & ((uint64_t{1} << 28) - 1);
  const uint64_t low = tok & 0xffff'ffffu;
  const double now = queue_.now();
  // A read of block `low` is in: the times it moves on (the last such read's), one fewer pending.
  const auto in = [&](std::initializer_list<double*> times, uint32_t& pending) {
    for (double* t : times) *t = std::max(*t, now);
    --pending;
  };
  BlockRun& s = ring_[low % ring_.size()];
  switch (kind) {
  case Token::Ifm: in({&s.ifmDone}, s.ifmPending); break;
  case Token::Weights: in({&s.weightDone}, s.weightPending); break;
  case Token::IfmFirst: in({&s.ifmFirst, &s.ifmDone}, s.ifmFirstPending); break;
  case Token::WeightsFirst:
    in({&s.weightFirst, &s.weightDone}, s.weightFirstPending);
    // Staggered weight fetches: the block's next weight slice goes now.
    if (const size_t i = s.nextWeightStream; i < cmd::kMaxWeightStreams) {
      s.nextWeightStream = nextWeightSlice(s, i + 1);
      readWeightSlice(low, op, i, now);
    }
    break;
  case Token::Ofm: written(op, low); break;
  }
  advance();
}

void DmaUnit::dispatch(const cmd::DmaTransfer& dma, size_t record) {
  jobs_.push_back({&dma, queue_.now(), record});
  if (!running_) {
    startJob();
  }
}

void DmaUnit::startJob() {
  const Job& job = jobs_.front();
  running_ = true;
  timing_ = DmaTiming{};
  timing_.start = std::max(job.issue, busyUntil_);
  bufferFree_ = timing_.start;
  z_ = y_ = offset_ = 0;
  cursorDone_ = false;
  // Start at the job's time (an event: the caller is the command processor dispatching).
  queue_.schedule(std::max(bufferFree_, queue_.now()), *this);
}

void DmaUnit::onEvent(uint32_t, uint64_t) { nextStep(); }

void DmaUnit::nextStep() {
  const cmd::DmaTransfer& dma = *jobs_.front().dma;
  // Rows of a 2-D or 3-D DMA (U85) shorter than a step share it; longer rows, and a 1-D DMA, go
  // through the buffer a step at a time. (Gathered and scattered rows are taken at the strides:
  // the index list is not read.)
  const uint64_t rowsY = dma.dimensions >= 2 ? dma.sizes[0] : 1, rowsZ = dma.dimensions >= 3 ? dma.sizes[1] : 1;
  const uint64_t rowsPerStep = dma.length > 0 && dma.length < step_ ? step_ / dma.length : 1;
  cursorDone_ = cursorDone_ || dma.length == 0 || z_ >= rowsZ;
  while (!cursorDone_ && steps_.size() < slots_) {
    // One step: `rows` rows of `bytes` from byte `offset` of row (y, z), read into a free part of
    // the buffer, then written out.
    Step step;
    if (rowsPerStep > 1) {
      step.rows = std::min(rowsPerStep, rowsY - y_);
      step.bytes = dma.length;
    } else {
      step.bytes = std::min<uint64_t>(step_, dma.length - offset_);
    }
    const uint64_t src = dma.src + z_ * dma.srcStrides[1] + y_ * dma.srcStrides[0] + offset_;
    step.dst = dma.dst + z_ * dma.dstStrides[1] + y_ * dma.dstStrides[0] + offset_;
    // Advance the cursor past this step.
    if (rowsPerStep > 1) {
      y_ += step.rows;
    } else if ((offset_ += step.bytes) >= dma.length) {
      offset_ = 0;
      ++y_;
    }
    if (y_ >= rowsY) {
      y_ = 0;
      ++z_;
    }
    cursorDone_ = z_ >= rowsZ;
    step.index = nextIndex_++;
    steps_.push_back(step);
    transport_.transfer(dma.srcRegion, src, mem::Direction::Read, {step.rows, step.bytes, 0, 0, dma.srcStrides[0]},
                        std::max(bufferFree_, queue_.now()), timing_.bytes, *this, step.index << 1);
  }
  if (cursorDone_ && steps_.empty()) {
    busyUntil_ = bufferFree_;
    timing_.end = bufferFree_;
    const Job job = jobs_.front();
    jobs_.pop_front();
    running_ = false;
    const DmaTiming timing = timing_;
    if (!jobs_.empty()) {
      startJob();
    }
    listener_.dmaDone(job.record, timing);
  }
}

void DmaUnit::transferDone(uint64_t token) {
  const cmd::DmaTransfer& dma = *jobs_.front().dma;
  const double now = queue_.now();
  const uint64_t index = token >> 1;
  const auto it = std::find_if(steps_.begin(), steps_.end(), [index](const Step& s) { return s.index == index; });
  if (it == steps_.end()) {
    throw std::logic_error("DmaUnit: a transfer of no step in the buffer");
  }
  if ((token & 1) == 0 && !dma.dstInternal) {
    // The step's data is in the buffer: write it out.
    transport_.transfer(dma.dstRegion, it->dst, mem::Direction::Write, {it->rows, it->bytes, 0, 0, dma.dstStrides[0]},
                        now, timing_.bytes, *this, (index << 1) | 1);
    return;
  }
  // Written out (or, into the NPU's internal memory, read): its part of the buffer is free.
  steps_.erase(it);
  bufferFree_ = std::max(bufferFree_, now);
  nextStep();
}

} // namespace npusim::npu
