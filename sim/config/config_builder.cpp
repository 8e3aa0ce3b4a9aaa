// SPDX-License-Identifier: Apache-2.0
#include "sim/config/config_builder.h"

#include <algorithm>
#include <cstdio>

namespace npusim::config {


ConfigBuilder::ConfigBuilder() : params_(schemaDefaults()), assigned_(schema().size()) {}

void ConfigBuilder::set(const ConfigKey& key, const Value& value, const Origin& origin) {
  const std::vector<arch::PortDesc>& before = params_.portDescs();
  storeValue(key, value, params_, origin);
  if (&params_.portDescs() != &before) {
    params_.layoutPorts(before);
  }
  assigned_[keyIndex(key)] = Assignment{origin, ++sequence_};
}

void ConfigBuilder::setText(std::string_view path, std::string_view text, const Origin& origin) {
  const ConfigKey* key = findKey(path);
  if (key == nullptr) {
    throwAt(origin, path,
            "unknown key; did you mean '" + nearestKey(path, false) + "'? (npusim config --list shows all keys)");
  }
  set(*key, parseText(*key, text, origin), origin);
}

SystemParams ConfigBuilder::finish(const std::string& systemConfig, const std::string& memoryMode) {
  // 1. Derived defaults for keys no layer assigned.
  for (const auto& key : schema()) {
    if (key.derived && !isSet(key) && keyApplies(key, params_)) {
      const Origin origin{"<builtin>", "", "derived default"};
      storeValue(key, parseText(key, key.derived(params_), origin), params_, origin);
    }
  }
  // 2. Rules across keys.
  checkMemoryAreas();
  checkTimingAdapters();
  checkAxiLimits();
  checkBurstTimes();
  params_.systemConfig = systemConfig;
  params_.memoryMode = memoryMode;
  return params_;
}

const ConfigKey& ConfigBuilder::blame(std::string_view pathA, std::string_view pathB, Origin& origin) const {
  const ConfigKey& a = *findKey(pathA);
  const ConfigKey& b = *findKey(pathB);
  const auto& assignedA = assigned_[keyIndex(a)];
  const auto& assignedB = assigned_[keyIndex(b)];
  const bool useB = assignedB && (!assignedA || assignedB->sequence > assignedA->sequence);
  const auto& chosen = useB ? assignedB : assignedA;
  origin = chosen ? chosen->origin : Origin{"<builtin>", "", "schema default"};
  return useB ? b : a;
}

void ConfigBuilder::checkMemoryAreas() const {
  // Vela's checks (timing doc 2.2): constants on Dram/OnChipFlash/OffChipFlash, the arena on
  // Sram or Dram, the cache on Sram. Vela's Sram_Only case (const, arena and cache on one Sram
  // port) keeps constants in SRAM; Vela renames that port OnChipFlash internally, npusim does
  // not (the estimator replicates that quirk itself).
  const MemoryModeParams& mode = params_.mode;
  const auto fail = [this](std::string_view modeKey, arch::AreaId area, const std::string& what, const std::string& rule) {
    Origin origin;
    const ConfigKey& key = blame(modeKey, areaKeyPath(area), origin);
    throwAt(origin, key.path,
            std::string(modeKey) + "=" + std::string(arch::areaName(area)) + " puts " + what + " on " +
                std::string(memoryKindName(params_.memoryIn(area))) + " (" + areaKeyPath(area) + "); " + rule);
  };
  const MemoryKind constMemory = params_.memoryIn(mode.constMemArea);
  const bool sramOnly = mode.constMemArea == mode.arenaMemArea && mode.arenaMemArea == mode.cacheMemArea &&
                        constMemory == MemoryKind::Sram;
  switch (constMemory) {
  case MemoryKind::Sram:
    if (!sramOnly) {
      fail("memory_mode.const_mem_area", mode.constMemArea, "constants",
           "they must be on Dram, OnChipFlash or OffChipFlash unless const, arena and cache all share one Sram port "
           "(Sram_Only)");
    }
    break;
  case MemoryKind::Dram:
  case MemoryKind::OnChipFlash:
  case MemoryKind::OffChipFlash: break;
  }
  switch (params_.memoryIn(mode.arenaMemArea)) {
  case MemoryKind::Sram:
  case MemoryKind::Dram: break;
  case MemoryKind::OnChipFlash:
  case MemoryKind::OffChipFlash:
    fail("memory_mode.arena_mem_area", mode.arenaMemArea, "the tensor arena", "it must be on Sram or Dram");
  }
  switch (params_.memoryIn(mode.cacheMemArea)) {
  case MemoryKind::Sram: break;
  case MemoryKind::Dram:
  case MemoryKind::OnChipFlash:
  case MemoryKind::OffChipFlash:
    fail("memory_mode.cache_mem_area", mode.cacheMemArea, "the NPU cache", "it must be on Sram");
  }
}

} // namespace npusim::config

namespace npusim::config {

void ConfigBuilder::checkBurstTimes() const {
  // One burst of a port's largest size must take fewer than 1e6 NPU cycles: no memory an NPU
  // reads is slower (a 1-bit SPI flash at 1 MHz beside a 1 GHz NPU moves 64 bytes in 5.1e5
  // cycles; a DRAM's latency is some hundred). A timing past that is a typo or a unit slip
  // (--set system.sram.clock_scale=1e-9), named at its key rather than later as a model too
  // large to simulate. (Cycles, not seconds: Vela's fallback core_clock is 1 Hz.)
  constexpr double kMaxBurstCycles = 1e6;
  for (size_t i = 0; i < params_.ports.size(); ++i) {
    const arch::PortId port{static_cast<uint8_t>(i)};
    const MemoryKind kind = params_.memoryOn(port);
    const MemoryParams& m = params_.memory(kind);
    const uint32_t bytes = params_.port(port).maxBurstBytes;
    const double dataCycles = bytes / params_.bytesPerCycle(port);
    const bool readSlower = m.readLatency >= m.writeLatency;
    const double latency = readSlower ? m.readLatency : m.writeLatency;
    if (!(latency + dataCycles > kMaxBurstCycles)) continue;
    const std::string memory = "system." + std::string(memoryKindKey(kind)) + ".";
    const std::string path =
        dataCycles >= latency ? memory + "clock_scale" : memory + (readSlower ? "read_latency" : "write_latency");
    Origin origin;
    const ConfigKey& key = blame(path, path, origin);
    char cycles[32];
    std::snprintf(cycles, sizeof cycles, "%.3g", latency + dataCycles);
    throwAt(origin, key.path,
            path + "=" + formatValue(key, params_) + " makes one " + std::to_string(bytes) + "-byte burst of " +
                std::string(params_.portDesc(port).name) + " on " + std::string(memoryKindName(kind)) + " take " +
                cycles +
                " NPU cycles: slower than any memory an NPU reads (a 1-bit SPI flash at 1 MHz beside a 1 GHz NPU "
                "moves 64 bytes in 5.1e+05 cycles); npusim refuses bursts over 1e+06 cycles");
  }
}

void ConfigBuilder::checkAxiLimits() const {
  // AXI_LIMIT's counters are narrower on the U55 than on the U65 (timing doc 5.1).
  const arch::NpuConfig* hw = params_.hardware();
  if (hw == nullptr) {
    return;
  }
  for (size_t i = 0; i < params_.ports.size(); ++i) {
    const arch::PortDesc& limits = params_.portDescs()[i];
    const PortParams& a = params_.ports[i];
    const std::string prefix = "npu." + std::string(limits.name) + ".";
    const auto check = [&](const std::string& field, uint32_t value, uint32_t max) {
      if (value > max) {
        Origin origin;
        const ConfigKey& key = blame(prefix + field, prefix + field, origin);
        throwAt(origin, key.path,
                prefix + field + "=" + std::to_string(value) + " exceeds " + std::string(hw->name) +
                    "'s AXI_LIMIT maximum of " + std::to_string(max));
      }
    };
    check("max_outstanding_reads", a.maxOutstandingReads, limits.maxReads);
    check("max_outstanding_writes", a.maxOutstandingWrites, limits.maxWrites);
  }
}

void ConfigBuilder::checkTimingAdapters() const {
  // A pulse cycle that never admits an address would stall the port forever, and a bandwidth
  // cap counts words per pulse cycle, so it needs one (timing doc 5.4).
  for (size_t i = 0; i < params_.ports.size(); ++i) {
    const TimingAdapterParams& ta = params_.ports[i].adapter;
    const std::string prefix = "npu." + std::string(params_.portDescs()[i].name) + ".ta.";
    Origin origin;
    if (ta.pulseOn == 0 && ta.pulseOff > 0) {
      const ConfigKey& key = blame(prefix + "pulse_on", prefix + "pulse_off", origin);
      throwAt(origin, key.path,
              prefix + "pulse_on=0 with " + prefix + "pulse_off=" + std::to_string(ta.pulseOff) +
                  " never admits an address; pulse_on must be 1..65535 when pulse_off > 0");
    }
    if (ta.bandwidthCap > 0 && ta.pulseOn == 0) {
      const ConfigKey& key = blame(prefix + "bwcap", prefix + "pulse_on", origin);
      throwAt(origin, key.path,
              prefix + "bwcap=" + std::to_string(ta.bandwidthCap) + " counts words per pulse cycle, but " + prefix +
                  "pulse_on=0 defines none; set pulse_on (1..65535) or bwcap=0");
    }
  }
  // npu.adapter_pulse_start moves the adapters' pulse cycles: without one it would do nothing.
  if (params_.adapterPulseStart > 0 &&
      std::none_of(params_.ports.begin(), params_.ports.end(),
                   [](const PortParams& p) { return p.adapter.pulseOn + uint64_t{p.adapter.pulseOff} > 0; })) {
    Origin origin;
    const ConfigKey& key = blame("npu.adapter_pulse_start", "npu.adapter_pulse_start", origin);
    throwAt(origin, key.path,
            "npu.adapter_pulse_start=" + std::to_string(params_.adapterPulseStart) +
                " moves the timing adapters' pulse cycles, but no port's adapter has one (npu.<port>.ta.pulse_on "
                "and pulse_off are 0)");
  }
  // npu.adapter_per_area: the ports of an area pass one adapter, set by the first port's
  // registers; a register another port of the area sets differently would go unused.
  if (!params_.adapterPerArea) {
    return;
  }
  for (arch::AreaId area : arch::kAreas) {
    const std::vector<arch::PortId> group = params_.portsIn(area);
    for (size_t k = 1; k < group.size(); ++k) {
      const std::string first = "npu." + std::string(params_.portDesc(group[0]).name) + ".";
      const std::string other = "npu." + std::string(params_.portDesc(group[k]).name) + ".";
      // The first port's adapter registers, as the schema lists them (npu.<port>.ta.*).
      for (const ConfigKey& firstKey : schema()) {
        if (firstKey.path.rfind(first + "ta.", 0) != 0) continue;
        const std::string field(firstKey.path.substr(first.size()));
        const ConfigKey& otherKey = *findKey(other + field);
        const std::string a = formatValue(firstKey, params_), b = formatValue(otherKey, params_);
        if (a != b) {
          Origin origin;
          const ConfigKey& key = blame(other + field, first + field, origin);
          throwAt(origin, key.path,
                  other + field + "=" + b + " differs from " + first + field + "=" + a +
                      ", but with npu.adapter_per_area=true the ports of area " + std::string(arch::areaName(area)) +
                      " pass one adapter: set both alike, or npu.adapter_per_area=false");
        }
      }
    }
  }
}

} // namespace npusim::config
