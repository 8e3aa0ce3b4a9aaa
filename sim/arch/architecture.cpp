// SPDX-License-Identifier: Apache-2.0
#include "sim/arch/architecture.h"

#include <algorithm>
#include <cctype>
#include <iterator>
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

std::string Architecture::pmuPortEventName(const PortDesc& port, std::string_view suffix) const {
  const bool known = std::any_of(pmu.portEvents.begin(), pmu.portEvents.end(),
                                 [suffix](const PmuEvent& e) { return e.name == suffix; });
  const bool ours = std::any_of(ports.begin(), ports.end(), [&port](const PortDesc& p) { return p.name == port.name; });
  if (!known || !ours) {
    throw std::logic_error("the " + std::string(name) + " has no per-port PMU event " + std::string(suffix) +
                           " on port " + std::string(port.name));
  }
  std::string s(port.name);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s + "_" + std::string(suffix);
}

std::string Architecture::pmuGroupEventName(std::string_view group, std::string_view suffix) const {
  if (group.empty()) {
    return {};
  }
  const std::string event = std::string(group) + "_" + std::string(suffix);
  const bool known = std::any_of(pmu.events.begin(), pmu.events.end(), [&event](const PmuEvent& e) { return e.name == event; });
  return known ? event : std::string();
}

std::string Architecture::pmuEventName(uint32_t number, const std::vector<PortDesc>& portList) const {
  for (const PmuEvent& e : pmu.events) {
    if (e.number == number) return std::string(e.name);
  }
  for (const PortDesc& port : portList) {
    for (const PmuEvent& e : pmu.portEvents) {
      if (uint32_t{port.pmuEventBase} + e.number == number) return pmuPortEventName(port, e.name);
    }
  }
  return {};
}

namespace {

// The memory attribute for `area`: `preferred` (the driver's) where it reaches it, else the first.
uint32_t attributeFor(const MemoryAttributes& a, AreaId area, uint8_t preferred) {
  if (a.areas.at(preferred & 3) == area) {
    return preferred & 3u;
  }
  for (uint32_t i = 0; i < a.areas.size(); ++i) {
    if (a.areas[i] == area) return i;
  }
  throw std::logic_error("no memory attribute reaches area " + std::string(areaName(area)));
}

} // namespace

uint32_t regionConfigWord(const HostRegisterMap& map, const std::array<AreaId, 8>& areas) {
  uint32_t word = 0;
  for (uint32_t r = 0; r < 8; ++r) {
    word |= map.regionAttribute.place(attributeFor(map.memoryAttributes, areas[r], map.memoryAttributes.driverRegions[r]))
            << (2 * r);
  }
  return word;
}

uint32_t queueConfigWord(const HostRegisterMap& map, AreaId area) {
  return map.regionAttribute.place(attributeFor(map.memoryAttributes, area, map.memoryAttributes.driverCommandStream));
}

namespace {

// The PMU registers from PMCR at `pmcr` on, the event counters from `pmevcntr` (the layout both
// generations' interface headers give: command-stream doc 8, ethos-u85.md 6).
PmuRegisters pmuRegisters(uint32_t pmcr, uint32_t pmevcntr) {
  PmuRegisters r;
  r.countEnableSet = pmcr + 0x04;
  r.countEnableClear = pmcr + 0x08;
  r.overflowSet = pmcr + 0x0C;
  r.overflowClear = pmcr + 0x10;
  r.interruptSet = pmcr + 0x14;
  r.interruptClear = pmcr + 0x18;
  r.cycleCounter = pmcr + 0x20;
  r.cycleCounterConfig = pmcr + 0x28;
  r.axiChannel = pmcr + 0x2C;
  r.eventCounter = pmevcntr;
  r.eventType = pmevcntr + 0x80;
  return r;
}

// The host registers both generations place alike (command-stream doc 8; ethos-u85.md 3.6): ID,
// STATUS, CMD, RESET, QBASE, QREAD, QCONFIG, QSIZE, PROT, CONFIG, REGIONCFG, BASEP0-7.
HostRegisterMap hostRegisters() {
  HostRegisterMap r;
  r.id = 0x000;
  r.status = 0x004;
  r.cmd = 0x008;
  r.reset = 0x00C;
  r.qbase = 0x010;
  r.qread = 0x018;
  r.qconfig = 0x01C;
  r.qsize = 0x020;
  r.prot = 0x024;
  r.config = 0x028;
  r.regioncfg = 0x03C;
  r.basep = 0x080;
  return r;
}

// Architecture 1.x (U55, U65): AXI_LIMIT0-3 at 0x040, one per memory attribute, attributes 0 and
// 1 on AXI0 and 2 and 3 on AXI1: [1:0] burst split, outstanding reads - 1 from bit 16 and writes
// - 1 from bit 24 in fields as wide as the generation's limits need (U55 5 and 4 bits, U65 6 and
// 5); no MEM_ATTR registers; 4 KiB of registers.
HostRegisterMap ethosU55HostRegisters(uint32_t idValue, uint8_t readBits, uint8_t writeBits) {
  HostRegisterMap r = hostRegisters();
  r.idValue = idValue;
  for (uint32_t i = 0; i < 4; ++i) {
    r.axiLimits.push_back({0x040 + 4 * i, AreaId{static_cast<uint8_t>(i / 2)}, {0, 2}, {16, readBits}, {24, writeBits}});
  }
  r.memoryAttributes.areas = {AreaId{0}, AreaId{0}, AreaId{1}, AreaId{1}};
  r.size = 0x1000;
  return r;
}

// The U55's and U65's PMU (command-stream doc 7: the core driver's ethosu_pmu_event_type and
// its hardware numbers; 4 event counters; PMCR at 0x180, ethos-u85.md 6). The AXI1 events are
// AXI0's + 0x100.
PmuDesc ethosU55Pmu() {
  PmuDesc p;
  p.controlRegister = 0x180;
  p.eventCounters = 4;
  p.registers = pmuRegisters(0x180, 0x300);
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
  return p;
}

// The facts U55 and U65 share: the 1.x command set, the standard weight format, SHRAM, two AXI
// ports, Vela's wait model (max_outstanding_kernels 2), and the command processor's and DMA
// engine's sizes. The fetch chunk is the driver's AXI_LIMIT burst split; the DMA buffer (set per
// generation below) and the weight stream's window (1 KiB per core) are what docs/timing-model.md
// derives from the FVP counts (the U55's kit points; the U65's kws and rnnoise points): each is
// the latency-bandwidth product of the memory behind it, so it binds behind the U65's DRAM and
// never behind the U55's flash or SRAM. The IFM area holds two IFM blocks (the double buffer,
// timing doc 4.2). The command FIFO's prefetch and parse rate are npusim's reading of the command
// processor (timing doc 5.2), the same on both for want of a source that says otherwise. The
// sub-kernel limit, IFM micro-block depth and 10-byte packed bias/scale entry are timing doc
// 1.1's and Vela's weight encoder's.
Architecture ethosU55Family(std::string_view name, uint32_t product) {
  Architecture a;
  a.name = name;
  a.product = product;
  a.loadable = true;
  a.archMajor = 1;
  a.velaIdWord = 0x10060000;          // architecture 1.0.6, as Vela 3.10 writes it
  a.commandStreamVersion = 0;
  a.configWord.shramKb = {8, 8};
  a.commands = &ethosU55CommandSet();
  a.weightFormats = {WeightFormat::Standard};
  a.buffers = BufferModel::Shram;
  a.dmaInternalMemory = "shram";
  a.weightStreamOwner = "core";
  a.pmu = ethosU55Pmu();
  a.kernelQueue = 2;
  a.commandFetchBytes = 64;
  a.commandPrefetchChunks = 2;
  a.parseCyclesPerCommand = 1;
  a.dmaChunkBytes = 256;
  a.weightWindowBytes = 1024;
  a.weightStreamsInOrder = true;
  a.ifmBufferBlocks = 2;
  a.subKernelMax = 8;
  a.ifmUblockDepth = 8;
  a.scaleBytesPerChannel = 10;
  a.weightOrder = WeightOrder::Bricks;
  return a;
}

// The U85's PMU (ethos-u85.md 6: the interface's event numbers; 8 event counters). Events of all
// SRAM ports together are 128 + offset, of all EXT ports 384 + offset; the driver's per-port
// events are 512 + 16 k + offset for SRAM port k and 640 + 16 k + offset for EXT port k, with the
// offsets of the U55's per-port events.
PmuDesc ethosU85Pmu() {
  PmuDesc p;
  p.controlRegister = 0x1180;
  p.eventCounters = 8;
  p.registers = pmuRegisters(0x1180, 0x1300);
  p.events = {
      {"NO_EVENT", 0},           {"CYCLE", 17},
      {"NPU_IDLE", 32},          {"CC_STALLED_ON_BLOCKDEP", 33},
      {"CC_STALLED_ON_SHRAM_RECONFIG", 34}, {"NPU_ACTIVE", 35},
      {"MAC_ACTIVE", 48},        {"MAC_DPU_ACTIVE", 51},
      {"MAC_STALLED_BY_W_OR_ACC", 52}, {"MAC_STALLED_BY_W", 53},
      {"MAC_STALLED_BY_ACC", 54}, {"MAC_STALLED_BY_IB", 55},
      {"MAC_STALLED_BY_INT_W", 57}, {"MAC_STALLED_BY_INT_ACC", 58},
      {"AO_ACTIVE", 64},         {"AO_STALLED_BY_BS_OR_OB", 67},
      {"AO_STALLED_BY_BS", 68},  {"AO_STALLED_BY_OB", 69},
      {"AO_STALLED_BY_AB_OR_CB", 70}, {"AO_STALLED_BY_AB", 71},
      {"AO_STALLED_BY_CB", 72},  {"WD_ACTIVE", 80},
      {"WD_STALLED", 81},        {"WD_STALLED_BY_WD_BUF", 83},
      {"WD_STALLED_BY_WS_FC", 84}, {"WD_STALLED_BY_WS_TC", 85},
      {"WD_TRANS_WBLK", 89},     {"WD_TRANS_WS_FC", 90},
      {"WD_TRANS_WS_TC", 91},
      {"AXI_LATENCY_ANY", 160},  {"AXI_LATENCY_32", 161},
      {"AXI_LATENCY_64", 162},   {"AXI_LATENCY_128", 163},
      {"AXI_LATENCY_256", 164},  {"AXI_LATENCY_512", 165},
      {"AXI_LATENCY_1024", 166}, {"ECC_DMA", 176},
      {"ECC_MAC_IB", 177},       {"ECC_MAC_AB", 178},
      {"ECC_AO_CB", 179},        {"ECC_AO_OB", 180},
      {"ECC_AO_LUT", 181},
  };
  // The weight decoder's per-stream events, four each (streams 0-3).
  static constexpr std::string_view kPerStream[] = {"WD_STALLED_BY_WS_SC0", "WD_STALLED_BY_WS_SC1", "WD_STALLED_BY_WS_SC2",
                                                    "WD_STALLED_BY_WS_SC3", "WD_PARSE_ACTIVE_SC0", "WD_PARSE_ACTIVE_SC1",
                                                    "WD_PARSE_ACTIVE_SC2", "WD_PARSE_ACTIVE_SC3", "WD_PARSE_STALL_SC0",
                                                    "WD_PARSE_STALL_SC1", "WD_PARSE_STALL_SC2", "WD_PARSE_STALL_SC3",
                                                    "WD_PARSE_STALL_IN_SC0", "WD_PARSE_STALL_IN_SC1", "WD_PARSE_STALL_IN_SC2",
                                                    "WD_PARSE_STALL_IN_SC3", "WD_PARSE_STALL_OUT_SC0", "WD_PARSE_STALL_OUT_SC1",
                                                    "WD_PARSE_STALL_OUT_SC2", "WD_PARSE_STALL_OUT_SC3", "WD_TRANS_WS_SC0",
                                                    "WD_TRANS_WS_SC1", "WD_TRANS_WS_SC2", "WD_TRANS_WS_SC3",
                                                    "WD_TRANS_WB0", "WD_TRANS_WB1", "WD_TRANS_WB2", "WD_TRANS_WB3"};
  for (size_t i = 0; i < std::size(kPerStream); ++i) {
    p.events.push_back({kPerStream[i], static_cast<uint16_t>(96 + i)});
  }
  p.portEvents = ethosU55Pmu().portEvents;
  // The SRAM and EXT port groups' events under the group's name ("SRAM_RD_DATA_BEAT_RECEIVED").
  static constexpr std::string_view kGroupNames[] = {
      "SRAM_RD_TRANS_ACCEPTED", "SRAM_RD_TRANS_COMPLETED", "SRAM_RD_DATA_BEAT_RECEIVED", "SRAM_RD_TRAN_REQ_STALLED",
      "SRAM_WR_TRANS_ACCEPTED", "SRAM_WR_TRANS_COMPLETED_M", "SRAM_WR_TRANS_COMPLETED_S", "SRAM_WR_DATA_BEAT_WRITTEN",
      "SRAM_WR_TRAN_REQ_STALLED", "SRAM_WR_DATA_BEAT_STALLED", "SRAM_ENABLED_CYCLES", "SRAM_RD_STALL_LIMIT",
      "SRAM_WR_STALL_LIMIT", "EXT_RD_TRANS_ACCEPTED", "EXT_RD_TRANS_COMPLETED", "EXT_RD_DATA_BEAT_RECEIVED",
      "EXT_RD_TRAN_REQ_STALLED", "EXT_WR_TRANS_ACCEPTED", "EXT_WR_TRANS_COMPLETED_M", "EXT_WR_TRANS_COMPLETED_S",
      "EXT_WR_DATA_BEAT_WRITTEN", "EXT_WR_TRAN_REQ_STALLED", "EXT_WR_DATA_BEAT_STALLED", "EXT_ENABLED_CYCLES",
      "EXT_RD_STALL_LIMIT", "EXT_WR_STALL_LIMIT"};
  const size_t perGroup = p.portEvents.size();
  for (size_t i = 0; i < std::size(kGroupNames); ++i) {
    const uint16_t base = i < perGroup ? 128 : 384;
    p.events.push_back({kGroupNames[i], static_cast<uint16_t>(base + p.portEvents[i % perGroup].number)});
  }
  p.macStalledByWeights = "MAC_STALLED_BY_W";
  return p;
}

// The Ethos-U85 (ethos-u85.md 0-3, 6), architecture 2.x. Its ports: up to four SRAM and two EXT
// AXI ports of 128 bits (16-byte ports: Vela's bandwidth model and the kit's timing-adapter
// numbers agree only with them, ethos-u85.md 1.3); every configuration has the first two SRAM
// ports and EXT port 0, the U85-1024 and -2048 EXT port 1, the U85-2048 SRAM ports 2 and 3
// (NpuConfig::sramPorts, extPorts). Limits: AXI_SRAM/AXI_EXT hold outstanding reads - 1 in 6
// bits and writes - 1 in 5 (at most 64 and 32); the defaults are the driver's (SRAM 12 reads and
// 16 writes, EXT 64 and 32). Queues: Vela's wait model (2 kernel operations, 4 DMAs). The DMA
// buffer and the weight streams' windows are each configuration's read buffers (NpuConfig); the
// parse rate keeps the U55's value (no U85 figure found), the command fetch is the FVP's (below).
Architecture ethosU85Description() {
  Architecture a;
  a.name = "Ethos-U85";
  a.product = 2;
  a.loadable = true;
  a.archMajor = 2;
  a.velaIdWord = 0x20007000;          // architecture 2.0.0, product major 7 (Vela 5.0)
  a.commandStreamVersion = 1;
  a.configWord.log2SramPorts = {8, 2};
  a.configWord.log2ExtPorts = {10, 1};
  a.configWord.log2WeightDecoders = {12, 2};
  a.commands = &ethosU85CommandSet();
  a.weightFormats = {WeightFormat::Standard, WeightFormat::Fast};
  a.ports = {{"sram0", 128, 64, 32, 12, 16, AreaId{0}, 512, "SRAM"}, {"sram1", 128, 64, 32, 12, 16, AreaId{0}, 528, "SRAM"},
             {"sram2", 128, 64, 32, 12, 16, AreaId{0}, 544, "SRAM"}, {"sram3", 128, 64, 32, 12, 16, AreaId{0}, 560, "SRAM"},
             {"ext0", 128, 64, 32, 64, 32, AreaId{1}, 640, "EXT"},    {"ext1", 128, 64, 32, 64, 32, AreaId{1}, 656, "EXT"}};
  a.buffers = BufferModel::InternalBuffers;
  a.costRules = CostRules::Ethos2x;
  // The command FIFO holds 128 bytes, the parser's current read and three more ahead of it, and
  // reads the stream 32 bytes at a time: inferred from the Corstone-320 FVP, the FIFO's size from
  // its EXT read-latency sweeps and per-launch records of rnnoise, the read size from the reads
  // its sweeps with one EXT read outstanding count (fvp-perop; docs/timing-model.md), no public
  // figure.
  a.commandFetchBytes = 32;
  a.commandPrefetchChunks = 3;
  // The DMA engine's buffer is the memory-to-memory channel's read buffer (NpuConfig: Vela's RB,
  // the bytes a channel keeps in flight, ethos-u85.md 5.6), so it streams: a read of one
  // 256-byte burst (the AXI maximum, ethos-u85.md 1.3) whenever that much of it is free
  // (fvp-perop records and points; docs/timing-model.md).
  a.dmaStreamBytes = 256;
  a.macStreamsWeights = true;
  // Inferred from the Corstone-320 FVP (fvp-perop records, sweeps and points; docs/timing-model.md):
  // no public source describes the U85's weight fetch or input buffer.
  a.weightStreamsStaggered = true;
  a.weightBlockPerPort = true;
  a.weightsWaitOnBlockdepZero = true;
  a.dispatchWaitsForKernelStart = true;
  a.macStreamsIfm = true;
  a.weightWindowPerBuffer = false;
  // Standard: inferred from the Corstone-320 FVP at zero EXT latency (fvp-perop sweeps;
  // docs/timing-model.md). Fast: four times one standard decoder, the ratio of Vela 5.0's lowest
  // rates for the two formats (32 and 8, ethos-u85.md 5.7); the fvp-perop Sram_Only rows only
  // bound it from below (about 14 a cycle; docs/timing-model.md).
  a.weightsDecodedPerCycle = 4;
  a.fastWeightsDecodedPerCycle = 16;
  a.dmaInternalMemory = "lutram";   // the LUT RAM: internal DMAs load activation tables
  a.maxWeightStreams = 4;
  a.maxScaleStreams = 1;
  a.weightStreamOwner = "weight decoder";
  a.pmu = ethosU85Pmu();
  // Its host registers (ethos-u85.md 1.3, 3.6): ID 2.0.0 with product major 7 (0x20007001, the
  // driver header's); MEM_ATTR0-3 at 0x040 ([2] 0 SRAM, 1 EXT; the driver's defaults SRAM, SRAM,
  // EXT, EXT); AXI_SRAM at 0x050 and AXI_EXT at 0x054: [5:0] outstanding reads - 1, [12:8] writes
  // - 1, [17:16] burst split; registers up to the PMU's event types (0x1400).
  a.registers = hostRegisters();
  a.registers.idValue = 0x20007001;
  a.registers.addressBits = 40;
  a.registers.memoryAttributes.offset = 0x040;
  a.registers.memoryAttributes.area = {2, 1};
  a.registers.memoryAttributes.areas = {AreaId{0}, AreaId{0}, AreaId{1}, AreaId{1}};
  a.registers.axiLimits = {{0x050, AreaId{0}, {16, 2}, {0, 6}, {8, 5}}, {0x054, AreaId{1}, {16, 2}, {0, 6}, {8, 5}}};
  a.registers.size = 0x1400;
  a.defaultSystemConfig = "Ethos_U85_SYS_DRAM_Mid";
  a.defaultMemoryMode = "Dedicated_Sram_384KB";
  a.hostCpu = "Cortex-M85";
  a.kernelQueue = 2;
  a.dmaQueue = 4;
  a.subKernelMax = 8;
  a.ifmUblockDepth = 8;
  a.scaleBytesPerChannel = 10;
  a.weightOrder = WeightOrder::DecoderGroups;
  return a;
}

std::vector<Architecture> buildArchitectureTable() {
  // U55 (timing doc 5.1): 64-bit AXI, AXI_LIMIT 32 reads / 16 writes; one DMA outstanding (Vela's
  // max_outstanding_dma). Unset port limits default to the Arm FPGA/FVP U55 high-end platform's
  // timing adapters: AXI0 TA0_MAXR=8, TA0_MAXW=8; AXI1 TA1_MAXR=2, TA1_MAXW=0 (no limit, so the
  // AXI_LIMIT maximum of 16).
  // ID registers: the driver interface headers' reset values, U55 arch 1.1.0 product major 4
  // (0x10104201), U65 arch 1.0.6 product major 6 (0x10066001).
  Architecture u55 = ethosU55Family("Ethos-U55", 0);
  u55.registers = ethosU55HostRegisters(0x10104201, 5, 4);
  u55.ports = {{"axi0", 64, 32, 16, 8, 8, AreaId{0}, 0x80, {}}, {"axi1", 64, 32, 16, 2, 16, AreaId{1}, 0x180, {}}};
  u55.maxWeightStreams = 1;
  u55.maxScaleStreams = 1;
  u55.defaultSystemConfig = "Ethos_U55_High_End_Embedded";
  u55.defaultMemoryMode = "Shared_Sram";
  u55.hostCpu = "Cortex-M55";
  u55.dmaQueue = 1;
  // U65 (timing doc 5.1): 128-bit AXI, AXI_LIMIT 64 reads / 32 writes (also the defaults: the
  // driver's), two DMAs outstanding, a 4 KiB DMA buffer (inferred from the kws U65 FVP points,
  // docs/timing-model.md); the U65-512's two cores each read their own weight and scale streams
  // (NPU_SET_PARALLEL_MODE).
  Architecture u65 = ethosU55Family("Ethos-U65", 1);
  u65.registers = ethosU55HostRegisters(0x10066001, 6, 5);
  u65.registers.addressBits = 40;
  u65.ports = {{"axi0", 128, 64, 32, 64, 32, AreaId{0}, 0x80, {}}, {"axi1", 128, 64, 32, 64, 32, AreaId{1}, 0x180, {}}};
  u65.maxWeightStreams = 2;
  u65.maxScaleStreams = 2;
  u65.defaultSystemConfig = "Ethos_U65_Client_Server";
  u65.defaultMemoryMode = "Dedicated_Sram";
  u65.hostCpu = "Cortex-M55";
  u65.dmaQueue = 2;
  u65.dmaChunkBytes = 4096;
  return {u55, u65, ethosU85Description()};
}

} // namespace

const std::vector<Architecture>& architectures() {
  static const std::vector<Architecture> table = buildArchitectureTable();
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
