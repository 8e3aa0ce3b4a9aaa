// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one description of every supported Ethos-U configuration (timing doc 1.1-1.3, 5.1): what
// the loader checks a model's COP1 header against, what the simulator's units and the estimator
// read. Each entry refers to its generation's Architecture for what all its configurations
// share. No other file writes an NPU hardware constant. Plain C++.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/arch/architecture.h"
#include "sim/common/shape.h"

namespace npusim::arch {

// The MAC array's pipeline delay per kernel step (timing doc 3.3 step 5, Vela's estimate).
struct MacPipeline {
  double stepDelay = 2;             // cycles per kernel step of a one-micro-block block, 32-bit accumulators
  double stepDelayAcc40 = 2;        // the same with 40-bit accumulators
  bool narrowBlockAcc40 = false;    // also + delay x depth micro-blocks for 40-bit accumulators on a block
                                    // one micro-block wide or high (U55-32)
  uint32_t poolWideIfmFactor = 2;   // pooling cycles of a 16-bit IFM relative to an 8-bit one
};

struct NpuConfig {
  const Architecture* arch = nullptr; // the generation's facts
  std::string_view name;            // Vela's --accelerator-config spelling, e.g. ethos-u55-128
  uint32_t macs = 128;              // MACs per cycle, all cores (CONFIG [3:0] = log2)
  uint32_t cores = 1;               // U65-512: two 256-MAC cores
  uint32_t shramKb = 24;            // CONFIG [15:8]: SHRAM of all cores, KiB (1 KiB banks)
  Shape3 ofmUblock;                 // OFM micro-block (H, W, D) of one core
  std::array<double, 8> outputCycles{};     // cycles per OFM element, indices O0..O7 (timing doc 1.2)
  std::array<double, 3> activationCycles{}; // A0 LUT/sigmoid/tanh, A1 ReLU family, A2 none
  MacPipeline pipeline;

  // Its AXI ports (arch::PortId indexes this list): its generation's. The Ethos-U85's port
  // count differs by configuration (2 or 4 SRAM, 1 or 2 EXT ports, ethos-u85.md 1.1), so its
  // configurations will list their own here.
  const std::vector<PortDesc>& ports() const { return arch->ports; }
  uint32_t macsPerCore() const { return macs / cores; }
  // cyc_wb: the weight path's floor per kernel step, 4 cycles per OFM micro-block channel.
  uint32_t weightStepCycles() const { return 4 * ofmUblock.depth; }
  uint64_t shramBytes() const { return uint64_t{shramKb} * 1024; }
};

// Every supported configuration, U55 before U65, by MAC count.
const std::vector<NpuConfig>& npuConfigs();
// The configuration named `name` (Vela's spelling), or null.
const NpuConfig* findNpuConfig(std::string_view name);
// The configuration of `arch` with `macs` MACs per cycle (a COP1 CONFIG word's), or null.
const NpuConfig* findNpuConfig(const Architecture& arch, uint32_t macs);
// The CONFIG register value a command stream for `npu` is compiled against (its COP1 header), in
// the architecture 1.x layout: [3:0] log2 MACs, [15:8] SHRAM KiB, [31:28] product.
uint32_t configWord(const NpuConfig& npu);
// "ethos-u55-32, ethos-u55-64, ..." for messages; only `arch`'s when one is given.
std::string npuConfigNames();
std::string npuConfigNames(const Architecture& arch);

} // namespace npusim::arch
