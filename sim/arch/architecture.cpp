// SPDX-License-Identifier: Apache-2.0
#include "sim/arch/architecture.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "sim/arch/command_set.h"

namespace npusim::arch {

bool Architecture::hasWeightFormat(WeightFormat format) const {
  return std::find(weightFormats.begin(), weightFormats.end(), format) != weightFormats.end();
}

const PmuEvent& Architecture::pmuEvent(std::string_view eventName) const {
  for (const PmuEvent& e : pmu.events) {
    if (e.name == eventName) return e;
  }
  throw std::logic_error("the " + std::string(name) + " has no PMU event " + std::string(eventName));
}

std::string Architecture::pmuPortEventName(PortId id, std::string_view suffix) const {
  const bool known = std::any_of(pmu.portEvents.begin(), pmu.portEvents.end(),
                                 [suffix](const PmuEvent& e) { return e.name == suffix; });
  if (!known || id.index >= pmu.portEventBase.size()) {
    throw std::logic_error("the " + std::string(name) + " has no per-port PMU event " + std::string(suffix) +
                           " on port " + std::to_string(id.index));
  }
  std::string s(port(id).name);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s + "_" + std::string(suffix);
}

namespace {

// The U55's and U65's PMU (command-stream doc 7: the core driver's ethosu_pmu_event_type and
// its hardware numbers; 4 event counters; PMCR at 0x180, ethos-u85.md 6). The AXI1 events are
// AXI0's + 0x100.
PmuDesc ethosU55Pmu() {
  PmuDesc p;
  p.controlRegister = 0x180;
  p.eventCounters = 4;
  p.events = {
      {"NO_EVENT", 0x00},
      {"CYCLE", 0x11},
      {"NPU_IDLE", 0x20},
      {"CC_STALLED_ON_BLOCKDEP", 0x21},
      {"CC_STALLED_ON_SHRAM_RECONFIG", 0x22},
      {"NPU_ACTIVE", 0x23},
      {"MAC_ACTIVE", 0x30},
      {"MAC_ACTIVE_8BIT", 0x31},
      {"MAC_ACTIVE_16BIT", 0x32},
      {"MAC_DPU_ACTIVE", 0x33},
      {"MAC_STALLED_BY_WD_ACC", 0x34},
      {"MAC_STALLED_BY_WD", 0x35},
      {"MAC_STALLED_BY_ACC", 0x36},
      {"MAC_STALLED_BY_IB", 0x37},
      {"MAC_ACTIVE_32BIT", 0x38},
      {"MAC_STALLED_BY_INT_W", 0x39},
      {"MAC_STALLED_BY_INT_ACC", 0x3A},
      {"AO_ACTIVE", 0x40},
      {"AO_ACTIVE_8BIT", 0x41},
      {"AO_ACTIVE_16BIT", 0x42},
      {"AO_STALLED_BY_OFMP_OB", 0x43},
      {"AO_STALLED_BY_OFMP", 0x44},
      {"AO_STALLED_BY_OB", 0x45},
      {"AO_STALLED_BY_ACC_IB", 0x46},
      {"AO_STALLED_BY_ACC", 0x47},
      {"AO_STALLED_BY_IB", 0x48},
      {"WD_ACTIVE", 0x50},
      {"WD_STALLED", 0x51},
      {"WD_STALLED_BY_WS", 0x52},
      {"WD_STALLED_BY_WD_BUF", 0x53},
      {"WD_PARSE_ACTIVE", 0x54},
      {"WD_PARSE_STALLED", 0x55},
      {"WD_PARSE_STALLED_IN", 0x56},
      {"WD_PARSE_STALLED_OUT", 0x57},
      {"WD_TRANS_WS", 0x58},
      {"WD_TRANS_WB", 0x59},
      {"WD_TRANS_DW0", 0x5A},
      {"WD_TRANS_DW1", 0x5B},
      {"AXI_LATENCY_ANY", 0xA0},
      {"AXI_LATENCY_32", 0xA1},
      {"AXI_LATENCY_64", 0xA2},
      {"AXI_LATENCY_128", 0xA3},
      {"AXI_LATENCY_256", 0xA4},
      {"AXI_LATENCY_512", 0xA5},
      {"AXI_LATENCY_1024", 0xA6},
      {"ECC_DMA", 0xB0},
      {"ECC_SB0", 0xB1},
      {"ECC_SB1", 0x1B1},
  };
  p.portEvents = {
      {"RD_TRANS_ACCEPTED", 0x0},   {"RD_TRANS_COMPLETED", 0x1},   {"RD_DATA_BEAT_RECEIVED", 0x2},
      {"RD_TRAN_REQ_STALLED", 0x3}, {"WR_TRANS_ACCEPTED", 0x4},    {"WR_TRANS_COMPLETED_M", 0x5},
      {"WR_TRANS_COMPLETED_S", 0x6}, {"WR_DATA_BEAT_WRITTEN", 0x7}, {"WR_TRAN_REQ_STALLED", 0x8},
      {"WR_DATA_BEAT_STALLED", 0x9}, {"ENABLED_CYCLES", 0xC},      {"RD_STALL_LIMIT", 0xE},
      {"WR_STALL_LIMIT", 0xF},
  };
  p.portEventBase = {0x80, 0x180};
  return p;
}

// The facts U55 and U65 share: the 1.x command set, the standard weight format, SHRAM, two AXI
// ports, Vela's wait model (max_outstanding_kernels 2), and the command processor's and DMA
// engine's sizes. The fetch and DMA chunk sizes are the driver's AXI_LIMIT burst split and the
// DMA buffer docs/timing-model.md derives from the U55's FVP counts (the U65 keeps it for want
// of a U65 measurement; behind DRAM it dominates, see docs/validation.md "Ethos-U65"); the
// command FIFO's prefetch and parse rate are npusim's reading of the command processor (timing
// doc 5.2), the same on both for want of a source that says otherwise. The sub-kernel limit,
// IFM micro-block depth and 10-byte packed bias/scale entry are timing doc 1.1's and Vela's
// weight encoder's.
Architecture ethosU55Family(std::string_view name, uint32_t product) {
  Architecture a;
  a.name = name;
  a.product = product;
  a.loadable = true;
  a.archMajor = 1;
  a.commandStreamVersion = 0;
  a.commands = &ethosU55CommandSet();
  a.weightFormats = {WeightFormat::Standard};
  a.buffers = BufferModel::Shram;
  a.weightStreamOwner = "core";
  a.pmu = ethosU55Pmu();
  a.kernelQueue = 2;
  a.commandFetchBytes = 64;
  a.commandPrefetchChunks = 2;
  a.parseCyclesPerCommand = 1;
  a.dmaChunkBytes = 256;
  a.subKernelMax = 8;
  a.ifmUblockDepth = 8;
  a.scaleBytesPerChannel = 10;
  return a;
}

std::vector<Architecture> buildTable() {
  // U55 (timing doc 5.1): 64-bit AXI, AXI_LIMIT 32 reads / 16 writes; one DMA outstanding (Vela's
  // max_outstanding_dma). Unset port limits default to the Arm FPGA/FVP U55 high-end platform's
  // timing adapters: AXI0 TA0_MAXR=8, TA0_MAXW=8; AXI1 TA1_MAXR=2, TA1_MAXW=0 (no limit, so the
  // AXI_LIMIT maximum of 16).
  Architecture u55 = ethosU55Family("Ethos-U55", 0);
  u55.ports = {{"axi0", 64, 32, 16, 8, 8, AreaId{0}}, {"axi1", 64, 32, 16, 2, 16, AreaId{1}}};
  u55.maxWeightStreams = 1;
  u55.maxScaleStreams = 1;
  u55.defaultSystemConfig = "Ethos_U55_High_End_Embedded";
  u55.defaultMemoryMode = "Shared_Sram";
  u55.dmaQueue = 1;
  // U65 (timing doc 5.1): 128-bit AXI, AXI_LIMIT 64 reads / 32 writes (also the defaults: the
  // driver's), two DMAs outstanding; the U65-512's two cores each read their own weight and
  // scale streams (NPU_SET_PARALLEL_MODE).
  Architecture u65 = ethosU55Family("Ethos-U65", 1);
  u65.ports = {{"axi0", 128, 64, 32, 64, 32, AreaId{0}}, {"axi1", 128, 64, 32, 64, 32, AreaId{1}}};
  u65.maxWeightStreams = 2;
  u65.maxScaleStreams = 2;
  u65.defaultSystemConfig = "Ethos_U65_Client_Server";
  u65.defaultMemoryMode = "Dedicated_Sram";
  u65.dmaQueue = 2;
  // U85 (ethos-u85.md 0-2, 6): recognised by its product, not read yet. Its command set, ports
  // (2 or 4 SRAM, 1 or 2 EXT per configuration) and PMU port events come with its front end;
  // the timing fields keep the U55's values, which nothing reads while it is not loadable.
  Architecture u85;
  u85.name = "Ethos-U85";
  u85.product = 2;
  u85.loadable = false;
  u85.archMajor = 2;
  u85.commandStreamVersion = 1;
  u85.weightFormats = {WeightFormat::Standard, WeightFormat::Fast};
  u85.buffers = BufferModel::InternalBuffers;
  u85.maxWeightStreams = 4;
  u85.maxScaleStreams = 1;
  u85.weightStreamOwner = "weight decoder";
  u85.pmu.controlRegister = 0x1180;
  u85.pmu.eventCounters = 8;
  u85.pmu.events = {{"NO_EVENT", 0},        {"CYCLE", 17},         {"NPU_IDLE", 32},
                    {"CC_STALLED_ON_BLOCKDEP", 33}, {"CC_STALLED_ON_SHRAM_RECONFIG", 34}, {"NPU_ACTIVE", 35},
                    {"MAC_ACTIVE", 48},      {"MAC_DPU_ACTIVE", 51}, {"AO_ACTIVE", 64},
                    {"WD_ACTIVE", 80},       {"WD_STALLED", 81}};
  u85.defaultSystemConfig = "Ethos_U85_SYS_DRAM_Mid";
  u85.defaultMemoryMode = "Dedicated_Sram_384KB";
  u85.kernelQueue = 2;
  u85.dmaQueue = 4;
  return {u55, u65, u85};
}

} // namespace

const std::vector<Architecture>& architectures() {
  static const std::vector<Architecture> table = buildTable();
  return table;
}

const Architecture* findArchitecture(uint32_t product) {
  for (const Architecture& a : architectures()) {
    if (a.product == product) return &a;
  }
  return nullptr;
}

const Architecture& ethosU55() { return architectures()[0]; }
const Architecture& ethosU65() { return architectures()[1]; }
const Architecture& ethosU85() { return architectures()[2]; }

std::string loadableProducts() {
  std::string s;
  for (const Architecture& a : architectures()) {
    if (a.loadable) {
      s += (s.empty() ? "" : ", ") + std::to_string(a.product) + " (" + std::string(a.name) + ")";
    }
  }
  return s;
}

} // namespace npusim::arch
