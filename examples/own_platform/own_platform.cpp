// SPDX-License-Identifier: Apache-2.0
// npusim's Ethos-U in a platform of your own: the NPU module from the installed npusim package,
// with this platform's memories (an array with a latency and a bandwidth each), router and host.
// The memories take the latencies and bandwidths of the system configuration `npusim run MODEL`
// uses by default (the Vela section the model was compiled for, or Vela's default for its NPU:
// no timing adapters), the NPU the AXI limits of that configuration, which the host's driver
// programs. Prints NPU_ACTIVE as the PMU's registers
// count it and the AXI data beats the router saw on each NPU port.
//
//   own_platform MODEL.tflite

#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "driver.h"
#include "memory.h"
#include "models/npu/ethos_u.h"
#include "models/platform/platform.h"
#include "models/platform/soc.h"
#include "router.h"
#include "sim/io/compiled_network.h"

namespace {

// This platform's address map: each memory kind in a 64 MiB window of its own.
npusim::platform::MemoryMap addressMap() {
  using npusim::config::MemoryKind;
  constexpr uint64_t kWindow = 64 << 20;
  return npusim::platform::MemoryMap({{MemoryKind::OnChipFlash, 0x0000'0000, kWindow},
                                      {MemoryKind::OffChipFlash, 0x0800'0000, kWindow},
                                      {MemoryKind::Sram, 0x3000'0000, kWindow},
                                      {MemoryKind::Dram, 0x8000'0000, kWindow}});
}

} // namespace

int sc_main(int argc, char* argv[]) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MODEL.tflite\n", argv[0]);
    return 2;
  }
  try {
    const npusim::io::CompiledNetwork net = npusim::io::loadNetwork(argv[1]);
    // The system configuration `npusim run MODEL` takes by default.
    const npusim::config::SystemParams params = npusim::platform::resolveForModel({}, net);
    const npusim::platform::MemoryMap map = addressMap();
    const sc_core::sc_time clock(1.0 / params.coreClockHz, sc_core::SC_SEC);

    // The memories, with the configuration's timing (npusim's rule for a memory's bandwidth).
    std::vector<std::unique_ptr<own::Memory>> memories;
    std::vector<own::Router::Range> ranges;
    for (const npusim::mem::MemoryInstanceParams& m : npusim::platform::memorySystemParams(params, map).memories) {
      memories.push_back(std::make_unique<own::Memory>(
          m.name.c_str(), m.size, clock, own::MemoryTiming{m.bytesPerCycle, m.readLatency, m.writeLatency, m.separateReadWrite}));
      ranges.push_back({m.base, m.size});
    }
    // The NPU, its ports on the router, its interrupt on the host.
    npusim::npu::EthosU npu("ethos_u", npusim::npu::NpuModuleParams::of(params));
    std::vector<uint32_t> beatBytes;
    for (const npusim::arch::PortDesc& p : params.hardware()->ports()) beatBytes.push_back(p.dataBits / 8);
    own::Router router("router", beatBytes, ranges);
    own::Driver driver("driver", net, params, map);
    sc_core::sc_signal<bool> irq("irq");
    for (size_t i = 0; i < npu.ports.size(); ++i) npu.ports[i].bind(router.npuPorts[i]);
    for (size_t i = 0; i < memories.size(); ++i) router.memories[i].bind(memories[i]->socket);
    driver.apb.bind(npu.apb);
    driver.bus.bind(router.host);
    npu.irq.bind(irq);
    driver.irq.bind(irq);

    sc_core::sc_start();

    std::printf("own_platform: %s on %s (%s, %s)\n", argv[1], params.accelerator.c_str(), params.systemConfig.c_str(),
                params.memoryMode.c_str());
    std::printf("NPU_ACTIVE = %llu\n", static_cast<unsigned long long>(driver.npuActive));
    for (const auto& [name, value] : driver.events) {
      std::printf("pmu: %s = %llu\n", name.c_str(), static_cast<unsigned long long>(value));
    }
    const npusim::arch::Architecture& a = params.architecture();
    for (size_t i = 0; i < npu.ports.size(); ++i) {
      const npusim::arch::PortDesc& port = params.hardware()->ports()[i];
      std::printf("router: %s = %llu\n", a.pmuPortEventName(port, "RD_DATA_BEAT_RECEIVED").c_str(),
                  static_cast<unsigned long long>(router.readBeats(i)));
      std::printf("router: %s = %llu\n", a.pmuPortEventName(port, "WR_DATA_BEAT_WRITTEN").c_str(),
                  static_cast<unsigned long long>(router.writeBeats(i)));
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "own_platform: %s\n", e.what());
    return 1;
  }
}
