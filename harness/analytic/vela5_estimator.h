// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 5.0's network performance estimate (regor compiler/network_performance and the parts of
// its scheduler the figures depend on), over scheduled operations rebuilt from a command
// stream: each operation's query, weight buffering and LUT, then NPU cycles with the weight and
// LUT DMA the previous operation's slack cannot hide, access cycles per memory, op total =
// max. Architecture-generic: the per-operation costs come from an ArchitecturePerformance.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/analytic/estimator.h"
#include "harness/analytic/vela5_performance.h"
#include "harness/analytic/weight_slices.h"
#include "sim/cmdstream/operation.h"

namespace npusim::analytic {
struct VelaDebugDb;
}

namespace npusim::analytic::vela5 {

// An operation of another one's group (Vela's sub-operations): an activation, transpose or
// reverse fused to the operation before it (no NPU operation of its own), or (U85) an
// elementwise operation chained to it, which runs as NPU operations of its own.
struct GroupMemberSpec {
  int id = -1;
  std::optional<OpType> type;
  std::vector<size_t> operations;   // its kernel Operations; empty when fused
};

// Which kernel operations form one scheduled operation, and its labels.
struct OperationSpec {
  int id = -1;                      // scheduled id in the debug database, -1 without one
  std::optional<OpType> type;       // Vela 5.0's operator type; derived from the stream when unknown
  std::string typeName;             // as the database spells it (the CSV's "NNG Operator")
  std::string sourceType;           // the source operator's type ("Original Operator")
  std::string name;                 // the OFM tensor name
  int sourceId = -1;
  bool chained = false;             // a member of another operation's group: a row of zeros
  std::optional<OpType> chainedActivation;  // the activation fused to this operation itself, if any
  std::vector<GroupMemberSpec> members;     // the rest of its group, in Vela's order
  std::vector<size_t> operations;   // kernel Operations of the whole group, in stream order
};

// Rows of one NPU subgraph as Vela 5.0's per-layer CSV has them: from the debug database
// (every `perf` row of the stream, chained activations included), else one per kernel
// operation. Throws InputError (file `model`, offset of the stream `streamFileOffset`) when the
// database does not describe the stream.
std::vector<OperationSpec> operationSpecs(const std::vector<cmd::Operation>& ops, const VelaDebugDb* db,
                                          int streamId, const std::string& model, uint64_t streamFileOffset);

// How a scheduled operation's weights reach the NPU.
struct WeightTransfer {
  bool present = false;
  bool buffered = false;            // DMA'd into the staging memory
  bool cascaded = false;            // runs in height stripes interleaved with other operations
  bool preBuffered = false;         // the first slice is DMA'd under the previous operation
  uint64_t weightBytes = 0;         // encoded weights of every slice and core
  uint64_t scaleBytes = 0;          // encoded scales/biases (and padding) of every slice and core
  uint64_t firstSliceBytes = 0;     // the first depth slice, every core
  uint64_t onePieceBytes = 0;       // scales and weights encoded over the whole depth (0: one slice)
  std::vector<uint32_t> depthSlices;  // Vela's ofmDepthSlices: 0, boundaries..., depth
};

// "none", "unbuffered", "buffered" or "cascaded" (buffered, height stripes).
std::string_view weightTransferName(const WeightTransfer& w);

// A LUT copied into SHRAM for the operation.
struct LutCopy {
  const Memory* source = nullptr;
  uint64_t bytes = 0;
};

// One scheduled operation with everything its estimate reads.
struct ScheduledOp {
  OperationSpec spec;
  Query query;
  WeightTransfer weights;
  std::optional<LutCopy> lut;
  // Region, address of the first OFM byte and row pitch of the OFM the operation's group writes
  // to memory, and its shape.
  std::optional<std::tuple<uint8_t, uint64_t, uint64_t>> producedAt;
  Shape3 producedShape;
};

// Estimates of Vela 5.0 scheduled operations. Contract: `system` and `arch` outlive it.
class Estimator {
public:
  Estimator(const System& system, const ArchitecturePerformance& arch) : system_(system), arch_(arch) {}

  // Rebuilds the scheduled operations of one stream (`constants`: region 0, for the weights'
  // one-piece size; may be null). Throws InputError for an operation the model cannot cost.
  std::vector<ScheduledOp> build(const std::vector<cmd::Operation>& ops, std::vector<OperationSpec> specs,
                                 const ConstantRegion* constants) const;

  // Estimates the operations of one NPU subgraph in order.
  std::vector<LayerEstimate> estimate(const std::vector<ScheduledOp>& ops) const;

private:
  // The operation's cycles as Vela's scheduler saw them when it chose the buffering: feature
  // maps in the feature-map memory (before fast-storage allocation), OFM `depth` deep.
  int64_t schedulingCycles(const Query& q, uint32_t depth) const;

  const System& system_;
  const ArchitecturePerformance& arch_;
};

// The query, weights and LUT of an operation as JSON (the estimate's --json detail).
nlohmann::json scheduledOpJson(const ScheduledOp& op);

} // namespace npusim::analytic::vela5
