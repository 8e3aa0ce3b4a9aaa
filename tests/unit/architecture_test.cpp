// SPDX-License-Identifier: Apache-2.0
// The architecture descriptions and command sets: wire keys and meanings map both ways, the
// keys and names are those of the command-stream doc, and every configuration refers to a
// described, loadable generation.
#include <doctest/doctest.h>

#include <array>
#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/arch/architecture.h"
#include "sim/arch/command_set.h"
#include "sim/arch/npu_config.h"

namespace npusim::arch {

TEST_CASE("command set: every U55/U65 command maps key -> meaning -> key") {
  const CommandSet& set = ethosU55CommandSet();
  REQUIRE_FALSE(set.commands().empty());
  std::set<uint16_t> keys;
  for (const CommandInfo& c : set.commands()) {
    INFO(c.name);
    REQUIRE(set.find(c.key) == &c);
    REQUIRE(set.find(c.id) == &c);
    CHECK(&set.info(c.id) == &c);
    CHECK(keys.insert(c.key).second);
    // Operations are NPU_OP_* cmd0 commands, everything else an NPU_SET_* register write.
    const std::string prefix = c.isOperation ? "NPU_OP_" : "NPU_SET_";
    CHECK(std::string(c.name).rfind(prefix, 0) == 0);
    if (c.isOperation) CHECK_FALSE(isCmd1(c.key));
  }
}

TEST_CASE("command set: keys and names of the command-stream doc (sections 2-4)") {
  const CommandSet& set = ethosU55CommandSet();
  struct Expect {
    uint16_t key;
    const char* name;
    CommandId id;
  };
  const Expect expected[] = {
      {0x0000, "NPU_OP_STOP", CommandId::OpStop},
      {0x0002, "NPU_OP_CONV", CommandId::OpConv},
      {0x0013, "NPU_OP_PMU_MASK", CommandId::OpPmuMask},
      {0x0123, "NPU_SET_PARALLEL_MODE", CommandId::ParallelMode},
      {0x012D, "NPU_SET_AB_START", CommandId::AbStart},
      {0x0130, "NPU_SET_DMA0_SRC_REGION", CommandId::Dma0SrcRegion},
      {0x0180, "NPU_SET_IFM2_BROADCAST", CommandId::Ifm2Broadcast},
      {0x4020, "NPU_SET_WEIGHT_BASE", CommandId::WeightBase},
      {0x4025, "NPU_SET_OPA_SCALE", CommandId::OpaScale},
      {0x4033, "NPU_SET_DMA0_SKIP0", CommandId::Dma0Skip0},
      {0x4092, "NPU_SET_SCALE1_BASE", CommandId::Scale1Base},
      {0x40A7, "NPU_SET_USER_DEFINED7", CommandId::UserDefined7},
  };
  for (const Expect& e : expected) {
    INFO(e.name);
    const CommandInfo* c = set.find(e.key);
    REQUIRE(c != nullptr);
    CHECK(c->name == e.name);
    CHECK(c->id == e.id);
  }
  // Keys the U55 does not define (the U85's RESIZE and BRANCH among them), and keys with
  // reserved bits, find nothing.
  for (uint16_t key : std::initializer_list<uint16_t>{0x0004, 0x0007, 0x0106, 0x4100, 0x4007, 0x8002, 0x0402}) {
    INFO(key);
    CHECK(set.find(key) == nullptr);
  }
}

TEST_CASE("architectures: products, loadability and what each configuration refers to") {
  REQUIRE(findArchitecture(0) == &ethosU55());
  REQUIRE(findArchitecture(1) == &ethosU65());
  REQUIRE(findArchitecture(2) == &ethosU85());
  CHECK(findArchitecture(3) == nullptr);
  CHECK(ethosU85().loadable);
  CHECK(ethosU85().commands == &ethosU85CommandSet());
  CHECK(loadableProducts() == "0 (Ethos-U55), 1 (Ethos-U65), 2 (Ethos-U85)");
  for (const Architecture& a : architectures()) {
    INFO(a.name);
    if (!a.loadable) continue;
    REQUIRE(a.commands != nullptr);
    CHECK(a.hasWeightFormat(WeightFormat::Standard));
    CHECK(a.maxWeightStreams >= 1);
  }
  for (const NpuConfig& c : npuConfigs()) {
    INFO(c.name);
    REQUIRE(c.arch != nullptr);
    CHECK(c.arch->loadable);
    CHECK(c.cores <= c.arch->maxWeightStreams);
    // The CONFIG word names the configuration back (command-stream doc 8: [31:28] product).
    CHECK(findArchitecture(configWord(c) >> 28) == c.arch);
    CHECK(findNpuConfig(*c.arch, 1u << (configWord(c) & 0xF)) == &c);
  }
}

TEST_CASE("architectures: PMU events, per-port ones named after the port") {
  CHECK(ethosU55().pmuEvent("NPU_ACTIVE").number == 0x23);
  CHECK(ethosU55().pmuPortEventName(ethosU55().port(PortId{1}), "RD_DATA_BEAT_RECEIVED") == "AXI1_RD_DATA_BEAT_RECEIVED");
  CHECK_THROWS_AS(ethosU55().pmuEvent("NO_SUCH_EVENT"), std::logic_error);
  CHECK_THROWS_AS(ethosU55().pmuPortEventName(ethosU55().port(PortId{0}), "NO_SUCH_EVENT"), std::logic_error);
  CHECK_THROWS_AS(ethosU55().pmuPortEventName(ethosU85().port(PortId{0}), "RD_DATA_BEAT_RECEIVED"), std::logic_error);
}

TEST_CASE("command set: the Ethos-U85's keys, and the numbers it reuses with other meanings (ethos-u85.md 3.2-3.5)") {
  const CommandSet& set = ethosU85CommandSet();
  CHECK(set.format() == CommandSet::Format::EthosU85);
  struct Expect {
    uint16_t key;
    const char* name;
    CommandId id;
  };
  const Expect expected[] = {
      {0x0007, "NPU_OP_RESIZE", CommandId::OpResize},
      {0x0108, "NPU_SET_IFM_BROADCAST", CommandId::IfmBroadcast},
      {0x012D, "NPU_SET_RESIZE_Y_OFFSET", CommandId::ResizeYOffset},       // U55: AB_START
      {0x012E, "NPU_SET_WEIGHT_FORMAT", CommandId::WeightFormat},
      {0x0134, "NPU_SET_DMA0_IDX_REGION", CommandId::Dma0IdxRegion},
      {0x4025, "NPU_SET_IFM_SCALE", CommandId::OpaScale},                 // U55: OPA_SCALE, the same meaning
      {0x4026, "NPU_SET_IFM2_SCALE", CommandId::OpbScale},
      {0x4027, "NPU_SET_OP_SCALAR", CommandId::OpScalar},
      {0x4033, "NPU_SET_DMA0_SRC_STRIDE0", CommandId::Dma0SrcStride0},    // U55: DMA0_SKIP0
      {0x4039, "NPU_SET_DMA0_IDX_SKIP1", CommandId::Dma0IdxSkip1},
      {0x4092, "NPU_SET_WEIGHT2_BASE", CommandId::Weight2Base},           // U65: SCALE1_BASE
      {0x4097, "NPU_SET_RESIZE_Y_STEP", CommandId::ResizeYStep},
      {0x4100, "NPU_OP_BRANCH", CommandId::OpBranch},
  };
  for (const Expect& e : expected) {
    INFO(e.name);
    const CommandInfo* c = set.find(e.key);
    REQUIRE(c != nullptr);
    CHECK(c->name == e.name);
    CHECK(c->id == e.id);
    CHECK(set.find(e.id) == c);
  }
  // BRANCH is the one cmd1 operation; every other operation is a cmd0.
  for (const CommandInfo& c : set.commands()) {
    INFO(c.name);
    CHECK(c.isOperation == (std::string(c.name).rfind("NPU_OP_", 0) == 0));
    if (c.isOperation) CHECK(isCmd1(c.key) == (c.id == CommandId::OpBranch));
  }
  // Registers the U85 removed (IFM_IB_END, PARALLEL_MODE, IFM2_SCALAR, IFM2_IB_START, the user
  // registers) are unknown keys, and the U55 set lacks the U85's new ones.
  for (uint16_t key : std::initializer_list<uint16_t>{0x010D, 0x0123, 0x0181, 0x018D, 0x40A0}) {
    INFO(key);
    CHECK(set.find(key) == nullptr);
    CHECK(ethosU55CommandSet().find(key) != nullptr);
  }
  for (CommandId id : {CommandId::OpResize, CommandId::OpBranch, CommandId::WeightFormat, CommandId::OpScalar}) {
    CHECK(ethosU55CommandSet().find(id) == nullptr);
  }
}

TEST_CASE("architectures: the Ethos-U85 configurations' CONFIG words are the ones Vela 5.0 writes") {
  // ethos-u85.md 2.2, observed in every fixture of that configuration.
  const std::pair<const char*, uint32_t> words[] = {{"ethos-u85-128", 0x20000117},
                                                    {"ethos-u85-256", 0x20000118},
                                                    {"ethos-u85-512", 0x20001119},
                                                    {"ethos-u85-1024", 0x2000251A},
                                                    {"ethos-u85-2048", 0x2000261B}};
  for (const auto& [name, word] : words) {
    INFO(name);
    const NpuConfig* c = findNpuConfig(name);
    REQUIRE(c != nullptr);
    CHECK(c->arch == &ethosU85());
    CHECK(configWord(*c) == word);
    CHECK(c->shramKb == 0);
    // MACs = micro-block elements x 8 for every micro-block (ethos-u85.md 1.1).
    for (const Shape3& u : c->ofmUblocks) CHECK(u.elements() * 8 == c->macs);
    CHECK(c->ofmUblockOf(c->ofmUblock.height, c->ofmUblock.width) == &c->ofmUblocks.front());
    CHECK(c->weightDecoders <= ethosU85().maxWeightStreams);
    CHECK(c->sramPorts + c->extPorts <= ethosU85().ports.size());
  }
}

TEST_CASE("architectures: the Ethos-U85's PMU events (ethos-u85.md 6)") {
  const Architecture& a = ethosU85();
  CHECK(a.pmu.eventCounters == 8);
  CHECK(a.pmuEvent("NPU_ACTIVE").number == 35);
  CHECK(a.pmuEvent("MAC_ACTIVE").number == 48);
  CHECK(a.pmuEvent("WD_TRANS_WB3").number == 123);
  CHECK(a.pmuEvent("ECC_AO_LUT").number == 181);
  // All SRAM ports' events are 128 + the per-port offset, all EXT ports' 384 + it.
  for (const PmuEvent& e : a.pmu.portEvents) {
    INFO(e.name);
    CHECK(a.pmuEvent("SRAM_" + std::string(e.name)).number == 128 + e.number);
    CHECK(a.pmuEvent("EXT_" + std::string(e.name)).number == 384 + e.number);
  }
  CHECK(a.pmuEvent("SRAM_RD_DATA_BEAT_RECEIVED").number == 130);
  CHECK(a.pmuEvent("EXT_WR_DATA_BEAT_WRITTEN").number == 391);
  CHECK(a.pmuPortEventName(a.port(PortId{1}), "RD_DATA_BEAT_RECEIVED") == "SRAM1_RD_DATA_BEAT_RECEIVED");
  CHECK(a.pmuPortEventName(a.port(PortId{5}), "WR_DATA_BEAT_WRITTEN") == "EXT1_WR_DATA_BEAT_WRITTEN");
  CHECK(a.pmuGroupEventName("SRAM", "RD_DATA_BEAT_RECEIVED") == "SRAM_RD_DATA_BEAT_RECEIVED");
  CHECK(a.pmuGroupEventName("", "RD_DATA_BEAT_RECEIVED").empty());
  std::vector<uint16_t> bases;
  for (const PortDesc& p : a.ports) bases.push_back(p.pmuEventBase);
  CHECK(bases == std::vector<uint16_t>{512, 528, 544, 560, 640, 656});
}

// The host registers the Ethos-U core driver programs, per generation: the offsets and fields of
// its interface headers (command-stream doc 8; ethos-u85.md 1.3, 3.6, 6).
TEST_CASE("register map: the driver's offsets and fields, 1.x (U55, U65) and 2.x (U85) layouts") {
  for (const Architecture* a : {&ethosU55(), &ethosU65(), &ethosU85()}) {
    INFO(a->name);
    const HostRegisterMap& r = a->registers;
    CHECK(r.id == 0x000);
    CHECK(r.status == 0x004);
    CHECK(r.cmd == 0x008);
    CHECK(r.reset == 0x00C);
    CHECK(r.qbase == 0x010);
    CHECK(r.qread == 0x018);
    CHECK(r.qconfig == 0x01C);
    CHECK(r.qsize == 0x020);
    CHECK(r.prot == 0x024);
    CHECK(r.config == 0x028);
    CHECK(r.regioncfg == 0x03C);
    CHECK(r.basep == 0x080);
    CHECK(r.basepCount == 8);
    CHECK(r.statusBits.cmdEndReached.lsb == 5);
    CHECK(r.cmdBits.clearIrq.lsb == 1);
  }
  // 1.x: AXI_LIMIT0-3 at 0x040-0x04C, two per AXI port; no MEM_ATTR; PMU at 0x180, 4 counters.
  const HostRegisterMap& u55 = ethosU55().registers;
  REQUIRE(u55.axiLimits.size() == 4);
  CHECK(u55.axiLimits[3].offset == 0x04C);
  CHECK(u55.axiLimits[1].area == AreaId{0});
  CHECK(u55.axiLimits[2].area == AreaId{1});
  CHECK(u55.axiLimits[0].readsM1.lsb == 16);
  CHECK(u55.axiLimits[0].readsM1.width == 5);   // 1..32 reads
  CHECK(ethosU65().registers.axiLimits[0].readsM1.width == 6);  // 1..64
  CHECK(u55.memoryAttributes.offset == 0);
  CHECK(u55.idValue == 0x10104201);
  CHECK(ethosU55().pmu.controlRegister == 0x180);
  CHECK(ethosU55().pmu.registers.countEnableSet == 0x184);
  CHECK(ethosU55().pmu.registers.cycleCounter == 0x1A0);
  CHECK(ethosU55().pmu.registers.eventCounter == 0x300);
  CHECK(ethosU55().pmu.registers.eventType == 0x380);
  // 2.x: MEM_ATTR0-3 at 0x040, AXI_SRAM 0x050 and AXI_EXT 0x054; PMU at 0x1180, 8 counters.
  const HostRegisterMap& u85 = ethosU85().registers;
  CHECK(u85.memoryAttributes.offset == 0x040);
  CHECK(u85.memoryAttributes.area.lsb == 2);
  REQUIRE(u85.axiLimits.size() == 2);
  CHECK(u85.axiLimits[0].offset == 0x050);
  CHECK(u85.axiLimits[1].offset == 0x054);
  CHECK(u85.axiLimits[1].area == AreaId{1});
  CHECK(u85.axiLimits[0].maxBeats.lsb == 16);
  CHECK(u85.idValue == 0x20007001);
  CHECK(ethosU85().pmu.controlRegister == 0x1180);
  CHECK(ethosU85().pmu.registers.cycleCounter == 0x11A0);
  CHECK(ethosU85().pmu.registers.eventCounter == 0x1300);
  CHECK(ethosU85().pmu.registers.eventType == 0x1380);
}

TEST_CASE("register map: REGIONCFG and QCONFIG words keep the driver's defaults where they reach the area") {
  // The driver's defaults (ethosu_config_u55.h): region 0 -> attribute 3 (AXI1), region 1 -> 0,
  // regions 2-7 -> 1, the command stream -> 2: the Shared_Sram placement.
  const std::array<AreaId, 8> sharedSram{AreaId{1}, AreaId{0}, AreaId{0}, AreaId{0},
                                          AreaId{0}, AreaId{0}, AreaId{0}, AreaId{0}};
  CHECK(regionConfigWord(ethosU55().registers, sharedSram) == 0x5553);
  CHECK(queueConfigWord(ethosU55().registers, AreaId{1}) == 2);
  // Dedicated_Sram puts the arena on AXI1: the U65 driver's default for region 1 is attribute 2.
  std::array<AreaId, 8> dedicated = sharedSram;
  dedicated[1] = AreaId{1};
  CHECK(((regionConfigWord(ethosU65().registers, dedicated) >> 2) & 3) == 2);
  // Sram_Only fetches the stream through AXI0: the first attribute on AXI0.
  CHECK(queueConfigWord(ethosU55().registers, AreaId{0}) == 0);
  // U85: attributes 0 and 1 are the driver's SRAM MEM_ATTRs, 2 and 3 its EXT ones.
  CHECK(regionConfigWord(ethosU85().registers, sharedSram) == 0x5553);
}

TEST_CASE("PMU event numbers name events, per-port ones by the configuration's ports") {
  const Architecture& a = ethosU55();
  CHECK(a.pmuEventName(0x23, a.ports) == "NPU_ACTIVE");
  CHECK(a.pmuEventName(0x82, a.ports) == "AXI0_RD_DATA_BEAT_RECEIVED");
  CHECK(a.pmuEventName(0x187, a.ports) == "AXI1_WR_DATA_BEAT_WRITTEN");
  CHECK(a.pmuEventName(0x3FF, a.ports).empty());
  CHECK(ethosU85().pmuEventName(130, ethosU85().ports) == "SRAM_RD_DATA_BEAT_RECEIVED");
  CHECK(ethosU85().pmuEventName(640 + 7, ethosU85().ports) == "EXT0_WR_DATA_BEAT_WRITTEN");
}

} // namespace npusim::arch
