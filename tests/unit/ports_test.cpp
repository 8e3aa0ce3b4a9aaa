// SPDX-License-Identifier: Apache-2.0
// NPU ports as a list: the configuration's port list follows the accelerator's architecture,
// the NPU has one link per port and the platform's memory system one instance per memory of its map,
// per-operation bytes and the PMU are kept per port under the architecture's names.

#include <doctest/doctest.h>

#include <map>
#include <stdexcept>
#include <string>

#include "models/npu/npu_core.h"
#include "models/npu/pmu.h"
#include "sim/config/config.h"
#include "models/platform/soc.h"
#include "support/hardware.h"

using namespace npusim;

TEST_CASE("ports: the configuration lists the accelerator's ports, each reaching its Vela area's memory") {
  config::ConfigRequest request;
  request.accelerator = "ethos-u65-256";
  request.systemConfig = "Ethos_U65_High_End";
  request.memoryMode = "Shared_Sram";
  const config::SystemParams p = config::resolveConfig(request);
  REQUIRE(p.ports.size() == arch::ethosU65().ports.size());
  CHECK(p.findPort("axi1") == test::port("axi1"));
  CHECK_FALSE(p.findPort("sram0").has_value());
  CHECK(p.portsIn(test::area("Axi0")) == std::vector<arch::PortId>{test::port("axi0")});
  CHECK(p.portsIn(test::area("Axi1")) == std::vector<arch::PortId>{test::port("axi1")});
  CHECK(p.memoryOn(test::port("axi0")) == config::MemoryKind::Sram);
  CHECK(p.memoryOn(test::port("axi1")) == config::MemoryKind::Dram);
}

TEST_CASE("ports: a port keeps the values set for it when the accelerator is bound later") {
  config::ConfigRequest request;
  request.accelerator = "ethos-u65-256";
  request.memoryMode = "Shared_Sram";
  request.systemConfig = "Ethos_U65_High_End";
  request.overrides = {"npu.axi1.ta.maxr=5", "npu.axi0.max_burst_bytes=128"};
  const config::SystemParams p = config::resolveConfig(request);
  CHECK(p.port(test::port("axi1")).adapter.maxReads == 5);
  CHECK(p.port(test::port("axi0")).maxBurstBytes == 128);
  CHECK(p.port(test::port("axi0")).dataWidthBits == 128);   // the U65's, derived after binding
}

TEST_CASE("ports: the NPU has one link per port and the platform's memory system the map's instances") {
  const config::SystemParams p = config::builtinPreset("Ethos_U55_High_End_Embedded", "Shared_Sram");
  const npu::NpuModuleParams n = npu::NpuModuleParams::of(p);
  REQUIRE(n.ports.size() == 2);
  CHECK(n.ports[0].link.bytesPerBeat == 8);
  CHECK(n.ports[0].link.maxReads == 8);    // the U55 high-end platform's TA0_MAXR (timing doc 5.1)
  CHECK(n.ports[1].link.maxReads == 2);    // TA1_MAXR
  CHECK(n.ports[1].link.maxWrites == 16);
  CHECK(n.sharedAdapters.empty());
  const platform::MemoryMap& map = platform::MemoryMap::standard();
  const mem::MemorySystemParams m = platform::memorySystemParams(p, map);
  REQUIRE(m.memories.size() == map.instances().size());
  for (size_t i = 0; i < m.memories.size(); ++i) {
    CHECK(m.memories[i].base == map.instances()[i].base);
    CHECK(m.memories[i].size == map.instances()[i].size);
  }
  // Vela's bandwidth rule: 64-bit AXI x clock scale (SRAM 1.0, off-chip flash 0.125; DRAM is on
  // no port and takes AXI0's width at its 0.75).
  const auto bandwidth = [&](config::MemoryKind kind) {
    for (size_t i = 0; i < m.memories.size(); ++i) {
      if (map.instances()[i].kind == kind) return m.memories[i].bytesPerCycle;
    }
    throw std::logic_error("no instance");
  };
  CHECK(bandwidth(config::MemoryKind::Sram) == 8.0);
  CHECK(bandwidth(config::MemoryKind::OffChipFlash) == 1.0);
  CHECK(bandwidth(config::MemoryKind::Dram) == 6.0);
  CHECK(map.of(config::MemoryKind::Dram).base == 0x6000'0000);
  for (const config::MemoryKind kind : config::kMemoryKinds) {
    CHECK_NOTHROW(map.of(kind));   // every kind a configuration can name has an instance
  }
  CHECK_THROWS_AS(platform::MemoryMap({}).of(config::MemoryKind::Sram), std::logic_error);
}

TEST_CASE("ports: an operation's bytes are kept per port, a port it did not use reads 0") {
  npu::PortBytes bytes;
  bytes.add(arch::PortId{2}, mem::Direction::Write, 48);
  bytes.add(arch::PortId{2}, mem::Direction::Write, 16);
  bytes.add(arch::PortId{0}, mem::Direction::Read, 7);
  CHECK(bytes.write(arch::PortId{2}) == 64);
  CHECK(bytes.read(arch::PortId{2}) == 0);
  CHECK(bytes.read(arch::PortId{0}) == 7);
  CHECK(bytes.read(arch::PortId{1}) == 0);
  CHECK(bytes.write(arch::PortId{5}) == 0);
}

TEST_CASE("PMU: windows from the driver's PMCR writes, events under the architecture's names") {
  const arch::Architecture& u55 = arch::ethosU55();
  npu::Pmu pmu(test::u55(128));
  pmu.setEnabled(true, 10);
  pmu.streamDone(50);
  npu::KernelTiming k;
  k.macCycles = 7.5;
  k.outputCycles = 3;
  k.stallIfm = 1;
  k.stallWeights = 2;
  k.stallOutput = 0.25;
  k.stallBlockdep = 4;
  k.stallShramReconfig = 6;
  pmu.kernelDone(k);
  pmu.port(test::port("axi1")).readBeats = 3;
  pmu.port(test::port("axi1")).writeLimitStall = 2.5;
  pmu.setEnabled(false, 100);
  // A second window shorter than its stream: no negative idle time.
  pmu.setEnabled(true, 200);
  pmu.streamDone(30);
  pmu.setEnabled(false, 220);
  REQUIRE(pmu.windows().size() == 2);
  CHECK(pmu.windows()[0].start == 10);
  CHECK(pmu.windows()[0].end == 100);
  CHECK(pmu.windows()[0].active == 50);
  CHECK(pmu.windows()[0].idle == 40);
  CHECK(pmu.windows()[1].idle == 0);
  const std::map<std::string, uint64_t> c = pmu.counts();
  CHECK(c.at("NPU_ACTIVE") == 80);
  CHECK(c.at("NPU_IDLE") == 40);
  CHECK(c.at("CYCLE") == 120);
  CHECK(c.at("MAC_ACTIVE") == 8);    // 7.5 rounded half away from zero
  CHECK(c.at("AO_ACTIVE") == 3);
  CHECK(c.at("MAC_STALLED_BY_IB") == 1);
  CHECK(c.at("MAC_STALLED_BY_WD") == 2);
  CHECK(c.at("MAC_STALLED_BY_ACC") == 0);
  CHECK(c.at("CC_STALLED_ON_BLOCKDEP") == 4);
  CHECK(c.at("CC_STALLED_ON_SHRAM_RECONFIG") == 6);
  CHECK(c.at("AXI1_RD_DATA_BEAT_RECEIVED") == 3);
  CHECK(c.at("AXI1_WR_STALL_LIMIT") == 3);
  CHECK(c.at("AXI0_RD_DATA_BEAT_RECEIVED") == 0);
  // Ten events plus six per port, each named by the architecture's table.
  CHECK(c.size() == 10 + 6 * u55.ports.size());
  for (const auto& [name, value] : c) {
    CAPTURE(name);
    const bool perPort = name.rfind("AXI", 0) == 0 && name.size() > 4 && name[4] == '_';
    if (!perPort) CHECK(u55.pmuEvent(name).name == name);
  }
}
