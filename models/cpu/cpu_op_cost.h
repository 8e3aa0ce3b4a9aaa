// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cortex-M55 cost model for operators that stay on the CPU (CMSIS-NN kernels).

#include <cstdint>
#include <string>

#include "sim/config/system_params.h"

namespace npusim::cpu {

// What the cost model needs to know about a CPU operator.
struct CpuOpDesc {
  std::string name;        // TFLite builtin name
  uint64_t macs = 0;       // multiply-accumulates (conv-like operators)
  uint64_t elements = 0;   // output elements
};

enum class CpuOpClass : uint8_t { Conv, Depthwise, Elementwise };

CpuOpClass classify(const std::string& name);

// CPU cycles for one operator: per-operator overhead + MACs or elements times the configured
// cycles per unit (host.*; values with/without Helium documented in docs/timing-model.md).
uint64_t cpuOpCycles(const CpuOpDesc& op, const config::HostParams& host);

} // namespace npusim::cpu
