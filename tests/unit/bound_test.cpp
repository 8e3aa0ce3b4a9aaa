// SPDX-License-Identifier: Apache-2.0
// Bound labels from hand-made operation records: waits and work land in the right label.

#include <doctest/doctest.h>

#include "sim/config/config.h"
#include "models/platform/bound.h"

using npusim::platform::Bound;

namespace {

npusim::npu::OperationRecord record(npusim::cmd::OpKind kind, uint32_t index, double issue, double start, double end) {
  npusim::npu::OperationRecord r;
  r.kind = kind;
  r.index = index;
  r.issue = issue;
  r.start = start;
  r.end = end;
  return r;
}

} // namespace

TEST_CASE("bound: a DMA_WAIT for weights in flash, then MAC work") {
  // Shared_Sram: region 0 (constants) is off-chip flash on AXI1, the arena SRAM on AXI0.
  const npusim::config::SystemParams params = npusim::config::resolveConfig({});
  std::vector<npusim::cmd::Operation> ops(3);
  ops[0].kind = npusim::cmd::OpKind::DmaStart;
  ops[0].dma.srcRegion = 0;
  ops[1].kind = npusim::cmd::OpKind::DmaWait;
  ops[2].kind = npusim::cmd::OpKind::Conv;
  ops[2].ifm.region = 1;
  ops[2].weights[0].region = 1;
  ops[2].ofm.region = 1;
  // Dispatched at 0; the command processor waits 0..100 for the DMA; the conv runs 100..180
  // with 50 MAC cycles, 20 cycles waiting for its IFM and 10 of drain, of which the final OFM
  // write to SRAM takes 4.
  std::vector<npusim::npu::OperationRecord> records{record(npusim::cmd::OpKind::DmaStart, 0, 0, 0, 100),
                                                    record(npusim::cmd::OpKind::DmaWait, 1, 100, 100, 100),
                                                    record(npusim::cmd::OpKind::Conv, 2, 100, 100, 180)};
  records[1].ccWait = 100;
  records[2].macCycles = 50;
  records[2].stallIfm = 20;
  records[2].writeTail = 4;
  const auto b = npusim::platform::boundCycles(records, params, [&](const npusim::npu::OperationRecord& r)
                                                                    -> const npusim::cmd::Operation& { return ops[r.index]; });
  REQUIRE(b.size() == 3);
  CHECK(b[2][Bound::Flash] == doctest::Approx(100));
  CHECK(b[2][Bound::Compute] == doctest::Approx(50));
  CHECK(b[2][Bound::Sram] == doctest::Approx(24));
  CHECK(b[2][Bound::Output] == doctest::Approx(6));
  CHECK(b[2].largest() == Bound::Flash);
  CHECK(b[0].total() == 0);
  CHECK(b[1].total() == 0);
}

TEST_CASE("bound: under Dedicated_Sram the cache (region 2) is SRAM, the arena DRAM") {
  // Ethos_U65_Client_Server + Dedicated_Sram: constants and arena in DRAM on AXI1, Vela's fast
  // scratch (region 2, the NPU's cache) in SRAM on AXI0.
  npusim::config::ConfigRequest request;
  request.accelerator = "ethos-u65-256";
  const npusim::config::SystemParams params = npusim::config::resolveConfig(request);
  REQUIRE(params.memoryMode == "Dedicated_Sram");
  std::vector<npusim::cmd::Operation> ops(1);
  ops[0].kind = npusim::cmd::OpKind::Conv;
  ops[0].ifm.region = 2;           // IFM and weights buffered in the cache
  ops[0].weights[0].region = 2;
  ops[0].ofm.region = 1;           // OFM written to the arena
  std::vector<npusim::npu::OperationRecord> records{record(npusim::cmd::OpKind::Conv, 0, 0, 0, 100)};
  records[0].macCycles = 40;
  records[0].stallIfm = 20;
  records[0].stallWeights = 30;
  records[0].writeTail = 10;
  const auto b = npusim::platform::boundCycles(records, params, [&](const npusim::npu::OperationRecord& r)
                                                                    -> const npusim::cmd::Operation& { return ops[r.index]; });
  REQUIRE(b.size() == 1);
  CHECK(b[0][Bound::Compute] == doctest::Approx(40));
  CHECK(b[0][Bound::Sram] == doctest::Approx(50));   // the IFM and weight stalls: cache reads
  CHECK(b[0][Bound::Dram] == doctest::Approx(10));   // the final OFM write to the arena
  CHECK(b[0].largest() == Bound::Sram);
}
