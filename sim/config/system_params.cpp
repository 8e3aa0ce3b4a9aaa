// SPDX-License-Identifier: Apache-2.0
#include "sim/config/system_params.h"

#include <algorithm>

namespace npusim::config {

std::string_view memoryKindName(MemoryKind kind) {
  switch (kind) {
  case MemoryKind::Sram: return "Sram";
  case MemoryKind::Dram: return "Dram";
  case MemoryKind::OnChipFlash: return "OnChipFlash";
  case MemoryKind::OffChipFlash: return "OffChipFlash";
  }
  return "?";
}

std::string_view memoryKindKey(MemoryKind kind) {
  switch (kind) {
  case MemoryKind::Sram: return "sram";
  case MemoryKind::Dram: return "dram";
  case MemoryKind::OnChipFlash: return "on_chip_flash";
  case MemoryKind::OffChipFlash: return "off_chip_flash";
  }
  return "?";
}

bool TimingAdapterParams::transparent() const {
  return maxReads == 0 && maxWrites == 0 && maxPending == 0 && readLatency == 0 && writeLatency == 0 &&
         pulseOn == 0 && pulseOff == 0 && bandwidthCap == 0;
}

double TimingAdapterParams::pulsePhase() const {
  const uint64_t period = uint64_t{pulseOn} + pulseOff;
  return period == 0 ? 0 : double(pulseStart % period);
}

double TimingAdapterParams::nominalBytesPerCycle(uint32_t wordBytes) const {
  const double period = double(pulseOn) + double(pulseOff);
  return bandwidthCap == 0 || period == 0 ? 0 : bandwidthCap * double(wordBytes) / period;
}

const arch::Architecture& SystemParams::architecture() const {
  const arch::NpuConfig* hw = hardware();
  return hw != nullptr ? *hw->arch : arch::ethosU55();
}

const std::vector<arch::PortDesc>& SystemParams::portDescs() const {
  const arch::NpuConfig* hw = hardware();
  return hw != nullptr ? hw->ports() : arch::npuConfigs().front().ports();
}

void SystemParams::layoutPorts(const std::vector<arch::PortDesc>& previous) {
  const std::vector<arch::PortDesc>& now = portDescs();
  std::vector<PortParams> laidOut(now.size());
  for (size_t i = 0; i < now.size(); ++i) {
    for (size_t j = 0; j < previous.size() && j < ports.size(); ++j) {
      if (previous[j].name == now[i].name) {
        laidOut[i] = ports[j];
      }
    }
  }
  ports = std::move(laidOut);
}

std::optional<arch::PortId> SystemParams::findPort(std::string_view name) const {
  const std::vector<arch::PortDesc>& descs = portDescs();
  for (size_t i = 0; i < descs.size(); ++i) {
    if (descs[i].name == name) {
      return arch::PortId{static_cast<uint8_t>(i)};
    }
  }
  return std::nullopt;
}

std::vector<arch::PortId> SystemParams::portsIn(arch::AreaId area) const {
  std::vector<arch::PortId> out;
  const std::vector<arch::PortDesc>& descs = portDescs();
  for (size_t i = 0; i < descs.size(); ++i) {
    if (descs[i].area == area) {
      out.push_back(arch::PortId{static_cast<uint8_t>(i)});
    }
  }
  return out;
}

double SystemParams::bytesPerCycle(arch::PortId p) const {
  return port(p).dataWidthBits / 8.0 * memory(memoryOn(p)).clockScale * memory(memoryOn(p)).portsUsed;
}

double SystemParams::portPeakBytesPerCycle(arch::PortId p) const {
  return std::min(port(p).dataWidthBits / 8.0, bytesPerCycle(p));
}

std::string sectionsFrom(const std::string& systemConfigFrom, const std::string& memoryModeFrom) {
  return systemConfigFrom == memoryModeFrom ? "system config and memory mode: " + systemConfigFrom
                                            : "system config: " + systemConfigFrom + "; memory mode: " + memoryModeFrom;
}

} // namespace npusim::config
