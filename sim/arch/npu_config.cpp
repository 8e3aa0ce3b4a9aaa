// SPDX-License-Identifier: Apache-2.0
#include "sim/arch/npu_config.h"

namespace npusim::arch {

namespace {

// Timing doc 1.1 (micro-blocks, SHRAM), 1.2 (output and activation tables, Vela 3.10's
// architecture_features) and 3.3 (the MAC pipeline delays: 7/3 on U55-32, 3 with 40-bit
// accumulators on U55-64/128, else 2; U55-32 pools 16-bit IFMs at the 8-bit rate). What a
// generation fixes (product, AXI ports, queue depths, ...) is its Architecture's.
std::vector<NpuConfig> buildTable() {
  const auto entry = [](const Architecture& arch, std::string_view name, uint32_t macs, uint32_t cores,
                        uint32_t shramKb, Shape3 ublock, std::array<double, 8> out, std::array<double, 3> act,
                        MacPipeline pipeline = {}) {
    NpuConfig c;
    c.arch = &arch;
    c.name = name;
    c.macs = macs;
    c.cores = cores;
    c.shramKb = shramKb;
    c.ofmUblock = ublock;
    c.outputCycles = out;
    c.activationCycles = act;
    c.pipeline = pipeline;
    return c;
  };
  const Architecture& u55 = ethosU55();
  const Architecture& u65 = ethosU65();
  const std::array<double, 8> out256{0.625, 1.125, 0.5, 0.375, 0.5, 0.75, 0.125, 0.25};
  const std::array<double, 3> act256{1.0, 0.25, 0.0};
  const MacPipeline u55x32{3, 7, true, 1};
  const MacPipeline u55Mid{2, 3, false, 2};
  return {
      entry(u55, "ethos-u55-32", 32, 1, 16, {1, 1, 4}, {2.0, 3.0, 3.0, 3.0, 4.0, 6.0, 1.0, 2.0}, {1.0, 1.0, 0.0},
            u55x32),
      entry(u55, "ethos-u55-64", 64, 1, 16, {1, 1, 8}, {1.0, 1.5, 1.5, 1.5, 2.0, 3.0, 0.5, 1.0}, {1.0, 1.0, 0.0},
            u55Mid),
      entry(u55, "ethos-u55-128", 128, 1, 24, {1, 2, 8}, {0.75, 1.25, 0.75, 0.75, 1.0, 1.5, 0.25, 0.5},
            {1.0, 0.5, 0.0}, u55Mid),
      entry(u55, "ethos-u55-256", 256, 1, 48, {2, 2, 8}, out256, act256),
      entry(u65, "ethos-u65-256", 256, 1, 48, {2, 2, 8}, out256, act256),
      entry(u65, "ethos-u65-512", 512, 2, 96, {2, 2, 8}, {0.3125, 0.5625, 0.25, 0.1875, 0.25, 0.375, 0.0625, 0.125},
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

const NpuConfig* findNpuConfig(const Architecture& arch, uint32_t macs) {
  for (const NpuConfig& c : npuConfigs()) {
    if (c.arch == &arch && c.macs == macs) return &c;
  }
  return nullptr;
}

uint32_t configWord(const NpuConfig& npu) {
  uint32_t log2Macs = 0;
  while ((2u << log2Macs) <= npu.macs) ++log2Macs;
  return npu.arch->product << 28 | npu.shramKb << 8 | log2Macs;
}

namespace {

std::string joinNames(const Architecture* arch) {
  std::string s;
  for (const NpuConfig& c : npuConfigs()) {
    if (arch == nullptr || c.arch == arch) {
      s += (s.empty() ? "" : ", ") + std::string(c.name);
    }
  }
  return s;
}

} // namespace

std::string npuConfigNames() { return joinNames(nullptr); }
std::string npuConfigNames(const Architecture& arch) { return joinNames(&arch); }

} // namespace npusim::arch
