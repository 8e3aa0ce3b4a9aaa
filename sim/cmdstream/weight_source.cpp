// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/weight_source.h"

namespace npusim::cmd {

bool hasWeightStream(const Operation& op) {
  return (op.kind == OpKind::Conv || op.kind == OpKind::Depthwise) && !op.weightsFromIfm2 && op.weights[0].length > 0;
}

std::optional<size_t> feedingDma(const std::vector<Operation>& ops, size_t before, uint8_t region, uint64_t base,
                                 uint64_t length) {
  for (size_t i = before; i-- > 0;) {
    const Operation& op = ops[i];
    if (op.kind == OpKind::DmaStart && !op.dma.dstInternal && op.dma.dstRegion == region && op.dma.dst <= base &&
        base + length <= op.dma.dst + op.dma.length) {
      return i;
    }
  }
  return std::nullopt;
}

std::optional<uint64_t> weightStreamInConstants(const std::vector<Operation>& ops, size_t index, size_t stream) {
  const Operation& op = ops[index];
  if (!hasWeightStream(op) || stream >= op.weightStreamCount) {
    return std::nullopt;
  }
  const Stream& s = op.weights[stream];
  if (s.length == 0) {   // a weight decoder without channels (U85)
    return std::nullopt;
  }
  if (s.region == arch::kConstantRegion) {
    return s.base;
  }
  const std::optional<size_t> dma = feedingDma(ops, index, s.region, s.base, s.length);
  if (!dma || ops[*dma].dma.srcInternal || ops[*dma].dma.srcRegion != arch::kConstantRegion) {
    return std::nullopt;
  }
  return ops[*dma].dma.src + (s.base - ops[*dma].dma.dst);
}

} // namespace npusim::cmd
