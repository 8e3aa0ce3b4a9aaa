// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/vela5_staging_usage.h"

#include <algorithm>
#include <array>
#include <optional>

#include "harness/analytic/live_ranges.h"
#include "harness/analytic/weight_slices.h"
#include "sim/arch/regions.h"

namespace npusim::analytic::vela5 {

namespace {

// A scheduled operation's weight buffer in the staging memory, as regor sizes it: one tensor
// holding every slice when single-buffered (the largest slice), or two alternating halves
// (the largest even and the largest odd slice) when the slices go to two destinations.
struct WeightBuffer {
  uint8_t region = 0;
  uint64_t bytes = 0;
};

std::optional<WeightBuffer> weightBuffer(const std::vector<cmd::Operation>& ops, const ScheduledOp& op) {
  if (!op.weights.buffered) return std::nullopt;
  const SliceMap map = collectSlices(ops, op.spec.operations);
  std::array<uint64_t, 2> largest{};
  std::vector<uint64_t> destinations;
  WeightBuffer buffer;
  for (size_t i = 0; i < map.slices.size(); ++i) {
    const Slice& slice = map.slices[i];
    if (!slice.dma) continue;
    const cmd::DmaTransfer& dma = ops[*slice.dma].dma;
    buffer.region = dma.dstRegion;
    if (std::find(destinations.begin(), destinations.end(), dma.dst) == destinations.end()) {
      destinations.push_back(dma.dst);
    }
    largest[i % 2] = std::max(largest[i % 2], slice.bytes);
  }
  buffer.bytes = destinations.size() > 1 ? largest[0] + largest[1] : std::max(largest[0], largest[1]);
  return buffer;
}

} // namespace

StagingUsage stagingUsage(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                          const std::vector<const std::vector<ScheduledOp>*>& ops, const System& system) {
  StagingUsage result;
  // Regions in the staging memory: the arena when it holds the feature maps, the staging area;
  // never the constants (regor keeps them apart as read-only data even in the same memory).
  const auto counts = [&](uint8_t region) {
    return region != arch::kConstantRegion && &system.region(region) == &system.staging();
  };
  LiveRanges ranges;
  std::vector<std::vector<int64_t>> rowTimes;   // -1: a chained activation
  NetworkSteps steps;
  steps.firstStep = 0;
  steps.arenaCounts = counts(arch::kArenaRegion);
  steps.rows = [&](size_t s, int64_t start) -> int64_t {
    if (s >= ops.size()) return 0;
    const std::vector<cmd::Operation>& stream = decoded[s].operations;
    const std::vector<ScheduledOp>& rows = *ops[s];
    // Chained activations run within their operation: its step, no range of their own.
    std::vector<size_t> scheduled;
    std::vector<const std::vector<size_t>*> operations;
    for (size_t r = 0; r < rows.size(); ++r) {
      if (!rows[r].spec.chained) {
        scheduled.push_back(r);
        operations.push_back(&rows[r].spec.operations);
      }
    }
    const std::vector<size_t> group = cascadeGroups(operations);
    std::vector<int64_t> times(rows.size(), -1);
    for (size_t i = 0; i < scheduled.size(); ++i) {
      const size_t r = scheduled[i];
      const ScheduledOp& op = rows[r];
      const int64_t t = start + 2 * static_cast<int64_t>(group[i]);
      times[r] = t;
      const Writer writer{Writer::Kind::Operation, s, static_cast<int64_t>(r)};
      for (size_t index : op.spec.operations) ranges.markOperation(stream[index], t, writer, counts);
      // The weight buffer lives at the operation's step. (regor starts a pre-buffered one a step
      // early, an odd step no operation has: it never changes an operation's figure.)
      if (const std::optional<WeightBuffer> buffer = weightBuffer(stream, op); buffer && counts(buffer->region)) {
        ranges.add(buffer->bytes, t, t + 1);
      }
    }
    rowTimes.push_back(std::move(times));
    return group.empty() ? 0 : 2 * static_cast<int64_t>(group.back() + 1);
  };
  walkNetwork(net, decoded, steps, ranges);
  for (const std::vector<int64_t>& times : rowTimes) {
    std::vector<uint64_t> perRow;
    for (int64_t t : times) perRow.push_back(t < 0 ? 0 : ranges.usage(t));
    result.perRow.push_back(std::move(perRow));
  }
  // The whole: what regor allocated in the staging memory.
  for (const io::DecodedNpuOp& d : decoded) {
    const io::NpuOp& npu = net.operators[d.operatorIndex].npu;
    uint64_t allocated = counts(arch::kArenaRegion) ? npu.scratchSize : npu.scratchFastSize;
    if (&system.readonly() == &system.staging()) allocated += npu.flashSize;
    result.allocatedBytes = std::max(result.allocatedBytes, allocated);
  }
  return result;
}

} // namespace npusim::analytic::vela5
