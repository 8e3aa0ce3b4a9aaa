// SPDX-License-Identifier: Apache-2.0
// The memory system as a SystemC module: every NPU socket answers the direct-timing query with
// the one set of memories the NPU's ports time their bursts against, and the CPU's socket times
// its transfers itself; an address outside every instance is refused. One SystemC elaboration
// per TEST_CASE.

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

// Asks each NPU socket for the memories, then reads 64 bytes through the CPU socket.
struct Initiator : sc_core::sc_module {
  sc_core::sc_vector<tlm_utils::simple_initiator_socket<Initiator>> ports{"port", kPorts};
  tlm_utils::simple_initiator_socket<Initiator> cpu{"cpu"};
  std::vector<mem::MemoryRouter*> routers;
  uint64_t address = kSramBase;
  double cpuDone = -1;
  bool refused = false;
  SC_HAS_PROCESS(Initiator);
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    for (size_t i = 0; i < kPorts; ++i) {
      tlm::tlm_generic_payload trans;
      mem::DirectTimingExtension ext;
      trans.set_extension(&ext);
      ports[i]->transport_dbg(trans);
      trans.clear_extension(&ext);
      routers.push_back(ext.memories);
    }
    tlm::tlm_generic_payload trans;
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(address);
    trans.set_data_length(64);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    try {
      cpu->b_transport(trans, delay);
      cpuDone = delay.to_seconds() * 1e9;   // 1 GHz: ns = cycles
    } catch (const std::out_of_range&) {
      refused = true;
    }
  }
};

mem::MemorySystemParams oneSram() {
  mem::MemorySystemParams p;
  p.clockHz = 1e9;
  p.memories = {{"Sram", kSramBase, 0x40'0000, 8.0, 10, 10, false, 1}};
  return p;
}

} // namespace

TEST_CASE("memory system: every NPU socket gives the same memories, the CPU socket times its own transfers") {
  mem::MemorySystem memory("memory", oneSram(), kPorts);
  Initiator initiator("initiator");
  REQUIRE(memory.npuPorts.size() == kPorts);
  for (size_t i = 0; i < kPorts; ++i) initiator.ports[i].bind(memory.npuPorts[i]);
  initiator.cpu.bind(memory.cpu);
  sc_core::sc_start();
  REQUIRE(initiator.routers.size() == kPorts);
  REQUIRE(initiator.routers[0] != nullptr);
  CHECK(initiator.routers[1] == initiator.routers[0]);
  CHECK(initiator.routers[2] == initiator.routers[0]);
  CHECK(initiator.routers[0]->size() == 1);
  CHECK(initiator.routers[0]->route(kSramBase + 64, 64) == 0);
  // The CPU's 64 bytes: two 32-byte bursts, addresses at 0 and 1, data ready at 10 and 11, 4 cycles
  // each on the one path: 10..14, 14..18.
  CHECK(initiator.cpuDone == doctest::Approx(18));
  CHECK_FALSE(initiator.refused);
}

TEST_CASE("memory system: an address outside every memory instance is refused") {
  mem::MemorySystem memory("memory", oneSram(), kPorts);
  Initiator initiator("initiator");
  initiator.address = 0x2000'0000;   // npusim's standard SRAM address: not in this map
  for (size_t i = 0; i < kPorts; ++i) initiator.ports[i].bind(memory.npuPorts[i]);
  initiator.cpu.bind(memory.cpu);
  sc_core::sc_start();
  CHECK(initiator.refused);
}
