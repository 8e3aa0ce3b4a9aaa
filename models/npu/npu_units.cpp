// SPDX-License-Identifier: Apache-2.0
#include "models/npu/npu_units.h"

#include <algorithm>

#include "models/npu/block_plan.h"

namespace npusim::npu {

double KernelUnit::dependencyReady(uint32_t blockDep, uint64_t block) const {
  // Block j of this op needs the previous op's block (n - 1 - blockDep + j) complete.
  if (prevTail_.empty() || blockDep == 0 || block >= blockDep) {
    return prevEnd_;
  }
  const uint64_t fromEnd = blockDep - block; // 1 = last block may still run, etc.
  if (fromEnd >= prevTail_.size()) {
    return 0;
  }
  return prevTail_[prevTail_.size() - 1 - fromEnd];
}

KernelTiming KernelUnit::execute(const cmd::Operation& op, double issue) {
  const BlockPlan plan(npu_, op);
  KernelTiming t;
  t.blocks = plan.blockCount();
  t.start = issue;
  double end = issue;
  std::vector<double> tail;
  auto read = [&](uint8_t region, uint64_t offset, const mem::TransferShape& s, double start) {
    if (s.bytes() == 0) {
      return start;
    }
    return transport_.transfer(region, offset, mem::Direction::Read, s, start, t.bytes);
  };
  // The weight and scale streams are concatenations of per-depth-block chunks that start on
  // 16-byte boundaries (Vela pads them); a block's share of the stream is proportional, so its
  // start is taken at the boundary below.
  const auto chunkStart = [](uint64_t offset) { return offset / 16 * 16; };
  std::array<uint64_t, cmd::kMaxWeightStreams> weightOffset{}, scaleOffset{};
  // A SHRAM layout other than the previous op's (IFM and accumulator areas, accumulator format) is
  // set up once that op's output unit has drained its last accumulators: until then its blocks
  // hold the SHRAM (the command processor's CC_STALLED_ON_SHRAM_RECONFIG; timing doc 5.2).
  // Architectures without a SHRAM have no layout and never wait.
  const bool relayout = op.shram && prevShram_ &&
                        (op.shram->ibEnd != prevShram_->ibEnd || op.shram->abStart != prevShram_->abStart ||
                         op.shram->ifm2IbStart != prevShram_->ifm2IbStart || op.accFormat != prevAccFormat_);
  const double shramFree = relayout ? aoFree_ : 0.0;
  for (uint64_t j = 0; j < t.blocks; ++j) {
    const BlockWork b = plan.block(j);
    const size_t buf = j % 2;
    // 1. Inputs: the IFM buffer and decoded-weight buffer this block uses must be free, the data
    //    it reads must have been written by the previous op (BLOCKDEP), and SHRAM must be laid
    //    out for this op. Weights do not depend on the previous op: the weight decoder fetches
    //    them as soon as the op is dispatched and a decoded-weight buffer is free.
    const double dep = dependencyReady(op.blockDep, j);
    const double fetch = std::max({issue, ifmBufferFree_[buf], dep, shramFree});
    const double wFetch = std::max(issue, weightBufferFree_[buf]);
    clock_.sync(std::min(fetch, wFetch));
    if (j == 0) {
      t.start = fetch;
      t.stallBlockdep = std::max(0.0, dep - std::max(issue, ifmBufferFree_[buf]));
      t.stallShramReconfig = std::max(0.0, shramFree - std::max({issue, ifmBufferFree_[buf], dep}));
    }
    double ifmDone = fetch;
    for (size_t p = 0; p < b.ifm.count; ++p) {
      ifmDone = std::max(ifmDone, read(op.ifm.region, b.ifm.parts[p].address, b.ifm.parts[p], fetch));
    }
    ifmDone = std::max(ifmDone, read(op.ifm2.region, b.ifm2.address, b.ifm2, fetch));
    double wDone = wFetch;
    // Each core (U65-512: two) fetches its scale and weight streams' slices of the block's depth;
    // each core's (weight decoder's) weight stream is read through its own FIFO, at most
    // weightWindowBytes() in flight.
    for (size_t s = 0; s < cmd::kMaxWeightStreams; ++s) {
      const auto fetchSlice = [&](const cmd::Stream& stream, uint64_t bytes, uint64_t window, uint64_t& offset) {
        if (bytes > 0) {
          wDone = std::max(wDone, read(stream.region, stream.base + chunkStart(offset), {1, bytes, window}, wFetch));
          offset = (offset + bytes) % std::max<uint64_t>(stream.length, 1);
        }
      };
      fetchSlice(op.scales[s], b.scaleBytes[s], 0, scaleOffset[s]);
      fetchSlice(op.weights[s], b.weightBytes[s], npu_.weightWindowBytes(), weightOffset[s]);
    }
    // 2. MAC array: in order, needs inputs, weights and a free accumulator buffer.
    const double ready = std::max(macFree_, accBufferFree_[buf]);
    const double macStart = std::max({ready, ifmDone, wDone});
    t.stallIfm += std::max(0.0, ifmDone - std::max(ready, wDone));
    t.stallWeights += std::max(0.0, wDone - std::max(ready, ifmDone));
    t.stallOutput += std::max(0.0, accBufferFree_[buf] - std::max(macFree_, std::max(ifmDone, wDone)));
    const double macDone = macStart + b.macCycles;
    macFree_ = macDone;
    ifmBufferFree_[buf] = macDone;
    weightBufferFree_[buf] = macDone;
    t.macCycles += b.macCycles;
    // 3. Output unit (scale, bias, activation), then the OFM write.
    const double aoStart = std::max(macDone, aoFree_);
    const double aoDone = aoStart + b.outputCycles;
    aoFree_ = aoDone;
    accBufferFree_[buf] = aoDone;
    t.outputCycles += b.outputCycles;
    const double written =
        transport_.transfer(op.ofm.region, b.ofm.address, mem::Direction::Write, b.ofm, aoDone, t.bytes);
    end = std::max(end, written);
    if (sink_ != nullptr) {
      sink_->block({j, b.origin, b.extent, fetch, ifmDone, wFetch, wDone, macStart, macDone, aoStart, aoDone, written,
                    b.ifm.bytes() + b.ifm2.bytes(), b.weightBytes[0] + b.scaleBytes[0], b.ofm.bytes()});
    }
    tail.push_back(end);
    if (tail.size() > 4) {
      tail.erase(tail.begin());
    }
  }
  prevTail_ = std::move(tail);
  prevEnd_ = end;
  prevShram_ = op.shram;
  prevAccFormat_ = op.accFormat;
  t.end = end;
  t.writeTail = std::max(0.0, end - aoFree_);
  return t;
}

DmaTiming DmaUnit::execute(const cmd::DmaTransfer& dma, double issue) {
  DmaTiming t;
  t.start = std::max(issue, busyUntil_);
  double bufferFree = t.start;
  // One buffer's worth: `rows` rows of `bytes` from byte `offset` of row (y, z), read, then written.
  const auto step = [&](uint64_t z, uint64_t y, uint64_t offset, uint64_t rows, uint64_t bytes) {
    const uint64_t src = dma.src + z * dma.srcStrides[1] + y * dma.srcStrides[0] + offset;
    const uint64_t dst = dma.dst + z * dma.dstStrides[1] + y * dma.dstStrides[0] + offset;
    clock_.sync(bufferFree);
    double done = transport_.transfer(dma.srcRegion, src, mem::Direction::Read, {rows, bytes, 0, 0, dma.srcStrides[0]},
                                      bufferFree, t.bytes);
    if (!dma.dstInternal) {
      done = transport_.transfer(dma.dstRegion, dst, mem::Direction::Write, {rows, bytes, 0, 0, dma.dstStrides[0]}, done,
                                 t.bytes);
    }
    bufferFree = done;
  };
  // Rows of a 2-D or 3-D DMA (U85) shorter than the buffer share it; longer rows, and a 1-D DMA,
  // go through it a buffer at a time. (Gathered and scattered rows are taken at the strides: the
  // index list is not read.)
  const uint64_t rowsY = dma.dimensions >= 2 ? dma.sizes[0] : 1, rowsZ = dma.dimensions >= 3 ? dma.sizes[1] : 1;
  const uint64_t rowsPerStep = dma.length > 0 && dma.length < chunk_ ? chunk_ / dma.length : 1;
  for (uint64_t z = 0; z < rowsZ && dma.length > 0; ++z) {
    for (uint64_t y = 0; y < rowsY; y += rowsPerStep) {
      if (rowsPerStep > 1) {
        step(z, y, 0, std::min(rowsPerStep, rowsY - y), dma.length);
        continue;
      }
      for (uint64_t offset = 0; offset < dma.length; offset += chunk_) {
        step(z, y, offset, 1, std::min<uint64_t>(chunk_, dma.length - offset));
      }
    }
  }
  busyUntil_ = bufferFree;
  t.end = bufferFree;
  return t;
}

} // namespace npusim::npu
