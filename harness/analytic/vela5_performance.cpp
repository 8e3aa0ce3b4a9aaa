// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/vela5_performance.h"

#include <array>
#include <utility>

namespace npusim::analytic::vela5 {

namespace {

constexpr std::array<std::pair<OpType, std::string_view>, 34> kOpTypes{{
    {OpType::Conv2D, "Conv2D"},       {OpType::DepthwiseConv2D, "DepthwiseConv2D"},
    {OpType::FullyConnected, "FullyConnected"}, {OpType::MatMul, "MatMul"},
    {OpType::MaxPool, "MaxPool"},     {OpType::AvgPool, "AvgPool"},
    {OpType::ReduceSum, "ReduceSum"}, {OpType::ReduceMax, "ReduceMax"},
    {OpType::Rescale, "Rescale"},     {OpType::Tile, "Tile"},
    {OpType::Transpose, "Transpose"}, {OpType::MemoryCopy, "MemoryCopy"},
    {OpType::Quantize, "Quantize"},   {OpType::Reverse, "Reverse"},
    {OpType::Add, "Add"},             {OpType::Sub, "Sub"},
    {OpType::Mul, "Mul"},             {OpType::Minimum, "Minimum"},
    {OpType::Maximum, "Maximum"},     {OpType::SHL, "SHL"},
    {OpType::Asr, "Asr"},             {OpType::CLZ, "CLZ"},
    {OpType::Abs, "Abs"},             {OpType::LeakyRelu, "LeakyRelu"},
    {OpType::Relu, "Relu"},           {OpType::Relu0To1, "Relu0To1"},
    {OpType::Relu6, "Relu6"},         {OpType::ReluN1To1, "ReluN1To1"},
    {OpType::ReluN, "ReluN"},         {OpType::Clamp, "Clamp"},
    {OpType::Prelu, "Prelu"},         {OpType::Sigmoid, "Sigmoid"},
    {OpType::Tanh, "Tanh"},           {OpType::LUT, "LUT"},
}};

} // namespace

std::string_view opTypeName(OpType type) {
  for (const auto& [t, name] : kOpTypes) {
    if (t == type) {
      return name;
    }
  }
  return "?";
}

std::optional<OpType> opTypeFromName(std::string_view name) {
  for (const auto& [t, n] : kOpTypes) {
    if (n == name) {
      return t;
    }
  }
  return std::nullopt;
}

std::string_view traversalName(Traversal t) {
  switch (t) {
  case Traversal::DepthFirst: return "DepthFirst";
  case Traversal::PartKernel: return "PartKernel";
  case Traversal::Depthwise: return "Depthwise";
  }
  return "?";
}

} // namespace npusim::analytic::vela5
