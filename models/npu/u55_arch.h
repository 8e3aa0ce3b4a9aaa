// SPDX-License-Identifier: Apache-2.0
#pragma once
// Ethos-U55 micro-architecture constants per MAC configuration (timing doc §1.1, §1.2).

#include <array>
#include <cstdint>

#include "sim/cmdstream/operation.h"

namespace npusim::npu {

struct U55Arch {
  uint32_t macs = 128;
  cmd::Shape3 ofmUblock;          // OFM micro-block (H, W, D)
  uint32_t shramBanks = 24;
  uint32_t weightStepCycles = 32; // cyc_wb = 4 x ublock depth: weight-path floor per kernel step
  std::array<double, 8> outputCycles{};     // cycles per OFM element, indices O0..O7
  std::array<double, 3> activationCycles{}; // A0 LUT/sigmoid/tanh, A1 ReLU family, A2 none
  uint32_t axiBytesPerBeat = 8;   // 64-bit AXI
};

// Constants for ethos-u55-<macs>; throws std::invalid_argument for other MAC counts.
const U55Arch& u55Arch(uint32_t macs);

// Output-stage cycles per OFM element for an operation (Vela's output/activation tables,
// first matching rule of timing doc §3.4).
double outputCyclesPerElement(const U55Arch& arch, const cmd::Operation& op);

// How the MAC array walks a kernel: pooling, depthwise, a convolution part-kernel-first
// (several taps of 8-channel IFM slices per step) or depth-first (one tap per step; also
// fully connected and REDUCE_SUM).
enum class MacTraversal { Pooling, Depthwise, PartKernelFirst, DepthFirst };

// MAC-array cycles of one sub-kernel of `elements` taps over an OFM block of nx x ny x nz
// micro-blocks, pipeline delays included (timing doc §3.3 steps 3-5). `ibSlices`: 8-channel
// IFM slices per step, used by PartKernelFirst only. Shared by the simulator's per-block cost
// and the Vela-style estimator.
double subKernelMacCycles(const U55Arch& arch, MacTraversal traversal, bool wideIfm, bool acc40, double nx, double ny,
                          double nz, double ibSlices, uint32_t elements);

// MAC-array cycles for one OFM block of extent `block` (timing doc §3.3 steps 2-6): sub-kernel
// decomposition, per-ublock step costs, pipeline delays and IFM-depth blocks.
double macCyclesPerBlock(const U55Arch& arch, const cmd::Operation& op, const cmd::Shape3& block);

// IFM block depth the hardware consumes per step for a convolution (timing doc §4.1 step 3).
uint32_t ifmBlockDepth(const cmd::Operation& op);

// True when the op's accumulators are 40-bit (16-bit IFM, not pooling, scaled).
bool usesAcc40(const cmd::Operation& op);

} // namespace npusim::npu
