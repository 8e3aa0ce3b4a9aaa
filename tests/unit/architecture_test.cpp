// SPDX-License-Identifier: Apache-2.0
// The architecture descriptions and command sets: wire keys and meanings map both ways, the
// keys and names are those of the command-stream doc, and every configuration refers to a
// described, loadable generation.
#include <doctest/doctest.h>

#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string>

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
  CHECK_FALSE(ethosU85().loadable);
  CHECK(ethosU85().commands == nullptr);
  CHECK(loadableProducts() == "0 (Ethos-U55), 1 (Ethos-U65)");
  for (const Architecture& a : architectures()) {
    INFO(a.name);
    if (!a.loadable) continue;
    REQUIRE(a.commands != nullptr);
    CHECK(a.hasWeightFormat(WeightFormat::Standard));
    CHECK(a.ports.size() == a.pmu.portEventBase.size());
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
  CHECK(ethosU55().pmuPortEventName(PortId{1}, "RD_DATA_BEAT_RECEIVED") == "AXI1_RD_DATA_BEAT_RECEIVED");
  CHECK_THROWS_AS(ethosU55().pmuEvent("NO_SUCH_EVENT"), std::logic_error);
  CHECK_THROWS_AS(ethosU55().pmuPortEventName(PortId{0}, "NO_SUCH_EVENT"), std::logic_error);
  CHECK_THROWS_AS(ethosU55().pmuPortEventName(PortId{2}, "RD_DATA_BEAT_RECEIVED"), std::logic_error);
}

} // namespace npusim::arch
