// SPDX-License-Identifier: Apache-2.0
#include "sim/config/system_params.h"

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

std::string_view axiPortName(AxiPort port) {
  switch (port) {
  case AxiPort::Axi0: return "Axi0";
  case AxiPort::Axi1: return "Axi1";
  }
  return "?";
}

bool TimingAdapterParams::transparent() const {
  return maxReads == 0 && maxWrites == 0 && maxPending == 0 && readLatency == 0 && writeLatency == 0 &&
         pulseOn == 0 && pulseOff == 0 && bandwidthCap == 0;
}

double TimingAdapterParams::nominalBytesPerCycle(uint32_t wordBytes) const {
  const double period = double(pulseOn) + double(pulseOff);
  return bandwidthCap == 0 || period == 0 ? 0 : bandwidthCap * double(wordBytes) / period;
}

double SystemParams::bytesPerCycle(AxiPort p) const {
  return port(p).dataWidthBits / 8.0 * memory(memoryOn(p)).clockScale * memory(memoryOn(p)).portsUsed;
}

} // namespace npusim::config
