// SPDX-License-Identifier: Apache-2.0
#include "sim/platform/bound.h"

#include <algorithm>

namespace npusim::platform {

std::string_view boundName(Bound bound) {
  switch (bound) {
  case Bound::Compute: return "compute";
  case Bound::Output: return "output";
  case Bound::Sram: return "sram";
  case Bound::Dram: return "dram";
  case Bound::Flash: return "flash";
  case Bound::Dependency: return "dependency";
  case Bound::Fetch: return "fetch";
  }
  return "?";
}

BoundCycles& BoundCycles::operator+=(const BoundCycles& other) {
  for (size_t i = 0; i < kBoundCount; ++i) cycles[i] += other.cycles[i];
  return *this;
}

double BoundCycles::total() const {
  double sum = 0;
  for (double c : cycles) sum += c;
  return sum;
}

Bound BoundCycles::largest() const {
  return static_cast<Bound>(std::max_element(cycles.begin(), cycles.end()) - cycles.begin());
}

Bound memoryBound(config::MemoryKind kind) {
  switch (kind) {
  case config::MemoryKind::Sram: return Bound::Sram;
  case config::MemoryKind::Dram: return Bound::Dram;
  case config::MemoryKind::OnChipFlash:
  case config::MemoryKind::OffChipFlash: return Bound::Flash;
  }
  return Bound::Sram;
}

std::vector<std::pair<double, double>> chargedIntervals(const std::vector<npu::OperationRecord>& records) {
  std::vector<std::pair<double, double>> out(records.size(), {0.0, 0.0});
  for (size_t first = 0; first < records.size();) {
    size_t last = first;
    double cursor = records[first].issue;
    while (last < records.size() && records[last].invocation == records[first].invocation) {
      cursor = std::min(cursor, records[last].issue);
      ++last;
    }
    std::vector<size_t> kernels;
    for (size_t i = first; i < last; ++i) {
      if (cmd::isKernel(records[i].kind)) kernels.push_back(i);
    }
    std::stable_sort(kernels.begin(), kernels.end(), [&](size_t a, size_t b) { return records[a].end < records[b].end; });
    for (size_t i : kernels) {
      out[i] = {std::min(cursor, records[i].end), records[i].end};
      cursor = std::max(cursor, records[i].end);
    }
    first = last;
  }
  return out;
}

BoundCycles splitOperation(const npu::OperationRecord& r, const BoundContext& context) {
  BoundCycles b;
  const double from = context.chargeStart, to = r.end;
  if (to <= from) {
    return b;
  }
  const auto overlap = [&](double a, double z) { return std::max(0.0, std::min(z, to) - std::max(a, from)); };
  // 1. Inside the kernel span: the MAC array's work and stalls, the drain after the last block
  //    (output unit, then the final OFM write). When the span began before the charged interval (overlap
  //    with the previous operation), each part is charged in proportion.
  //    Work and stalls of pipelined blocks can add up to more than the span; then all parts
  //    shrink alike so that the parts add up to the charged cycles.
  const double span = r.end - r.start;
  const double busy = r.macCycles + r.stallIfm + r.stallWeights + r.stallOutput;
  const double inside = std::max(span, busy);
  if (inside > 0) {
    const double share = overlap(r.start, r.end) / inside;
    b[Bound::Compute] += share * r.macCycles;
    b[context.ifm] += share * r.stallIfm;
    b[context.weights] += share * r.stallWeights;
    // The drain after the last MAC: the final OFM write counts to the OFM's memory, the rest
    // (output unit) to output.
    const double drain = inside - busy;
    const double write = std::min(drain, r.writeTail);
    b[context.ofm] += share * write;
    b[Bound::Output] += share * (r.stallOutput + drain - write);
  }
  // 2. Before it: the first block waiting for the previous operation's OFM (BLOCKDEP) or SHRAM
  //    (a new layout), and the
  //    command processor's waits since the previous kernel operation; what remains of the gap
  //    is command processing (fetch, parse, dispatch).
  const double gap = overlap(from, r.start);
  double explained = overlap(r.start - r.stallBlockdep - r.stallShramReconfig, r.start);
  b[Bound::Dependency] += explained;
  for (const BoundContext::Wait& w : context.waits) {
    const double c = std::min(overlap(w.from, std::min(w.to, r.start)), std::max(0.0, gap - explained));
    b[w.label] += c;
    explained += c;
  }
  b[Bound::Fetch] += std::max(0.0, gap - explained);
  return b;
}

} // namespace npusim::platform
