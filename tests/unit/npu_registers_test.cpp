// SPDX-License-Identifier: Apache-2.0
// The NPU's registers through the Ethos-U core driver's sequences (ethosu_device_u55_u65.c,
// ethosu_device_u85.c, ethosu_pmu.c as the command-stream doc 7-8 and ethos-u85.md 3.6 and 6
// describe them), at the offsets of each generation's architecture description: start a stream,
// the profiler's PMU set-up and read-out, the interrupt handler's clear, the soft reset, and
// the AXI limits and memory attributes of the driver's AXI initialisation. Plain C++.

#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "models/npu/npu_registers.h"
#include "models/npu/pmu.h"
#include "sim/arch/npu_config.h"

namespace npusim::npu {
namespace {

// An NPU's registers and PMU at power-on, with the Shared_Sram placement (constants and the
// command stream on area 1, everything else on area 0) and the configured port limits `limits`.
struct Npu {
  const arch::NpuConfig& hw;
  const arch::HostRegisterMap& r;
  const arch::PmuDesc& pmuDesc;
  Pmu pmu;
  NpuRegisters regs;

  explicit Npu(const char* name, PortLimits limits = {64, 8, 8})
      : hw(*arch::findNpuConfig(name)), r(hw.arch->registers), pmuDesc(hw.arch->pmu), pmu(hw),
        regs(hw, pmu, defaults(hw, limits)) {}

  static RegisterDefaults defaults(const arch::NpuConfig& hw, PortLimits limits) {
    RegisterDefaults d;
    d.regionAreas.fill(arch::AreaId{0});
    d.regionAreas[0] = arch::AreaId{1};
    d.commandStreamArea = arch::AreaId{1};
    d.portLimits.assign(hw.ports().size(), limits);
    return d;
  }
  uint32_t read(uint32_t offset, double now = 0) {
    const std::optional<uint32_t> v = regs.read(offset, now);
    REQUIRE(v.has_value());
    return *v;
  }
  NpuRegisters::Request write(uint32_t offset, uint32_t value, double now = 0) {
    const std::optional<NpuRegisters::Request> q = regs.write(offset, value, now);
    REQUIRE(q.has_value());
    return *q;
  }
  uint32_t event(const char* name) const { return hw.arch->pmuEvent(name).number; }
};

} // namespace

TEST_CASE("registers: the driver's run sequence programs the stream and starts the NPU (U55, U65, U85)") {
  for (const char* name : {"ethos-u55-128", "ethos-u65-256", "ethos-u85-256"}) {
    INFO(name);
    Npu npu(name);
    const arch::HostRegisterMap& r = npu.r;
    // ID and CONFIG answer the driver's optimizer-config check.
    CHECK(npu.read(r.id) == r.idValue);
    CHECK(npu.read(r.config) == arch::configWord(npu.hw));
    // ethosu_dev_run_command_stream: QBASE (low, high), QSIZE, QCONFIG, BASEPn, REGIONCFG, CMD.
    CHECK_FALSE(npu.write(r.qbase, 0x6000'0100).start);
    npu.write(r.qbase + 4, 0x12);
    npu.write(r.qsize, 256);
    CHECK(npu.write(r.qconfig, 2).routing);
    npu.write(r.basep, 0x1000'0000);
    npu.write(r.basep + 8, 0x2000'0000);
    npu.write(r.basep + 8 + 4, 0x1);
    // The U55/U65 driver's Dedicated_Sram-like choice: region 1 on attribute 2 (the second area).
    CHECK(npu.write(r.regioncfg, 0x5553 & ~0xCu).routing);  // region 1 -> attribute 0
    npu.write(r.regioncfg, (0x5553 & ~0xCu) | 0x8u);        // region 1 -> attribute 2
    CHECK(npu.regs.qbase() == 0x12'6000'0100);
    CHECK(npu.regs.qsize() == 256);
    CHECK(npu.regs.basep(0) == 0x1000'0000);
    CHECK(npu.regs.basep(1) == 0x1'2000'0000);
    CHECK(npu.read(r.basep + 12) == 0x1);
    CHECK(npu.regs.regionArea(0) == arch::AreaId{1});
    CHECK(npu.regs.regionArea(1) == arch::AreaId{1});
    CHECK(npu.regs.regionArea(2) == arch::AreaId{0});
    CHECK(npu.regs.commandStreamArea() == arch::AreaId{1});
    // CMD keeps the clock and power Q bits it resets with (the driver reads them back).
    const uint32_t keep = r.cmdBits.clockQ.place(1) | r.cmdBits.powerQ.place(1);
    CHECK(npu.read(r.cmd) == keep);
    const NpuRegisters::Request start = npu.write(r.cmd, keep | r.cmdBits.start.place(1));
    CHECK(start.start);
    npu.regs.started();
    CHECK(r.statusBits.running.read(npu.read(r.status)) == 1);
    // A second start while it runs does nothing.
    CHECK_FALSE(npu.write(r.cmd, keep | r.cmdBits.start.place(1)).start);
    npu.regs.setQread(40);
    CHECK(npu.read(r.qread) == 40);
  }
}

TEST_CASE("registers: NPU_OP_STOP raises the interrupt, the handler's CMD write clears it (U55, U85)") {
  for (const char* name : {"ethos-u55-64", "ethos-u85-512"}) {
    INFO(name);
    Npu npu(name);
    const arch::HostRegisterMap& r = npu.r;
    const arch::StatusFields& s = r.statusBits;
    npu.write(r.cmd, r.cmdBits.start.place(1));
    npu.regs.started();
    // An NPU_OP_IRQ first: the interrupt without the end of the stream.
    npu.regs.interrupt(0x0002, false);
    CHECK(npu.regs.irqRaised());
    uint32_t status = npu.read(r.status);
    CHECK(s.irqRaised.read(status) == 1);
    CHECK(s.cmdEndReached.read(status) == 0);
    CHECK(s.running.read(status) == 1);
    npu.write(r.cmd, r.cmdBits.clearIrq.place(1));
    CHECK_FALSE(npu.regs.irqRaised());
    // NPU_OP_STOP (mask 0xFFFF in Vela's streams): ended, stopped, interrupt raised; the driver's
    // success test (no bus abort or parse error, end reached) holds.
    npu.regs.interrupt(0xFFFF, true);
    status = npu.read(r.status);
    CHECK(s.irqRaised.read(status) == 1);
    CHECK(s.cmdEndReached.read(status) == 1);
    CHECK(s.running.read(status) == 0);
    CHECK(s.busStatus.read(status) == 0);
    CHECK(s.cmdParseError.read(status) == 0);
    CHECK(s.irqHistory.read(status) == 0xFFFF);
    // ethosu_dev_handle_interrupt: CMD = (CMD & clock/power bits) | clear_irq.
    const uint32_t keep = npu.read(r.cmd) & (r.cmdBits.clockQ.place(1) | r.cmdBits.powerQ.place(1));
    npu.write(r.cmd, keep | r.cmdBits.clearIrq.place(1) | r.cmdBits.clearIrqHistory.place(0x00FF));
    status = npu.read(r.status);
    CHECK_FALSE(npu.regs.irqRaised());
    CHECK(s.irqRaised.read(status) == 0);
    CHECK(s.irqHistory.read(status) == 0xFF00);
    CHECK(npu.read(r.cmd) == keep);
    // A bus abort stops it with the interrupt raised and names the channel.
    npu.write(r.cmd, r.cmdBits.start.place(1));
    npu.regs.started();
    npu.regs.busFault(8);
    status = npu.read(r.status);
    CHECK(s.busStatus.read(status) == 1);
    CHECK(s.faultingChannel.read(status) == 8);
    CHECK(s.running.read(status) == 0);
    CHECK(npu.regs.irqRaised());
  }
}

TEST_CASE("registers: the profiler's PMU sequence counts NPU_ACTIVE, beats and cycles between its PMCR writes") {
  for (const char* name : {"ethos-u55-128", "ethos-u85-256"}) {
    INFO(name);
    Npu npu(name);
    const arch::PmuDesc& p = npu.pmuDesc;
    const arch::PmuRegisters& pr = p.registers;
    // A stream before the window is not counted.
    npu.pmu.streamStarted(0);
    npu.pmu.streamDone(50);
    npu.pmu.port(arch::PortId{0}).readBeats += 7;
    // inference_begin (ETHOSU_PMU_Enable, Set_EVTYPER, CYCCNT_Reset, EVCNTR_ALL_Reset,
    // CNTR_Enable) at cycle 100.
    CHECK(npu.write(p.controlRegister, pr.enable.place(1), 100).pmuEnable);
    CHECK(pr.counterCount.read(npu.read(p.controlRegister)) == p.eventCounters);
    const std::string beats = npu.hw.arch->pmuPortEventName(npu.hw.ports()[0], "RD_DATA_BEAT_RECEIVED");
    uint32_t beatNumber = 0;
    for (uint32_t n = 0; n < 1024; ++n) {
      if (npu.hw.arch->pmuEventName(n, npu.hw.ports()) == beats) beatNumber = n;
    }
    REQUIRE(beatNumber != 0);
    npu.write(pr.eventType, npu.event("NPU_ACTIVE"), 100);
    npu.write(pr.eventType + 4, beatNumber, 100);
    npu.write(pr.eventType + 8, npu.event("NPU_IDLE"), 100);
    CHECK(npu.read(pr.eventType + 4) == beatNumber);
    const uint32_t pmcr = npu.read(p.controlRegister);
    npu.write(p.controlRegister, pmcr | pr.resetCycles.place(1), 100);
    npu.write(p.controlRegister, npu.read(p.controlRegister) | pr.resetEvents.place(1), 100);
    npu.write(pr.countEnableSet, 0x7u | (1u << pr.cycleCounterBit), 100);
    CHECK(npu.read(pr.countEnableSet) == (0x7u | (1u << pr.cycleCounterBit)));
    // The NPU runs from 120 to 520 and reads 40 beats on its first port.
    npu.pmu.streamStarted(120);
    CHECK(npu.read(pr.eventCounter, 320) == 200);  // half way through the stream
    npu.pmu.streamDone(400);
    npu.pmu.port(arch::PortId{0}).readBeats += 40;
    // inference_end at 600: read the counters, then ETHOSU_PMU_Disable.
    CHECK(npu.read(pr.eventCounter, 600) == 400);
    CHECK(npu.read(pr.eventCounter + 4, 600) == 40);
    CHECK(npu.read(pr.eventCounter + 8, 600) == 100);         // 500 enabled cycles, 400 active
    CHECK(npu.read(pr.cycleCounter, 600) == 500);
    CHECK(npu.read(pr.cycleCounter + 4, 600) == 0);
    CHECK(npu.write(p.controlRegister, 0, 600).pmuEnable);
    // Disabled: the counters hold.
    npu.pmu.streamStarted(700);
    npu.pmu.streamDone(100);
    CHECK(npu.read(pr.eventCounter, 900) == 400);
    CHECK(npu.read(pr.cycleCounter, 900) == 500);
    // CNTENCLR stops one counter; a counter written by the host counts on from its value.
    npu.write(p.controlRegister, pr.enable.place(1), 1000);
    npu.write(pr.countEnableClear, 0x2, 1000);
    npu.write(pr.eventCounter, 5, 1000);
    npu.pmu.streamStarted(1000);
    npu.pmu.streamDone(30);
    npu.pmu.port(arch::PortId{0}).readBeats += 3;
    CHECK(npu.read(pr.eventCounter, 1100) == 35);
    CHECK(npu.read(pr.eventCounter + 4, 1100) == 40);
    CHECK(npu.read(pr.countEnableSet) == (0x5u | (1u << pr.cycleCounterBit)));
  }
}

TEST_CASE("registers: NPU_ACTIVE and NPU_IDLE follow the clock while a stream the NPU ran ahead of time ends later") {
  Npu npu("ethos-u55-128");
  const arch::PmuRegisters& pr = npu.pmuDesc.registers;
  npu.write(npu.pmuDesc.controlRegister, pr.enable.place(1), 0);
  npu.write(pr.eventType, npu.event("NPU_ACTIVE"), 0);
  npu.write(pr.eventType + 4, npu.event("NPU_IDLE"), 0);
  npu.write(pr.countEnableSet, 0x3, 0);
  // The NPU runs its stream on its own event queue at once: 1000 cycles from cycle 200.
  npu.pmu.streamStarted(200);
  npu.pmu.streamDone(1000);
  CHECK(npu.read(pr.eventCounter, 700) == 500);
  CHECK(npu.read(pr.eventCounter + 4, 700) == 200);
  CHECK(npu.read(pr.eventCounter, 1500) == 1000);
  CHECK(npu.read(pr.eventCounter + 4, 1500) == 500);
}

TEST_CASE("registers: the soft reset restores the power-on configuration and sets PROT") {
  Npu npu("ethos-u55-256");
  const arch::HostRegisterMap& r = npu.r;
  npu.write(r.qbase, 0x1234'5670);
  npu.write(r.regioncfg, 0xFFFF);
  CHECK(npu.regs.regionArea(1) == arch::AreaId{1});
  npu.write(r.axiLimits[0].offset, r.axiLimits[0].readsM1.place(3));
  REQUIRE(npu.regs.limits(arch::AreaId{0}).has_value());
  // ethosu_dev_soft_reset: RESET with the requested privilege (and secure) level, poll
  // STATUS.reset_status, check PROT.
  const NpuRegisters::Request reset = npu.write(r.reset, r.resetBits.privilege.place(1));
  CHECK(reset.reset);
  CHECK(reset.routing);
  CHECK(reset.limits);
  CHECK(r.statusBits.resetStatus.read(npu.read(r.status)) == 0);
  CHECK(npu.read(r.prot) == r.resetBits.privilege.place(1));
  CHECK(npu.regs.qbase() == 0);
  CHECK(npu.read(r.regioncfg) == 0x5553);   // the configuration's placement, the driver's defaults
  CHECK(npu.read(r.qconfig) == 2);
  CHECK_FALSE(npu.regs.limits(arch::AreaId{0}).has_value());
}

TEST_CASE("registers: AXI limits from the driver's AXI initialisation, per port group") {
  {
    // U55: AXI_LIMIT2 and 3 limit AXI1; a port takes the smaller of its two counters' limits.
    Npu npu("ethos-u55-128", {64, 2, 16});
    const arch::HostRegisterMap& r = npu.r;
    const arch::AxiLimitRegister& l2 = r.axiLimits[2];
    CHECK(l2.readsM1.read(npu.read(l2.offset)) == 1);   // power-on: the configured 2 reads
    CHECK(l2.writesM1.read(npu.read(l2.offset)) == 15);
    CHECK_FALSE(npu.regs.limits(arch::AreaId{1}).has_value());
    CHECK(npu.write(l2.offset, l2.maxBeats.place(1) | l2.readsM1.place(31) | l2.writesM1.place(15)).limits);
    std::optional<PortLimits> axi1 = npu.regs.limits(arch::AreaId{1});
    REQUIRE(axi1.has_value());
    CHECK(axi1->reads == 2);         // AXI_LIMIT3 still holds 2 reads
    CHECK(axi1->writes == 16);
    CHECK(axi1->burstBytes == 64);   // AXI_LIMIT3 still splits at 64 bytes
    const arch::AxiLimitRegister& l3 = r.axiLimits[3];
    npu.write(l3.offset, l3.maxBeats.place(1) | l3.readsM1.place(31) | l3.writesM1.place(15));
    axi1 = npu.regs.limits(arch::AreaId{1});
    CHECK(axi1->reads == 32);
    CHECK(axi1->burstBytes == 128);
    CHECK_FALSE(npu.regs.limits(arch::AreaId{0}).has_value());
  }
  {
    // U85: AXI_SRAM limits the SRAM ports; MEM_ATTR's port field moves a region to the EXT ports.
    Npu npu("ethos-u85-256");
    const arch::HostRegisterMap& r = npu.r;
    const arch::AxiLimitRegister& sram = r.axiLimits[0];
    npu.write(sram.offset, sram.readsM1.place(11) | sram.writesM1.place(15) | sram.maxBeats.place(2));
    const std::optional<PortLimits> s = npu.regs.limits(arch::AreaId{0});
    REQUIRE(s.has_value());
    CHECK(s->reads == 12);
    CHECK(s->writes == 16);
    CHECK(s->burstBytes == 256);
    CHECK(npu.regs.regionArea(1) == arch::AreaId{0});
    const uint32_t attribute = (npu.read(r.regioncfg) >> 2) & 3;
    CHECK(npu.write(r.memoryAttributes.offset + 4 * attribute, r.memoryAttributes.area.place(1)).routing);
    CHECK(npu.regs.regionArea(1) == arch::AreaId{1});
  }
}

TEST_CASE("registers: words outside the block or not aligned are address errors and other words keep their value") {
  Npu npu("ethos-u85-128");
  CHECK_FALSE(npu.regs.read(npu.r.size, 0).has_value());
  CHECK_FALSE(npu.regs.write(npu.r.qsize + 2, 1, 0).has_value());
  // POWER_CTRL (the U85 driver's MAC power ramp) has no modelled meaning: it reads back.
  npu.write(0x038, 5);
  CHECK(npu.read(0x038) == 5);
  // Read-only registers ignore writes.
  npu.write(npu.r.id, 0);
  CHECK(npu.read(npu.r.id) == npu.r.idValue);
}

} // namespace npusim::npu
