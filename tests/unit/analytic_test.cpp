// SPDX-License-Identifier: Apache-2.0
// Analytic estimator on builder-made command streams: the worked examples of timing doc 3.9
// (a)-(d), weight buffering and slack, the Sram_Only quirk, and the report/debug-db helpers.

#include <doctest/doctest.h>

#include <sstream>

#include "harness/analytic/estimate_report.h"
#include "harness/analytic/estimator.h"
#include "harness/analytic/layer_builder.h"
#include "harness/analytic/network_estimate.h"
#include "harness/analytic/vela_debug_db.h"
#include "sim/cmdstream/builder.h"
#include "sim/common/error.h"
#include "sim/config/config.h"
#include "support/hardware.h"
#include "support/streams.h"

using namespace npusim;
using namespace npusim::analytic;

namespace {

using test::dma;
using test::kernelOp;

constexpr uint8_t kFlash = 0;
constexpr uint8_t kArena = 1;

// An int8 feature map in the arena with dense strides.
cmd::FeatureMap arenaMap(uint64_t base, Shape3 shape, cmd::DataFormat format) {
  return cmd::denseFeatureMap(kArena, base, shape, format);
}

constexpr cmd::DataFormat kBricks = cmd::DataFormat::Nhcwb16;
constexpr cmd::DataFormat kNhwc = cmd::DataFormat::Nhwc;

// 25x5x64 NHCWB16 pointwise conv of the KWS model with its weights buffered at `bufferBase`.
cmd::Operation pointwiseConv(Shape3 block, uint64_t bufferBase) {
  const Shape3 shape{25, 5, 64};
  cmd::Operation op = kernelOp(cmd::OpKind::Conv, arenaMap(0x1f40, shape, kBricks),
                               arenaMap(0x0, shape, kBricks), block);
  op.scales[0] = {kArena, bufferBase, 640};
  op.weights[0] = {kArena, bufferBase + 640, 4112};
  return op;
}

cmd::Operation depthwise3x3(uint64_t bufferBase) {
  const Shape3 shape{25, 5, 64};
  cmd::Operation op = kernelOp(cmd::OpKind::Depthwise, arenaMap(0x0, shape, kBricks),
                               arenaMap(0x1f40, shape, kBricks), {14, 6, 16});
  op.kernel.width = op.kernel.height = 3;
  op.padding = {1, 1, 1, 1};
  op.scales[0] = {kArena, bufferBase, 640};
  op.weights[0] = {kArena, bufferBase + 640, 688};
  return op;
}

// Estimates a builder-made stream, one layer per kernel operation.
struct Run {
  std::vector<Layer> layers;
  std::vector<LayerEstimate> estimates;
};

Run estimate(const std::vector<cmd::Operation>& ops, uint32_t macs, const std::string& memoryMode = "Shared_Sram") {
  const VelaSystem system(config::builtinPreset("Ethos_U55_High_End_Embedded", memoryMode), test::u55(macs));
  const std::vector<cmd::Operation> decoded = test::roundTrip(ops);
  Run run;
  run.layers = LayerBuilder(system).build(decoded, LayerBuilder::oneRowPerKernel(decoded));
  run.estimates = Estimator(system).estimate(run.layers);
  return run;
}

constexpr size_t kSram = 0;
constexpr size_t kOffFlash = 3;

} // namespace

TEST_CASE("3.9(a): pointwise conv 25x5x64, weights buffered, first DMA hidden under the depthwise's slack") {
  // KWS order: DMA + depthwise (slack 8624), DMA of 4752 bytes + pointwise conv.
  const Run run = estimate({dma(0x2cf0, 0x3e80, 1328), depthwise3x3(0x3e80), dma(0x3220, 0x43b0, 4752),
                            pointwiseConv({9, 6, 32}, 0x43b0)},
                           128);
  REQUIRE(run.layers.size() == 2);
  const LayerEstimate& conv = run.estimates[1];
  CHECK(run.layers[1].weights.buffering == WeightBuffering::SingleBuffer);
  CHECK(run.layers[1].query.block.ifmBlock == Shape3{9, 6, 32});
  CHECK(run.estimates[0].slackCycles == 8624);
  CHECK(conv.computeCycles == 5904);
  CHECK(conv.npuCycles == 5904);   // T_full = T_first = 4752 + 64 = 4816 <= 8624
  CHECK(conv.accessCycles[kSram] == 3160);
  CHECK(conv.totalCycles == 5904);
  CHECK(conv.macs == 512000);
}

TEST_CASE("3.9(a): the same pointwise conv on U55-32 and U55-256") {
  CHECK(estimate({dma(0x3220, 0x43b0, 4752), pointwiseConv({5, 5, 32}, 0x43b0)}, 32).estimates[0].computeCycles ==
        17600);
  CHECK(estimate({dma(0x3220, 0x43b0, 4752), pointwiseConv({10, 6, 64}, 0x43b0)}, 256).estimates[0].computeCycles ==
        3680);
}

TEST_CASE("3.9(b): depthwise 3x3 25x5x64 on U55-128, with no previous slack the whole DMA shows") {
  const Run run = estimate({dma(0x2cf0, 0x3e80, 1328), depthwise3x3(0x3e80)}, 128);
  const LayerEstimate& e = run.estimates[0];
  CHECK(e.computeCycles == 8624);
  // Single buffer, previous slack 0: NPU = C + T_full = 8624 + (1328 / 1 B/cycle + 64).
  CHECK(e.npuCycles == 8624 + 1392);
  CHECK(e.macs == 72000);
}

TEST_CASE("3.9(c): AvgPool 5x25 over 25x5x64 on U55-128") {
  cmd::Operation pool = kernelOp(cmd::OpKind::Pool, arenaMap(0x0, {25, 5, 64}, kBricks),
                                 arenaMap(0x1f40, {1, 1, 64}, kBricks), {1, 2, 64});
  pool.poolMode = cmd::PoolMode::Average;
  pool.kernel.width = 5;
  pool.kernel.height = 25;
  const Run run = estimate({pool}, 128);
  CHECK(run.layers[0].query.op == LayerOp::AvgPool);
  CHECK(run.estimates[0].npuCycles == 1356);
  CHECK(run.estimates[0].accessCycles[kSram] == 1288);
  CHECK(run.estimates[0].macs == 8000);
}

TEST_CASE("3.9(d): FullyConnected 64 -> 12 streams its weights from flash") {
  cmd::Operation fc = kernelOp(cmd::OpKind::Conv, arenaMap(0x1f40, {1, 1, 64}, kBricks),
                               arenaMap(0x40, {1, 1, 12}, kNhwc), {1, 2, 16});
  fc.scales[0] = {kFlash, 0x8bd0, 128};
  fc.weights[0] = {kFlash, 0x8c50, 912};
  const Run run = estimate({fc}, 128);
  const Layer& l = run.layers[0];
  const LayerEstimate& e = run.estimates[0];
  CHECK(l.query.op == LayerOp::FullyConnected);
  CHECK(l.weights.buffering == WeightBuffering::Unbuffered);
  CHECK(e.accessCycles[kOffFlash] == 1040);   // 920 weight + 120 scale bytes at 1 B/cycle
  CHECK(e.npuCycles == 185);
  CHECK(e.totalCycles == 1040);
  CHECK(e.macs == 768);
}

TEST_CASE("depth slices into two buffers form one double-buffered layer") {
  // The KWS first conv on U55-128: slices of 16 and 48 channels, DMA'd into two buffers.
  const cmd::FeatureMap ifm = arenaMap(0x1f40, {49, 5, 2}, kNhwc);
  auto slice = [&](uint32_t depth, uint64_t ofmBase, uint64_t buffer, uint64_t scaleBytes, uint64_t weightBytes) {
    cmd::Operation op = kernelOp(cmd::OpKind::Conv, ifm,
                                 arenaMap(ofmBase, {25, 5, depth}, kBricks), {13, 6, 16});
    op.ofm.strideC = 80;
    op.ofm.strideY = 320;
    op.kernel.width = 3;
    op.kernel.height = 10;
    op.kernel.strideY = 2;
    op.kernel.partKernelFirst = true;
    op.padding = {4, 1, 5, 1};
    op.scales[0] = {kArena, buffer, scaleBytes};
    op.weights[0] = {kArena, buffer + scaleBytes, weightBytes};
    return op;
  };
  const std::vector<cmd::Operation> ops = test::roundTrip({dma(0x1ba0, 0x2e20, 1120), slice(16, 0x0, 0x2e20, 160, 960),
                                                     dma(0x2000, 0x2130, 3312), slice(48, 0x50, 0x2130, 480, 2832)});
  const VelaSystem system(config::builtinPreset("Ethos_U55_High_End_Embedded", "Shared_Sram"), test::u55(128));
  RowSpec row;
  row.operations = {1, 3};
  row.nngOperator = "Conv2DBias";
  const std::vector<Layer> layers = LayerBuilder(system).build(ops, {row});
  const WeightStreams& w = layers[0].weights;
  CHECK(layers[0].query.ofm.shape == Shape3{25, 5, 64});
  CHECK(w.buffering == WeightBuffering::DoubleBuffer);
  CHECK(w.depthSlices == 2);
  CHECK(w.encodedBytes == 4432);
  CHECK(w.firstTransferBytes == 1120);
  CHECK(w.lastSliceDepth == 48);
  const LayerEstimate e = Estimator(system).estimateLayer(layers[0], 0);
  // Hand-derived (timing doc 3.3): the 25x5x64 OFM in H13 x W5 x D16 blocks is 2 x 1 x 4 = 8
  // blocks; per block nxy = ceil(5 / 2) * 13 = 39, nz = 2, the 3x10 kernel splits into 3x8 and
  // 3x2 sub-kernels, ceil(24 / 4) + ceil(6 / 4) = 8 part-kernel steps over ceil(2 / 8) = 1 IFM
  // channel group: max(32, 4 * 39) * 8 * 2 = 2496 MAC cycles, more than the 0.5 * 1040 = 520
  // output cycles, so each block adds 2496. The slack S_own is the last slice's (48 channels:
  // 6 of the 8 blocks), 2 * 2496 below C.
  CHECK(e.computeCycles >= 8 * 2496);
  CHECK(static_cast<double>(e.computeCycles) - e.slackCycles == 2 * 2496);
  // Double buffer, no previous slack (3.7): max(T_full + S_own, C + T_first), T_full = 4432 + 64,
  // T_first = 1120 + 64. C - S_own = 4992 > T_full - T_first = 3312: compute-bound, so the
  // one-piece T_full (approximated by the slices' total here) does not decide the result.
  CHECK(e.npuCycles == static_cast<double>(e.computeCycles + 1184));
  CHECK_FALSE(e.fullTransferApproximated);
  CHECK(e.macs == 480000);
  CHECK(e.npuCycles == 21994);   // Vela's row for this layer
}

TEST_CASE("Sram_Only: constants move to a virtual OnChipFlash with SRAM timing") {
  const VelaSystem system(config::builtinPreset("Ethos_U55_High_End_Embedded", "Sram_Only"), test::u55(128));
  CHECK(system.constArea() == MemArea::OnChipFlash);
  CHECK(system.arenaArea() == MemArea::Sram);
  CHECK(system.timing(MemArea::OnChipFlash).bytesPerCycle == 8.0);
  CHECK(system.timing(MemArea::OnChipFlash).readLatency == 32);
  CHECK(system.regionArea(0) == MemArea::OnChipFlash);
  // The FC of 3.9(d) then reads its 1040 bytes at 8 B/cycle from on-chip flash.
  cmd::Operation fc = kernelOp(cmd::OpKind::Conv, arenaMap(0x1f40, {1, 1, 64}, kBricks),
                               arenaMap(0x40, {1, 1, 12}, kNhwc), {1, 2, 16});
  fc.scales[0] = {kFlash, 0x8bd0, 128};
  fc.weights[0] = {kFlash, 0x8c50, 912};
  CHECK(estimate({fc}, 128, "Sram_Only").estimates[0].accessCycles[2] == 130);
}

TEST_CASE("debug database: tables, path and TFLite operator names") {
  const std::string xml = R"(<debug>
  <table name="source"><![CDATA["id","operator","kernel_w","kernel_h","ofm_w","ofm_h","ofm_d"
0,"Conv2DBias",1,1,5,25,64
1,"Softmax",1,1,1,1,12
]]></table>
  <table name="optimised"><![CDATA["id","source_id","operator","kernel_w","kernel_h","ofm_w","ofm_h","ofm_d"
0,1,"SHR",1,1,1,1,12
1,0,"Conv2DBias",1,1,5,25,64
]]></table>
  <table name="queue"><![CDATA["offset","cmdstream_id","optimised_id"
332,0,1
]]></table>
  <table name="cmdstream"><![CDATA["id","file_offset"
0,37216
]]></table>
</debug>)";
  const VelaDebugDb db = parseVelaDebugDb(xml, "<test>");
  REQUIRE(db.optimised.size() == 2);
  CHECK(db.findOptimised(0)->type == "SHR");
  CHECK(db.findSource(db.findOptimised(1)->sourceId)->type == "Conv2DBias");
  CHECK(db.queue.at(0).offset == 332);
  CHECK(db.streams.at(0).id == 0);
  // Vela 5.x: a line break between the table element and its CDATA, no file_offset column.
  const VelaDebugDb db5 = parseVelaDebugDb(R"(<debug source="x">
<table name="source">
<![CDATA[
"id","operator","ext_key"
1,"Conv2D",0
]]>
</table>
<table name="optimised">
<![CDATA[
"id","source_id","operator"
1,1,"Relu"
]]>
</table>
<table name="queue">
<![CDATA[
"offset","cmdstream_id","optimised_id","scheduled_id"
328,1,1,130
]]>
</table>
<table name="cmdstream">
<![CDATA[
"id"
1
]]>
</table>
</debug>)", "<test>");
  CHECK(db5.findSource(1)->type == "Conv2D");
  CHECK(db5.queue.at(0).offset == 328);
  CHECK(db5.streams.at(0).id == 1);
  CHECK_THROWS_AS(parseVelaDebugDb("<debug></debug>", "<test>"), InputError);
  CHECK(velaDebugDbPath("dir/kws_vela.tflite") == "dir/kws_debug.xml");
  CHECK(tfliteOperatorName("Conv2DBias") == "CONV_2D");
  CHECK(tfliteOperatorName("DepthwiseConv2DBias") == "DEPTHWISE_CONV_2D");
  CHECK(tfliteOperatorName("AvgPool") == "AVERAGE_POOL_2D");
  CHECK(tfliteOperatorName("FullyConnected") == "FULLY_CONNECTED");
  CHECK(tfliteOperatorName("Softmax") == "SOFTMAX");
}

TEST_CASE("numbers are written as Python's repr, like Vela's CSV") {
  CHECK(pythonFloat(21994.0) == "21994.0");
  CHECK(pythonFloat(8.5) == "8.5");
  CHECK(pythonFloat(0.0) == "0.0");
  CHECK(pythonFloat(58.550724637681164) == "58.550724637681164");
  CHECK(pythonFloat(1e-05) == "1e-05");
}

TEST_CASE("debug database rows: a Memcpy sits at its feature-map DMA, matched by the copy's consumer") {
  // A miniature of rnnoise: FullyConnected layers (sources 7, 1, 65, 61), two Reshapes copied
  // by DMA (sources 0 and 64) and one aliased without a DMA (source 60, a Squeeze here so that
  // its row is told apart), and a weight DMA that must not count as a copy.
  const Shape3 vec{1, 1, 24};
  auto fc = [&](uint64_t ifm, uint64_t ofm, uint32_t offset) {
    cmd::Operation op = kernelOp(cmd::OpKind::Conv, arenaMap(ifm, vec, kNhwc), arenaMap(ofm, vec, kNhwc), {1, 2, 24});
    op.byteOffset = offset;
    return op;
  };
  cmd::Operation copy1 = dma(0x1c0, 0xc0, 48), copy2 = dma(0x300, 0x0, 32), weightDma = dma(0x0, 0x800, 64);
  copy1.dma.srcRegion = copy2.dma.srcRegion = kArena;
  cmd::Operation last = fc(0x500, 0x600, 400);
  last.scales[0] = {kArena, 0x800, 32};
  last.weights[0] = {kArena, 0x820, 32};
  io::DecodedNpuOp decoded;
  decoded.operations = {fc(0x20, 0x40, 100), copy1, fc(0xc0, 0x100, 200), copy2, fc(0x0, 0x140, 300), weightDma, last};
  io::CompiledNetwork net;
  net.path = "<test>";
  net.operators.resize(1);
  net.operators[0].kind = io::OperatorKind::Npu;
  const std::string xml = R"(<debug>
  <table name="source"><![CDATA["id","operator"
0,"Reshape"
1,"FullyConnected"
7,"FullyConnected"
60,"Squeeze"
61,"FullyConnected"
64,"Reshape"
65,"FullyConnected"
]]></table>
  <table name="optimised"><![CDATA["id","source_id","operator"
10,7,"FullyConnected"
11,1,"FullyConnected"
12,65,"FullyConnected"
13,61,"FullyConnected"
20,0,"Memcpy"
21,64,"Memcpy"
22,60,"Memcpy"
]]></table>
  <table name="queue"><![CDATA["offset","cmdstream_id","optimised_id"
104,0,10
204,0,11
304,0,12
404,0,13
]]></table>
  <table name="cmdstream"><![CDATA["id","file_offset"
0,0
]]></table>
</debug>)";
  const std::vector<std::vector<RowSpec>> rows = rowsFromDebugDb(net, {decoded}, parseVelaDebugDb(xml, "<test>"));
  REQUIRE(rows.size() == 1);
  std::vector<std::string> labels;
  for (const RowSpec& r : rows[0]) {
    labels.push_back(r.tfliteOperator + (r.memcpy ? "/copy" : ""));
  }
  // The aliased Squeeze (no DMA) goes before the first row whose source follows 60 (source 64).
  CHECK(labels == std::vector<std::string>{"FULLY_CONNECTED", "RESHAPE/copy", "FULLY_CONNECTED", "SQUEEZE/copy",
                                           "RESHAPE/copy", "FULLY_CONNECTED", "FULLY_CONNECTED"});
  CHECK(rows[0][1].operations.empty());
  CHECK(rows[0][6].operations == std::vector<size_t>{6});
}
