// SPDX-License-Identifier: Apache-2.0
#pragma once
// Resolved configuration of the simulated system: accelerator, memories, AXI ports, host.
// Every field here has a config key (see config_schema.h); the member initializers equal the
// schema defaults (a unit test keeps them in step): Vela's Ethos_U55_High_End_Embedded +
// Shared_Sram plus npusim's own documented parameters.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/arch/npu_config.h"

namespace npusim::config {

enum class MemoryKind : uint8_t { Sram, Dram, OnChipFlash, OffChipFlash };

constexpr std::array<MemoryKind, 4> kMemoryKinds{MemoryKind::Sram, MemoryKind::Dram, MemoryKind::OnChipFlash,
                                                 MemoryKind::OffChipFlash};

std::string_view memoryKindName(MemoryKind kind);   // Vela spelling: Sram, Dram, OnChipFlash, OffChipFlash
std::string_view memoryKindKey(MemoryKind kind);    // key spelling: sram, dram, on_chip_flash, off_chip_flash

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
  // Not a register: the cycles the adapter's pulse counter has run at time 0 (it counts from the
  // platform's reset; SystemParams::adapterPulseStart). Its pulse cycle stands at this modulo
  // PULSE_ON + PULSE_OFF when the simulation starts.
  uint64_t pulseStart = 0;
  bool transparent() const;
  // Where the pulse cycle stands at time 0: pulseStart modulo PULSE_ON + PULSE_OFF (0 without a
  // pulse). Time t falls in pulse cycle floor((t + pulsePhase()) / period).
  double pulsePhase() const;
  // The adapter's nominal bandwidth, BWCAP words of `wordBytes` (the port's data width) per pulse
  // cycle (the ML evaluation kit's own reading of its values, timing doc 5.4); 0 when it sets no cap.
  double nominalBytesPerCycle(uint32_t wordBytes) const;
};

// One NPU AXI manager port (npusim-only parameters, npu.<port>.*; Vela has no keys for them).
struct PortParams {
  uint32_t dataWidthBits = 64;          // U55: 64-bit AXI
  uint32_t maxOutstandingReads = 8;     // timing-adapter / AXI_LIMIT read limit
  uint32_t maxOutstandingWrites = 8;
  uint32_t maxBurstBytes = 64;          // AXI_LIMIT burst split (64/128/256)
  TimingAdapterParams adapter;          // between the port and the interconnect
};

// Vela memory mode: which memory area holds constants, the arena and the cache.
struct MemoryModeParams {
  arch::AreaId constMemArea{1};
  arch::AreaId arenaMemArea{0};
  arch::AreaId cacheMemArea{0};
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

// Where a system config or memory mode came from when nothing named it: Vela's default for the
// accelerator (config::defaultSections).
inline constexpr char kDefaultSection[] = "default";

struct SystemParams {
  std::string accelerator;                    // an NpuConfig name (ethos-u55-128, ...); empty = as compiled
  std::string systemConfig = "Ethos_U55_High_End_Embedded";
  std::string memoryMode = "Shared_Sram";
  // Not configuration: where systemConfig and memoryMode came from ("--system-config", "default",
  // "the compile (<summary CSV>)", ...), said in the reports' headers.
  std::string systemConfigFrom = kDefaultSection, memoryModeFrom = kDefaultSection;
  double coreClockHz = 500e6;
  std::array<MemoryParams, 4> memories{       // indexed by MemoryKind
      MemoryParams{1.0, 32, 32, 32, false, 1, 0, 0}, MemoryParams{0.75, 128, 500, 250, false, 1, 0, 0},
      MemoryParams{1.0, 32, 32, 32, false, 1, 0, 0}, MemoryParams{0.125, 128, 64, 64, false, 1, 0, 0}};
  std::array<MemoryKind, arch::kAreaCount> areaMemories{  // indexed by arch::AreaId (vela.ini axi0_port, axi1_port)
      MemoryKind::Sram, MemoryKind::OffChipFlash};
  std::vector<PortParams> ports{              // the accelerator's NPU ports, indexed by arch::PortId
      PortParams{64, 8, 8, 64, {}}, PortParams{64, 2, 16, 64, {}}};
  MemoryModeParams mode;
  arch::AreaId commandStreamArea{1};          // driver default QCONFIG (U55): AXI1
  // One timing adapter for all the NPU ports of an area (set by its first port's ta.* keys), as
  // on the Corstone-320 (one SRAM and one EXT adapter); false: one adapter per port.
  bool adapterPerArea = false;
  // Cycles the timing adapters' pulse counters have run when the simulation starts: they count from
  // the platform's reset, not from the inference, so where a pulse cycle stands at the NPU's start
  // depends on what ran before (0: a pulse cycle begins at time 0).
  uint64_t adapterPulseStart = 0;
  HostParams host;
  uint64_t cycleLimit = 0;                    // simulated-cycle limit, 0 = none
  // How the NPU's ports reach the memory system: "fast", npusim's own transfers without data,
  // or "tlm", TLM-2.0 base-protocol bursts with data (as in any other platform).
  std::string transport = "fast";
  // Not configuration: what the user should know about how it was read (one sentence each,
  // e.g. vela.ini keys a section left out and the values they took); printed as warnings.
  std::vector<std::string> warnings;

  // The configuration `accelerator` names; null while it is empty (not yet bound to a model).
  const arch::NpuConfig* hardware() const { return arch::findNpuConfig(accelerator); }
  // The bound accelerator's generation, the Ethos-U55 while none is bound.
  const arch::Architecture& architecture() const;
  // The bound accelerator's NPU ports (arch::NpuConfig::ports), the first U55's while none is
  // bound: the list `ports` follows.
  const std::vector<arch::PortDesc>& portDescs() const;
  const arch::PortDesc& portDesc(arch::PortId p) const { return portDescs().at(p.index); }
  // Lays `ports` out as portDescs() after `accelerator` changed them from `previous`: a port
  // keeps its values when `previous` had one of the same name, a new one starts with the defaults.
  void layoutPorts(const std::vector<arch::PortDesc>& previous);
  const MemoryParams& memory(MemoryKind kind) const { return memories[static_cast<size_t>(kind)]; }
  const PortParams& port(arch::PortId p) const { return ports.at(p.index); }
  PortParams& port(arch::PortId p) { return ports.at(p.index); }
  // The port named `name` ("axi0") in portDescs(), if it has one.
  std::optional<arch::PortId> findPort(std::string_view name) const;
  // The ports that serve `area`, in PortId order (U55, U65: one each).
  std::vector<arch::PortId> portsIn(arch::AreaId area) const;
  MemoryKind memoryIn(arch::AreaId area) const { return areaMemories[area.index]; }
  // The memory a port reaches: the one in its area.
  MemoryKind memoryOn(arch::PortId p) const { return memoryIn(portDesc(p).area); }
  // Bytes per NPU cycle of the memory on a port: data width / 8 * clock scale * ports used.
  double bytesPerCycle(arch::PortId p) const;
  // The most one port can move per NPU cycle: its data width, or less when its memory is slower
  // (a U85 SRAM port: 16 bytes, of the 32 its two-port memory serves).
  double portPeakBytesPerCycle(arch::PortId p) const;
};

// Where a configuration's system config and memory mode came from, for a report's header:
// "system config and memory mode: the compile (kws_summary_Ethos_U55_Deep_Embedded.csv)", or
// "system config: --system-config; memory mode: default" when they differ.
std::string sectionsFrom(const std::string& systemConfigFrom, const std::string& memoryModeFrom);

} // namespace npusim::config
