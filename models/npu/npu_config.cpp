// SPDX-License-Identifier: Apache-2.0
#include "models/npu/npu_config.h"

namespace npusim::npu {

std::string_view variantName(NpuVariant variant) {
  switch (variant) {
  case NpuVariant::U55: return "Ethos-U55";
  case NpuVariant::U65: return "Ethos-U65";
  }
  return "?";
}

namespace {

// Timing doc 1.1 (micro-blocks, SHRAM, weight-path floor, sub-kernel limit; the 10-byte packed
// bias/scale entry is Vela's weight encoder's and the command-stream doc's), 1.2 (output and
// activation tables, Vela 3.10's architecture_features), 1.3 and 5.1 (U65: 128-bit AXI, two
// outstanding DMAs, AXI_LIMIT 64 reads / 32 writes; U55: 64-bit, one DMA, 32 / 16). Queue depths
// are Vela's wait model (max_outstanding_kernels / max_outstanding_dma); the fetch chunk is the
// driver's AXI_LIMIT burst split; the DMA buffer (U55 256 B, U65 4 KiB) and the weight stream's
// window (1 KiB per core) are what docs/timing-model.md derives from the FVP counts (the U55's
// kit points; the U65's kws and rnnoise points): each is the latency-bandwidth product of the
// memory behind it, so it binds behind the U65's DRAM and never behind the U55's flash or SRAM.
// The command FIFO's prefetch and parse rate are npusim's reading of the command processor
// (timing doc 5.2), the same on both variants for want of a source that says otherwise.
std::vector<NpuConfig> buildTable() {
  // Fields every configuration shares keep NpuConfig's member initializers; what a variant fixes
  // (product, AXI width and limits, DMA queue) is set once per variant.
  const auto entry = [](NpuVariant variant, std::string_view name, uint32_t macs, uint32_t cores, uint32_t shramKb,
                        cmd::Shape3 ublock, std::array<double, 8> out, std::array<double, 3> act) {
    NpuConfig c;
    c.variant = variant;
    c.name = name;
    c.macs = macs;
    c.cores = cores;
    c.shramKb = shramKb;
    c.ofmUblock = ublock;
    c.outputCycles = out;
    c.activationCycles = act;
    switch (variant) {
    case NpuVariant::U55:
      c.product = 0;
      c.axiDataBits = 64;
      c.axiMaxReads = 32;
      c.axiMaxWrites = 16;
      c.dmaQueue = 1;
      break;
    case NpuVariant::U65:
      c.product = 1;
      c.axiDataBits = 128;
      c.axiMaxReads = 64;
      c.axiMaxWrites = 32;
      c.dmaQueue = 2;
      c.dmaChunkBytes = 4096;
      break;
    }
    return c;
  };
  constexpr auto kU55 = NpuVariant::U55;
  constexpr auto kU65 = NpuVariant::U65;
  const std::array<double, 8> out256{0.625, 1.125, 0.5, 0.375, 0.5, 0.75, 0.125, 0.25};
  const std::array<double, 3> act256{1.0, 0.25, 0.0};
  return {
      entry(kU55, "ethos-u55-32", 32, 1, 16, {1, 1, 4}, {2.0, 3.0, 3.0, 3.0, 4.0, 6.0, 1.0, 2.0}, {1.0, 1.0, 0.0}),
      entry(kU55, "ethos-u55-64", 64, 1, 16, {1, 1, 8}, {1.0, 1.5, 1.5, 1.5, 2.0, 3.0, 0.5, 1.0}, {1.0, 1.0, 0.0}),
      entry(kU55, "ethos-u55-128", 128, 1, 24, {1, 2, 8}, {0.75, 1.25, 0.75, 0.75, 1.0, 1.5, 0.25, 0.5},
            {1.0, 0.5, 0.0}),
      entry(kU55, "ethos-u55-256", 256, 1, 48, {2, 2, 8}, out256, act256),
      entry(kU65, "ethos-u65-256", 256, 1, 48, {2, 2, 8}, out256, act256),
      entry(kU65, "ethos-u65-512", 512, 2, 96, {2, 2, 8}, {0.3125, 0.5625, 0.25, 0.1875, 0.25, 0.375, 0.0625, 0.125},
            {0.5, 0.125, 0.0}),
  };
}

} // namespace

const std::vector<NpuConfig>& npuConfigs() {
  static const std::vector<NpuConfig> table = buildTable();
  return table;
}

const NpuConfig* findNpuConfig(std::string_view name) {
  for (const NpuConfig& c : npuConfigs()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const NpuConfig* findNpuConfig(uint32_t product, uint32_t macs) {
  for (const NpuConfig& c : npuConfigs()) {
    if (c.product == product && c.macs == macs) return &c;
  }
  return nullptr;
}

const NpuConfig* findNpuConfig(NpuVariant variant, uint32_t macs) {
  for (const NpuConfig& c : npuConfigs()) {
    if (c.variant == variant && c.macs == macs) return &c;
  }
  return nullptr;
}

uint32_t configWord(const NpuConfig& npu) {
  uint32_t log2Macs = 0;
  while ((2u << log2Macs) <= npu.macs) ++log2Macs;
  return npu.product << 28 | npu.shramKb << 8 | log2Macs;
}

namespace {

std::string joinNames(bool any, NpuVariant variant) {
  std::string s;
  for (const NpuConfig& c : npuConfigs()) {
    if (any || c.variant == variant) {
      s += (s.empty() ? "" : ", ") + std::string(c.name);
    }
  }
  return s;
}

} // namespace

std::string npuConfigNames() { return joinNames(true, NpuVariant::U55); }
std::string npuConfigNames(NpuVariant variant) { return joinNames(false, variant); }

} // namespace npusim::npu
