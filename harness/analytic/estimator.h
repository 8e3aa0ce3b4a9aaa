// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 3.10's network performance estimate over reconstructed layers: NPU cycles including
// unhidden weight/LUT DMA time, access cycles per memory area, op total = max, network sums.

#include <array>
#include <cstdint>
#include <vector>

#include "harness/analytic/layer_builder.h"
#include "harness/analytic/performance_model.h"
#include "harness/analytic/vela_system.h"

namespace npusim::analytic {

// Unscaled bytes moved in one memory area (Vela's bandwidth report).
struct AreaTraffic {
  double featureMapRead = 0, featureMapWrite = 0;
  double weightRead = 0, weightWrite = 0;
  double otherRead = 0;   // scales/biases and LUTs
  double total() const { return featureMapRead + featureMapWrite + weightRead + weightWrite + otherRead; }
  AreaTraffic& operator+=(const AreaTraffic& o);
};

// Estimate of one layer. Access cycles and traffic are indexed like kAccessAreas.
struct LayerEstimate {
  double npuCycles = 0;
  std::array<double, 4> accessCycles{};
  double totalCycles = 0;          // max of NPU and access cycles
  uint64_t macs = 0;
  int64_t computeCycles = 0;       // NPU cycles before weight/LUT DMA terms
  double slackCycles = 0;          // cycles the next layer may hide its first DMA under
  uint64_t sramUsage = 0;          // bytes live during the layer: Vela 3.10's fast storage ("SRAM Usage"), Vela 5.0's staging memory ("Staging Usage")
  // True when the NPU cycles depend on the DMA time of the whole weight stream encoded in one
  // piece and that size was not recomputed (no constant region given): the slices' total is
  // used instead, which differs by a few bytes per slice (see docs/estimator.md).
  bool fullTransferApproximated = false;
  std::array<AreaTraffic, 4> traffic{};
};

// Sums over layers (Vela's network summary).
struct EstimateTotals {
  double npuCycles = 0;
  std::array<double, 4> accessCycles{};
  double totalCycles = 0;
  uint64_t macs = 0;
  std::array<AreaTraffic, 4> traffic{};
  void add(const LayerEstimate& e);
};

// Runs the performance model over the layers of NPU subgraphs.
class Estimator {
public:
  explicit Estimator(const VelaSystem& system) : system_(system), model_(system) {}

  // Estimates the layers of one NPU subgraph in order; each layer may hide its first weight
  // DMA under the previous layer's slack (the first layer has none).
  std::vector<LayerEstimate> estimate(const std::vector<Layer>& layers) const;

  // One layer given the previous layer's slack.
  LayerEstimate estimateLayer(const Layer& layer, double previousSlack) const;

  const PerformanceModel& model() const { return model_; }

private:
  // Where the scheduler saw a feature map now in `area` when it estimated the schedule.
  MemArea schedulingArea(MemArea area) const;

  const VelaSystem& system_;
  PerformanceModel model_;
};

} // namespace npusim::analytic
