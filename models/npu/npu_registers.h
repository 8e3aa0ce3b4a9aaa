// SPDX-License-Identifier: Apache-2.0
#pragma once
// Offsets of the NPU registers the host driver programs (Ethos-U55 register layout 1.1.0): the
// one definition shared by the NPU's APB target and the Cortex-M55's driver sequence.

#include <cstdint>

namespace npusim::npu::reg {

constexpr uint64_t kCmd = 0x008, kQbase = 0x010, kQsize = 0x020, kBasep = 0x080;

} // namespace npusim::npu::reg
