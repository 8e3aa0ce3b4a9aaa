// SPDX-License-Identifier: Apache-2.0
#pragma once
// What bound each NPU kernel operation: its charged cycles split by what the units waited on
// (docs/outputs.md, "Bound labels"), and the label with the largest share.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "models/npu/npu_stats.h"
#include "sim/cmdstream/operation.h"
#include "sim/config/region_map.h"
#include "sim/config/system_params.h"

namespace npusim::platform {

// Labels in tie-break order (the first of equal shares wins).
enum class Bound : uint8_t { Compute, Output, Sram, Dram, Flash, Dependency, Fetch };
constexpr size_t kBoundCount = 7;
std::string_view boundName(Bound bound);

// Charged cycles of one operation (or a layer) per label.
struct BoundCycles {
  std::array<double, kBoundCount> cycles{};
  double& operator[](Bound b) { return cycles[static_cast<size_t>(b)]; }
  double operator[](Bound b) const { return cycles[static_cast<size_t>(b)]; }
  BoundCycles& operator+=(const BoundCycles& other);
  double total() const;
  Bound largest() const;
};

// The interval each kernel operation is charged for: from the end of the kernel operation of
// the same invocation that completed before it (or the invocation's first issue) to its own
// end, so the charges of one invocation add up to its kernel span. `records` are the NPU's
// records in dispatch order; the result has one entry per record, (0, 0) for non-kernels.
std::vector<std::pair<double, double>> chargedIntervals(const std::vector<npu::OperationRecord>& records);

// Splits each kernel operation's charged interval by cause. `operationOf(record)` returns the
// decoded Operation of a record. Non-kernel records get all zeros.
template <typename OperationOf>
std::vector<BoundCycles> boundCycles(const std::vector<npu::OperationRecord>& records, const config::SystemParams& params,
                                     OperationOf&& operationOf);

// The memory label of a memory kind (both flashes are "flash").
Bound memoryBound(config::MemoryKind kind);

// One record's split, given its charged interval and the context the template gathers.
struct BoundContext {
  double chargeStart = 0;
  // Waits of the command processor between the previous kernel operation and this one
  // (inclusive): interval and label.
  struct Wait {
    double from, to;
    Bound label;
  };
  std::vector<Wait> waits;
  Bound ifm = Bound::Sram, weights = Bound::Sram;   // memories the MAC array's stalls wait on
  Bound ofm = Bound::Sram;                          // memory the OFM is written to
};
BoundCycles splitOperation(const npu::OperationRecord& r, const BoundContext& context);

template <typename OperationOf>
std::vector<BoundCycles> boundCycles(const std::vector<npu::OperationRecord>& records, const config::SystemParams& params,
                                     OperationOf&& operationOf) {
  const config::RegionMap regions(params);
  const auto regionMemory = [&](uint8_t region) { return memoryBound(regions.memory(region)); };
  const std::vector<std::pair<double, double>> charged = chargedIntervals(records);
  std::vector<BoundCycles> out(records.size());
  std::vector<BoundContext::Wait> waits;
  Bound lastDma = Bound::Flash;
  for (size_t i = 0; i < records.size(); ++i) {
    const npu::OperationRecord& r = records[i];
    if (i > 0 && r.invocation != records[i - 1].invocation) {
      waits.clear();
    }
    const cmd::Operation& op = operationOf(r);
    const double waitFrom = r.issue - r.ccWait;
    waits.push_back({waitFrom - r.fetchWait, waitFrom, Bound::Fetch});
    switch (r.kind) {
    case cmd::OpKind::DmaStart:
      lastDma = regionMemory(op.dma.srcRegion);
      break;
    case cmd::OpKind::DmaWait:
      waits.push_back({waitFrom, r.issue, lastDma});
      break;
    case cmd::OpKind::KernelWait:
    case cmd::OpKind::Stop:
      waits.push_back({waitFrom, r.issue, Bound::Dependency});
      break;
    case cmd::OpKind::Conv:
    case cmd::OpKind::Depthwise:
    case cmd::OpKind::Pool:
    case cmd::OpKind::Elementwise:
    case cmd::OpKind::Resize: {
      BoundContext context;
      context.chargeStart = charged[i].first;
      context.waits = std::move(waits);
      context.ifm = regionMemory(op.ifm.region);
      context.weights = regionMemory(op.weights[0].region);
      context.ofm = regionMemory(op.ofm.region);
      out[i] = splitOperation(r, context);
      waits.clear();
      break;
    }
    case cmd::OpKind::Irq:
    case cmd::OpKind::PmuMask:
    case cmd::OpKind::Branch:
      break;
    }
  }
  return out;
}

} // namespace npusim::platform
