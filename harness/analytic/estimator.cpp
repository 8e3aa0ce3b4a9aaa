// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/estimator.h"

#include <algorithm>

namespace npusim::analytic {

namespace {

size_t areaIndex(MemArea area) {
  switch (area) {
  case MemArea::Sram: return 0;
  case MemArea::Dram: return 1;
  case MemArea::OnChipFlash: return 2;
  case MemArea::OffChipFlash: return 3;
  case MemArea::Shram: return kAccessAreas.size();
  }
  return kAccessAreas.size();
}

// Byte counters indexed by MemArea (SHRAM included, but it has no access-cycle column).
struct AreaBytes {
  std::array<double, 5> scaled{};
  std::array<AreaTraffic, 5> traffic{};
};

} // namespace

AreaTraffic& AreaTraffic::operator+=(const AreaTraffic& o) {
  featureMapRead += o.featureMapRead;
  featureMapWrite += o.featureMapWrite;
  weightRead += o.weightRead;
  weightWrite += o.weightWrite;
  otherRead += o.otherRead;
  return *this;
}

void EstimateTotals::add(const LayerEstimate& e) {
  npuCycles += e.npuCycles;
  totalCycles += e.totalCycles;
  macs += e.macs;
  for (size_t i = 0; i < kAccessAreas.size(); ++i) {
    accessCycles[i] += e.accessCycles[i];
    traffic[i] += e.traffic[i];
  }
}

MemArea Estimator::schedulingArea(MemArea area) const {
  return area == system_.fastArea() ? system_.arenaArea() : area;
}

std::vector<LayerEstimate> Estimator::estimate(const std::vector<Layer>& layers) const {
  std::vector<LayerEstimate> out;
  out.reserve(layers.size());
  double slack = 0;
  for (const Layer& layer : layers) {
    out.push_back(estimateLayer(layer, slack));
    slack = out.back().slackCycles;
  }
  return out;
}

LayerEstimate Estimator::estimateLayer(const Layer& layer, double previousSlack) const {
  LayerEstimate e;
  const LayerQuery& q = layer.query;
  if (blockTypeOf(q.op) == BlockType::Dma) {
    // A Memcpy between areas costs Vela one memory-to-memory transfer, less the previous
    // layer's slack (like any DMA of a layer without buffered weights), and moves its bytes as
    // feature-map traffic; one within an area costs nothing.
    if (layer.copy && layer.copy->source != layer.copy->destination) {
      const double transfer = model_.mem2mem(layer.copy->source, layer.copy->destination, layer.copy->bytes);
      e.npuCycles = std::max(transfer - previousSlack, 0.0);
      e.totalCycles = e.npuCycles;
      const double bytes = static_cast<double>(layer.copy->bytes);
      e.traffic[areaIndex(layer.copy->source)].featureMapRead += bytes;
      e.traffic[areaIndex(layer.copy->destination)].featureMapWrite += bytes;
    }
    return e;
  }
  const WeightStreams& w = layer.weights;
  // 1. Compute cycles and MACs of the full operation.
  e.computeCycles = model_.computeCycles(q);
  e.macs = model_.macs(q);
  // 2. Slack offered to the next layer: the scheduler's estimate with scales in fast storage,
  //    of the last depth slice when the weights were split. The scheduler estimates before it
  //    moves feature maps into fast storage: they are still in the arena then (Dedicated_Sram:
  //    DRAM, not the SRAM cache the stream uses).
  LayerQuery slackQuery = q;
  if (q.hasBias) {
    slackQuery.constArea = system_.fastArea();
  }
  slackQuery.ifm.area = schedulingArea(q.ifm.area);
  slackQuery.ofm.area = schedulingArea(q.ofm.area);
  if (slackQuery.ifm2) {
    slackQuery.ifm2->area = schedulingArea(q.ifm2->area);
  }
  if (w.depthSlices > 1) {
    slackQuery.ofm.shape.depth = w.lastSliceDepth;
  } else if (layer.ofmTensorShape.depth > 0) {
    // The scheduler costs an operation with the depth of its whole OFM tensor: a
    // Concatenation's copy of one input as if it wrote every channel of the output.
    slackQuery.ofm.shape.depth = layer.ofmTensorShape.depth;
  }
  e.slackCycles = static_cast<double>(model_.computeCycles(slackQuery));
  // 3. DMA cycles of a LUT load.
  double dmaCycles = 0;
  AreaBytes bytes;
  if (layer.lut) {
    dmaCycles += model_.mem2mem(layer.lut->source, MemArea::Shram, layer.lut->bytes);
    bytes.traffic[areaIndex(layer.lut->source)].otherRead += static_cast<double>(layer.lut->bytes);
  }
  // 4. NPU cycles: weight DMA not hidden under the previous layer's slack.
  const bool buffered =
      w.buffering == WeightBuffering::SingleBuffer || w.buffering == WeightBuffering::DoubleBuffer;
  if (buffered) {
    const double firstTransfer = model_.mem2mem(w.sourceArea, w.bufferArea, w.firstTransferBytes);
    // The scheduler leaves the full-transfer time at 0 for cascaded operations, and times the
    // full transfer of sliced weights with their one-piece encoding when that is known.
    const bool sliced = w.depthSlices > 1 && !w.cascaded;
    const uint64_t fullBytes = sliced && w.onePieceBytes > 0 ? w.onePieceBytes : w.encodedBytes;
    const double fullTransfer = w.cascaded ? 0.0 : model_.mem2mem(w.sourceArea, w.bufferArea, fullBytes);
    const double compute = static_cast<double>(e.computeCycles);
    const bool approximated = sliced && w.onePieceBytes == 0;
    if (w.buffering == WeightBuffering::DoubleBuffer) {
      const double streamBound = fullTransfer - previousSlack + e.slackCycles;
      const double computeBound = compute + std::max(firstTransfer - previousSlack, 0.0);
      e.npuCycles = std::max(streamBound, computeBound);
      e.fullTransferApproximated = approximated && streamBound >= computeBound;
    } else {
      e.npuCycles = compute + fullTransfer - std::min(firstTransfer, previousSlack);
      e.fullTransferApproximated = approximated;
    }
    e.npuCycles += dmaCycles;
    bytes.traffic[areaIndex(w.sourceArea)].weightRead += static_cast<double>(w.encodedBytes);
    bytes.traffic[areaIndex(w.bufferArea)].weightWrite += static_cast<double>(w.encodedBytes);
  } else {
    e.npuCycles = static_cast<double>(e.computeCycles) + std::max(dmaCycles - previousSlack, 0.0);
  }
  // 5. Feature-map traffic, burst-scaled for access cycles.
  const ElementAccess access = model_.elementAccess(q);
  const double ofmBytes = access.ofmWrite * (q.ofm.bits / 8);
  bytes.traffic[areaIndex(q.ofm.area)].featureMapWrite += ofmBytes;
  bytes.scaled[areaIndex(q.ofm.area)] += model_.burstScaled(false, q.ofm.area, q.ofm.format, q.ofm.bits,
                                                            q.block.ofmBlock, q.ofm.shape, ofmBytes);
  const double ifmBytes = access.ifmRead[0] * (q.ifm.bits / 8);
  bytes.traffic[areaIndex(q.ifm.area)].featureMapRead += ifmBytes;
  bytes.scaled[areaIndex(q.ifm.area)] += model_.burstScaled(true, q.ifm.area, q.ifm.format, q.ifm.bits,
                                                           q.block.ifmBlock, q.ifm.shape, ifmBytes);
  if (q.ifm2) {
    const FeatureMapInfo& f = *q.ifm2;
    const double ifm2Bytes = access.ifmRead[1] * (f.bits / 8);
    bytes.traffic[areaIndex(f.area)].featureMapRead += ifm2Bytes;
    bytes.scaled[areaIndex(f.area)] +=
        model_.burstScaled(true, f.area, f.format, f.bits, q.block.ifmBlock, f.shape, ifm2Bytes);
  }
  // 6. Weights and scales read by the NPU; they cost access cycles only when read straight
  //    from the constant area (no burst penalty, no latency).
  if (access.constRead[0] > 0 && w.originalElements > 0) {
    const double ratio =
        (static_cast<double>(w.encodedBytes) - access.constRead[1] * double(system_.accelerator().arch->scaleBytesPerChannel)) /
                         static_cast<double>(w.originalElements);
    const double weightBytes = access.constRead[0] * ratio;
    bytes.traffic[areaIndex(q.constArea)].weightRead += weightBytes;
    if (!buffered) {
      bytes.scaled[areaIndex(q.constArea)] += weightBytes;
    }
  }
  if (access.constRead[1] > 0) {
    const double scaleBytes = access.constRead[1] * double(system_.accelerator().arch->scaleBytesPerChannel);
    bytes.traffic[areaIndex(q.constArea)].otherRead += scaleBytes;
    if (!buffered) {
      bytes.scaled[areaIndex(q.constArea)] += scaleBytes;
    }
  }
  // 7. Access cycles per area; the operation takes as long as its slowest term.
  e.totalCycles = e.npuCycles;
  for (size_t i = 0; i < kAccessAreas.size(); ++i) {
    e.accessCycles[i] = bytes.scaled[i] / system_.timing(kAccessAreas[i]).bytesPerCycle;
    e.totalCycles = std::max(e.totalCycles, e.accessCycles[i]);
    e.traffic[i] = bytes.traffic[i];
  }
  return e;
}

} // namespace npusim::analytic
