// SPDX-License-Identifier: Apache-2.0
#pragma once
// The NPU configurations tests name by variant and MAC count, NPU ports and Vela's memory areas
// by name.

#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/arch/npu_config.h"
#include "sim/arch/regions.h"

namespace npusim::test {

inline const arch::NpuConfig& u55(uint32_t macs) {
  const arch::NpuConfig* c = arch::findNpuConfig(arch::ethosU55(), macs);
  if (c == nullptr) throw std::invalid_argument("no ethos-u55-" + std::to_string(macs));
  return *c;
}

inline const arch::NpuConfig& u65(uint32_t macs) {
  const arch::NpuConfig* c = arch::findNpuConfig(arch::ethosU65(), macs);
  if (c == nullptr) throw std::invalid_argument("no ethos-u65-" + std::to_string(macs));
  return *c;
}

// The U55's and U65's NPU port named `name` (both list axi0, axi1).
inline arch::PortId port(std::string_view name) {
  const auto& ports = arch::ethosU55().ports;
  for (size_t i = 0; i < ports.size(); ++i) {
    if (ports[i].name == name) return arch::PortId{static_cast<uint8_t>(i)};
  }
  throw std::invalid_argument("no U55 port " + std::string(name));
}

// Vela's memory area named `name` (Axi0, Axi1).
inline arch::AreaId area(std::string_view name) {
  for (const arch::AreaId a : arch::kAreas) {
    if (arch::areaName(a) == name) return a;
  }
  throw std::invalid_argument("no Vela memory area " + std::string(name));
}

inline const arch::NpuConfig& u85(uint32_t macs) {
  const arch::NpuConfig* c = arch::findNpuConfig(arch::ethosU85(), macs);
  if (c == nullptr) throw std::invalid_argument("no ethos-u85-" + std::to_string(macs));
  return *c;
}

} // namespace npusim::test
