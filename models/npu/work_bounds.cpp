// SPDX-License-Identifier: Apache-2.0
#include "models/npu/work_bounds.h"

#include <algorithm>
#include <cmath>

#include "models/npu/block_plan.h"

namespace npusim::npu {
namespace {

double burstsOf(const mem::TransferShape& shape, uint32_t maxBurstBytes) {
  if (shape.bytes() == 0) {
    return 0;
  }
  return double(shape.runs) * std::ceil(double(shape.runBytes) / maxBurstBytes);
}

} // namespace

WorkBound operationWork(const arch::NpuConfig& npu, const cmd::Operation& op, const BurstCost& burst) {
  WorkBound w;
  if (op.kind == cmd::OpKind::DmaStart) {
    // Chunks of the DMA buffer's size, each a read and (unless into SHRAM) a write, at offsets
    // below the length.
    const double chunks = std::ceil(double(op.dma.length) / npu.arch->dmaChunkBytes);
    const double perChunk =
        std::ceil(double(std::min<uint64_t>(op.dma.length, npu.arch->dmaChunkBytes)) / burst.maxBurstBytes);
    w.bursts = chunks * perChunk * (op.dma.dstInternal ? 1 : 2);
    w.cycles = w.bursts * burst.cyclesPerBurst;
    w.accesses.push_back({"DMA source", op.dma.srcRegion, op.dma.src + op.dma.length});
    if (!op.dma.dstInternal) {
      w.accesses.push_back({"DMA destination", op.dma.dstRegion, op.dma.dst + op.dma.length});
    }
    return w;
  }
  if (!cmd::isKernel(op.kind)) {
    return w;
  }
  // 1. Block 0 is the largest block (the others are clipped at the OFM edges), so its traffic
  //    and cycles times the block count bound the operation; its IFM window may be clipped by
  //    padding, so the IFM read is bounded by the configured block's whole window.
  const BlockPlan plan(npu, op);
  w.blocks = double(plan.blockCount());
  const BlockWork b = plan.block(0);
  const mem::TransferShape ifm = plan.largestIfmRead();
  double bursts = burstsOf(ifm, burst.maxBurstBytes) + burstsOf(b.ifm2, burst.maxBurstBytes) +
                  burstsOf(b.ofm, burst.maxBurstBytes);
  for (size_t s = 0; s < cmd::kMaxWeightStreams; ++s) {
    bursts += burstsOf({1, b.weightBytes[s]}, burst.maxBurstBytes);
    bursts += burstsOf({1, b.scaleBytes[s]}, burst.maxBurstBytes);
  }
  w.bursts = w.blocks * bursts;
  w.cycles = w.blocks * (b.macCycles + b.outputCycles + bursts * burst.cyclesPerBurst);
  // 2. The kernel unit addresses a feature-map transfer from the element it starts at (inside
  //    the feature map's footprint), and walks the weight and scale streams in per-block chunks
  //    from offsets that wrap at the stream length.
  w.accesses.push_back({"IFM", op.ifm.region, op.ifm.footprint().end + ifm.bytes()});
  if (b.ifm2.bytes() > 0) {
    w.accesses.push_back({"IFM2", op.ifm2.region, op.ifm2.footprint().end + b.ifm2.bytes()});
  }
  w.accesses.push_back({"OFM", op.ofm.region, op.ofm.footprint().end + b.ofm.bytes()});
  const std::string_view owner = npu.arch->weightStreamOwner;
  for (size_t s = 0; s < cmd::kMaxWeightStreams; ++s) {
    const auto stream = [&](const char* kind, const cmd::Stream& st, uint64_t bytes) {
      if (bytes > 0) {
        w.accesses.push_back({cmd::streamLabel(kind, s, owner), st.region, st.base + st.length + bytes});
      }
    };
    stream("weight", op.weights[s], b.weightBytes[s]);
    stream("scale", op.scales[s], b.scaleBytes[s]);
  }
  return w;
}

} // namespace npusim::npu
