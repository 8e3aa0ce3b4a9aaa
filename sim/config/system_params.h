// SPDX-License-Identifier: Apache-2.0
#pragma once
// Resolved configuration of the simulated system: accelerator, memories, AXI ports, host.
// Every field here has a config key (see config_schema.h); the member initializers equal the
// schema defaults (a unit test keeps them in step): Vela's Ethos_U55_High_End_Embedded +
// Shared_Sram plus npusim's own documented parameters.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/arch/npu_config.h"

namespace npusim::config {

enum class MemoryKind : uint8_t { Sram, Dram, OnChipFlash, OffChipFlash };
enum class AxiPort : uint8_t { Axi0, Axi1 };

constexpr std::array<MemoryKind, 4> kMemoryKinds{MemoryKind::Sram, MemoryKind::Dram, MemoryKind::OnChipFlash,
                                                 MemoryKind::OffChipFlash};

std::string_view memoryKindName(MemoryKind kind);   // Vela spelling: Sram, Dram, OnChipFlash, OffChipFlash
std::string_view memoryKindKey(MemoryKind kind);    // key spelling: sram, dram, on_chip_flash, off_chip_flash
std::string_view axiPortName(AxiPort port);         // Axi0, Axi1

// The NPU port an AxiPort names: Vela's Axi0/Axi1 memory areas and npusim's npu.axi0/axi1 keys
// are ports 0 and 1 of the U55's and U65's port lists (the U85's SRAM and EXT port groups come
// with the N-port memory system).
constexpr arch::PortId hardwarePort(AxiPort port) { return arch::PortId{static_cast<uint8_t>(port)}; }

// Timing of one memory type, in Vela's units (NPU clock cycles, bytes).
struct MemoryParams {
  double clockScale = 1.0;      // bandwidth as a fraction of the NPU clock (bytes/cycle = width/8 * scale)
  uint32_t burstLength = 32;    // minimum efficient burst, bytes
  uint32_t readLatency = 32;    // cycles
  uint32_t writeLatency = 32;   // cycles
  bool separateReadWrite = false; // reads and writes on separate data paths (else one shared path)
  uint32_t portsUsed = 1;       // AXI ports the memory is reached through (bandwidth multiplies)
  uint32_t maxReads = 0;        // outstanding reads the memory accepts; 0 = not given
  uint32_t maxWrites = 0;       // outstanding writes the memory accepts; 0 = not given
};

// Register values of one AXI timing adapter (Arm's Corstone-300 platform puts one on each NPU
// port; timing doc 5.4). All zero: a transparent adapter, the same as none.
struct TimingAdapterParams {
  uint32_t maxReads = 0;       // MAXR: pending reads, 0 = unlimited
  uint32_t maxWrites = 0;      // MAXW: pending writes, 0 = unlimited
  uint32_t maxPending = 0;     // MAXRW: pending reads + writes, 0 = unlimited
  uint32_t readLatency = 0;    // RLATENCY: minimum cycles ARVALID -> RVALID
  uint32_t writeLatency = 0;   // WLATENCY: minimum cycles WVALID & WLAST -> BVALID
  uint32_t pulseOn = 0;        // PULSE_ON: cycles of a pulse cycle during which addresses pass
  uint32_t pulseOff = 0;       // PULSE_OFF: cycles during which addresses are blocked
  uint32_t bandwidthCap = 0;   // BWCAP: bus words (data beats) admitted per pulse cycle, 0 = unlimited
  bool transparent() const;
  // The adapter's nominal bandwidth, BWCAP words of `wordBytes` (the port's data width) per pulse
  // cycle (the ML evaluation kit's own reading of its values, timing doc 5.4); 0 when it sets no cap.
  double nominalBytesPerCycle(uint32_t wordBytes) const;
};

// One NPU AXI manager port (npusim-only parameters; Vela has no keys for them).
struct AxiPortParams {
  MemoryKind memory = MemoryKind::Sram; // what sits on the port (vela.ini axi0_port/axi1_port)
  uint32_t dataWidthBits = 64;          // U55: 64-bit AXI
  uint32_t maxOutstandingReads = 8;     // timing-adapter / AXI_LIMIT read limit
  uint32_t maxOutstandingWrites = 8;
  uint32_t maxBurstBytes = 64;          // AXI_LIMIT burst split (64/128/256)
  TimingAdapterParams adapter;          // between the port and the interconnect
};

// Vela memory mode: which port holds constants, the arena and the cache.
struct MemoryModeParams {
  AxiPort constMemArea = AxiPort::Axi1;
  AxiPort arenaMemArea = AxiPort::Axi0;
  AxiPort cacheMemArea = AxiPort::Axi0;
  uint64_t arenaCacheSize = 0;          // bytes; 0 = no limit
};

// Cortex-M55 host: driver sequence and CPU-operator cost model.
struct HostParams {
  double clockHz = 0;                   // 0 = same as the NPU clock
  uint64_t driverOverheadCycles = 2000; // per ethos-u invoke, before the NPU starts (CPU cycles)
  uint64_t irqOverheadCycles = 500;     // NPU IRQ -> driver returns (CPU cycles)
  bool mve = true;                      // Helium available for CPU operators
  double convCyclesPerMac = 0.75;       // CONV_2D / FULLY_CONNECTED / etc. (current: MVE or not)
  double depthwiseCyclesPerMac = 3.5;
  double elementwiseCyclesPerElement = 1.5;
  uint64_t perOperatorCycles = 500;     // fixed cost per CPU operator (TFLM dispatch)
};

struct SystemParams {
  std::string accelerator;                    // an NpuConfig name (ethos-u55-128, ...); empty = as compiled
  std::string systemConfig = "Ethos_U55_High_End_Embedded";
  std::string memoryMode = "Shared_Sram";
  double coreClockHz = 500e6;
  std::array<MemoryParams, 4> memories{       // indexed by MemoryKind
      MemoryParams{1.0, 32, 32, 32, false, 1, 0, 0}, MemoryParams{0.75, 128, 500, 250, false, 1, 0, 0},
      MemoryParams{1.0, 32, 32, 32, false, 1, 0, 0}, MemoryParams{0.125, 128, 64, 64, false, 1, 0, 0}};
  std::array<AxiPortParams, 2> axi{           // indexed by AxiPort
      AxiPortParams{MemoryKind::Sram, 64, 8, 8, 64, {}}, AxiPortParams{MemoryKind::OffChipFlash, 64, 2, 16, 64, {}}};
  MemoryModeParams mode;
  AxiPort commandStreamPort = AxiPort::Axi1;  // driver default QCONFIG (U55): AXI1
  HostParams host;
  uint64_t cycleLimit = 0;                    // simulated-cycle limit, 0 = none
  // Not configuration: what the user should know about how it was read (one sentence each,
  // e.g. vela.ini keys a section left out and the values they took); printed as warnings.
  std::vector<std::string> warnings;

  // The configuration `accelerator` names; null while it is empty (not yet bound to a model).
  const arch::NpuConfig* hardware() const { return arch::findNpuConfig(accelerator); }
  const MemoryParams& memory(MemoryKind kind) const { return memories[static_cast<size_t>(kind)]; }
  const AxiPortParams& port(AxiPort p) const { return axi[static_cast<size_t>(p)]; }
  MemoryKind memoryOn(AxiPort p) const { return port(p).memory; }
  // Bytes per NPU cycle of the memory on a port: data width / 8 * clock scale * ports used.
  double bytesPerCycle(AxiPort p) const;
};

} // namespace npusim::config
