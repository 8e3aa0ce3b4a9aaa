// SPDX-License-Identifier: Apache-2.0
#include "models/npu/command_policy.h"

#include <stdexcept>

namespace npusim::npu {

DispatchRule dispatchRule(const arch::NpuConfig& npu, const cmd::Operation& op) {
  DispatchRule r;
  const auto wait = [&r](Unit unit, uint32_t allowed) { r.waits[r.waitCount++] = {unit, allowed}; };
  switch (op.kind) {
  case cmd::OpKind::Conv:
  case cmd::OpKind::Depthwise:
  case cmd::OpKind::Pool:
  case cmd::OpKind::Elementwise:
  case cmd::OpKind::Resize:
    wait(Unit::Kernel, npu.arch->kernelQueue - 1);
    r.queue = Unit::Kernel;
    break;
  case cmd::OpKind::DmaStart:
    wait(Unit::Dma, npu.arch->dmaQueue - 1);
    r.queue = Unit::Dma;
    break;
  case cmd::OpKind::DmaWait:
    wait(Unit::Dma, op.waitCount);
    break;
  case cmd::OpKind::KernelWait:
    wait(Unit::Kernel, op.waitCount);
    break;
  case cmd::OpKind::Stop:
    wait(Unit::Kernel, 0);
    wait(Unit::Dma, 0);
    break;
  case cmd::OpKind::Irq:
  case cmd::OpKind::PmuMask:
    break;
  case cmd::OpKind::Branch:
    throw std::logic_error("dispatchRule: the command processor does not follow branches (platform::simulate refuses them)");
  }
  return r;
}

} // namespace npusim::npu
