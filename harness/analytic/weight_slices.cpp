// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/weight_slices.h"

#include <algorithm>

#include "sim/cmdstream/fast_weight_codec.h"
#include "sim/cmdstream/weight_source.h"
#include "sim/common/error.h"
#include "sim/common/int_math.h"

namespace npusim::analytic {

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

namespace {

// One stream's weights in stream order, and how many entries after the ones its weight order
// expects may be padding: a fast-format stream's last 32 bytes decode as entries too.
struct DecodedStream {
  cmd::WeightValues values;
  size_t maxPadding = 0;
};

DecodedStream decodeStream(bool fast, const uint8_t* data, uint64_t size, const std::string& file, uint64_t fileOffset) {
  if (!fast) {
    return {cmd::decodeWeightStream(data, size, file, fileOffset), 0};
  }
  cmd::FastWeights decoded = cmd::decodeFastWeightStream(data, size, file, fileOffset);
  const size_t bits = decoded.mode == cmd::FastWeightMode::Palette2   ? 2
                      : decoded.mode == cmd::FastWeightMode::Palette4 ? 4
                                                                      : 8;
  return {std::move(decoded.values), cmd::kFastWeightHeaderBytes * 8 / bits - 1};
}

} // namespace

// Size of the layer's scales and weights encoded as one stream (Vela encodes depth [0, D) in
// one piece for the full-transfer estimate, in the format and block config of the slices): each
// slice's decoded weights are put back into the OHWI volume through the weight order of the
// architecture they were encoded in (cmd::brickOrder, per core or weight decoder), and the
// volume is laid out again for the full depth and encoded after its scales. 0 when a slice's
// weight stream is not in the constant region or does not hold the weights that order expects
// (padding must be zero).
uint64_t onePieceBytes(const std::vector<Slice>& slices, const cmd::Operation& first, uint32_t ifmDepth,
                       uint32_t ofmDepth, uint32_t ifmBlockDepth, bool depthwise, const arch::NpuConfig& npu,
                       const ConstantRegion& constants, cmd::WeightEncoder encoder) {
  const bool fast = first.weightFormat == arch::WeightFormat::Fast;
  cmd::BrickLayout layout;
  layout.order = npu.arch->weightOrder;
  layout.kernelHeight = first.kernel.height;
  layout.kernelWidth = first.kernel.width;
  layout.ifmDepth = depthwise ? 1 : ifmDepth;
  layout.ifmBlockDepth = std::max(ifmBlockDepth, 1u);
  layout.ifmUblockDepth = npu.arch->ifmUblockDepth;
  layout.ofmUblockDepth = first.ublock.depth;
  layout.ifmBits = first.ifm.elementBits;
  layout.decompHeight = npu.arch->subKernelMax / std::max(first.kernel.dilationY, 1u);
  layout.decompWidth = npu.arch->subKernelMax / std::max(first.kernel.dilationX, 1u);
  layout.strideX = std::max(first.kernel.strideX, 1u);
  layout.strideY = std::max(first.kernel.strideY, 1u);
  layout.ofmBlockDepth = first.ofmBlock.depth;
  layout.depthwise = depthwise;
  layout.partKernelFirst = first.kernel.partKernelFirst;
  layout.sparse = first.sparse;
  layout.fast = fast;
  layout.streams = npu.weightDecoders;
  layout.macs = npu.macs;
  if (layout.ofmUblockDepth == 0 || layout.ofmBlockDepth == 0 || ofmDepth == 0) {
    return 0;
  }
  // 1. Every slice's weights, per stream, in stream order.
  std::vector<std::vector<DecodedStream>> parts;
  uint64_t decoded = 0;
  for (const Slice& s : slices) {
    layout.ofmDepth = s.depth;
    if (s.depth == 0 || s.coreStreams.size() != cmd::weightStreamCount(layout)) {
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
          decodeStream(fast, constants.data + source, bytes, constants.file, constants.fileOffset + source));
      decoded += parts.back().back().values.size();
    }
  }
  // 2. Back into the OHWI volume, which the streams must cover (a corrupt shape cannot make it
  //    larger than what was decoded). A slice at depth offset a holds channels a, a + 1, ...
  const uint64_t perOfm = uint64_t{layout.kernelHeight} * layout.kernelWidth * layout.ifmDepth;
  if (perOfm > decoded / ofmDepth) {
    return 0;
  }
  std::vector<int16_t> volume(perOfm * ofmDepth, 0);
  uint64_t ofmOffset = 0;
  for (size_t i = 0; i < slices.size(); ++i) {
    if (ofmOffset + slices[i].depth > ofmDepth) {
      return 0;
    }
    layout.ofmDepth = slices[i].depth;
    for (uint32_t stream = 0; stream < parts[i].size(); ++stream) {
      const cmd::WeightValues& part = parts[i][stream].values;
      const std::optional<std::vector<int64_t>> order = cmd::brickOrder(layout, part.size(), stream);
      if (!order || part.size() - order->size() > parts[i][stream].maxPadding) {
        return 0;
      }
      for (size_t pos = 0; pos < order->size(); ++pos) {
        if ((*order)[pos] >= 0) {
          volume[ofmOffset * perOfm + static_cast<uint64_t>((*order)[pos])] = part[pos];
        } else if (part[pos] != 0) {
          return 0;
        }
      }
    }
    ofmOffset += slices[i].depth;
  }
  // 3. The full depth laid out and encoded, after its scales.
  layout.ofmDepth = ofmDepth;
  uint64_t total = 0;
  for (uint32_t stream = 0; stream < cmd::weightStreamCount(layout); ++stream) {
    const std::optional<std::vector<int64_t>> order = cmd::brickOrder(layout, cmd::kMaxStreamWeights, stream);
    if (!order) {
      return 0;
    }
    cmd::WeightValues weights(order->size(), 0);
    for (size_t pos = 0; pos < order->size(); ++pos) {
      if ((*order)[pos] >= 0) {
        weights[pos] = volume[static_cast<uint64_t>((*order)[pos])];
      }
    }
    total += cmd::scaleStreamBytes(layout, stream, npu.arch->scaleBytesPerChannel) +
             (fast ? cmd::encodeFastWeightStream(weights, layout.sparse) : cmd::encodeWeightStream(weights, encoder)).size();
  }
  return total;
}

} // namespace npusim::analytic
