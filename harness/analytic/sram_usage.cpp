// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/sram_usage.h"

#include <algorithm>

#include "harness/analytic/live_ranges.h"
#include "sim/arch/regions.h"

namespace npusim::analytic {

SramUsage sramUsage(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                    const std::vector<const std::vector<Layer>*>& layers, const VelaSystem& system) {
  SramUsage result;
  const MemArea fast = system.fastArea();
  const auto isFast = [&](uint8_t region) {
    return region != arch::kConstantRegion && system.regionArea(region) == fast;
  };
  const bool arenaFast = isFast(arch::kArenaRegion);
  LiveRanges ranges;
  std::vector<std::vector<int64_t>> rowTimes;
  // Step 0 is Vela 3.10's start-up pass (the network inputs); the first operator follows at 2.
  NetworkSteps steps;
  steps.firstStep = 2;
  steps.arenaCounts = arenaFast;
  steps.rows = [&](size_t s, int64_t start) -> int64_t {
    if (s >= layers.size()) return 0;
    const std::vector<cmd::Operation>& ops = decoded[s].operations;
    const std::vector<Layer>& rows = *layers[s];
    std::vector<const std::vector<size_t>*> operations;
    for (const Layer& layer : rows) operations.push_back(&layer.operations);
    const std::vector<size_t> group = cascadeGroups(operations);
    std::vector<int64_t> times(rows.size());
    for (size_t r = 0; r < rows.size(); ++r) {
      const int64_t t = start + 2 * static_cast<int64_t>(group[r]);
      times[r] = t;
      const Layer& layer = rows[r];
      const bool cascaded = (r > 0 && group[r] == group[r - 1]) || (r + 1 < rows.size() && group[r + 1] == group[r]);
      const Writer writer{Writer::Kind::Operation, s, static_cast<int64_t>(r)};
      if (layer.dma) {
        const cmd::DmaTransfer& d = ops[*layer.dma].dma;
        if (isFast(d.srcRegion)) ranges.read({d.src, d.src + d.length}, t);
        if (isFast(d.dstRegion)) ranges.write({d.dst, d.dst + d.length}, t, writer);
        ranges.endOperation();
      }
      for (size_t index : layer.operations) ranges.markOperation(ops[index], t, writer, isFast);
      // Weight buffers live while the operation runs; the first is filled under the operation
      // before (not for the first operation or a cascade's); of two alternating buffers the one
      // the last slice does not use ends a step earlier.
      const WeightStreams& w = layer.weights;
      for (size_t b = 0; b < w.buffers.size(); ++b) {
        if (!isFast(w.buffers[b].region)) continue;
        const int64_t first = t - (b == 0 && r > 0 && !cascaded ? 1 : 0);
        const int64_t last = w.buffers.size() > 1 && b != w.lastBuffer ? t : t + 1;
        ranges.add(w.buffers[b].bytes, first, last);
      }
    }
    rowTimes.push_back(std::move(times));
    if (result.fastStorageBytes == 0) {
      const io::NpuOp& npu = net.operators[decoded[s].operatorIndex].npu;
      result.fastStorageBytes = arenaFast ? npu.scratchSize : isFast(arch::kCacheRegion) ? npu.scratchFastSize : 0;
    }
    return rows.empty() ? 0 : 2 * static_cast<int64_t>(group.back() + 1);
  };
  walkNetwork(net, decoded, steps, ranges);
  // Every range complete: the use at each operation's step.
  for (const std::vector<int64_t>& times : rowTimes) {
    std::vector<uint64_t> perLayer;
    for (int64_t t : times) perLayer.push_back(ranges.usage(t));
    result.perLayer.push_back(std::move(perLayer));
  }
  return result;
}

} // namespace npusim::analytic
