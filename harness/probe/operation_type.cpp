// SPDX-License-Identifier: Apache-2.0
#include "harness/probe/operation_type.h"

namespace npusim::probe {

std::string operationType(const cmd::Operation& op, std::string_view sourceOperator) {
  switch (op.kind) {
    case cmd::OpKind::Conv: {
      const bool fullyConnected =
          op.weightsFromIfm2 ||
          (sourceOperator.empty() ? op.ifm.shape.height == 1 && op.ifm.shape.width == 1 && op.kernel.height == 1 &&
                                        op.kernel.width == 1
                                  : sourceOperator == "FULLY_CONNECTED" || sourceOperator == "BATCH_MATMUL");
      return fullyConnected ? "fully_connected" : "conv";
    }
    case cmd::OpKind::Depthwise: return "depthwise";
    case cmd::OpKind::Pool: return "pooling";
    case cmd::OpKind::Elementwise: return "elementwise";
    case cmd::OpKind::Resize: return "resize";
    case cmd::OpKind::DmaStart: case cmd::OpKind::DmaWait: case cmd::OpKind::KernelWait: case cmd::OpKind::Stop:
    case cmd::OpKind::Irq: case cmd::OpKind::PmuMask: case cmd::OpKind::Branch: return "";
  }
  return "";
}

} // namespace npusim::probe
