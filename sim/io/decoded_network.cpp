// SPDX-License-Identifier: Apache-2.0
#include "sim/io/decoded_network.h"

namespace npusim::io {

cmd::RegionLimits regionLimits(const CompiledNetwork& net, const Operator& op) {
  cmd::RegionLimits limits;
  limits.size[0] = op.npu.flashSize;
  limits.size[1] = op.npu.scratchSize;
  limits.size[2] = op.npu.scratchFastSize;
  size_t region = 3;
  auto add = [&](int tensor) {
    if (region < limits.size.size() && tensor >= 0) {
      limits.size[region++] = net.tensors[static_cast<size_t>(tensor)].bytes();
    }
  };
  for (size_t i = 4; i < op.inputs.size(); ++i) add(op.inputs[i]);
  for (int t : op.outputs) add(t);
  return limits;
}

DecodedNpuOp decodeNpuOp(const CompiledNetwork& net, const Operator& op) {
  DecodedNpuOp d;
  d.operatorIndex = op.index;
  const cmd::StreamOrigin origin{net.path, op.npu.commands.offset};
  d.limits = regionLimits(net, op);
  static_cast<cmd::Program&>(d) =
      cmd::decodeProgram(*op.npu.header.hardware, net.at(op.npu.commands), op.npu.commands.size, origin, d.limits);
  return d;
}

std::vector<DecodedNpuOp> decodeAll(const CompiledNetwork& net) {
  std::vector<DecodedNpuOp> all;
  for (const Operator& op : net.operators) {
    if (op.kind == OperatorKind::Npu) {
      all.push_back(decodeNpuOp(net, op));
    }
  }
  return all;
}

} // namespace npusim::io
