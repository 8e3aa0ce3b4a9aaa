// SPDX-License-Identifier: Apache-2.0
#pragma once
// The layer type of an NPU operation, as reports group cycles: conv, depthwise, pooling,
// elementwise, fully_connected (with MatMul), resize.

#include <string>
#include <string_view>

#include "sim/cmdstream/operation.h"

namespace npusim::probe {

// The type of kernel operation `op` ("" for an operation that is not a kernel: DMAs, waits,
// STOP, IRQ, PMU_MASK, BRANCH). A convolution is `fully_connected` when its layer's source
// TFLite operator is FULLY_CONNECTED or BATCH_MATMUL, or its weights are its IFM2 (a U85
// MatMul); when the source operator is unknown (`sourceOperator` empty), when it runs over a 1x1
// input with a 1x1 kernel (Vela lowers FULLY_CONNECTED to that).
std::string operationType(const cmd::Operation& op, std::string_view sourceOperator);

} // namespace npusim::probe
