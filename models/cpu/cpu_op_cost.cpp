// SPDX-License-Identifier: Apache-2.0
#include "models/cpu/cpu_op_cost.h"

#include <cmath>

namespace npusim::cpu {

CpuOpClass classify(const std::string& name) {
  if (name == "DEPTHWISE_CONV_2D") {
    return CpuOpClass::Depthwise;
  }
  if (name == "CONV_2D" || name == "FULLY_CONNECTED" || name == "TRANSPOSE_CONV" || name == "SVDF" ||
      name == "BATCH_MATMUL" || name == "CONV_3D" || name == "UNIDIRECTIONAL_SEQUENCE_LSTM") {
    return CpuOpClass::Conv;
  }
  return CpuOpClass::Elementwise;
}

uint64_t cpuOpCycles(const CpuOpDesc& op, const config::HostParams& host) {
  double cycles = double(host.perOperatorCycles);
  switch (classify(op.name)) {
  case CpuOpClass::Conv: cycles += double(op.macs) * host.convCyclesPerMac; break;
  case CpuOpClass::Depthwise: cycles += double(op.macs) * host.depthwiseCyclesPerMac; break;
  case CpuOpClass::Elementwise: cycles += double(op.elements) * host.elementwiseCyclesPerElement; break;
  }
  return static_cast<uint64_t>(std::llround(cycles));
}

} // namespace npusim::cpu
