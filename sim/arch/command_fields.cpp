// SPDX-License-Identifier: Apache-2.0
#include "sim/arch/command_fields.h"

#include <initializer_list>
#include <string_view>
#include <vector>

namespace npusim::arch {

namespace {

using C = CommandId;
using K = CommandField::Kind;
// Value names of an enumerated field, indexed by value ("****": no name).
using Names = std::vector<std::string_view>;

CommandField dec(std::string_view name, uint8_t lsb, uint8_t width) { return {name, lsb, width, K::Unsigned, nullptr}; }
CommandField named(std::string_view name, uint8_t lsb, uint8_t width, const Names& names) {
  return {name, lsb, width, K::Named, &names};
}
CommandField address() { return {"addr", 0, 0, K::Address, nullptr}; }

// Enumerations both generations name alike.
const Names kActivationType{"ACTIVATION_TYPE_UNSIGNED", "ACTIVATION_TYPE_SIGNED"};
const Names kActivationPrecision{"ACTIVATION_PRECISION_B8", "ACTIVATION_PRECISION_B16", "ACTIVATION_PRECISION_B32",
                                 "ACTIVATION_PRECISION_B64"};
const Names kActivationFormat{"ACTIVATION_FORMAT_NHWC", "ACTIVATION_FORMAT_NHCWB16"};
const Names kOfmScaleMode{"OFM_SCALE_MODE_PER_CHANNEL", "OFM_SCALE_MODE_GLOBAL"};
const Names kUpscaleMode{"IFM_UPSCALE_MODE_NONE", "IFM_UPSCALE_MODE_NEAREST", "IFM_UPSCALE_MODE_ZEROS"};
const Names kWeightOrder{"WEIGHT_ORDER_DEPTH_FIRST", "WEIGHT_ORDER_PART_KERNEL_FIRST"};
const Names kKernelDilation{"KERNEL_DILATION_NONE", "KERNEL_DILATION_X2"};
const Names kKernelDecomposition{"KERNEL_DECOMPOSITION_D8X8", "KERNEL_DECOMPOSITION_D4X4"};
const Names kDmaRegionMode{"DMA_REGION_MODE_EXTERNAL", "DMA_REGION_MODE_INTERNAL"};
const Names kDmaStrideMode{"DMA_STRIDE_MODE_D1", "DMA_STRIDE_MODE_D2", "DMA_STRIDE_MODE_D3"};

// Architecture 1.x only.
const Names kIfmScaleMode{"IFM_SCALE_MODE_OPA_OPB_16", "IFM_SCALE_MODE_OPA_32", "IFM_SCALE_MODE_OPB_32"};
const Names kRoundMode{"ROUND_MODE_DBL", "ROUND_MODE_TRUNCATE", "ROUND_MODE_NATURAL"};
const Names kPoolingModeU55{"POOLING_MODE_MAX", "POOLING_MODE_AVERAGE", "POOLING_MODE_REDUCE_SUM"};
const Names kElementwiseModeU55{"ELEMENTWISE_MODE_MUL", "ELEMENTWISE_MODE_ADD", "ELEMENTWISE_MODE_SUB",
                                "ELEMENTWISE_MODE_MIN", "ELEMENTWISE_MODE_MAX", "ELEMENTWISE_MODE_LRELU",
                                "ELEMENTWISE_MODE_ABS", "ELEMENTWISE_MODE_CLZ", "ELEMENTWISE_MODE_SHR",
                                "ELEMENTWISE_MODE_SHL"};
const Names kParallelMode{"PARALLEL_MODE_SINGLE_CORE", "PARALLEL_MODE_DUAL_CORE_DEPTH"};
const Names kAccFormatU55{"ACC_FORMAT_I32", "ACC_FORMAT_I40", "ACC_FORMAT_F16"};
const Names kActivationFunctionU55{
    "ACTIVATION_FUNCTION_RELU",    "****",                        "****",
    "ACTIVATION_FUNCTION_TANH",    "ACTIVATION_FUNCTION_SIGMOID", "****",
    "****",                        "****",                        "****",
    "****",                        "****",                        "****",
    "****",                        "****",                        "****",
    "****",                        "ACTIVATION_FUNCTION_TABLE_0", "ACTIVATION_FUNCTION_TABLE_1",
    "ACTIVATION_FUNCTION_TABLE_2", "ACTIVATION_FUNCTION_TABLE_3", "ACTIVATION_FUNCTION_TABLE_4",
    "ACTIVATION_FUNCTION_TABLE_5", "ACTIVATION_FUNCTION_TABLE_6", "ACTIVATION_FUNCTION_TABLE_7"};
const Names kClipRangeU55{"ACTIVATION_CLIP_RANGE_OFM_PRECISION", "****", "ACTIVATION_CLIP_RANGE_FORCE_UINT8",
                          "ACTIVATION_CLIP_RANGE_FORCE_INT8", "****", "ACTIVATION_CLIP_RANGE_FORCE_INT16"};
const Names kBroadcastFlag{"BROADCAST_MODE_DISABLE", "BROADCAST_MODE_ENABLE"};
const Names kOperandOrder{"IFM2_OPERAND_ORDER_ORDER_B", "IFM2_OPERAND_ORDER_ORDER_A"};

// Architecture 2.x only (ethos-u85.md 3.2-3.4).
const Names kActivationStorage{"ACTIVATION_STORAGE_TILE2X2", "ACTIVATION_STORAGE_TILE3X1",
                               "ACTIVATION_STORAGE_CHAINED", "ACTIVATION_STORAGE_NONE"};
const Names kActivationReverse{"ACTIVATION_REVERSE_NONE", "ACTIVATION_REVERSE_H", "ACTIVATION_REVERSE_W",
                               "ACTIVATION_REVERSE_C"};
const Names kActivationTranspose{"ACTIVATION_TRANSPOSE_HWC", "ACTIVATION_TRANSPOSE_WHC", "ACTIVATION_TRANSPOSE_HCW",
                                 "ACTIVATION_TRANSPOSE_WCH", "****",                     "****",
                                 "ACTIVATION_TRANSPOSE_CHW", "ACTIVATION_TRANSPOSE_CWH"};
const Names kBroadcastMode{"BROADCAST_MODE_NONE", "BROADCAST_MODE_H",   "BROADCAST_MODE_W",
                           "BROADCAST_MODE_HW",   "BROADCAST_MODE_C",   "BROADCAST_MODE_CH",
                           "BROADCAST_MODE_CW",   "BROADCAST_MODE_CWH", "BROADCAST_MODE_SCALAR"};
const Names kPoolingModeU85{"POOLING_MODE_MAX", "POOLING_MODE_AVERAGE", "POOLING_MODE_REDUCE_SUM",
                            "POOLING_MODE_SUM", "POOLING_MODE_NONE",    "POOLING_MODE_MIN",
                            "POOLING_MODE_ARGMAX_X", "POOLING_MODE_ARGMAX_Y"};
const Names kElementwiseModeU85 = [] {
  Names n(43, "****");
  const std::initializer_list<std::pair<size_t, std::string_view>> modes{
      {0, "ELEMENTWISE_MODE_MUL"},     {1, "ELEMENTWISE_MODE_ADD"},     {2, "ELEMENTWISE_MODE_SUB"},
      {3, "ELEMENTWISE_MODE_MIN"},     {4, "ELEMENTWISE_MODE_MAX"},     {5, "ELEMENTWISE_MODE_LRELU"},
      {6, "ELEMENTWISE_MODE_ABS"},     {7, "ELEMENTWISE_MODE_CLZ"},     {8, "ELEMENTWISE_MODE_SHR"},
      {9, "ELEMENTWISE_MODE_SHL"},     {10, "ELEMENTWISE_MODE_LSR"},    {11, "ELEMENTWISE_MODE_DIV"},
      {16, "ELEMENTWISE_MODE_CMP_EQ"}, {17, "ELEMENTWISE_MODE_CMP_NE"}, {18, "ELEMENTWISE_MODE_CMP_GE"},
      {19, "ELEMENTWISE_MODE_CMP_GT"}, {33, "ELEMENTWISE_MODE_AND"},    {34, "ELEMENTWISE_MODE_OR"},
      {35, "ELEMENTWISE_MODE_XOR"},    {36, "ELEMENTWISE_MODE_NOT"},    {42, "ELEMENTWISE_MODE_AND_NOT"}};
  for (const auto& [value, name] : modes) n[value] = name;
  return n;
}();
const Names kResizeMode{"RESIZE_MODE_BILINEAR", "RESIZE_MODE_REPLICATE", "RESIZE_MODE_NEAREST"};
const Names kAccFormatU85{"ACC_FORMAT_I32", "ACC_FORMAT_I48"};
const Names kAccInput{"ACC_INPUT_RESET", "ACC_INPUT_KEEP", "ACC_INPUT_IFM2"};
const Names kAccOutput{"ACC_OUTPUT_ENABLE", "ACC_OUTPUT_DISABLE"};
const Names kMicroblock{"MICROBLOCK_U1X1", "MICROBLOCK_U1X2", "MICROBLOCK_U1X4",
                        "MICROBLOCK_U2X2", "MICROBLOCK_U2X4", "MICROBLOCK_U4X4"};
const Names kActivationFunctionU85{
    "ACTIVATION_FUNCTION_LUT_NONE",    "ACTIVATION_FUNCTION_LUT_U8_U8",   "****",
    "****",                            "ACTIVATION_FUNCTION_LUT_S8_S8",   "ACTIVATION_FUNCTION_LUT_S8_S16",
    "****",                            "ACTIVATION_FUNCTION_LUT_S8_S32",  "ACTIVATION_FUNCTION_LUT_S16_S16",
    "ACTIVATION_FUNCTION_LUT_S16_S32", "ACTIVATION_FUNCTION_LUT_TANH",    "ACTIVATION_FUNCTION_LUT_SIGMOID"};
const Names kClipRangeU85{"ACTIVATION_CLIP_RANGE_B16", "ACTIVATION_CLIP_RANGE_NONE"};
const Names kWeightFormat{"WEIGHT_FORMAT_SWD", "WEIGHT_FORMAT_FWD"};
const Names kWeightSparsity{"WEIGHT_SPARSITY_NONE", "WEIGHT_SPARSITY_SPARSE_2_4"};
const Names kDmaIndexMode{"DMA_IDX_MODE_DISABLED", "DMA_IDX_MODE_ENABLED"};
const Names kRoundModeOfm{"ROUND_MODE_OFM_DOUBLE_SYMMETRIC", "ROUND_MODE_OFM_NATURAL",
                          "ROUND_MODE_OFM_DOUBLE_ASYMMETRIC", "ROUND_MODE_OFM_SYMMETRIC",
                          "ROUND_MODE_OFM_TRUNCATE_TO_ZERO", "ROUND_MODE_OFM_TRUNCATE_TO_LOWER"};
const Names kRoundModeIfm{"ROUND_MODE_IFM_DOUBLE_SYMMETRIC", "ROUND_MODE_IFM_NATURAL"};
const Names kBranchCondition{"BRANCH_COND_ALWAYS", "BRANCH_COND_RF_TRUE"};

// The fields both generations' interfaces share (same bits, same names).
void addShared(std::map<CommandId, FieldList>& t) {
  t[C::OpStop] = {dec("mask", 16, 16)};
  t[C::OpIrq] = {dec("mask", 16, 16)};
  t[C::OpPmuMask] = {dec("enable", 16, 1)};
  t[C::IfmPadTop] = {dec("pad", 16, 7)};
  t[C::IfmPadLeft] = {dec("pad", 16, 7)};
  t[C::IfmPadRight] = {dec("pad", 16, 8)};
  t[C::IfmPadBottom] = {dec("pad", 16, 8)};
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
  for (C c : {C::IfmRegion, C::OfmRegion, C::WeightRegion, C::ScaleRegion, C::Ifm2Region}) t[c] = {dec("region", 16, 3)};
  t[C::KernelStride] = {dec("stride_x_lsb", 16, 1),
                        dec("stride_y_lsb", 17, 1),
                        named("weight_order", 18, 1, kWeightOrder),
                        named("dilation_x", 19, 1, kKernelDilation),
                        named("dilation_y", 20, 1, kKernelDilation),
                        named("decomposition", 21, 1, kKernelDecomposition),
                        dec("stride_x_msb", 22, 1),
                        dec("stride_y_msb", 25, 1)};
  for (C c : {C::ActivationMin, C::ActivationMax}) t[c] = {dec("clip_boundary", 16, 16)};
  for (C c : {C::Dma0Size0, C::Dma0Size1}) t[c] = {dec("size", 16, 16)};
  for (C c : {C::IfmBase0, C::IfmBase1, C::IfmBase2, C::IfmBase3, C::IfmStrideX, C::IfmStrideY, C::IfmStrideC,
              C::OfmBase0, C::OfmBase1, C::OfmBase2, C::OfmBase3, C::OfmStrideX, C::OfmStrideY, C::OfmStrideC,
              C::WeightBase, C::ScaleBase, C::Dma0Src, C::Dma0Dst, C::Dma0Len, C::Ifm2Base0, C::Ifm2Base1,
              C::Ifm2Base2, C::Ifm2Base3, C::Ifm2StrideX, C::Ifm2StrideY, C::Ifm2StrideC, C::Weight1Base}) {
    t[c] = {address()};
  }
  for (C c : {C::WeightLength, C::Weight1Length}) t[c] = {dec("length", 32, 32)};
  t[C::ScaleLength] = {dec("length", 32, 20)};
}

} // namespace

std::map<CommandId, FieldList> ethosU55CommandFields() {
  std::map<CommandId, FieldList> t;
  addShared(t);
  const auto precision = [](uint8_t precisionLsb, const Names* scaleNames, uint8_t scaleWidth) {
    FieldList f{named("activation_type", 16, 1, kActivationType),
                named("activation_precision", precisionLsb, 2, kActivationPrecision),
                named("activation_format", 22, 2, kActivationFormat)};
    if (scaleNames != nullptr) {
      f.push_back(named("scale_mode", 24, scaleWidth, *scaleNames));
      f.push_back(named("round_mode", 30, 2, kRoundMode));
    }
    return f;
  };
  t[C::OpPool] = {named("pooling_mode", 16, 3, kPoolingModeU55)};
  t[C::OpElementwise] = {named("elementwise_mode", 16, 6, kElementwiseModeU55)};
  t[C::OpDmaWait] = {dec("k", 16, 1)};
  t[C::OpKernelWait] = {dec("n", 16, 2)};
  t[C::IfmPrecision] = precision(18, &kIfmScaleMode, 2);
  t[C::OfmPrecision] = precision(17, &kOfmScaleMode, 1);
  t[C::Ifm2Precision] = precision(18, nullptr, 0);
  t[C::OfmBlkWidthM1] = {dec("width_m1", 16, 6)};
  t[C::OfmBlkHeightM1] = {dec("height_m1", 16, 5)};
  t[C::OfmBlkDepthM1] = {dec("depth_m1", 16, 7)};
  t[C::IfmIbEnd] = {dec("ib_end", 16, 6)};
  t[C::Ifm2IbStart] = {dec("ib_start", 16, 6)};
  t[C::AbStart] = {dec("ab_start", 16, 6)};
  t[C::ParallelMode] = {named("parallel_mode", 16, 1, kParallelMode)};
  t[C::AccFormat] = {named("acc_format", 16, 2, kAccFormatU55)};
  t[C::Activation] = {named("activation_function", 16, 5, kActivationFunctionU55),
                      named("activation_clip_range", 28, 3, kClipRangeU55)};
  t[C::Blockdep] = {dec("blockdep", 16, 2)};
  for (C c : {C::Dma0SrcRegion, C::Dma0DstRegion}) {
    t[c] = {dec("region", 16, 3), named("region_mode", 24, 1, kDmaRegionMode), named("stride_mode", 25, 2, kDmaStrideMode)};
  }
  t[C::Ifm2Broadcast] = {named("broadcast_h", 16, 1, kBroadcastFlag), named("broadcast_w", 17, 1, kBroadcastFlag),
                         named("broadcast_c", 18, 1, kBroadcastFlag), named("operand_order", 22, 1, kOperandOrder),
                         named("broadcast_constant", 23, 1, kBroadcastFlag)};
  t[C::Ifm2Scalar] = {dec("scalar", 16, 16)};
  for (C c : {C::Dma0Skip0, C::Dma0Skip1, C::Scale1Base}) t[c] = {address()};
  t[C::Scale1Length] = {dec("length", 32, 20)};
  for (C c : {C::OfmScale, C::OpaScale}) t[c] = {dec("shift", 16, 6), dec("scale", 32, 32)};
  t[C::OpbScale] = {dec("scale", 32, 16)};
  return t;
}

std::map<CommandId, FieldList> ethosU85CommandFields() {
  std::map<CommandId, FieldList> t;
  addShared(t);
  const auto precision = [](uint8_t precisionLsb, bool ofm) {
    FieldList f{named("activation_type", 16, 1, kActivationType),
                named("activation_precision", precisionLsb, 2, kActivationPrecision),
                named("activation_format", 22, 2, kActivationFormat)};
    if (ofm) {
      f.push_back(named("scale_mode", 24, 1, kOfmScaleMode));
      f.push_back(named("activation_reverse", 25, 2, kActivationReverse));
      f.push_back(named("activation_transpose", 27, 3, kActivationTranspose));
    }
    f.push_back(named("activation_storage", 30, 2, kActivationStorage));
    return f;
  };
  const auto scale = [](const Names& rounding, uint8_t roundingWidth) {
    return FieldList{dec("shift", 16, 6), dec("dbl_rnd", 22, 5), named("round_mode", 29, roundingWidth, rounding),
                     dec("scale", 32, 31)};
  };
  const auto step = [] {
    return FieldList{dec("one_step_int", 16, 4), dec("blk_step_int", 20, 11), dec("one_step_mod", 32, 11),
                     dec("blk_step_mod", 48, 11)};
  };
  t[C::OpConv] = {dec("weights_ifm2", 16, 1)};
  t[C::OpPool] = {named("pooling_mode", 16, 3, kPoolingModeU85)};
  t[C::OpElementwise] = {named("elementwise_mode", 16, 6, kElementwiseModeU85)};
  t[C::OpResize] = {named("resize_mode", 16, 2, kResizeMode)};
  t[C::OpDmaWait] = {dec("k", 16, 2)};
  t[C::OpKernelWait] = {dec("n", 16, 1)};
  t[C::OpBranch] = {named("branch_cond", 16, 1, kBranchCondition), dec("branch_target", 32, 32)};
  t[C::IfmPrecision] = precision(18, false);
  t[C::Ifm2Precision] = precision(18, false);
  t[C::OfmPrecision] = precision(17, true);
  for (C c : {C::IfmBroadcast, C::Ifm2Broadcast}) t[c] = {named("broadcast_mode", 16, 4, kBroadcastMode)};
  t[C::OfmBlkWidthM1] = {dec("width_m1", 16, 7)};
  t[C::OfmBlkHeightM1] = {dec("height_m1", 16, 7)};
  t[C::OfmBlkDepthM1] = {dec("depth_m1", 16, 10)};
  t[C::AccFormat] = {named("acc_format", 16, 2, kAccFormatU85), named("acc_input", 20, 2, kAccInput),
                     named("acc_output", 22, 1, kAccOutput), named("microblock", 24, 3, kMicroblock)};
  t[C::Activation] = {named("activation_function", 16, 5, kActivationFunctionU85), dec("table", 21, 3),
                      named("activation_clip_range", 28, 1, kClipRangeU85)};
  t[C::WeightFormat] = {named("weight_format", 16, 1, kWeightFormat), named("weight_sparsity", 20, 1, kWeightSparsity)};
  t[C::Blockdep] = {dec("blockdep", 16, 3)};
  t[C::ResizeXScaleNM1] = {dec("resize_x_scale_n_m1", 16, 11)};
  t[C::ResizeYScaleNM1] = {dec("resize_y_scale_n_m1", 16, 11)};
  t[C::ResizeXOffset] = {{"resize_x_offset", 16, 12, K::Signed, nullptr}};
  t[C::ResizeYOffset] = {{"resize_y_offset", 16, 12, K::Signed, nullptr}};
  t[C::Dma0SrcRegion] = {dec("region", 16, 3), named("region_mode", 24, 1, kDmaRegionMode),
                         named("stride_mode", 25, 2, kDmaStrideMode), named("idx_mode", 27, 1, kDmaIndexMode)};
  t[C::Dma0DstRegion] = {dec("region", 16, 3), named("region_mode", 24, 1, kDmaRegionMode),
                         named("idx_mode", 27, 1, kDmaIndexMode)};
  t[C::Dma0IdxRegion] = {dec("region", 16, 3)};
  t[C::OfmScale] = scale(kRoundModeOfm, 3);
  t[C::OpaScale] = scale(kRoundModeIfm, 1);
  t[C::OpbScale] = scale(kRoundModeIfm, 1);
  // The interface declares the scalar signed; see CommandField::Kind::Signed's 32-bit rule.
  t[C::OpScalar] = {{"scalar", 32, 32, K::Signed, nullptr}};
  for (C c : {C::Dma0SrcStride0, C::Dma0SrcStride1, C::Dma0DstStride0, C::Dma0DstStride1, C::Dma0Idx, C::Dma0IdxSkip1,
              C::Weight2Base, C::Weight3Base}) {
    t[c] = {address()};
  }
  t[C::Dma0IdxMax] = {dec("idx_max", 32, 31)};
  for (C c : {C::Weight2Length, C::Weight3Length}) t[c] = {dec("length", 32, 32)};
  t[C::ResizeXStep] = step();
  t[C::ResizeYStep] = step();
  return t;
}

} // namespace npusim::arch
