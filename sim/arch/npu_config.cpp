// SPDX-License-Identifier: Apache-2.0
#include "sim/arch/npu_config.h"

#include <algorithm>

namespace npusim::arch {

namespace {

// Timing doc 1.1 (micro-blocks, SHRAM), 1.2 (output and activation tables, Vela 3.10's
// architecture_features) and 3.3 (the MAC pipeline delays: 7/3 on U55-32, 3 with 40-bit
// accumulators on U55-64/128, else 2; U55-32 pools 16-bit IFMs at the 8-bit rate). What a
// generation fixes (product, AXI ports, queue depths, ...) is its Architecture's.
std::vector<NpuConfig> buildNpuConfigTable() {
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
    c.ofmUblocks = {ublock};
    c.weightDecoders = cores;
    c.outputCycles = out;
    c.activationCycles = act;
    c.pipeline = pipeline;
    c.portList = arch.ports;
    return c;
  };
  const Architecture& u55 = ethosU55();
  const Architecture& u65 = ethosU65();
  const std::array<double, 8> out256{0.625, 1.125, 0.5, 0.375, 0.5, 0.75, 0.125, 0.25};
  const std::array<double, 3> act256{1.0, 0.25, 0.0};
  const MacPipeline u55x32{3, 7, true, 1};
  const MacPipeline u55Mid{2, 3, false, 2};
  std::vector<NpuConfig> table{
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
  // Ethos-U85 (ethos-u85.md 1.1: weight decoders, micro-blocks, buffers, ports, read buffers;
  // 5.3: the output and activation cycles). One core each; the LUT RAM is 2 KiB on all of them.
  const auto u85 = [](std::string_view name, uint32_t macs, uint32_t decoders, std::vector<Shape3> ublocks,
                      Shape3 ifmUblock, InternalBuffers buffers, uint32_t sramPorts, uint32_t extPorts,
                      ReadBuffers readBuffers, std::array<double, 6> out, std::array<double, 2> act) {
    NpuConfig c;
    c.arch = &ethosU85();
    c.name = name;
    c.macs = macs;
    c.cores = 1;
    c.weightDecoders = decoders;
    c.shramKb = 0;
    buffers.lut = 2048;
    c.buffers = buffers;
    c.readBuffers = readBuffers;
    c.sramPorts = sramPorts;
    c.extPorts = extPorts;
    c.ofmUblock = ublocks.front();
    c.ofmUblocks = std::move(ublocks);
    c.ifmUblock = ifmUblock;
    std::copy(out.begin(), out.end(), c.outputCycles.begin());
    std::copy(act.begin(), act.end(), c.activationCycles.begin());
    // The MAC pipeline's delay per kernel step: 2 cycles, 3 with 48-bit accumulators on the
    // U85-128 (ethos-u85.md 5.2).
    c.pipeline = {2, macs <= 128 ? 3.0 : 2.0, false, 1};
    // The SRAM ports reach area Axi0, the EXT ports Axi1: the first of each group.
    std::array<uint32_t, kAreaCount> inArea{};
    for (const PortDesc& port : c.arch->ports) {
      const uint32_t present = port.area.index == 0 ? sramPorts : extPorts;
      if (inArea.at(port.area.index)++ < present) {
        c.portList.push_back(port);
      }
    }
    return c;
  };
  table.push_back(u85("ethos-u85-128", 128, 1, {{1, 2, 8}, {1, 1, 16}}, {1, 2, 8}, {8192, 8192, 2048, 768}, 2, 1,
                      {64, 64, 128, 128, 104, 16}, {0.5, 0.5, 0.5, 1.0, 1.0, 1.0}, {0.5, 1.0}));
  table.push_back(u85("ethos-u85-256", 256, 1, {{1, 2, 16}, {1, 4, 8}, {2, 2, 8}}, {2, 2, 8},
                      {16384, 16384, 2048, 1536}, 2, 1, {104, 104, 128, 128, 128, 16},
                      {0.25, 0.25, 0.25, 0.5, 0.5, 0.5}, {0.25, 0.5}));
  table.push_back(u85("ethos-u85-512", 512, 2, {{2, 2, 16}, {1, 4, 16}}, {2, 2, 16}, {16384, 32768, 4096, 3072}, 2,
                      1, {128, 128, 256, 256, 128, 16}, {0.125, 0.125, 0.25, 0.5, 0.25, 0.25}, {0.125, 0.25}));
  table.push_back(u85("ethos-u85-1024", 1024, 4, {{2, 2, 32}, {1, 4, 32}, {2, 4, 16}}, {4, 2, 16},
                      {16384, 65536, 4096, 6144}, 2, 2, {256, 256, 416, 208, 256, 16},
                      {0.0625, 0.125, 0.25, 0.5, 0.125, 0.25}, {0.0625, 0.125}));
  table.push_back(u85("ethos-u85-2048", 2048, 4, {{2, 2, 64}, {1, 4, 64}, {4, 4, 16}}, {4, 4, 16},
                      {32768, 131072, 8192, 12288}, 4, 2, {256, 256, 512, 256, 256, 16},
                      {0.03125, 0.0625, 0.125, 0.25, 0.0625, 0.125}, {0.03125, 0.0625}));
  return table;
}

} // namespace

const std::vector<NpuConfig>& npuConfigs() {
  static const std::vector<NpuConfig> table = buildNpuConfigTable();
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

const Shape3* NpuConfig::ofmUblockOf(uint32_t height, uint32_t width) const {
  for (const Shape3& u : ofmUblocks) {
    if (u.height == height && u.width == width) return &u;
  }
  return nullptr;
}

namespace {

uint32_t log2Of(uint32_t n) {
  uint32_t log2 = 0;
  while ((2u << log2) <= n) ++log2;
  return log2;
}

} // namespace

uint32_t configWord(const NpuConfig& npu) {
  const ConfigWordLayout& l = npu.arch->configWord;
  return l.product.place(npu.arch->product) | l.log2Macs.place(log2Of(npu.macs)) |
         l.streamVersion.place(npu.arch->commandStreamVersion) | l.shramKb.place(npu.shramKb) |
         l.log2SramPorts.place(log2Of(npu.sramPorts)) | l.log2ExtPorts.place(log2Of(npu.extPorts)) |
         l.log2WeightDecoders.place(log2Of(npu.weightDecoders));
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
