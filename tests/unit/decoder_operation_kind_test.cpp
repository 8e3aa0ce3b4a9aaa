// SPDX-License-Identifier: Apache-2.0
// The decoder gives each NPU_OP_* command its own operation kind, including the ones no
// builder round trip exercises (IRQ, PMU mask).
#include <doctest/doctest.h>

#include "sim/cmdstream/builder.h"
#include "sim/cmdstream/decoder.h"
#include "support/npu_model.h"

namespace npusim::cmd {

TEST_CASE("decoder: control operations keep their kind, parameter and order") {
  CommandStreamBuilder b;
  b.cmd0(arch::CommandId::OpIrq, 0x0003);
  b.cmd0(arch::CommandId::OpPmuMask, 0x0001);
  b.cmd0(arch::CommandId::OpKernelWait, 0);
  b.cmd0(arch::CommandId::OpDmaWait, 0);
  b.cmd0(arch::CommandId::OpStop, 0xFFFF);
  const std::vector<Operation> ops = test::decodeStream(b.bytes());
  REQUIRE(ops.size() == 5);
  CHECK(ops[0].kind == OpKind::Irq);
  CHECK(ops[0].irqMask == 0x0003);
  CHECK(ops[1].kind == OpKind::PmuMask);
  CHECK(ops[1].param == 0x0001);
  CHECK(ops[2].kind == OpKind::KernelWait);
  CHECK(ops[3].kind == OpKind::DmaWait);
  CHECK(ops[4].kind == OpKind::Stop);
  // One 32-bit cmd0 word each: the operations sit at consecutive command indices and offsets.
  for (size_t i = 0; i < ops.size(); ++i) {
    CHECK(ops[i].commandIndex == i);
    CHECK(ops[i].byteOffset == 4 * i);
  }
}

} // namespace npusim::cmd
