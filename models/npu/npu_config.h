// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one description of every supported Ethos-U configuration (timing doc 1.1-1.3, 5.1): what
// the loader checks a model's COP1 header against, what the simulator's units and the estimator
// read. No other file writes an NPU hardware constant. Plain C++.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cmdstream/operation.h"

namespace npusim::npu {

enum class NpuVariant : uint8_t { U55, U65 };

std::string_view variantName(NpuVariant variant); // "Ethos-U55", "Ethos-U65"

struct NpuConfig {
  NpuVariant variant = NpuVariant::U55;
  std::string_view name;            // Vela's --accelerator-config spelling, e.g. ethos-u55-128
  uint32_t product = 0;             // COP1 CONFIG word [31:28]: 0 = U55, 1 = U65
  uint32_t macs = 128;              // MACs per cycle, all cores (CONFIG [3:0] = log2)
  uint32_t cores = 1;               // U65-512: two 256-MAC cores
  uint32_t shramKb = 24;            // CONFIG [15:8]: SHRAM of all cores, KiB (1 KiB banks)
  cmd::Shape3 ofmUblock;            // OFM micro-block (H, W, D) of one core
  uint32_t ifmUblockDepth = 8;      // IFM micro-block depth: channels per MAC step
  uint32_t subKernelMax = 8;        // largest sub-kernel side; bigger kernels are decomposed
  uint32_t scaleBytesPerChannel = 10; // packed bias (40-bit) + scale (32-bit) + shift per OFM channel
  std::array<double, 8> outputCycles{};     // cycles per OFM element, indices O0..O7 (timing doc 1.2)
  std::array<double, 3> activationCycles{}; // A0 LUT/sigmoid/tanh, A1 ReLU family, A2 none
  uint32_t axiDataBits = 64;        // both AXI manager ports
  uint32_t axiMaxReads = 32;        // AXI_LIMIT maximum outstanding reads per counter (= driver default)
  uint32_t axiMaxWrites = 16;       // AXI_LIMIT maximum outstanding writes per counter (= driver default)
  uint32_t kernelQueue = 2;         // kernel operations outstanding (running + latched)
  uint32_t dmaQueue = 1;            // DMA operations outstanding
  uint32_t commandFetchBytes = 64;  // command-stream fetch burst (AXI_LIMIT default burst split)
  uint32_t commandPrefetchChunks = 2; // fetch chunks the command FIFO requests ahead of the parser
  double parseCyclesPerCommand = 1; // command processor: one command word decoded per cycle
  uint32_t dmaChunkBytes = 256;     // DMA engine buffer: bytes read, then written, per step
  uint32_t weightWindowBytes = 1024; // one core's weight stream: bytes requested ahead of the decoder
  uint32_t ifmBufferBlocks = 2;     // IFM blocks the SHRAM IFM area holds (double buffer, timing doc 4.2)

  uint32_t macsPerCore() const { return macs / cores; }
  // cyc_wb: the weight path's floor per kernel step, 4 cycles per OFM micro-block channel.
  uint32_t weightStepCycles() const { return 4 * ofmUblock.depth; }
  uint64_t shramBytes() const { return uint64_t{shramKb} * 1024; }
};

// Every supported configuration, U55 before U65, by MAC count.
const std::vector<NpuConfig>& npuConfigs();
// The configuration named `name` (Vela's spelling), or null.
const NpuConfig* findNpuConfig(std::string_view name);
// The configuration a COP1 CONFIG word names (product and MAC count), or null.
const NpuConfig* findNpuConfig(uint32_t product, uint32_t macs);
const NpuConfig* findNpuConfig(NpuVariant variant, uint32_t macs);
// The CONFIG register value a command stream for `npu` is compiled against (its COP1 header):
// [3:0] log2 MACs, [15:8] SHRAM KiB, [31:28] product.
uint32_t configWord(const NpuConfig& npu);
// "ethos-u55-32, ethos-u55-64, ..." for messages; only `variant`'s when one is given.
std::string npuConfigNames();
std::string npuConfigNames(NpuVariant variant);

} // namespace npusim::npu
