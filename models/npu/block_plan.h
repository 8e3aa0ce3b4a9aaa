// SPDX-License-Identifier: Apache-2.0
#pragma once
// Per-OFM-block work of one NPU kernel operation: MAC and output cycles, and the traffic
// each block moves (IFM/IFM2 reads, weight and scale reads, OFM writes). Plain C++.

#include <array>
#include <cstdint>
#include <optional>

#include "models/mem/memory_timing.h"
#include "models/npu/npu_cost.h"
#include "sim/cmdstream/operation.h"

namespace npusim::npu {

// IFM reads of one block: one transfer shape per distinct window width (sub-kernel columns
// clipped differently at the IFM edges); at most kMaxParts, wider kernels fold the rest into the
// last part.
struct IfmReads {
  static constexpr size_t kMaxParts = 4;
  std::array<mem::TransferShape, kMaxParts> parts{};
  size_t count = 0;
  uint64_t bytes() const;
  void add(const mem::TransferShape& shape);
};

struct BlockWork {
  Shape3 origin;              // first OFM element (y, x, c) of the block
  Shape3 extent;              // clipped block extent
  double macCycles = 0;            // MAC array (0 for elementwise)
  double outputCycles = 0;         // activation/output unit
  IfmReads ifm;                    // IFM reads (each shape's address: its region offset)
  mem::TransferShape ifm2;         // IFM2 read (binary elementwise)
  // Bytes of each weight and scale/bias stream (Operation::weights, scales) this block consumes.
  std::array<uint64_t, cmd::kMaxWeightStreams> weightBytes{}, scaleBytes{};
  // Weights the block's streams decode to, all streams together (kernel taps x IFM depth, 1 for
  // depthwise, x the block's OFM depth; half of them for 2:4 sparse weights).
  uint64_t weights = 0;
  mem::TransferShape ofm;          // feature-map write
};

// Walks the OFM blocks of a kernel operation in hardware order (depth fastest, then x, then y).
// Traffic rules (what is re-read per block; docs/timing-model.md has the evidence from the
// FVP's beat counts): the IFM window each block needs (its output rows and columns times the
// stride plus the kernel's span, without the padding outside the IFM) is fetched for every OFM
// block, once per sub-kernel with a SHRAM and once for the whole kernel with internal buffers,
// over the full IFM depth for convolutions, except what the IFM
// buffer still holds at the second and later depth blocks of a position (a convolution with one
// sub-kernel: with a SHRAM, all of the window if it has no more IFM depth blocks than the buffer
// holds; with internal buffers, the IB's bytes of it); the weight-stream chunk and the scale
// slice of a depth block are fetched with every block.
class BlockPlan {
public:
  BlockPlan(const arch::NpuConfig& npu, const cmd::Operation& op);

  uint64_t blockCount() const { return blocksY_ * blocksX_ * blocksZ_; }
  BlockWork block(uint64_t index) const;
  // BLOCKDEP: the previous operation's blocks 0..k that block `index` needs written before it
  // reads its IFM (k; nullopt: none). BLOCKDEP counts jobs, the operation's IFM blocks in order
  // (an OFM block's IFM window over one IFM block depth, depth fastest), so a convolution's block
  // at (x, y) position p is jobs up to (p + 1) x its IFM depth blocks - 1, a depthwise, pooling
  // or elementwise block one job of its own (Vela 5.0's ethos_u85_register_cs_generator.cpp
  // CalcBlockDep and Vela 3.10's register_command_stream_generator.py calc_blockdep). Its last
  // job i may run while the previous operation's last BLOCKDEP - i blocks are still being
  // written; at BLOCKDEP 0, or once i reaches BLOCKDEP, it needs all of them.
  std::optional<uint64_t> previousBlocksNeeded(uint64_t index, uint64_t previousBlocks) const;
  // An upper bound of any block's IFM read: the configured block's window with its halo,
  // clipped to the IFM's size, once per sub-kernel.
  mem::TransferShape largestIfmRead() const;

private:
  // The read (or write) of `rows` x `cols` x `channels` of `fm` from element `from`, which sets
  // the shape's address (region offset) and run stride.
  mem::TransferShape featureMapRead(const cmd::FeatureMap& fm, uint32_t rows, uint32_t cols, uint32_t channels,
                                    const Shape3& from) const;
  // The output unit's write of the OFM block `extent` at `from`.
  mem::TransferShape ofmWrite(const Shape3& extent, const Shape3& from) const;
  const arch::NpuConfig& npu_;
  const cmd::Operation& op_;
  Shape3 block_;
  uint64_t blocksY_ = 1, blocksX_ = 1, blocksZ_ = 1;
  // IFM rows (or columns) that output rows [first, first + count) read through the sub-kernel
  // whose taps start at `tap` and number `taps`, clipped to the IFM; *lowest gets the first one.
  uint32_t window(uint32_t first, uint32_t count, uint32_t stride, uint32_t dilation, uint32_t pad, uint32_t tap,
                  uint32_t taps, uint32_t ifmSize, uint32_t* lowest) const;
  uint32_t ifmRows_ = 1, ifmCols_ = 1;  // IFM window of a configured block, clipped to the IFM size
  uint32_t subKernels_ = 1;
  uint32_t ifmDepthBlocks_ = 1;         // IFM depth blocks a convolution walks per OFM block
  double outputPerElement_ = 0;
};

} // namespace npusim::npu
