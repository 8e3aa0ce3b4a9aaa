// SPDX-License-Identifier: Apache-2.0
// The EthosU module with the memory system and a minimal APB driver (no host model). Each
// TEST_CASE elaborates SystemC once; CTest runs every case in its own process.

#include <doctest/doctest.h>

#include <cstring>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/mem/memory_system.h"
#include "models/npu/ethos_u.h"
#include "sim/config/config.h"
#include "support/npu_model.h"
#include "support/hardware.h"

namespace {

using namespace npusim;

constexpr uint64_t kStreamAddress = 0x1000'0100;  // in off-chip flash
constexpr uint64_t kArena = 0x2000'0000;
constexpr uint64_t kFlash = 0x1000'1000;

// Programs QBASE/QSIZE/BASEP, starts the NPU and records when the interrupt arrives.
struct Driver : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Driver> apb{"apb"};
  tlm_utils::simple_initiator_socket<Driver> data{"data"};  // binds the memory's CPU port
  sc_core::sc_event* irq = nullptr;
  uint32_t qsize = 0;
  double irqAt = -1;
  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void write(uint64_t address, uint32_t value) {
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_address(address);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    t.set_data_length(4);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    apb->b_transport(t, delay);
  }
  void run() {
    write(npu::reg::kQbase, static_cast<uint32_t>(kStreamAddress));
    write(npu::reg::kQsize, qsize);
    write(npu::reg::kBasep, static_cast<uint32_t>(kFlash));
    write(npu::reg::kBasep + 8, static_cast<uint32_t>(kArena));
    write(npu::reg::kCmd, 1);
    wait(*irq);
    irqAt = sc_core::sc_time_stamp().to_seconds() * 500e6;
  }
};

struct Bench {
  config::SystemParams params = config::builtinPreset("Ethos_U55_High_End_Embedded", "Shared_Sram");
  cmd::Program program;

  explicit Bench(const std::vector<cmd::Operation>& ops) {
    params.accelerator = "ethos-u55-128";
    const std::vector<uint8_t> stream = test::encodeOps(ops);
    program = cmd::decodeProgram(*params.hardware(), stream.data(), stream.size(), test::testOrigin(), {});
  }

  // Elaborates, runs to completion, returns the NPU's statistics and the IRQ time.
  std::pair<npu::NpuStats, double> run() {
    mem::MemorySystem memory("memory", {params.coreClockHz, params.memories, params.axi});
    npu::EthosU npuModule("npu", npu::NpuModuleParams::of(params));
    Driver driver("driver");
    npuModule.axi0.bind(memory.npuAxi0);
    npuModule.axi1.bind(memory.npuAxi1);
    driver.apb.bind(npuModule.apb);
    driver.data.bind(memory.cpu);
    driver.irq = &npuModule.irq;
    driver.qsize = program.streamBytes();
    npuModule.addProgram({kStreamAddress, &program});
    sc_core::sc_start();
    npuModule.shutdown();
    sc_core::sc_start();
    return {npuModule.stats(), driver.irqAt};
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

TEST_CASE("DMA_WAIT holds a kernel until the DMA that feeds it has finished") {
  cmd::Operation dma = test::sampleDma();
  Bench bench({dma, test::waitOp(cmd::OpKind::DmaWait, 0), test::sampleConv()});
  const auto [stats, irqAt] = bench.run();
  const auto& ops = stats.operations;
  REQUIRE(ops.size() == 4);
  CHECK(ops[0].kind == cmd::OpKind::DmaStart);
  CHECK(ops[2].kind == cmd::OpKind::Conv);
  CHECK(ops[2].start >= ops[0].end);
  CHECK(ops[0].bytes.read[1] == dma.dma.length);
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
