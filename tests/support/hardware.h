// SPDX-License-Identifier: Apache-2.0
#pragma once
// The NPU configurations tests name by variant and MAC count.

#include <stdexcept>
#include <string>

#include "sim/arch/npu_config.h"

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

inline const arch::NpuConfig& u85(uint32_t macs) {
  const arch::NpuConfig* c = arch::findNpuConfig(arch::ethosU85(), macs);
  if (c == nullptr) throw std::invalid_argument("no ethos-u85-" + std::to_string(macs));
  return *c;
}

} // namespace npusim::test
