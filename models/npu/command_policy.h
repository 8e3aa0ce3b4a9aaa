// SPDX-License-Identifier: Apache-2.0
#pragma once
// The command processor's dispatch policy as plain C++: which unit an operation goes to, how
// many operations of each unit may still be outstanding before it is dispatched (queue depths
// of NpuConfig, the count of NPU_OP_DMA_WAIT / NPU_OP_KERNEL_WAIT, STOP draining both). The
// command processor waits for what this says.

#include <array>
#include <cstdint>
#include <optional>

#include "sim/arch/npu_config.h"
#include "sim/cmdstream/operation.h"

namespace npusim::npu {

enum class Unit : uint8_t { Kernel, Dma };

struct DispatchRule {
  struct Wait {
    Unit unit = Unit::Kernel;
    uint32_t allowed = 0;   // wait until at most this many of `unit` are outstanding
  };
  std::array<Wait, 2> waits{};
  size_t waitCount = 0;
  std::optional<Unit> queue;      // the unit the operation is dispatched to, if any
};

DispatchRule dispatchRule(const arch::NpuConfig& npu, const cmd::Operation& op);

} // namespace npusim::npu
