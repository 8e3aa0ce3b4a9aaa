// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one description of every supported Ethos-U configuration (timing doc 1.1-1.3, 5.1): what
// the loader checks a model's COP1 header against, what the simulator's units and the estimator
// read. Each entry refers to its generation's Architecture for what all its configurations
// share. No other file writes an NPU hardware constant. Plain C++.

#include <algorithm>
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
  double stepDelayAcc40 = 2;        // the same with wide (U55/U65 40-bit, U85 48-bit) accumulators
  bool narrowBlockAcc40 = false;    // also + delay x depth micro-blocks for 40-bit accumulators on a block
                                    // one micro-block wide or high (U55-32)
  uint32_t poolWideIfmFactor = 2;   // pooling cycles of a 16-bit IFM relative to an 8-bit one (1.x cost rules)
};

// The internal buffers of an architecture without SHRAM (the U85, ethos-u85.md 1.1), bytes.
struct InternalBuffers {
  uint32_t ifm = 0;          // IB: input buffer
  uint32_t accumulator = 0;  // AB: accumulator buffer
  uint32_t output = 0;       // OB: output buffer
  uint32_t chaining = 0;     // CB: chaining buffer (6 slots)
  uint32_t lut = 0;          // LUT RAM (8 slots of 256 bytes)
};

// Read buffer per AXI read channel, in 16-byte words (the U85's, ethos-u85.md 1.1: Vela's RB in
// 5.6, where RB / (burst / 16) is the bursts a channel keeps in flight: the buffer counts 16-byte
// beats of the 128-bit ports).
struct ReadBuffers {
  static constexpr uint32_t kWordBytes = 16;
  uint32_t mem2mem = 0, ifmStream = 0, weight = 0, fastWeight = 0, ifm = 0, scale = 0;
};

struct NpuConfig {
  const Architecture* arch = nullptr; // the generation's facts
  std::string_view name;            // Vela's --accelerator-config spelling, e.g. ethos-u55-128
  uint32_t macs = 128;              // MACs per cycle, all cores (CONFIG [3:0] = log2)
  uint32_t cores = 1;               // U65-512: two 256-MAC cores
  uint32_t weightDecoders = 1;      // one per core on the U55/U65; U85: 1, 2 or 4 (CONFIG [13:12] = log2)
  uint32_t shramKb = 24;            // CONFIG [15:8]: SHRAM of all cores, KiB (1 KiB banks); 0 without SHRAM
  InternalBuffers buffers;          // architectures without SHRAM (Architecture::buffers)
  ReadBuffers readBuffers;          // U85 (zero elsewhere)
  // AXI ports of each kind, on architectures whose ports are SRAM and EXT ports (U85: CONFIG
  // [9:8], [10] = log2): the first sramPorts "sramN" and extPorts "extN" ports of the
  // architecture's port list. 0 where the CONFIG word does not record them (U55, U65: axi0, axi1).
  uint32_t sramPorts = 0, extPorts = 0;
  Shape3 ofmUblock;                 // OFM micro-block (H, W, D) of one core; the U85's first choice
  // Every OFM micro-block the MAC array runs: the U55's/U65's one, or the U85's choices (an
  // operation's ACC_FORMAT names its micro-block by height x width, unique per configuration).
  std::vector<Shape3> ofmUblocks;
  Shape3 ifmUblock;                 // U85: the IFM micro-block (recorded by Vela, unused by its model)
  // Cycles per OFM element by the architecture's selectors: U55/U65 O0..O7 (timing doc 1.2);
  // U85 O0..O5 (ethos-u85.md 5.3: 8/16/32/64-bit OFM, chained/binary 32-bit IFM).
  std::array<double, 8> outputCycles{};
  // Cycles per element of the activation: U55/U65 A0 LUT/sigmoid/tanh, A1 ReLU family, A2 none;
  // U85 A0 fused activation, transpose or reverse, A1 the same with a WHC/WCH/CWH transpose or a W reverse.
  std::array<double, 3> activationCycles{};
  MacPipeline pipeline;

  // Its AXI ports (arch::PortId indexes this list): its generation's, or on the Ethos-U85, whose
  // port count differs by configuration (2 or 4 SRAM, 1 or 2 EXT ports, ethos-u85.md 1.1), the
  // first sramPorts SRAM ports and extPorts EXT ports of its generation's list.
  std::vector<PortDesc> portList;
  const std::vector<PortDesc>& ports() const { return portList; }
  uint32_t macsPerCore() const { return macs / cores; }
  // The OFM micro-block `height` x `width` of ofmUblocks, or null.
  const Shape3* ofmUblockOf(uint32_t height, uint32_t width) const;
  // The OFM micro-block an operation runs: the one its stream programs (U85: ACC_FORMAT), or
  // where it programs none (an empty shape), the configuration's.
  const Shape3& ofmUblockRun(const Shape3& programmed) const {
    return programmed.elements() > 0 ? programmed : ofmUblock;
  }
  // cyc_wb: the weight path's floor per kernel step, 4 cycles per OFM micro-block channel.
  uint32_t weightStepCycles() const { return 4 * ofmUblock.depth; }
  uint64_t shramBytes() const { return uint64_t{shramKb} * 1024; }
  // Bytes the DMA engine reads before it writes them out: its generation's buffer (U55, U65), or
  // the memory-to-memory channel's read buffer (U85).
  uint32_t dmaChunkBytes() const {
    return readBuffers.mem2mem > 0 ? readBuffers.mem2mem * ReadBuffers::kWordBytes : arch->dmaChunkBytes;
  }
  // Bytes the DMA engine reads per step: the whole buffer, or the streamed piece of it.
  uint32_t dmaStepBytes() const {
    return arch->dmaStreamBytes > 0 ? std::min(arch->dmaStreamBytes, dmaChunkBytes()) : dmaChunkBytes();
  }
  // Bytes of one weight stream requested ahead of its decoder: the architecture's FIFO per core
  // (U55, U65), or the weight channel's read buffer shared by the weight decoders (U85).
  uint32_t weightWindowBytes() const {
    return readBuffers.weight > 0 ? readBuffers.weight * ReadBuffers::kWordBytes / weightDecoders
                                  : arch->weightWindowBytes;
  }
};

// Every supported configuration, U55 before U65, by MAC count.
const std::vector<NpuConfig>& npuConfigs();
// The configuration named `name` (Vela's spelling), or null.
const NpuConfig* findNpuConfig(std::string_view name);
// The configuration of `arch` with `macs` MACs per cycle (a COP1 CONFIG word's), or null.
const NpuConfig* findNpuConfig(const Architecture& arch, uint32_t macs);
// The CONFIG register value a command stream for `npu` is compiled against (its COP1 header), in
// its architecture's layout (Architecture::configWord): log2 MACs, the stream version, the product
// and what else that layout records (1.x: SHRAM KiB; 2.x: log2 SRAM ports, EXT ports, weight decoders).
uint32_t configWord(const NpuConfig& npu);
// "ethos-u55-32, ethos-u55-64, ..." for messages; only `arch`'s when one is given.
std::string npuConfigNames();
std::string npuConfigNames(const Architecture& arch);

} // namespace npusim::arch
