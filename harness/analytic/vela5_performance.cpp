// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/vela5_performance.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "harness/analytic/vela5_shapes.h"
#include "sim/arch/command_set.h"

namespace npusim::analytic::vela5 {

namespace {

constexpr std::array<std::pair<OpType, std::string_view>, 35> kOpTypes{{
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
    {OpType::Resize, "Resize"},
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

std::unique_ptr<ArchitecturePerformance> makeArchitecturePerformance(const System& system) {
  // One model per architecture, chosen by its command set: the Ethos-U65 is regor's Ethos-U55
  // model with its own MAC configurations (vela5_ethos_u55), the Ethos-U85 has its own
  // (vela5_ethos_u85).
  const arch::Architecture& architecture = *system.accelerator().arch;
  if (architecture.commands == nullptr) {
    throw std::invalid_argument("Vela 5.0 estimate: no command set described for " + std::string(architecture.name));
  }
  switch (architecture.commands->format()) {
  case arch::CommandSet::Format::EthosU55: return makeEthosU55Performance(system);
  case arch::CommandSet::Format::EthosU85: return makeEthosU85Performance(system);
  }
  throw std::invalid_argument("Vela 5.0 estimate: no performance model for " + std::string(architecture.name));
}

CycleCost macPipelineCycles(const Query& q, const Shape3& ublock, double aoPerElement, int64_t macBlockCycles,
                            int64_t memoryCycles, bool readsBias) {
  // 1. Fractional OFM blocks, counted in micro-blocks.
  const Shape ofmBlock = minShape(q.ofm.shape, q.config.ofmBlock);
  const double blocks = static_cast<double>(elements(divRoundUp(q.ofm.shape, ublock))) /
                        static_cast<double>(elements(divRoundUp(ofmBlock, ublock)));
  // 2. Output unit per block, bounded by the scale/bias fetch.
  const double aoCompute = std::ceil(aoPerElement * static_cast<double>(elements(ofmBlock)));
  double biasCycles = 0;
  if (readsBias && q.hasScales) {
    biasCycles = 10.0 * ofmBlock.depth * q.constMemory->readLatency / 256;
  }
  const double aoBlock = std::max(aoCompute, biasCycles);
  // 3. MAC array per block and the command-issue floor, then the two-stage pipeline.
  const double macBlock = static_cast<double>(macBlockCycles);
  const double cmdLimit = (static_cast<double>(memoryCycles) + macBlock + aoBlock) / 4;
  const double mac = std::max(macBlock, cmdLimit);
  const double ao = std::max(aoBlock, cmdLimit);
  CycleCost c;
  c.opCycles = static_cast<int64_t>(mac > ao ? mac * blocks + ao : ao * blocks + mac);
  c.macCycles = static_cast<int64_t>(macBlock * blocks + aoBlock);
  c.aoCycles = static_cast<int64_t>(aoCompute * blocks + macBlock);
  c.cmdCycles = static_cast<int64_t>(cmdLimit);
  return c;
}

} // namespace npusim::analytic::vela5
