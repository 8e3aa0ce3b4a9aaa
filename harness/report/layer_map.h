// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which network layer every NPU operation and CPU operator belongs to: Vela's rows (one per
// per-layer CSV row) named after the source model's tensors when Vela's debug database sits
// beside the model, else one layer per kernel operation named from the compiled .tflite.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/analytic/vela_artifacts.h"
#include "sim/io/decoded_network.h"

namespace npusim::report {

struct LayerInfo {
  std::string name;             // the source layer's output tensor (as Vela's per-layer CSV names it)
  std::string tfliteOperator;   // source TFLite operator, e.g. CONV_2D (empty when unknown)
  size_t networkOp = 0;         // operator of the compiled network that runs it
};

struct LayerMap {
  std::vector<LayerInfo> layers;
  // Per ethos-u operator: layer of each Operation (DMAs take the layer of the next kernel
  // operation, whose weights or LUT they fetch).
  std::map<size_t, std::vector<size_t>> ofOperation;
  std::map<size_t, size_t> ofCpuOperator;
  bool fromDebugDb = false;
  // Layer of operation `index` of ethos-u operator `networkOp` (nullptr when none).
  const LayerInfo* find(size_t networkOp, size_t index) const;
  const LayerInfo* findCpu(size_t networkOp) const;
  size_t indexOf(size_t networkOp, size_t index) const;   // SIZE_MAX when none
};

// Builds the map from Vela's debug database and source model (analytic::findVelaArtifacts).
// A debug database that does not describe `net` adds a line to `warnings` and the layers come
// from `net` only; a Vela 3.x database's row without the source model is named after its
// source operator's type (Vela 5.x's database names its rows).
LayerMap mapLayers(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                   const analytic::VelaArtifacts& vela, std::vector<std::string>* warnings);

} // namespace npusim::report
