// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/vela_names.h"

#include <algorithm>
#include <map>
#include <string_view>

namespace npusim::analytic {

namespace {

// Python's str.replace: every occurrence of `from` in `text` replaced by `to`.
std::string replaceAll(std::string text, std::string_view from, std::string_view to) {
  if (from.empty()) return text;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

bool isReluType(std::string_view type) {
  return type == "Relu" || type == "Relu6" || type == "ReluN1To1" || type == "Relu0To1" || type == "Clip";
}

// The table a LUT-based rewrite names the operator after (`<name>_lut_<table>`), by source type.
const std::map<std::string_view, std::string_view>& lutTables() {
  static const std::map<std::string_view, std::string_view> tables{
      {"Sigmoid", "sigmoid"}, {"Tanh", "tanh"},           {"Exp", "exp"},         {"Rsqrt", "rsqrt"},
      {"HardSwish", "hardswish"}, {"LeakyRelu", "lrelu"}, {"Prelu", "lrelu"},     {"Maximum", "lrelu"}};
  return tables;
}

// Softmax: every part is named after its kind and its position among the parts.
std::string softmaxPartName(const std::string& name, std::string_view type, size_t index) {
  static const std::map<std::string_view, std::string_view> words{
      {"MaxPool", "maxpool"}, {"Sub", "sub"}, {"SHR", "shr"}, {"ReduceSum", "reduce_sum"},
      {"CLZ", "clz"},         {"SHL", "shl"}, {"Add", "add"}, {"Mul", "mul"}};
  const auto it = words.find(type);
  return it == words.end() ? name : name + "_" + std::string(it->second) + std::to_string(index);
}

// A LeakyRelu (or what became one) rewritten without a LUT into a multiply and a maximum, or a
// minimum, multiply, ReLU and add; `name` is the LeakyRelu's name.
std::string leakyReluPartName(const std::string& name, std::string_view type, size_t mulIndex, bool hasMinimum) {
  if (type == "Minimum") return name + "_min";
  if (type == "Mul") return name + (mulIndex == 0 ? "_mul_alpha" : "_mul_identity");
  if (type == "Relu") return name + "_relu";
  if (type == "AvgPool") return name + "_relu_avgpool";   // the ReLU's own pass
  if (type == "Maximum" || type == "Add") return replaceAll(name, "LeakyRelu", hasMinimum ? "Add" : "Maximum");
  if (type == "LeakyRelu") return name;
  return name;
}

} // namespace

std::vector<std::string> velaOperatorNames(const SourceOperator& source, const std::vector<std::string>& types) {
  const std::string& x = source.name;
  const std::string_view s = source.type;
  std::vector<std::string> names(types.size(), x);
  const bool hasMinimum = std::find(types.begin(), types.end(), "Minimum") != types.end();
  const bool hasAvgPool = std::find(types.begin(), types.end(), "AvgPool") != types.end();
  size_t avgPools = 0, convs = 0, adds = 0, muls = 0, casts = 0, memcpys = 0, maxPools = 0, resizes = 0;
  std::string activation;   // a Concatenation's fused activation, split off as its own operator
  std::vector<std::string> padParts{"_main"};
  if (source.padding[0] > 0) padParts.push_back("_top");
  if (source.padding[2] > 0) padParts.push_back("_bottom");
  if (source.padding[1] > 0) padParts.push_back("_left");
  if (source.padding[3] > 0) padParts.push_back("_right");
  for (size_t k = 0; k < types.size(); ++k) {
    const std::string_view t = types[k];
    std::string& n = names[k];
    if (s == "ConcatTFLite" || s == "Concat" || s == "Pack") {
      // One AvgPool copy per input, `<name><input>_avgpool`; a fused activation becomes its own
      // operator `<name><Activation>`, which pass packing gives an AvgPool of its own.
      if (t == "AvgPool") {
        n = avgPools < source.inputCount || activation.empty() ? x + std::to_string(avgPools) + "_avgpool"
                                                               : x + activation + "_avgpool";
        ++avgPools;
      } else if (isReluType(t) || t == "Sigmoid" || t == "Tanh") {
        activation = std::string(t);
        n = x + activation;
      }
    } else if (s == "Softmax") {
      n = softmaxPartName(x, t, k);
    } else if (s == "Conv2DBias" && t == "FullyConnected") {
      n = x + "_fc";   // a 1x1 convolution on a 1x1 IFM
    } else if (s == "AvgPool" && t == "Conv2DBias") {
      n = x + "_conv2d";   // average pool with stride 4 or more
    } else if (s == "Mean") {
      // Depthwise convolutions (the clone's suffix repeats the name), additions summing them,
      // and the final multiply; a mean over unit dimensions is a Memcpy.
      if (t == "DepthwiseConv2DBias") n = x + x + "_conv_" + std::to_string(convs++);
      else if (t == "Add") n = x + "_add_" + std::to_string(adds++);
      else if (t == "Mul") n = x + "_mul";
    } else if (s == "ResizeBilinear" || s == "ResizeNearestNeighbor") {
      if (t == "Add") {
        n = x + "_add";   // a resize of a 1x1 IFM
      } else if (hasAvgPool && s == "ResizeBilinear") {
        // Half-pixel-centre bilinear: an initial copy and four depthwise convolutions, named
        // without the operator's name.
        n = t == "AvgPool" ? "rb_init_avgpool" : "depthwise_conv_" + std::to_string(convs++);
      } else {
        // x2 upscaling steps: the first keeps the name, the others get `_<step>`.
        n = resizes == 0 ? x : x + "_" + std::to_string(resizes);
        ++resizes;
      }
    } else if (s == "Transpose" && t == "AvgPool") {
      n = x + "_avgpool";
    } else if (t == "Add" && lutTables().count(s) != 0 && !(s == "LeakyRelu" && hasMinimum) &&
               !(s == "Prelu" && hasMinimum)) {
      // An activation computed by a table lookup on a no-op addition; a LeakyRelu made from a
      // PReLU or a Maximum is renamed first.
      const std::string base = s == "Prelu" ? replaceAll(x, "Prelu", "LeakyRelu")
                               : s == "Maximum" ? replaceAll(x, "Maximum", "LeakyRelu")
                                                : x;
      n = base + "_lut_" + std::string(lutTables().at(s));
    } else if (s == "LeakyRelu") {
      if (!hasMinimum && (t == "Relu" || t == "AvgPool")) {
        n = replaceAll(x, "LeakyRelu", "Relu") + (t == "AvgPool" ? "_avgpool" : "");   // alpha 0
      } else {
        n = leakyReluPartName(x, t, t == "Mul" ? muls++ : 0, hasMinimum);
      }
    } else if (s == "Prelu") {
      if (t == "Relu" && !hasMinimum) n = replaceAll(x, "Prelu", "Relu");
      else if (t == "AvgPool" && !hasMinimum) n = replaceAll(x, "Prelu", "Relu") + "_avgpool";
      else if (t == "Maximum") n = x + "_max";
      else if (t == "Add") n = x + "_add";
      else n = leakyReluPartName(x, t, t == "Mul" ? muls++ : 0, hasMinimum);
    } else if (s == "Maximum" && (t == "LeakyRelu" || t == "Abs")) {
      n = replaceAll(x, "Maximum", std::string(t));   // Max(x, alpha * x)
    } else if (s == "SquaredDifference") {
      static const std::array<const char*, 7> kParts{"_ifm_32bit_shifted", "_scaled_input1", "_ifm2_32bit_shifted",
                                                     "_scaled_input2",     "_raw_diff",      "_squared_raw",
                                                     ""};
      n = x + (k < kParts.size() ? kParts[k] : "");
    } else if (s == "ArgMax") {
      if (t == "DepthwiseConv2DBias") {
        // The first shifts the IFM left by 7; the others cast the result to 32 bits.
        n = convs++ == 0 ? x + "_depthwise_conv_SHL_7" : x + "_cast_to_32bit_" + std::to_string(++casts);
      } else if (t == "MaxPool") {
        n = "dw_maxpool_" + std::to_string(maxPools++);
      } else if (t == "Memcpy") {
        // Vela 3.10 misses the `f` of the second copy's format string: its name is literal.
        n = memcpys++ == 0 ? x + "_memcpy_1" : "f{orig_name}_memcpy_2";
      }
    } else if (s == "Pad" && t == "AvgPool") {
      n = x + (avgPools < padParts.size() ? padParts[avgPools] : "");
      ++avgPools;
    } else if (t == "AvgPool" && (s == "Split" || s == "SplitV" || s == "StridedSlice" || s == "Slice" ||
                                  s == "Unpack" || isReluType(s) || s == "Sigmoid" || s == "Tanh")) {
      // A slice its consumers cannot read in place, or an activation with no operator to fuse
      // into, runs as an AvgPool of its own.
      n = x + "_avgpool";
    }
  }
  return names;
}

} // namespace npusim::analytic
