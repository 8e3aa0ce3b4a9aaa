// SPDX-License-Identifier: Apache-2.0
// What Vela leaves beside a compiled model: its row names for rewritten operators, the source
// model found and numbered as Vela numbers it, and the per-operation SRAM usage from the live
// ranges of fast storage. Expected values follow Vela 3.10's rules (docs/estimator.md).

#include <doctest/doctest.h>

#include <fstream>

#include "harness/analytic/layer_builder.h"
#include "harness/analytic/sram_usage.h"
#include "harness/analytic/vela_artifacts.h"
#include "harness/analytic/vela_names.h"
#include "sim/cmdstream/builder.h"
#include "sim/config/config.h"
#include "sim/io/compiled_network.h"
#include "sim/io/tflite_writer.h"
#include "support/fixtures.h"
#include "support/hardware.h"

using namespace npusim;
using namespace npusim::analytic;

namespace {

std::vector<std::string> names(const std::string& type, const std::string& name, std::vector<std::string> parts,
                               size_t inputs = 0, std::array<int64_t, 4> padding = {}) {
  SourceOperator s;
  s.type = type;
  s.name = name;
  s.inputCount = inputs;
  s.padding = padding;
  return velaOperatorNames(s, parts);
}

using Names = std::vector<std::string>;

} // namespace

TEST_CASE("Vela names: operators kept whole keep their first output tensor's name") {
  CHECK(names("Conv2DBias", "conv", {"Conv2DBias"}) == Names{"conv"});
  CHECK(names("DepthwiseConv2DBias", "dw", {"Conv2DBias"}) == Names{"dw"});   // depth multiplier > 1
  CHECK(names("Quantize", "q", {"AvgPool"}) == Names{"q"});
  CHECK(names("Reshape", "r", {"Memcpy"}) == Names{"r"});
}

TEST_CASE("Vela names: suffixes of rewritten operators") {
  CHECK(names("Conv2DBias", "c", {"FullyConnected"}) == Names{"c_fc"});
  CHECK(names("AvgPool", "p", {"Conv2DBias"}) == Names{"p_conv2d"});
  CHECK(names("Transpose", "t", {"AvgPool"}) == Names{"t_avgpool"});
  CHECK(names("Sigmoid", "s", {"Add"}) == Names{"s_lut_sigmoid"});
  CHECK(names("Tanh", "t", {"Add"}) == Names{"t_lut_tanh"});
  CHECK(names("Exp", "e", {"Add"}) == Names{"e_lut_exp"});
  CHECK(names("HardSwish", "h", {"Add"}) == Names{"h_lut_hardswish"});
  CHECK(names("LeakyRelu", "a/LeakyRelu", {"Add"}) == Names{"a/LeakyRelu_lut_lrelu"});
  // A PReLU with one alpha, or a Maximum of x and alpha * x, becomes a LeakyRelu first.
  CHECK(names("Prelu", "a/Prelu", {"Add"}) == Names{"a/LeakyRelu_lut_lrelu"});
  CHECK(names("Maximum", "a/Maximum", {"LeakyRelu", "Add"}) == Names{"a/LeakyRelu", "a/LeakyRelu_lut_lrelu"});
  CHECK(names("Maximum", "a/Maximum", {"Abs"}) == Names{"a/Abs"});
  CHECK(names("Relu6", "r", {"Relu6", "AvgPool"}) == Names{"r", "r_avgpool"});   // no operator to fuse into
  CHECK(names("Split", "s", {"SplitSliceRead", "AvgPool"}) == Names{"s", "s_avgpool"});
  CHECK(names("ResizeBilinear", "r", {"Add"}) == Names{"r_add"});   // a 1x1 IFM
}

TEST_CASE("Vela names: a Concatenation's copies, with a fused activation split off") {
  CHECK(names("ConcatTFLite", "cat", {"AvgPool", "AvgPool", "AvgPool"}, 3) ==
        Names{"cat0_avgpool", "cat1_avgpool", "cat2_avgpool"});
  CHECK(names("Pack", "p", {"AvgPool", "AvgPool"}, 2) == Names{"p0_avgpool", "p1_avgpool"});
  CHECK(names("ConcatTFLite", "cat", {"Relu", "AvgPool", "AvgPool", "AvgPool"}, 2) ==
        Names{"catRelu", "cat0_avgpool", "cat1_avgpool", "catRelu_avgpool"});
}

TEST_CASE("Vela names: parts numbered by position (Softmax, Mean, resize steps, Pad sides)") {
  CHECK(names("Softmax", "sm", {"MaxPool", "Sub", "SHR", "ReduceSum", "CLZ", "Sub", "SHL", "Add", "Mul"}) ==
        Names{"sm_maxpool0", "sm_sub1", "sm_shr2", "sm_reduce_sum3", "sm_clz4", "sm_sub5", "sm_shl6", "sm_add7",
              "sm_mul8"});
  // Mean: the clone's suffix repeats the operator's name.
  CHECK(names("Mean", "m", {"DepthwiseConv2DBias", "DepthwiseConv2DBias", "Add", "Mul"}) ==
        Names{"mm_conv_0", "mm_conv_1", "m_add_0", "m_mul"});
  CHECK(names("ResizeNearestNeighbor", "r", {"ResizeNearestNeighbor", "ResizeNearestNeighbor",
                                             "ResizeNearestNeighbor"}) == Names{"r", "r_1", "r_2"});
  CHECK(names("ResizeBilinear", "r", {"AvgPool", "DepthwiseConv2DBias", "DepthwiseConv2DBias"}) ==
        Names{"rb_init_avgpool", "depthwise_conv_0", "depthwise_conv_1"});
  CHECK(names("Pad", "p", {"AvgPool", "AvgPool", "AvgPool"}, 2, {1, 0, 0, 2}) == Names{"p_main", "p_top", "p_right"});
}

TEST_CASE("Vela names: multi-operator rewrites of PReLU, LeakyRelu, SquaredDifference and ArgMax") {
  CHECK(names("Prelu", "p", {"Mul", "Mul", "Maximum"}) == Names{"p_mul_alpha", "p_mul_identity", "p_max"});
  CHECK(names("Prelu", "p", {"Minimum", "Mul", "Relu", "AvgPool", "Add"}) ==
        Names{"p_min", "p_mul_alpha", "p_relu", "p_relu_avgpool", "p_add"});
  CHECK(names("LeakyRelu", "a/LeakyRelu", {"Mul", "Maximum"}) == Names{"a/LeakyRelu_mul_alpha", "a/Maximum"});
  CHECK(names("LeakyRelu", "a/LeakyRelu", {"Minimum", "Mul", "Relu", "Add"}) ==
        Names{"a/LeakyRelu_min", "a/LeakyRelu_mul_alpha", "a/LeakyRelu_relu", "a/Add"});
  CHECK(names("SquaredDifference", "d", {"DepthwiseConv2DBias", "Mul", "DepthwiseConv2DBias", "Mul", "Sub", "Mul",
                                         "Mul"}) ==
        Names{"d_ifm_32bit_shifted", "d_scaled_input1", "d_ifm2_32bit_shifted", "d_scaled_input2", "d_raw_diff",
              "d_squared_raw", "d"});
  CHECK(names("ArgMax", "a", {"DepthwiseConv2DBias", "MaxPool", "MaxPool", "DepthwiseConv2DBias", "Memcpy",
                              "DepthwiseConv2DBias", "Memcpy"}) ==
        Names{"a_depthwise_conv_SHL_7", "dw_maxpool_0", "dw_maxpool_1", "a_cast_to_32bit_1", "a_memcpy_1",
              "a_cast_to_32bit_2", "f{orig_name}_memcpy_2"});
}

TEST_CASE("source model: operators numbered depth first from the outputs, found from the database's paths") {
  // in -> A = Conv(in) (op 0), B = Conv(in) (op 1), C = Add(B, A) (op 2). Vela visits C's
  // inputs in order: B first, so source 0 is op 1, source 1 op 0, source 2 op 2.
  io::ModelSpec spec;
  spec.description = "source";
  spec.offlineAllocation = false;
  auto tensor = [&](const std::string& name, std::vector<uint8_t> data = {}) {
    spec.tensors.push_back({name, {1, 2, 2, 1}, 9, std::move(data)});
    return static_cast<int32_t>(spec.tensors.size() - 1);
  };
  const int32_t in = tensor("in"), w = tensor("w", {1}), a = tensor("a"), b = tensor("b"), c = tensor("c");
  spec.operators = {{3, "", {in, w}, {a}}, {3, "", {in, w}, {b}}, {0, "", {b, a}, {c}}};
  spec.inputs = {in};
  spec.outputs = {c};
  test::TempDir dir;
  std::filesystem::create_directories(dir.path() / "out");
  const std::vector<uint8_t> bytes = io::writeTflite(spec);
  std::ofstream(dir.path() / "m.tflite", std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                                    static_cast<std::streamsize>(bytes.size()));
  const std::string db = R"(<debug source="m.tflite" optimised="out/m_vela.tflite">
  <table name="source"><![CDATA["id","operator"
0,"Conv2DBias"
1,"Conv2DBias"
2,"Add"
]]></table>
  <table name="optimised"><![CDATA["id","source_id","operator"
0,0,"FullyConnected"
1,1,"Conv2DBias"
2,2,"Add"
]]></table>
  <table name="queue"><![CDATA["offset","cmdstream_id","optimised_id"
]]></table>
  <table name="cmdstream"><![CDATA["id","file_offset"
0,0
]]></table>
</debug>)";
  std::ofstream(dir.path() / "out" / "m_debug.xml") << db;
  std::ofstream(dir.path() / "out" / "m_vela.tflite") << "not read";
  const VelaArtifacts found = findVelaArtifacts((dir.path() / "out" / "m_vela.tflite").string(), "");
  REQUIRE(found.db);
  CHECK(found.sourceWarning.empty());
  REQUIRE(found.source);
  CHECK(found.source->operators.at(0).name == "b");
  CHECK(found.source->operators.at(1).name == "a");
  CHECK(found.source->optimisedNames.at(0) == "b_fc");
  CHECK(found.source->optimisedNames.at(2) == "c");
  // Without the source model: one warning-worthy reason, naming the file looked for.
  std::filesystem::remove(dir.path() / "m.tflite");
  const VelaArtifacts missing = findVelaArtifacts((dir.path() / "out" / "m_vela.tflite").string(), "");
  CHECK(missing.db);
  CHECK(!missing.source);
  CHECK(missing.sourceWarning.find("not found") != std::string::npos);
  CHECK(missing.sourceWarning.find("m.tflite") != std::string::npos);
}

TEST_CASE("source model: a Vela 5.x database is found through a symlink and needs no source model") {
  // Vela 5.x's `source` attribute is the output files' stem, not a model: nothing is looked
  // for and nothing is warned about; the database names its rows itself.
  const std::string db = R"(<debug source="out/m">
  <table name="perf"><![CDATA["id","source_id","optimised_id","operator","name"
7,1,3,"Conv2D","conv_out"
]]></table>
  <table name="queue"><![CDATA["offset","cmdstream_id","optimised_id","scheduled_id"
]]></table>
  <table name="optimised"><![CDATA["id","source_id","operator"
3,1,"Conv2D"
]]></table>
  <table name="source"><![CDATA["id","operator"
1,"Conv2D"
]]></table>
  <table name="cmdstream"><![CDATA["id"
0
]]></table>
</debug>)";
  test::TempDir dir;
  std::filesystem::create_directories(dir.path() / "out");
  std::filesystem::create_directories(dir.path() / "elsewhere");
  std::ofstream(dir.path() / "out" / "m_debug.xml") << db;
  std::ofstream(dir.path() / "out" / "m_vela.tflite") << "not read";
  std::filesystem::create_symlink(dir.path() / "out" / "m_vela.tflite", dir.path() / "elsewhere" / "m_vela.tflite");
  const VelaArtifacts found = findVelaArtifacts((dir.path() / "elsewhere" / "m_vela.tflite").string(), "");
  REQUIRE(found.db);
  CHECK(found.db->regorLayout());
  CHECK(std::filesystem::equivalent(found.debugDbPath, dir.path() / "out" / "m_debug.xml"));
  CHECK(!found.source);
  CHECK(found.sourceWarning.empty());
}

TEST_CASE("SRAM usage: live ranges of the input, the intermediate, the output and the weight buffers") {
  // One ethos-u operator: conv1 reads the network input (256 bytes at 0x0) and writes a 256-byte
  // intermediate at 0x200; conv2 reads it and writes the output at 0x100. Weights are DMA'd to
  // 0x400 (96 bytes) and 0x500 (80 bytes).
  const Shape3 shape{4, 4, 16};
  auto conv = [&](uint64_t ifm, uint64_t ofm, uint64_t weights, uint64_t length) {
    cmd::Operation op;
    op.kind = cmd::OpKind::Conv;
    op.ifm = cmd::denseFeatureMap(1, ifm, shape, cmd::DataFormat::Nhwc);
    op.ofm = cmd::denseFeatureMap(1, ofm, shape, cmd::DataFormat::Nhwc);
    op.ofmBlock = shape;
    op.activation.min = -128;
    op.activation.max = 127;
    op.scales = {1, weights, 32};
    op.weights = {1, weights + 32, length - 32};
    return op;
  };
  auto dma = [](uint64_t src, uint64_t dst, uint64_t length) {
    cmd::Operation op;
    op.kind = cmd::OpKind::DmaStart;
    op.dma = {0, 1, false, false, src, dst, length};
    return op;
  };
  io::DecodedNpuOp decoded;
  decoded.operatorIndex = 0;
  decoded.operations = {dma(0x0, 0x400, 96), conv(0x0, 0x200, 0x400, 96), dma(0x60, 0x500, 80),
                        conv(0x200, 0x100, 0x500, 80)};
  io::CompiledNetwork net;
  net.tensors.resize(6);
  for (size_t i = 0; i < net.tensors.size(); ++i) net.tensors[i].index = static_cast<int>(i);
  net.tensors[4].shape = net.tensors[5].shape = {1, 4, 4, 16};
  net.tensors[4].arenaOffset = 0x0;
  net.tensors[5].arenaOffset = 0x100;
  net.operators.resize(1);
  net.operators[0].kind = io::OperatorKind::Npu;
  net.operators[0].inputs = {0, 1, 2, 3, 4};
  net.operators[0].outputs = {5};
  net.operators[0].npu = {{}, {}, {}, 0, 1, 2, 3, {}, 0, 0x600, 0x600};
  net.inputs = {4};
  net.outputs = {5};
  const VelaSystem system(config::builtinPreset("Ethos_U55_High_End_Embedded", "Shared_Sram"), test::u55(128));
  const std::vector<Layer> layers =
      LayerBuilder(system).build(decoded.operations, LayerBuilder::oneRowPerKernel(decoded.operations));
  const SramUsage usage = sramUsage(net, {decoded}, {&layers}, system);
  REQUIRE(usage.perLayer.size() == 1);
  // Steps: input 0, the ethos-u operator from 2: conv1 at 2, conv2 at 4, outputs at 6.
  // conv1: input [0, 3] + intermediate [2, 5] + its buffer [2, 3] (nothing runs before it).
  // conv2: intermediate + output [4, 7] + its buffer, filled under conv1: [3, 5].
  CHECK(usage.perLayer[0] == std::vector<uint64_t>{256 + 256 + 96, 256 + 256 + 80});
  CHECK(usage.fastStorageBytes == 0x600);
}
