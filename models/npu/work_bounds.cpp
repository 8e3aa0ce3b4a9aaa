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
    // Rows of `length` bytes (one for a 1-D DMA), each read and (unless into the NPU's internal
    // memory) written in pieces of at most the DMA engine's step; the rows of a 2-D or 3-D DMA
    // may start off a burst boundary, one more burst each.
    const cmd::DmaTransfer& d = op.dma;
    const double rowsY = d.dimensions >= 2 ? d.sizes[0] : 1, rowsZ = d.dimensions >= 3 ? d.sizes[1] : 1;
    const double chunk = npu.dmaStepBytes();
    const double perRow = std::ceil(double(d.length) / chunk) *
                              std::ceil(std::min(double(d.length), chunk) / burst.maxBurstBytes) +
                          (d.dimensions > 1 ? 1 : 0);
    w.bursts = rowsY * rowsZ * perRow * (d.dstInternal ? 1 : 2);
    w.cycles = w.bursts * burst.cyclesPerBurst;
    const auto end = [&](uint64_t start, const std::array<uint64_t, 2>& strides) {
      return start + uint64_t(rowsZ - 1) * strides[1] + uint64_t(rowsY - 1) * strides[0] + d.length;
    };
    w.accesses.push_back({"DMA source", d.srcRegion, end(d.src, d.srcStrides)});
    if (!d.dstInternal) {
      w.accesses.push_back({"DMA destination", d.dstRegion, end(d.dst, d.dstStrides)});
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
