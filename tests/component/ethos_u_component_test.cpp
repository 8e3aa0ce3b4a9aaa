// SPDX-License-Identifier: Apache-2.0
// The EthosU module with the memory system and a minimal APB driver (no host model). Each
// TEST_CASE elaborates SystemC once; CTest runs every case in its own process.

#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/mem/memory_system.h"
#include "models/npu/ethos_u.h"
#include "sim/config/config.h"
#include "models/platform/soc.h"
#include "support/npu_model.h"
#include "support/hardware.h"

namespace {

using namespace npusim;

constexpr uint64_t kStreamAddress = 0x1000'0100;  // in off-chip flash
constexpr uint64_t kArena = 0x2000'0000;
constexpr uint64_t kFlash = 0x1000'1000;

// Programs QBASE/QSIZE/BASEP (at the architecture's register offsets), starts the NPU and
// records when the interrupt arrives, then clears it; with a PMU control register, enables the
// PMU first and disables it `pmuTail` cycles after the interrupt, as the driver's inference
// callbacks do.
struct Driver : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Driver> apb{"apb"};
  tlm_utils::simple_initiator_socket<Driver> data{"data"};  // binds the memory's CPU port
  sc_core::sc_in<bool> irq{"irq"};
  const arch::HostRegisterMap* registers = nullptr;
  uint32_t qsize = 0;
  uint64_t pmuControl = 0;   // 0: the driver leaves the PMU alone
  double pmuTail = 0;
  double irqAt = -1;
  uint64_t qbase = kStreamAddress;
  uint32_t status = 0;       // STATUS when the interrupt came
  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  uint32_t access(tlm::tlm_command command, uint64_t address, uint32_t value) {
    tlm::tlm_generic_payload t;
    t.set_command(command);
    t.set_address(address);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    t.set_data_length(4);
    t.set_streaming_width(4);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    apb->b_transport(t, delay);
    REQUIRE(t.is_response_ok());
    return value;
  }
  void write(uint64_t address, uint32_t value) { access(tlm::TLM_WRITE_COMMAND, address, value); }
  uint32_t read(uint64_t address) { return access(tlm::TLM_READ_COMMAND, address, 0); }
  void run() {
    const arch::HostRegisterMap& r = *registers;
    if (pmuControl != 0) write(pmuControl, 1);
    write(r.qbase, static_cast<uint32_t>(qbase));
    write(r.qsize, qsize);
    write(r.basep, static_cast<uint32_t>(kFlash));
    write(r.basep + 8, static_cast<uint32_t>(kArena));
    write(r.cmd, r.cmdBits.start.place(1));
    wait(irq.posedge_event());
    irqAt = sc_core::sc_time_stamp().to_seconds() * 500e6;
    status = read(r.status);
    write(r.cmd, r.cmdBits.clearIrq.place(1));
    if (pmuControl != 0) {
      wait(sc_core::sc_time(pmuTail / 500e6, sc_core::SC_SEC));
      write(pmuControl, 0);
    }
  }
};

// The NPU, a memory system and the driver, wired: one elaboration.
struct Soc {
  npu::EthosU ethos;
  mem::MemorySystem memory;
  Driver driver{"driver"};
  sc_core::sc_signal<bool> irq{"irq"};
  Soc(const config::SystemParams& params, const mem::MemorySystemParams& memoryParams)
      : ethos("npu", npu::NpuModuleParams::of(params)), memory("memory", memoryParams, ethos.ports.size()) {
    for (size_t i = 0; i < ethos.ports.size(); ++i) {
      ethos.ports[i].bind(memory.npuPorts[i]);
    }
    driver.apb.bind(ethos.apb);
    driver.data.bind(memory.cpu);
    ethos.irq.bind(irq);
    driver.irq.bind(irq);
    driver.registers = &params.architecture().registers;
  }
  // Runs to completion, then lets the NPU's thread return.
  void run() {
    sc_core::sc_start();
    ethos.shutdown();
    sc_core::sc_start();
  }
};

struct Bench {
  config::SystemParams params = config::builtinPreset("Ethos_U55_High_End_Embedded", "Shared_Sram");
  cmd::Program program;

  std::vector<uint8_t> stream;

  explicit Bench(const std::vector<cmd::Operation>& ops) : stream(test::encodeOps(ops)) {
    params.accelerator = "ethos-u55-128";
    program = cmd::decodeProgram(*params.hardware(), stream.data(), stream.size(), test::testOrigin(), {});
  }

  // What one run shows: the NPU's statistics, the IRQ time and the PMU's windows and counts.
  struct Outcome {
    npu::NpuStats stats;
    double irqAt = 0;
    std::vector<npu::PmuWindow> windows;
    std::map<std::string, uint64_t> pmu;
  };

  // With the NPU's standard ports and a memory system that keeps data: `memoryStream` (the
  // stream unless given) at QBASE `qbase`, read by the NPU. Returns its statistics, STATUS at the
  // interrupt and why it stopped early (empty: it did not).
  struct StandardOutcome {
    npu::NpuStats stats;
    uint32_t status = 0;
    std::string fault;
  };
  StandardOutcome runStandard(uint64_t qbase, const std::vector<uint8_t>& memoryStream) {
    mem::MemorySystemParams memoryParams = platform::memorySystemParams(params, platform::MemoryMap::standard());
    memoryParams.storeData = true;
    Soc soc(params, memoryParams);
    soc.memory.load(kStreamAddress, memoryStream.data(), memoryStream.size());
    soc.driver.qsize = static_cast<uint32_t>(memoryStream.size());
    soc.driver.qbase = qbase;
    soc.run();
    return {soc.ethos.stats(), soc.driver.status, soc.ethos.faultMessage()};
  }

  // Elaborates, runs to completion, returns the NPU's statistics and the IRQ time.
  std::pair<npu::NpuStats, double> run() {
    Outcome o = runWithPmu(0, 0);
    return {o.stats, o.irqAt};
  }

  // The same, with the driver enabling the PMU at `pmuControl` and disabling it `pmuTail`
  // cycles after the interrupt (pmuControl 0: it leaves the PMU alone).
  Outcome runWithPmu(uint64_t pmuControl, double pmuTail) {
    Soc soc(params, platform::memorySystemParams(params, platform::MemoryMap::standard()));
    soc.driver.qsize = program.streamBytes();
    soc.driver.pmuControl = pmuControl;
    soc.driver.pmuTail = pmuTail;
    soc.ethos.addProgram({kStreamAddress, &program});
    soc.run();
    return {soc.ethos.stats(), soc.driver.irqAt, soc.ethos.pmu().windows(), soc.ethos.pmu().counts()};
  }
};

} // namespace

TEST_CASE("a STOP-only stream costs one command fetch from flash and one parse cycle") {
  Bench bench({});
  const auto [stats, irqAt] = bench.run();
  REQUIRE(stats.activeCycles.size() == 1);
  // One 4-byte fetch on AXI1: 64-cycle flash latency + 4 bytes at 1 byte/cycle, then 1 parse cycle.
  CHECK(stats.activeCycles[0] == doctest::Approx(64 + 4 + 1));
  CHECK(irqAt == doctest::Approx(stats.activeCycles[0]));
  CHECK(stats.commandFetchBytes == 4);
}

TEST_CASE("the NPU's PMU counts between the driver's PMCR writes, each port's beats under its own name") {
  Bench bench({});
  const uint64_t pmcr = bench.params.architecture().pmu.controlRegister;
  const Bench::Outcome o = bench.runWithPmu(pmcr, 100);
  // Enabled at 0 (before QBASE), disabled 100 cycles after the interrupt; the STOP-only stream
  // is active from its start to its end (the component test above: 64 + 4 + 1 cycles).
  REQUIRE(o.windows.size() == 1);
  CHECK(o.windows[0].start == 0);
  CHECK(o.windows[0].end == doctest::Approx(o.irqAt + 100));
  CHECK(o.windows[0].active == doctest::Approx(o.stats.activeCycles[0]));
  CHECK(o.windows[0].idle == doctest::Approx(o.windows[0].end - o.windows[0].active));
  CHECK(o.pmu.at("NPU_ACTIVE") == 64 + 4 + 1);
  CHECK(o.pmu.at("CYCLE") == o.pmu.at("NPU_ACTIVE") + o.pmu.at("NPU_IDLE"));
  // The 4-byte command fetch is one 64-bit read beat on AXI1 (the constants' port), none on AXI0.
  CHECK(o.pmu.at("AXI1_RD_DATA_BEAT_RECEIVED") == 1);
  CHECK(o.pmu.at("AXI1_RD_TRANS_ACCEPTED") == 1);
  CHECK(o.pmu.at("AXI0_RD_DATA_BEAT_RECEIVED") == 0);
}

TEST_CASE("DMA_WAIT holds a kernel until the DMA that feeds it has finished") {
  cmd::Operation dma = test::sampleDma();
  Bench bench({dma, test::waitOp(cmd::OpKind::DmaWait, 0), test::sampleConv()});
  const auto [stats, irqAt] = bench.run();
  const auto& ops = stats.operations;
  REQUIRE(ops.size() == 4);
  CHECK(ops[0].kind == cmd::OpKind::DmaStart);
  CHECK(ops[2].kind == cmd::OpKind::Conv);
  CHECK(ops[2].start >= ops[0].end);
  CHECK(ops[0].bytes.read(test::port("axi1")) == dma.dma.length);
  CHECK(irqAt >= ops[2].end);
}

TEST_CASE("without a wait, a DMA and an independent kernel run concurrently") {
  Bench bench({test::sampleDma(), test::sampleConv()});
  const auto [stats, irqAt] = bench.run();
  const auto& ops = stats.operations;
  REQUIRE(ops.size() == 3);
  CHECK(ops[1].start < ops[0].end);   // the conv starts before the DMA has finished
  CHECK(irqAt >= std::max(ops[0].end, ops[1].end));
}

TEST_CASE("KERNEL_WAIT 0 serialises two kernels") {
  Bench bench({test::sampleConv(), test::waitOp(cmd::OpKind::KernelWait, 0), test::sampleConv()});
  const auto [stats, irqAt] = bench.run();
  const auto& ops = stats.operations;
  REQUIRE(ops.size() == 4);
  CHECK(ops[2].issue >= ops[0].end);
}

TEST_CASE("standard ports: the NPU reads a STOP-only stream from memory in one fetch and one parse cycle") {
  Bench bench({});
  const Bench::StandardOutcome o = bench.runStandard(kStreamAddress, bench.stream);
  const arch::StatusFields& f = bench.params.architecture().registers.statusBits;
  REQUIRE(o.stats.activeCycles.size() == 1);
  // As on the fast path (first test case): 64-cycle flash latency + 4 bytes at 1 byte/cycle + 1.
  CHECK(o.stats.activeCycles[0] == doctest::Approx(64 + 4 + 1));
  CHECK(f.cmdEndReached.read(o.status) == 1);
  CHECK(f.busStatus.read(o.status) == 0);
  CHECK(o.fault.empty());
}

TEST_CASE("standard ports: a QBASE outside every memory is a bus abort on the command-stream channel") {
  Bench bench({});
  const Bench::StandardOutcome o = bench.runStandard(0xF000'0000, bench.stream);
  const arch::StatusFields& f = bench.params.architecture().registers.statusBits;
  CHECK(f.busStatus.read(o.status) == 1);
  CHECK(f.faultingChannel.read(o.status) == 0);
  CHECK(f.cmdEndReached.read(o.status) == 0);
  CHECK(o.fault.find("address error") != std::string::npos);
}

TEST_CASE("standard ports: a stream the NPU cannot parse stops it with cmd_parse_error") {
  Bench bench({});
  const std::vector<uint8_t> garbage(16, 0xFF);
  const Bench::StandardOutcome o = bench.runStandard(kStreamAddress, garbage);
  const arch::StatusFields& f = bench.params.architecture().registers.statusBits;
  CHECK(f.cmdParseError.read(o.status) == 1);
  CHECK(f.cmdEndReached.read(o.status) == 0);
  CHECK(o.fault.find("invalid command word") != std::string::npos);
}
