// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/weight_slices.h"

#include <algorithm>

#include "sim/cmdstream/weight_source.h"
#include "sim/common/error.h"
#include "sim/common/int_math.h"

namespace npusim::analytic {

namespace {

// The alignment of each scale and weight sub-stream (Vela's encoder).
constexpr uint64_t kSubStreamAlignment = 16;

// Channels of `depth` that core `core` of `cores` handles: every cores-th, starting at `core`
// (Vela's weight encoder deinterleaves OFM channels, block depths and scales this way).
uint32_t coreShare(uint32_t depth, uint32_t core, uint32_t cores) { return (depth + cores - 1 - core) / cores; }

} // namespace

SliceMap collectSlices(const std::vector<cmd::Operation>& ops, const std::vector<size_t>& operations) {
  SliceMap map;
  for (size_t index : operations) {
    const cmd::Operation& op = ops[index];
    if (!cmd::hasWeightStream(op)) {
      map.sliceOfOp.push_back(0);
      continue;
    }
    Slice s;
    const cmd::Stream& weights = op.weights[0];
    s.dma = cmd::feedingDma(ops, index, weights.region, weights.base, weights.length);
    if (s.dma) {
      const cmd::DmaTransfer& d = ops[*s.dma].dma;
      s.key = {d.srcRegion, d.src};
      s.bytes = d.length;
    } else {
      s.key = {weights.region, std::min(op.scales[0].base, weights.base)};
      // A two-core NPU's second core has its own weight and scale streams (U65-512).
      for (size_t i = 0; i < op.scaleStreamCount; ++i) {
        s.bytes += op.scales[i].length;
      }
      for (size_t i = 0; i < op.weightStreamCount; ++i) {
        s.bytes += op.weights[i].length;
      }
    }
    for (size_t i = 0; i < op.weightStreamCount; ++i) {
      s.weightBytes += op.weights[i].length;
    }
    s.depth = op.ofm.shape.depth;
    // Each core's stream where it lies in the constant region (two cores on the U65-512).
    for (size_t core = 0; core < op.weightStreamCount; ++core) {
      s.coreStreams.push_back({cmd::weightStreamInConstants(ops, index, core), op.weights[core].length});
    }
    auto it = std::find_if(map.slices.begin(), map.slices.end(), [&](const Slice& x) { return x.key == s.key; });
    map.sliceOfOp.push_back(static_cast<size_t>(it - map.slices.begin()));
    if (it == map.slices.end()) {
      map.slices.push_back(s);
    }
  }
  return map;
}

// Size of the layer's scales and weights encoded as one stream (Vela encodes depth [0, D) in
// one piece for the full-transfer estimate): each slice's decoded weights are put back into
// the OHWI volume through the brick order they were encoded in, and the volume is laid out
// again for the full depth. With several cores every core has its own scale and weight
// sub-stream of its share of the channels. 0 when a slice's weight stream is not in the
// constant region or does not hold the weights that order expects (padding must be zero).
uint64_t onePieceBytes(const std::vector<Slice>& slices, const cmd::Operation& first, uint32_t ifmDepth,
                       uint32_t ofmDepth, bool depthwise, const arch::NpuConfig& npu, const ConstantRegion& constants,
                       cmd::WeightEncoder encoder) {
  if (first.weightFormat != arch::WeightFormat::Standard) {
    return 0;   // the fast format's streams (U85) are not re-encoded
  }
  cmd::BrickLayout layout;
  layout.kernelHeight = first.kernel.height;
  layout.kernelWidth = first.kernel.width;
  layout.ifmDepth = depthwise ? 1 : ifmDepth;
  layout.ifmUblockDepth = npu.arch->ifmUblockDepth;
  layout.ofmUblockDepth = npu.ofmUblock.depth;
  layout.ifmBits = first.ifm.elementBits;
  layout.decompHeight = npu.arch->subKernelMax / std::max(first.kernel.dilationY, 1u);
  layout.decompWidth = npu.arch->subKernelMax / std::max(first.kernel.dilationX, 1u);
  layout.depthwise = depthwise;
  layout.partKernelFirst = first.kernel.partKernelFirst;
  const uint32_t cores = std::max<uint32_t>(first.weightStreamCount, 1u);
  // 1. Every slice's weights, per core, in stream order.
  std::vector<std::vector<cmd::WeightValues>> parts;
  uint64_t decoded = 0;
  for (const Slice& s : slices) {
    if (s.coreStreams.size() != cores) {
      return 0;
    }
    parts.emplace_back();
    for (const CoreStream& stream : s.coreStreams) {
      if (!stream.source) {
        return 0;
      }
      const uint64_t source = *stream.source;
      const uint64_t bytes = stream.bytes;
      if (source > constants.size || bytes > constants.size - source) {
        throwAtOffset(constants.file, constants.fileOffset + std::min<uint64_t>(source, constants.size),
                      "weight stream at constant-region offset " + std::to_string(source) + " (" +
                          std::to_string(bytes) + " bytes) lies outside the constant region (" +
                          std::to_string(constants.size) + " bytes)");
      }
      parts.back().push_back(
          cmd::decodeWeightStream(constants.data + source, bytes, constants.file, constants.fileOffset + source));
      decoded += parts.back().back().size();
    }
  }
  // 2. Back into the OHWI volume, which the streams must cover (a corrupt shape cannot make it
  //    larger than what was decoded). Core c of a slice at depth offset a holds channels
  //    a + c, a + c + cores, ...
  const uint64_t perOfm = uint64_t{layout.kernelHeight} * layout.kernelWidth * layout.ifmDepth;
  if (ofmDepth == 0 || perOfm > decoded / ofmDepth) {
    return 0;
  }
  std::vector<int16_t> volume(perOfm * ofmDepth, 0);
  uint64_t ofmOffset = 0;
  for (size_t i = 0; i < slices.size(); ++i) {
    if (ofmOffset + slices[i].depth > ofmDepth) {
      return 0;
    }
    for (uint32_t core = 0; core < cores; ++core) {
      const cmd::WeightValues& part = parts[i][core];
      layout.ofmDepth = coreShare(slices[i].depth, core, cores);
      layout.ofmBlockDepth = coreShare(first.ofmBlock.depth, core, cores);
      if (layout.ofmDepth == 0 || layout.ofmBlockDepth == 0) {
        if (!part.empty()) {
          return 0;
        }
        continue;
      }
      const std::optional<std::vector<int64_t>> order = cmd::brickOrder(layout, part.size());
      if (!order || order->size() != part.size()) {
        return 0;
      }
      for (size_t pos = 0; pos < order->size(); ++pos) {
        if ((*order)[pos] >= 0) {
          const auto local = static_cast<uint64_t>((*order)[pos]);
          const uint64_t channel = ofmOffset + core + (local / perOfm) * cores;
          volume[channel * perOfm + local % perOfm] = part[pos];
        } else if (part[pos] != 0) {
          return 0;
        }
      }
    }
    ofmOffset += slices[i].depth;
  }
  // 3. Each core's share of the full depth laid out and encoded after its scales.
  uint64_t total = 0;
  for (uint32_t core = 0; core < std::min(cores, ofmDepth); ++core) {
    layout.ofmDepth = coreShare(ofmDepth, core, cores);
    layout.ofmBlockDepth = coreShare(first.ofmBlock.depth, core, cores);
    if (layout.ofmBlockDepth == 0) {
      continue;
    }
    const std::optional<std::vector<int64_t>> order = cmd::brickOrder(layout, cmd::kMaxStreamWeights);
    if (!order) {
      return 0;
    }
    cmd::WeightValues weights(order->size(), 0);
    for (size_t pos = 0; pos < order->size(); ++pos) {
      if ((*order)[pos] >= 0) {
        const auto local = static_cast<uint64_t>((*order)[pos]);
        weights[pos] = volume[(core + (local / perOfm) * cores) * perOfm + local % perOfm];
      }
    }
    total += roundUp(uint64_t{layout.ofmDepth} * npu.arch->scaleBytesPerChannel, kSubStreamAlignment) +
             cmd::encodeWeightStream(weights, encoder).size();
  }
  return total;
}

} // namespace npusim::analytic
