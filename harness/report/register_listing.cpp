// SPDX-License-Identifier: Apache-2.0
#include "harness/report/register_listing.h"

#include <array>
#include <cstdio>
#include <map>
#include <sstream>
#include <string_view>
#include <vector>

namespace npusim::report {

namespace {

using arch::CommandId;

// Value names of the interface's enumerated fields, indexed by value ("****": no name).
using Names = std::vector<std::string_view>;
const Names kActivationType{"ACTIVATION_TYPE_UNSIGNED", "ACTIVATION_TYPE_SIGNED"};
const Names kActivationPrecision{"ACTIVATION_PRECISION_B8", "ACTIVATION_PRECISION_B16", "ACTIVATION_PRECISION_B32",
                                     "ACTIVATION_PRECISION_B64"};
const Names kActivationFormat{"ACTIVATION_FORMAT_NHWC", "ACTIVATION_FORMAT_NHCWB16"};
const Names kIfmScaleMode{"IFM_SCALE_MODE_OPA_OPB_16", "IFM_SCALE_MODE_OPA_32", "IFM_SCALE_MODE_OPB_32"};
const Names kOfmScaleMode{"OFM_SCALE_MODE_PER_CHANNEL", "OFM_SCALE_MODE_GLOBAL"};
const Names kRoundMode{"ROUND_MODE_DBL", "ROUND_MODE_TRUNCATE", "ROUND_MODE_NATURAL"};
const Names kUpscaleMode{"IFM_UPSCALE_MODE_NONE", "IFM_UPSCALE_MODE_NEAREST", "IFM_UPSCALE_MODE_ZEROS"};
const Names kPoolingMode{"POOLING_MODE_MAX", "POOLING_MODE_AVERAGE", "POOLING_MODE_REDUCE_SUM"};
const Names kElementwiseMode{"ELEMENTWISE_MODE_MUL", "ELEMENTWISE_MODE_ADD", "ELEMENTWISE_MODE_SUB",
                                 "ELEMENTWISE_MODE_MIN", "ELEMENTWISE_MODE_MAX", "ELEMENTWISE_MODE_LRELU",
                                 "ELEMENTWISE_MODE_ABS", "ELEMENTWISE_MODE_CLZ", "ELEMENTWISE_MODE_SHR",
                                 "ELEMENTWISE_MODE_SHL"};
const Names kWeightOrder{"WEIGHT_ORDER_DEPTH_FIRST", "WEIGHT_ORDER_PART_KERNEL_FIRST"};
const Names kKernelDilation{"KERNEL_DILATION_NONE", "KERNEL_DILATION_X2"};
const Names kKernelDecomposition{"KERNEL_DECOMPOSITION_D8X8", "KERNEL_DECOMPOSITION_D4X4"};
const Names kParallelMode{"PARALLEL_MODE_SINGLE_CORE", "PARALLEL_MODE_DUAL_CORE_DEPTH"};
const Names kAccFormat{"ACC_FORMAT_I32", "ACC_FORMAT_I40", "ACC_FORMAT_F16"};
const Names kActivationFunction{
    "ACTIVATION_FUNCTION_RELU",    "****",                        "****",
    "ACTIVATION_FUNCTION_TANH",    "ACTIVATION_FUNCTION_SIGMOID", "****",
    "****",                        "****",                        "****",
    "****",                        "****",                        "****",
    "****",                        "****",                        "****",
    "****",                        "ACTIVATION_FUNCTION_TABLE_0", "ACTIVATION_FUNCTION_TABLE_1",
    "ACTIVATION_FUNCTION_TABLE_2", "ACTIVATION_FUNCTION_TABLE_3", "ACTIVATION_FUNCTION_TABLE_4",
    "ACTIVATION_FUNCTION_TABLE_5", "ACTIVATION_FUNCTION_TABLE_6", "ACTIVATION_FUNCTION_TABLE_7"};
const Names kClipRange{"ACTIVATION_CLIP_RANGE_OFM_PRECISION", "****", "ACTIVATION_CLIP_RANGE_FORCE_UINT8",
                           "ACTIVATION_CLIP_RANGE_FORCE_INT8", "****", "ACTIVATION_CLIP_RANGE_FORCE_INT16"};
const Names kDmaRegionMode{"DMA_REGION_MODE_EXTERNAL", "DMA_REGION_MODE_INTERNAL"};
const Names kDmaStrideMode{"DMA_STRIDE_MODE_D1", "DMA_STRIDE_MODE_D2", "DMA_STRIDE_MODE_D3"};
const Names kBroadcastMode{"BROADCAST_MODE_DISABLE", "BROADCAST_MODE_ENABLE"};
const Names kOperandOrder{"IFM2_OPERAND_ORDER_ORDER_B", "IFM2_OPERAND_ORDER_ORDER_A"};

// One field of a command: `width` bits from bit `lsb` of the command as a 64-bit value (bits
// 16-31 the param, 32-63 a cmd1's payload), printed in decimal, as an address (payload plus 8
// high bits from the param, in hex) or by name.
struct Field {
  std::string_view name;
  int lsb = 16;
  int width = 16;
  const Names* names = nullptr;
  bool address = false;
};

Field dec(std::string_view name, int lsb, int width) { return {name, lsb, width, nullptr, false}; }
Field named(std::string_view name, int lsb, int width, const Names& names) { return {name, lsb, width, &names, false}; }
Field address() { return {"addr", 0, 0, nullptr, true}; }

// The Ethos-U55/U65 register interface's fields of every command the listing decodes.
const std::map<CommandId, std::vector<Field>>& fieldTable() {
  using C = CommandId;
  static const std::map<CommandId, std::vector<Field>> table = [] {
    std::map<CommandId, std::vector<Field>> t;
    const auto precision = [](int precisionLsb, bool scaled, const Names* scaleNames, int scaleWidth) {
      std::vector<Field> f{named("activation_type", 16, 1, kActivationType),
                           named("activation_precision", precisionLsb, 2, kActivationPrecision),
                           named("activation_format", 22, 2, kActivationFormat)};
      if (scaled) {
        f.push_back(named("scale_mode", 24, scaleWidth, *scaleNames));
        f.push_back(named("round_mode", 30, 2, kRoundMode));
      }
      return f;
    };
    t[C::OpStop] = {dec("mask", 16, 16)};
    t[C::OpIrq] = {dec("mask", 16, 16)};
    t[C::OpPool] = {named("pooling_mode", 16, 3, kPoolingMode)};
    t[C::OpElementwise] = {named("elementwise_mode", 16, 6, kElementwiseMode)};
    t[C::OpDmaWait] = {dec("k", 16, 1)};
    t[C::OpKernelWait] = {dec("n", 16, 2)};
    t[C::OpPmuMask] = {dec("enable", 16, 1)};
    t[C::IfmPadTop] = {dec("pad", 16, 7)};
    t[C::IfmPadLeft] = {dec("pad", 16, 7)};
    t[C::IfmPadRight] = {dec("pad", 16, 8)};
    t[C::IfmPadBottom] = {dec("pad", 16, 8)};
    t[C::IfmPrecision] = precision(18, true, &kIfmScaleMode, 2);
    t[C::OfmPrecision] = precision(17, true, &kOfmScaleMode, 1);
    t[C::Ifm2Precision] = precision(18, false, nullptr, 0);
    t[C::IfmUpscale] = {named("mode", 16, 2, kUpscaleMode)};
    for (C c : {C::IfmZeroPoint, C::OfmZeroPoint, C::Ifm2ZeroPoint}) t[c] = {dec("zero_point", 16, 16)};
    for (C c : {C::IfmDepthM1, C::OfmDepthM1}) t[c] = {dec("depth_m1", 16, 16)};
    for (C c : {C::IfmWidth0M1, C::OfmWidthM1, C::OfmWidth0M1, C::KernelWidthM1, C::Ifm2Width0M1}) {
      t[c] = {dec("width_m1", 16, 16)};
    }
    for (C c : {C::IfmHeight0M1, C::IfmHeight1M1, C::OfmHeightM1, C::OfmHeight0M1, C::OfmHeight1M1,
                C::KernelHeightM1, C::Ifm2Height0M1, C::Ifm2Height1M1}) {
      t[c] = {dec("height_m1", 16, 16)};
    }
    t[C::OfmBlkWidthM1] = {dec("width_m1", 16, 6)};
    t[C::OfmBlkHeightM1] = {dec("height_m1", 16, 5)};
    t[C::OfmBlkDepthM1] = {dec("depth_m1", 16, 7)};
    t[C::IfmIbEnd] = {dec("ib_end", 16, 6)};
    t[C::Ifm2IbStart] = {dec("ib_start", 16, 6)};
    t[C::AbStart] = {dec("ab_start", 16, 6)};
    for (C c : {C::IfmRegion, C::OfmRegion, C::WeightRegion, C::ScaleRegion, C::Ifm2Region}) t[c] = {dec("region", 16, 3)};
    t[C::KernelStride] = {dec("stride_x_lsb", 16, 1),
                          dec("stride_y_lsb", 17, 1),
                          named("weight_order", 18, 1, kWeightOrder),
                          named("dilation_x", 19, 1, kKernelDilation),
                          named("dilation_y", 20, 1, kKernelDilation),
                          named("decomposition", 21, 1, kKernelDecomposition),
                          dec("stride_x_msb", 22, 1),
                          dec("stride_y_msb", 25, 1)};
    t[C::ParallelMode] = {named("parallel_mode", 16, 1, kParallelMode)};
    t[C::AccFormat] = {named("acc_format", 16, 2, kAccFormat)};
    t[C::Activation] = {named("activation_function", 16, 5, kActivationFunction),
                        named("activation_clip_range", 28, 3, kClipRange)};
    for (C c : {C::ActivationMin, C::ActivationMax}) t[c] = {dec("clip_boundary", 16, 16)};
    t[C::Blockdep] = {dec("blockdep", 16, 2)};
    for (C c : {C::Dma0SrcRegion, C::Dma0DstRegion}) {
      t[c] = {dec("region", 16, 3), named("region_mode", 24, 1, kDmaRegionMode), named("stride_mode", 25, 2, kDmaStrideMode)};
    }
    for (C c : {C::Dma0Size0, C::Dma0Size1}) t[c] = {dec("size", 16, 16)};
    t[C::Ifm2Broadcast] = {named("broadcast_h", 16, 1, kBroadcastMode), named("broadcast_w", 17, 1, kBroadcastMode),
                           named("broadcast_c", 18, 1, kBroadcastMode), named("operand_order", 22, 1, kOperandOrder),
                           named("broadcast_constant", 23, 1, kBroadcastMode)};
    t[C::Ifm2Scalar] = {dec("scalar", 16, 16)};
    for (C c : {C::IfmBase0, C::IfmBase1, C::IfmBase2, C::IfmBase3, C::IfmStrideX, C::IfmStrideY, C::IfmStrideC,
                C::OfmBase0, C::OfmBase1, C::OfmBase2, C::OfmBase3, C::OfmStrideX, C::OfmStrideY, C::OfmStrideC,
                C::WeightBase, C::ScaleBase, C::Dma0Src, C::Dma0Dst, C::Dma0Len, C::Dma0Skip0, C::Dma0Skip1,
                C::Ifm2Base0, C::Ifm2Base1, C::Ifm2Base2, C::Ifm2Base3, C::Ifm2StrideX, C::Ifm2StrideY,
                C::Ifm2StrideC, C::Weight1Base, C::Scale1Base}) {
      t[c] = {address()};
    }
    for (C c : {C::WeightLength, C::Weight1Length}) t[c] = {dec("length", 32, 32)};
    for (C c : {C::ScaleLength, C::Scale1Length}) t[c] = {dec("length", 32, 20)};
    for (C c : {C::OfmScale, C::OpaScale}) t[c] = {dec("shift", 16, 6), dec("scale", 32, 32)};
    t[C::OpbScale] = {dec("scale", 32, 16)};
    return t;
  }();
  return table;
}

std::string fieldText(const Field& f, uint64_t word) {
  if (f.address) {
    std::ostringstream s;
    s << "0x" << std::hex << (((word >> 16) & 0xff) << 32 | (word >> 32));
    return s.str();
  }
  const uint64_t value = (word >> f.lsb) & ((uint64_t{1} << f.width) - 1);
  if (f.names == nullptr) {
    return std::to_string(value);
  }
  return value < f.names->size() ? std::string((*f.names)[value]) : "****";
}

} // namespace

std::string vela5Line(const cmd::Command& c) {
  char head[128];
  if (c.hasPayload()) {
    std::snprintf(head, sizeof head, "0x%06x: %08x %04x %04x - %-30s %5u", c.offset, c.payload, c.param, c.key,
                  std::string(c.info->name).c_str(), c.param);
  } else {
    std::snprintf(head, sizeof head, "0x%06x:          %04x %04x - %-30s %5u", c.offset, c.param, c.key,
                  std::string(c.info->name).c_str(), c.param);
  }
  std::string line = head;
  const uint64_t word = uint64_t{c.key} | uint64_t{c.param} << 16 | uint64_t{c.payload} << 32;
  const auto& table = fieldTable();
  if (const auto it = table.find(c.id()); it != table.end()) {
    for (const Field& f : it->second) {
      line += ", " + std::string(f.name) + " = " + fieldText(f, word);
    }
  }
  return line;
}

void writeVela5Listing(std::ostream& os, const std::vector<cmd::Command>& commands, uint32_t streamBytes) {
  os << "Register command stream: " << streamBytes / 4 << " words\n";
  os << "  Offset: Payload Param Code - Command                        Param, Fields\n";
  for (const cmd::Command& c : commands) {
    os << vela5Line(c) << '\n';
  }
}

} // namespace npusim::report
