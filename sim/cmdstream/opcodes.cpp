// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/opcodes.h"

#include <algorithm>
#include <iterator>

namespace npusim::cmd {
namespace {

// Sorted by key. Register offsets follow the 1.1.0 register map: cmd0 0x100+n -> 0x800+4n,
// 0x180+n -> 0x900+4n; cmd1 opcode groups of 16 -> 64-byte groups from 0xA00 (0x80.. -> 0xB00).
constexpr CommandInfo kCommands[] = {
    {CommandCode::OpStop, "NPU_OP_STOP", true, 0x000},
    {CommandCode::OpIrq, "NPU_OP_IRQ", true, 0x000},
    {CommandCode::OpConv, "NPU_OP_CONV", true, 0x000},
    {CommandCode::OpDepthwise, "NPU_OP_DEPTHWISE", true, 0x000},
    {CommandCode::OpPool, "NPU_OP_POOL", true, 0x000},
    {CommandCode::OpElementwise, "NPU_OP_ELEMENTWISE", true, 0x000},
    {CommandCode::OpDmaStart, "NPU_OP_DMA_START", true, 0x000},
    {CommandCode::OpDmaWait, "NPU_OP_DMA_WAIT", true, 0x000},
    {CommandCode::OpKernelWait, "NPU_OP_KERNEL_WAIT", true, 0x000},
    {CommandCode::OpPmuMask, "NPU_OP_PMU_MASK", true, 0x000},
    {CommandCode::IfmPadTop, "NPU_SET_IFM_PAD_TOP", false, 0x800},
    {CommandCode::IfmPadLeft, "NPU_SET_IFM_PAD_LEFT", false, 0x804},
    {CommandCode::IfmPadRight, "NPU_SET_IFM_PAD_RIGHT", false, 0x808},
    {CommandCode::IfmPadBottom, "NPU_SET_IFM_PAD_BOTTOM", false, 0x80C},
    {CommandCode::IfmDepthM1, "NPU_SET_IFM_DEPTH_M1", false, 0x810},
    {CommandCode::IfmPrecision, "NPU_SET_IFM_PRECISION", false, 0x814},
    {CommandCode::IfmUpscale, "NPU_SET_IFM_UPSCALE", false, 0x81C},
    {CommandCode::IfmZeroPoint, "NPU_SET_IFM_ZERO_POINT", false, 0x824},
    {CommandCode::IfmWidth0M1, "NPU_SET_IFM_WIDTH0_M1", false, 0x828},
    {CommandCode::IfmHeight0M1, "NPU_SET_IFM_HEIGHT0_M1", false, 0x82C},
    {CommandCode::IfmHeight1M1, "NPU_SET_IFM_HEIGHT1_M1", false, 0x830},
    {CommandCode::IfmIbEnd, "NPU_SET_IFM_IB_END", false, 0x834},
    {CommandCode::IfmRegion, "NPU_SET_IFM_REGION", false, 0x83C},
    {CommandCode::OfmWidthM1, "NPU_SET_OFM_WIDTH_M1", false, 0x844},
    {CommandCode::OfmHeightM1, "NPU_SET_OFM_HEIGHT_M1", false, 0x848},
    {CommandCode::OfmDepthM1, "NPU_SET_OFM_DEPTH_M1", false, 0x84C},
    {CommandCode::OfmPrecision, "NPU_SET_OFM_PRECISION", false, 0x850},
    {CommandCode::OfmBlkWidthM1, "NPU_SET_OFM_BLK_WIDTH_M1", false, 0x854},
    {CommandCode::OfmBlkHeightM1, "NPU_SET_OFM_BLK_HEIGHT_M1", false, 0x858},
    {CommandCode::OfmBlkDepthM1, "NPU_SET_OFM_BLK_DEPTH_M1", false, 0x85C},
    {CommandCode::OfmZeroPoint, "NPU_SET_OFM_ZERO_POINT", false, 0x860},
    {CommandCode::OfmWidth0M1, "NPU_SET_OFM_WIDTH0_M1", false, 0x868},
    {CommandCode::OfmHeight0M1, "NPU_SET_OFM_HEIGHT0_M1", false, 0x86C},
    {CommandCode::OfmHeight1M1, "NPU_SET_OFM_HEIGHT1_M1", false, 0x870},
    {CommandCode::OfmRegion, "NPU_SET_OFM_REGION", false, 0x87C},
    {CommandCode::KernelWidthM1, "NPU_SET_KERNEL_WIDTH_M1", false, 0x880},
    {CommandCode::KernelHeightM1, "NPU_SET_KERNEL_HEIGHT_M1", false, 0x884},
    {CommandCode::KernelStride, "NPU_SET_KERNEL_STRIDE", false, 0x888},
    {CommandCode::ParallelMode, "NPU_SET_PARALLEL_MODE", false, 0x88C},
    {CommandCode::AccFormat, "NPU_SET_ACC_FORMAT", false, 0x890},
    {CommandCode::Activation, "NPU_SET_ACTIVATION", false, 0x894},
    {CommandCode::ActivationMin, "NPU_SET_ACTIVATION_MIN", false, 0x898},
    {CommandCode::ActivationMax, "NPU_SET_ACTIVATION_MAX", false, 0x89C},
    {CommandCode::WeightRegion, "NPU_SET_WEIGHT_REGION", false, 0x8A0},
    {CommandCode::ScaleRegion, "NPU_SET_SCALE_REGION", false, 0x8A4},
    {CommandCode::AbStart, "NPU_SET_AB_START", false, 0x8B4},
    {CommandCode::Blockdep, "NPU_SET_BLOCKDEP", false, 0x8BC},
    {CommandCode::Dma0SrcRegion, "NPU_SET_DMA0_SRC_REGION", false, 0x8C0},
    {CommandCode::Dma0DstRegion, "NPU_SET_DMA0_DST_REGION", false, 0x8C4},
    {CommandCode::Dma0Size0, "NPU_SET_DMA0_SIZE0", false, 0x8C8},
    {CommandCode::Dma0Size1, "NPU_SET_DMA0_SIZE1", false, 0x8CC},
    {CommandCode::Ifm2Broadcast, "NPU_SET_IFM2_BROADCAST", false, 0x900},
    {CommandCode::Ifm2Scalar, "NPU_SET_IFM2_SCALAR", false, 0x904},
    {CommandCode::Ifm2Precision, "NPU_SET_IFM2_PRECISION", false, 0x914},
    {CommandCode::Ifm2ZeroPoint, "NPU_SET_IFM2_ZERO_POINT", false, 0x924},
    {CommandCode::Ifm2Width0M1, "NPU_SET_IFM2_WIDTH0_M1", false, 0x928},
    {CommandCode::Ifm2Height0M1, "NPU_SET_IFM2_HEIGHT0_M1", false, 0x92C},
    {CommandCode::Ifm2Height1M1, "NPU_SET_IFM2_HEIGHT1_M1", false, 0x930},
    {CommandCode::Ifm2IbStart, "NPU_SET_IFM2_IB_START", false, 0x934},
    {CommandCode::Ifm2Region, "NPU_SET_IFM2_REGION", false, 0x93C},
    {CommandCode::IfmBase0, "NPU_SET_IFM_BASE0", false, 0xA00},
    {CommandCode::IfmBase1, "NPU_SET_IFM_BASE1", false, 0xA08},
    {CommandCode::IfmBase2, "NPU_SET_IFM_BASE2", false, 0xA10},
    {CommandCode::IfmBase3, "NPU_SET_IFM_BASE3", false, 0xA18},
    {CommandCode::IfmStrideX, "NPU_SET_IFM_STRIDE_X", false, 0xA20},
    {CommandCode::IfmStrideY, "NPU_SET_IFM_STRIDE_Y", false, 0xA28},
    {CommandCode::IfmStrideC, "NPU_SET_IFM_STRIDE_C", false, 0xA30},
    {CommandCode::OfmBase0, "NPU_SET_OFM_BASE0", false, 0xA40},
    {CommandCode::OfmBase1, "NPU_SET_OFM_BASE1", false, 0xA48},
    {CommandCode::OfmBase2, "NPU_SET_OFM_BASE2", false, 0xA50},
    {CommandCode::OfmBase3, "NPU_SET_OFM_BASE3", false, 0xA58},
    {CommandCode::OfmStrideX, "NPU_SET_OFM_STRIDE_X", false, 0xA60},
    {CommandCode::OfmStrideY, "NPU_SET_OFM_STRIDE_Y", false, 0xA68},
    {CommandCode::OfmStrideC, "NPU_SET_OFM_STRIDE_C", false, 0xA70},
    {CommandCode::WeightBase, "NPU_SET_WEIGHT_BASE", false, 0xA80},
    {CommandCode::WeightLength, "NPU_SET_WEIGHT_LENGTH", false, 0xA88},
    {CommandCode::ScaleBase, "NPU_SET_SCALE_BASE", false, 0xA90},
    {CommandCode::ScaleLength, "NPU_SET_SCALE_LENGTH", false, 0xA98},
    {CommandCode::OfmScale, "NPU_SET_OFM_SCALE", false, 0xAA0},
    {CommandCode::OpaScale, "NPU_SET_OPA_SCALE", false, 0xAA8},
    {CommandCode::OpbScale, "NPU_SET_OPB_SCALE", false, 0xAB0},
    {CommandCode::Dma0Src, "NPU_SET_DMA0_SRC", false, 0xAC0},
    {CommandCode::Dma0Dst, "NPU_SET_DMA0_DST", false, 0xAC8},
    {CommandCode::Dma0Len, "NPU_SET_DMA0_LEN", false, 0xAD0},
    {CommandCode::Dma0Skip0, "NPU_SET_DMA0_SKIP0", false, 0xAD8},
    {CommandCode::Dma0Skip1, "NPU_SET_DMA0_SKIP1", false, 0xAE0},
    {CommandCode::Ifm2Base0, "NPU_SET_IFM2_BASE0", false, 0xB00},
    {CommandCode::Ifm2Base1, "NPU_SET_IFM2_BASE1", false, 0xB08},
    {CommandCode::Ifm2Base2, "NPU_SET_IFM2_BASE2", false, 0xB10},
    {CommandCode::Ifm2Base3, "NPU_SET_IFM2_BASE3", false, 0xB18},
    {CommandCode::Ifm2StrideX, "NPU_SET_IFM2_STRIDE_X", false, 0xB20},
    {CommandCode::Ifm2StrideY, "NPU_SET_IFM2_STRIDE_Y", false, 0xB28},
    {CommandCode::Ifm2StrideC, "NPU_SET_IFM2_STRIDE_C", false, 0xB30},
    {CommandCode::Weight1Base, "NPU_SET_WEIGHT1_BASE", false, 0xB40},
    {CommandCode::Weight1Length, "NPU_SET_WEIGHT1_LENGTH", false, 0xB48},
    {CommandCode::Scale1Base, "NPU_SET_SCALE1_BASE", false, 0xB50},
    {CommandCode::Scale1Length, "NPU_SET_SCALE1_LENGTH", false, 0xB58},
    {CommandCode::UserDefined0, "NPU_SET_USER_DEFINED0", false, 0xB80},
    {CommandCode::UserDefined1, "NPU_SET_USER_DEFINED1", false, 0xB88},
    {CommandCode::UserDefined2, "NPU_SET_USER_DEFINED2", false, 0xB90},
    {CommandCode::UserDefined3, "NPU_SET_USER_DEFINED3", false, 0xB98},
    {CommandCode::UserDefined4, "NPU_SET_USER_DEFINED4", false, 0xBA0},
    {CommandCode::UserDefined5, "NPU_SET_USER_DEFINED5", false, 0xBA8},
    {CommandCode::UserDefined6, "NPU_SET_USER_DEFINED6", false, 0xBB0},
    {CommandCode::UserDefined7, "NPU_SET_USER_DEFINED7", false, 0xBB8},
};

} // namespace

const CommandInfo* findCommand(uint16_t key) {
  const auto* it = std::lower_bound(std::begin(kCommands), std::end(kCommands), key,
      [](const CommandInfo& info, uint16_t k) { return static_cast<uint16_t>(info.code) < k; });
  if (it == std::end(kCommands) || static_cast<uint16_t>(it->code) != key) {
    return nullptr;
  }
  return &*it;
}

const CommandInfo* commandTableBegin() { return std::begin(kCommands); }
const CommandInfo* commandTableEnd() { return std::end(kCommands); }

} // namespace npusim::cmd
