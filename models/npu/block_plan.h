// SPDX-License-Identifier: Apache-2.0
#pragma once
// Per-OFM-block work of one NPU kernel operation: MAC and output cycles, and the traffic
// each block moves (IFM/IFM2 reads, weight and scale reads, OFM writes). Plain C++.

#include <cstdint>

#include "models/mem/memory_timing.h"
#include "models/npu/u55_arch.h"
#include "sim/cmdstream/operation.h"

namespace npusim::npu {

struct BlockWork {
  cmd::Shape3 origin;              // first OFM element (y, x, c) of the block
  cmd::Shape3 extent;              // clipped block extent
  double macCycles = 0;            // MAC array (0 for elementwise)
  double outputCycles = 0;         // activation/output unit
  mem::TransferShape ifm, ifm2;    // feature-map reads
  uint64_t weightBytes = 0;        // weight stream bytes consumed by this block
  uint64_t scaleBytes = 0;         // scale/bias stream bytes
  mem::TransferShape ofm;          // feature-map write
};

// Walks the OFM blocks of a kernel operation in hardware order (depth fastest, then x, then y).
// Traffic rules (what is re-read per block) follow the block fetch behaviour that both Vela's
// model and Arm's FVP beat counts show: the IFM window of the configured block (with halo,
// clipped to the IFM) is fetched for every OFM block and sub-kernel, over the full IFM depth for
// convolutions; the weight-stream chunk of a depth block is re-read at every spatial block;
// scales are read once per depth block.
class BlockPlan {
public:
  BlockPlan(const U55Arch& arch, const cmd::Operation& op);

  uint64_t blockCount() const { return blocksY_ * blocksX_ * blocksZ_; }
  BlockWork block(uint64_t index) const;
  uint64_t macs() const { return op_.macs(); }

private:
  mem::TransferShape featureMapRead(const cmd::FeatureMap& fm, uint32_t rows, uint32_t cols, uint32_t channels) const;
  mem::TransferShape featureMapWrite(const cmd::Shape3& extent) const;
  const U55Arch& arch_;
  const cmd::Operation& op_;
  cmd::Shape3 block_;
  uint64_t blocksY_ = 1, blocksX_ = 1, blocksZ_ = 1;
  uint32_t ifmRows_ = 1, ifmCols_ = 1;  // IFM window of a configured block, clipped to the IFM
  uint32_t subKernels_ = 1;
  double outputPerElement_ = 0;
};

} // namespace npusim::npu
