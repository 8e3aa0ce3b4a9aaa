// SPDX-License-Identifier: Apache-2.0
// The memory system with more NPU ports than the U55 has: several ports reach one memory
// instance and share its data path, each port's bursts are counted for that port, and an
// address outside every instance is refused. One SystemC elaboration per TEST_CASE.

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/mem/memory_system.h"

namespace {

using namespace npusim;

constexpr size_t kPorts = 3;
constexpr uint64_t kSramBase = 0x3100'0000;   // an address map unlike npusim's standard one

// Issues one 64-byte read from each of its ports at time 0 and records when each completes.
struct Initiator : sc_core::sc_module {
  sc_core::sc_vector<tlm_utils::simple_initiator_socket<Initiator>> ports{"port", kPorts};
  tlm_utils::simple_initiator_socket<Initiator> cpu{"cpu"};   // binds the memory's CPU port, unused
  std::vector<mem::PortCounters> counters = std::vector<mem::PortCounters>(kPorts);
  std::vector<double> done = std::vector<double>(kPorts, -1);
  uint64_t address = kSramBase;
  bool refused = false;
  SC_HAS_PROCESS(Initiator);
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    for (size_t i = 0; i < kPorts; ++i) {
      tlm::tlm_generic_payload trans;
      mem::TransferExtension ext;
      ext.shape = {1, 64};
      ext.counters = &counters[i];
      trans.set_extension(&ext);
      trans.set_command(tlm::TLM_READ_COMMAND);
      trans.set_address(address + 64 * i);
      trans.set_data_length(64);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      try {
        ports[i]->b_transport(trans, delay);
      } catch (const std::out_of_range&) {
        refused = true;
      }
      trans.clear_extension(&ext);
      done[i] = delay.to_seconds() * 1e9;   // 1 GHz: ns = cycles
    }
  }
};

mem::MemorySystemParams threePortsOneSram() {
  mem::MemorySystemParams p;
  p.clockHz = 1e9;
  p.memories = {{"Sram", kSramBase, 0x40'0000, 8.0, 0, 0, false}};
  for (size_t i = 0; i < kPorts; ++i) {
    p.npuPorts.push_back({"sram" + std::to_string(i), 8, 64, 1, 1, {}});
  }
  return p;
}

} // namespace

TEST_CASE("memory system: three NPU ports reach one SRAM instance and share its data path") {
  mem::MemorySystem memory("memory", threePortsOneSram());
  Initiator initiator("initiator");
  REQUIRE(memory.npuPorts.size() == kPorts);
  for (size_t i = 0; i < kPorts; ++i) initiator.ports[i].bind(memory.npuPorts[i]);
  initiator.cpu.bind(memory.cpu);
  sc_core::sc_start();
  // 64 bytes at 8 bytes/cycle take 8 cycles; all three are ready at 0 and the one data path
  // serves them in turn, so each waits for the ones before it.
  for (size_t i = 0; i < kPorts; ++i) {
    CAPTURE(i);
    CHECK(initiator.done[i] == doctest::Approx(8.0 * double(i + 1)));
    CHECK(initiator.counters[i].readBursts == 1);
    CHECK(initiator.counters[i].readBeats == 8);
    CHECK(initiator.counters[i].contention == doctest::Approx(8.0 * double(i)));
  }
  CHECK_FALSE(initiator.refused);
}

TEST_CASE("memory system: an address outside every memory instance is refused") {
  mem::MemorySystem memory("memory", threePortsOneSram());
  Initiator initiator("initiator");
  initiator.address = 0x2000'0000;   // npusim's standard SRAM address: not in this map
  for (size_t i = 0; i < kPorts; ++i) initiator.ports[i].bind(memory.npuPorts[i]);
  initiator.cpu.bind(memory.cpu);
  sc_core::sc_start();
  CHECK(initiator.refused);
}
