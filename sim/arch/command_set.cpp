// SPDX-License-Identifier: Apache-2.0
#include "sim/arch/command_set.h"

#include "sim/arch/command_fields.h"

#include <stdexcept>
#include <string>

namespace npusim::arch {

namespace {

// Index into the by-key table: cmd1 keys after the 1024 cmd0 opcodes; -1 for a key with reserved
// bits set (bits [13:10], or control > 1).
int keySlot(uint16_t key) {
  if ((key & 0xBC00) != 0) {
    return -1;
  }
  return (isCmd1(key) ? 0x400 : 0) + (key & 0x3FF);
}

} // namespace

CommandSet::CommandSet(std::string_view name, Format format, std::vector<CommandInfo> commands,
                       std::map<CommandId, FieldList> fields)
    : name_(name), format_(format), commands_(std::move(commands)), fields_(std::move(fields)) {
  byKey_.fill(kNone);
  byId_.fill(kNone);
  for (size_t i = 0; i < commands_.size(); ++i) {
    const CommandInfo& c = commands_[i];
    const int slot = keySlot(c.key);
    const auto id = static_cast<size_t>(c.id);
    if (slot < 0 || byKey_[static_cast<size_t>(slot)] != kNone || id >= kCommandIdCount || byId_[id] != kNone ||
        (i > 0 && commands_[i - 1].key >= c.key)) {
      throw std::logic_error("command set " + std::string(name) + ": command " + std::string(c.name) +
                             " is out of key order, or its key or meaning repeats");
    }
    byKey_[static_cast<size_t>(slot)] = static_cast<int16_t>(i);
    byId_[id] = static_cast<int16_t>(i);
    if (const auto it = fields_.find(c.id); it != fields_.end()) {
      commands_[i].fields = &it->second;
    }
  }
  for (const auto& [id, list] : fields_) {
    if (find(id) == nullptr) {
      throw std::logic_error("command set " + std::string(name) + ": fields for a meaning it lacks");
    }
  }
}

const CommandInfo* CommandSet::find(uint16_t key) const {
  const int slot = keySlot(key);
  if (slot < 0 || byKey_[static_cast<size_t>(slot)] == kNone) {
    return nullptr;
  }
  return &commands_[static_cast<size_t>(byKey_[static_cast<size_t>(slot)])];
}

const CommandInfo* CommandSet::find(CommandId id) const {
  const auto i = static_cast<size_t>(id);
  if (i >= kCommandIdCount || byId_[i] == kNone) {
    return nullptr;
  }
  return &commands_[static_cast<size_t>(byId_[i])];
}

const CommandInfo& CommandSet::info(CommandId id) const {
  if (const CommandInfo* c = find(id)) {
    return *c;
  }
  throw std::logic_error("command set " + std::string(name_) + " has no command with meaning " +
                         std::to_string(static_cast<unsigned>(id)));
}

// Architecture 1.x (Ethos-U55, U65; command-stream doc 2-4): every cmd0/cmd1 code with its Vela
// name, sorted by key.
const CommandSet& ethosU55CommandSet() {
  static const CommandSet set("Ethos-U55/U65", CommandSet::Format::EthosU55, {
    {CommandId::OpStop, 0x0000, "NPU_OP_STOP", true},
    {CommandId::OpIrq, 0x0001, "NPU_OP_IRQ", true},
    {CommandId::OpConv, 0x0002, "NPU_OP_CONV", true},
    {CommandId::OpDepthwise, 0x0003, "NPU_OP_DEPTHWISE", true},
    {CommandId::OpPool, 0x0005, "NPU_OP_POOL", true},
    {CommandId::OpElementwise, 0x0006, "NPU_OP_ELEMENTWISE", true},
    {CommandId::OpDmaStart, 0x0010, "NPU_OP_DMA_START", true},
    {CommandId::OpDmaWait, 0x0011, "NPU_OP_DMA_WAIT", true},
    {CommandId::OpKernelWait, 0x0012, "NPU_OP_KERNEL_WAIT", true},
    {CommandId::OpPmuMask, 0x0013, "NPU_OP_PMU_MASK", true},
    {CommandId::IfmPadTop, 0x0100, "NPU_SET_IFM_PAD_TOP", false},
    {CommandId::IfmPadLeft, 0x0101, "NPU_SET_IFM_PAD_LEFT", false},
    {CommandId::IfmPadRight, 0x0102, "NPU_SET_IFM_PAD_RIGHT", false},
    {CommandId::IfmPadBottom, 0x0103, "NPU_SET_IFM_PAD_BOTTOM", false},
    {CommandId::IfmDepthM1, 0x0104, "NPU_SET_IFM_DEPTH_M1", false},
    {CommandId::IfmPrecision, 0x0105, "NPU_SET_IFM_PRECISION", false},
    {CommandId::IfmUpscale, 0x0107, "NPU_SET_IFM_UPSCALE", false},
    {CommandId::IfmZeroPoint, 0x0109, "NPU_SET_IFM_ZERO_POINT", false},
    {CommandId::IfmWidth0M1, 0x010A, "NPU_SET_IFM_WIDTH0_M1", false},
    {CommandId::IfmHeight0M1, 0x010B, "NPU_SET_IFM_HEIGHT0_M1", false},
    {CommandId::IfmHeight1M1, 0x010C, "NPU_SET_IFM_HEIGHT1_M1", false},
    {CommandId::IfmIbEnd, 0x010D, "NPU_SET_IFM_IB_END", false},
    {CommandId::IfmRegion, 0x010F, "NPU_SET_IFM_REGION", false},
    {CommandId::OfmWidthM1, 0x0111, "NPU_SET_OFM_WIDTH_M1", false},
    {CommandId::OfmHeightM1, 0x0112, "NPU_SET_OFM_HEIGHT_M1", false},
    {CommandId::OfmDepthM1, 0x0113, "NPU_SET_OFM_DEPTH_M1", false},
    {CommandId::OfmPrecision, 0x0114, "NPU_SET_OFM_PRECISION", false},
    {CommandId::OfmBlkWidthM1, 0x0115, "NPU_SET_OFM_BLK_WIDTH_M1", false},
    {CommandId::OfmBlkHeightM1, 0x0116, "NPU_SET_OFM_BLK_HEIGHT_M1", false},
    {CommandId::OfmBlkDepthM1, 0x0117, "NPU_SET_OFM_BLK_DEPTH_M1", false},
    {CommandId::OfmZeroPoint, 0x0118, "NPU_SET_OFM_ZERO_POINT", false},
    {CommandId::OfmWidth0M1, 0x011A, "NPU_SET_OFM_WIDTH0_M1", false},
    {CommandId::OfmHeight0M1, 0x011B, "NPU_SET_OFM_HEIGHT0_M1", false},
    {CommandId::OfmHeight1M1, 0x011C, "NPU_SET_OFM_HEIGHT1_M1", false},
    {CommandId::OfmRegion, 0x011F, "NPU_SET_OFM_REGION", false},
    {CommandId::KernelWidthM1, 0x0120, "NPU_SET_KERNEL_WIDTH_M1", false},
    {CommandId::KernelHeightM1, 0x0121, "NPU_SET_KERNEL_HEIGHT_M1", false},
    {CommandId::KernelStride, 0x0122, "NPU_SET_KERNEL_STRIDE", false},
    {CommandId::ParallelMode, 0x0123, "NPU_SET_PARALLEL_MODE", false},
    {CommandId::AccFormat, 0x0124, "NPU_SET_ACC_FORMAT", false},
    {CommandId::Activation, 0x0125, "NPU_SET_ACTIVATION", false},
    {CommandId::ActivationMin, 0x0126, "NPU_SET_ACTIVATION_MIN", false},
    {CommandId::ActivationMax, 0x0127, "NPU_SET_ACTIVATION_MAX", false},
    {CommandId::WeightRegion, 0x0128, "NPU_SET_WEIGHT_REGION", false},
    {CommandId::ScaleRegion, 0x0129, "NPU_SET_SCALE_REGION", false},
    {CommandId::AbStart, 0x012D, "NPU_SET_AB_START", false},
    {CommandId::Blockdep, 0x012F, "NPU_SET_BLOCKDEP", false},
    {CommandId::Dma0SrcRegion, 0x0130, "NPU_SET_DMA0_SRC_REGION", false},
    {CommandId::Dma0DstRegion, 0x0131, "NPU_SET_DMA0_DST_REGION", false},
    {CommandId::Dma0Size0, 0x0132, "NPU_SET_DMA0_SIZE0", false},
    {CommandId::Dma0Size1, 0x0133, "NPU_SET_DMA0_SIZE1", false},
    {CommandId::Ifm2Broadcast, 0x0180, "NPU_SET_IFM2_BROADCAST", false},
    {CommandId::Ifm2Scalar, 0x0181, "NPU_SET_IFM2_SCALAR", false},
    {CommandId::Ifm2Precision, 0x0185, "NPU_SET_IFM2_PRECISION", false},
    {CommandId::Ifm2ZeroPoint, 0x0189, "NPU_SET_IFM2_ZERO_POINT", false},
    {CommandId::Ifm2Width0M1, 0x018A, "NPU_SET_IFM2_WIDTH0_M1", false},
    {CommandId::Ifm2Height0M1, 0x018B, "NPU_SET_IFM2_HEIGHT0_M1", false},
    {CommandId::Ifm2Height1M1, 0x018C, "NPU_SET_IFM2_HEIGHT1_M1", false},
    {CommandId::Ifm2IbStart, 0x018D, "NPU_SET_IFM2_IB_START", false},
    {CommandId::Ifm2Region, 0x018F, "NPU_SET_IFM2_REGION", false},
    {CommandId::IfmBase0, 0x4000, "NPU_SET_IFM_BASE0", false},
    {CommandId::IfmBase1, 0x4001, "NPU_SET_IFM_BASE1", false},
    {CommandId::IfmBase2, 0x4002, "NPU_SET_IFM_BASE2", false},
    {CommandId::IfmBase3, 0x4003, "NPU_SET_IFM_BASE3", false},
    {CommandId::IfmStrideX, 0x4004, "NPU_SET_IFM_STRIDE_X", false},
    {CommandId::IfmStrideY, 0x4005, "NPU_SET_IFM_STRIDE_Y", false},
    {CommandId::IfmStrideC, 0x4006, "NPU_SET_IFM_STRIDE_C", false},
    {CommandId::OfmBase0, 0x4010, "NPU_SET_OFM_BASE0", false},
    {CommandId::OfmBase1, 0x4011, "NPU_SET_OFM_BASE1", false},
    {CommandId::OfmBase2, 0x4012, "NPU_SET_OFM_BASE2", false},
    {CommandId::OfmBase3, 0x4013, "NPU_SET_OFM_BASE3", false},
    {CommandId::OfmStrideX, 0x4014, "NPU_SET_OFM_STRIDE_X", false},
    {CommandId::OfmStrideY, 0x4015, "NPU_SET_OFM_STRIDE_Y", false},
    {CommandId::OfmStrideC, 0x4016, "NPU_SET_OFM_STRIDE_C", false},
    {CommandId::WeightBase, 0x4020, "NPU_SET_WEIGHT_BASE", false},
    {CommandId::WeightLength, 0x4021, "NPU_SET_WEIGHT_LENGTH", false},
    {CommandId::ScaleBase, 0x4022, "NPU_SET_SCALE_BASE", false},
    {CommandId::ScaleLength, 0x4023, "NPU_SET_SCALE_LENGTH", false},
    {CommandId::OfmScale, 0x4024, "NPU_SET_OFM_SCALE", false},
    {CommandId::OpaScale, 0x4025, "NPU_SET_OPA_SCALE", false},
    {CommandId::OpbScale, 0x4026, "NPU_SET_OPB_SCALE", false},
    {CommandId::Dma0Src, 0x4030, "NPU_SET_DMA0_SRC", false},
    {CommandId::Dma0Dst, 0x4031, "NPU_SET_DMA0_DST", false},
    {CommandId::Dma0Len, 0x4032, "NPU_SET_DMA0_LEN", false},
    {CommandId::Dma0Skip0, 0x4033, "NPU_SET_DMA0_SKIP0", false},
    {CommandId::Dma0Skip1, 0x4034, "NPU_SET_DMA0_SKIP1", false},
    {CommandId::Ifm2Base0, 0x4080, "NPU_SET_IFM2_BASE0", false},
    {CommandId::Ifm2Base1, 0x4081, "NPU_SET_IFM2_BASE1", false},
    {CommandId::Ifm2Base2, 0x4082, "NPU_SET_IFM2_BASE2", false},
    {CommandId::Ifm2Base3, 0x4083, "NPU_SET_IFM2_BASE3", false},
    {CommandId::Ifm2StrideX, 0x4084, "NPU_SET_IFM2_STRIDE_X", false},
    {CommandId::Ifm2StrideY, 0x4085, "NPU_SET_IFM2_STRIDE_Y", false},
    {CommandId::Ifm2StrideC, 0x4086, "NPU_SET_IFM2_STRIDE_C", false},
    {CommandId::Weight1Base, 0x4090, "NPU_SET_WEIGHT1_BASE", false},
    {CommandId::Weight1Length, 0x4091, "NPU_SET_WEIGHT1_LENGTH", false},
    {CommandId::Scale1Base, 0x4092, "NPU_SET_SCALE1_BASE", false},
    {CommandId::Scale1Length, 0x4093, "NPU_SET_SCALE1_LENGTH", false},
    {CommandId::UserDefined0, 0x40A0, "NPU_SET_USER_DEFINED0", false},
    {CommandId::UserDefined1, 0x40A1, "NPU_SET_USER_DEFINED1", false},
    {CommandId::UserDefined2, 0x40A2, "NPU_SET_USER_DEFINED2", false},
    {CommandId::UserDefined3, 0x40A3, "NPU_SET_USER_DEFINED3", false},
    {CommandId::UserDefined4, 0x40A4, "NPU_SET_USER_DEFINED4", false},
    {CommandId::UserDefined5, 0x40A5, "NPU_SET_USER_DEFINED5", false},
    {CommandId::UserDefined6, 0x40A6, "NPU_SET_USER_DEFINED6", false},
    {CommandId::UserDefined7, 0x40A7, "NPU_SET_USER_DEFINED7", false},
  }, ethosU55CommandFields());
  return set;
}

// Architecture 2.x (Ethos-U85; ethos-u85.md 3.2-3.4): every cmd0/cmd1 code with its Vela name,
// sorted by key. Numbers the U55 uses for other meanings (3.5) map to the U85's meanings here.
const CommandSet& ethosU85CommandSet() {
  static const CommandSet set("Ethos-U85", CommandSet::Format::EthosU85, {
    {CommandId::OpStop, 0x0000, "NPU_OP_STOP", true},
    {CommandId::OpIrq, 0x0001, "NPU_OP_IRQ", true},
    {CommandId::OpConv, 0x0002, "NPU_OP_CONV", true},
    {CommandId::OpDepthwise, 0x0003, "NPU_OP_DEPTHWISE", true},
    {CommandId::OpPool, 0x0005, "NPU_OP_POOL", true},
    {CommandId::OpElementwise, 0x0006, "NPU_OP_ELEMENTWISE", true},
    {CommandId::OpResize, 0x0007, "NPU_OP_RESIZE", true},
    {CommandId::OpDmaStart, 0x0010, "NPU_OP_DMA_START", true},
    {CommandId::OpDmaWait, 0x0011, "NPU_OP_DMA_WAIT", true},
    {CommandId::OpKernelWait, 0x0012, "NPU_OP_KERNEL_WAIT", true},
    {CommandId::OpPmuMask, 0x0013, "NPU_OP_PMU_MASK", true},
    {CommandId::IfmPadTop, 0x0100, "NPU_SET_IFM_PAD_TOP", false},
    {CommandId::IfmPadLeft, 0x0101, "NPU_SET_IFM_PAD_LEFT", false},
    {CommandId::IfmPadRight, 0x0102, "NPU_SET_IFM_PAD_RIGHT", false},
    {CommandId::IfmPadBottom, 0x0103, "NPU_SET_IFM_PAD_BOTTOM", false},
    {CommandId::IfmDepthM1, 0x0104, "NPU_SET_IFM_DEPTH_M1", false},
    {CommandId::IfmPrecision, 0x0105, "NPU_SET_IFM_PRECISION", false},
    {CommandId::IfmUpscale, 0x0107, "NPU_SET_IFM_UPSCALE", false},
    {CommandId::IfmBroadcast, 0x0108, "NPU_SET_IFM_BROADCAST", false},
    {CommandId::IfmZeroPoint, 0x0109, "NPU_SET_IFM_ZERO_POINT", false},
    {CommandId::IfmWidth0M1, 0x010A, "NPU_SET_IFM_WIDTH0_M1", false},
    {CommandId::IfmHeight0M1, 0x010B, "NPU_SET_IFM_HEIGHT0_M1", false},
    {CommandId::IfmHeight1M1, 0x010C, "NPU_SET_IFM_HEIGHT1_M1", false},
    {CommandId::IfmRegion, 0x010F, "NPU_SET_IFM_REGION", false},
    {CommandId::OfmWidthM1, 0x0111, "NPU_SET_OFM_WIDTH_M1", false},
    {CommandId::OfmHeightM1, 0x0112, "NPU_SET_OFM_HEIGHT_M1", false},
    {CommandId::OfmDepthM1, 0x0113, "NPU_SET_OFM_DEPTH_M1", false},
    {CommandId::OfmPrecision, 0x0114, "NPU_SET_OFM_PRECISION", false},
    {CommandId::OfmBlkWidthM1, 0x0115, "NPU_SET_OFM_BLK_WIDTH_M1", false},
    {CommandId::OfmBlkHeightM1, 0x0116, "NPU_SET_OFM_BLK_HEIGHT_M1", false},
    {CommandId::OfmBlkDepthM1, 0x0117, "NPU_SET_OFM_BLK_DEPTH_M1", false},
    {CommandId::OfmZeroPoint, 0x0118, "NPU_SET_OFM_ZERO_POINT", false},
    {CommandId::OfmWidth0M1, 0x011A, "NPU_SET_OFM_WIDTH0_M1", false},
    {CommandId::OfmHeight0M1, 0x011B, "NPU_SET_OFM_HEIGHT0_M1", false},
    {CommandId::OfmHeight1M1, 0x011C, "NPU_SET_OFM_HEIGHT1_M1", false},
    {CommandId::OfmRegion, 0x011F, "NPU_SET_OFM_REGION", false},
    {CommandId::KernelWidthM1, 0x0120, "NPU_SET_KERNEL_WIDTH_M1", false},
    {CommandId::KernelHeightM1, 0x0121, "NPU_SET_KERNEL_HEIGHT_M1", false},
    {CommandId::KernelStride, 0x0122, "NPU_SET_KERNEL_STRIDE", false},
    {CommandId::AccFormat, 0x0124, "NPU_SET_ACC_FORMAT", false},
    {CommandId::Activation, 0x0125, "NPU_SET_ACTIVATION", false},
    {CommandId::ActivationMin, 0x0126, "NPU_SET_ACTIVATION_MIN", false},
    {CommandId::ActivationMax, 0x0127, "NPU_SET_ACTIVATION_MAX", false},
    {CommandId::WeightRegion, 0x0128, "NPU_SET_WEIGHT_REGION", false},
    {CommandId::ScaleRegion, 0x0129, "NPU_SET_SCALE_REGION", false},
    {CommandId::ResizeXScaleNM1, 0x012A, "NPU_SET_RESIZE_X_SCALE_N_M1", false},
    {CommandId::ResizeYScaleNM1, 0x012B, "NPU_SET_RESIZE_Y_SCALE_N_M1", false},
    {CommandId::ResizeXOffset, 0x012C, "NPU_SET_RESIZE_X_OFFSET", false},
    {CommandId::ResizeYOffset, 0x012D, "NPU_SET_RESIZE_Y_OFFSET", false},
    {CommandId::WeightFormat, 0x012E, "NPU_SET_WEIGHT_FORMAT", false},
    {CommandId::Blockdep, 0x012F, "NPU_SET_BLOCKDEP", false},
    {CommandId::Dma0SrcRegion, 0x0130, "NPU_SET_DMA0_SRC_REGION", false},
    {CommandId::Dma0DstRegion, 0x0131, "NPU_SET_DMA0_DST_REGION", false},
    {CommandId::Dma0Size0, 0x0132, "NPU_SET_DMA0_SIZE0", false},
    {CommandId::Dma0Size1, 0x0133, "NPU_SET_DMA0_SIZE1", false},
    {CommandId::Dma0IdxRegion, 0x0134, "NPU_SET_DMA0_IDX_REGION", false},
    {CommandId::Ifm2Broadcast, 0x0180, "NPU_SET_IFM2_BROADCAST", false},
    {CommandId::Ifm2Precision, 0x0185, "NPU_SET_IFM2_PRECISION", false},
    {CommandId::Ifm2ZeroPoint, 0x0189, "NPU_SET_IFM2_ZERO_POINT", false},
    {CommandId::Ifm2Width0M1, 0x018A, "NPU_SET_IFM2_WIDTH0_M1", false},
    {CommandId::Ifm2Height0M1, 0x018B, "NPU_SET_IFM2_HEIGHT0_M1", false},
    {CommandId::Ifm2Height1M1, 0x018C, "NPU_SET_IFM2_HEIGHT1_M1", false},
    {CommandId::Ifm2Region, 0x018F, "NPU_SET_IFM2_REGION", false},
    {CommandId::IfmBase0, 0x4000, "NPU_SET_IFM_BASE0", false},
    {CommandId::IfmBase1, 0x4001, "NPU_SET_IFM_BASE1", false},
    {CommandId::IfmBase2, 0x4002, "NPU_SET_IFM_BASE2", false},
    {CommandId::IfmBase3, 0x4003, "NPU_SET_IFM_BASE3", false},
    {CommandId::IfmStrideX, 0x4004, "NPU_SET_IFM_STRIDE_X", false},
    {CommandId::IfmStrideY, 0x4005, "NPU_SET_IFM_STRIDE_Y", false},
    {CommandId::IfmStrideC, 0x4006, "NPU_SET_IFM_STRIDE_C", false},
    {CommandId::OfmBase0, 0x4010, "NPU_SET_OFM_BASE0", false},
    {CommandId::OfmBase1, 0x4011, "NPU_SET_OFM_BASE1", false},
    {CommandId::OfmBase2, 0x4012, "NPU_SET_OFM_BASE2", false},
    {CommandId::OfmBase3, 0x4013, "NPU_SET_OFM_BASE3", false},
    {CommandId::OfmStrideX, 0x4014, "NPU_SET_OFM_STRIDE_X", false},
    {CommandId::OfmStrideY, 0x4015, "NPU_SET_OFM_STRIDE_Y", false},
    {CommandId::OfmStrideC, 0x4016, "NPU_SET_OFM_STRIDE_C", false},
    {CommandId::WeightBase, 0x4020, "NPU_SET_WEIGHT_BASE", false},
    {CommandId::WeightLength, 0x4021, "NPU_SET_WEIGHT_LENGTH", false},
    {CommandId::ScaleBase, 0x4022, "NPU_SET_SCALE_BASE", false},
    {CommandId::ScaleLength, 0x4023, "NPU_SET_SCALE_LENGTH", false},
    {CommandId::OfmScale, 0x4024, "NPU_SET_OFM_SCALE", false},
    {CommandId::OpaScale, 0x4025, "NPU_SET_IFM_SCALE", false},
    {CommandId::OpbScale, 0x4026, "NPU_SET_IFM2_SCALE", false},
    {CommandId::OpScalar, 0x4027, "NPU_SET_OP_SCALAR", false},
    {CommandId::Dma0Src, 0x4030, "NPU_SET_DMA0_SRC", false},
    {CommandId::Dma0Dst, 0x4031, "NPU_SET_DMA0_DST", false},
    {CommandId::Dma0Len, 0x4032, "NPU_SET_DMA0_LEN", false},
    {CommandId::Dma0SrcStride0, 0x4033, "NPU_SET_DMA0_SRC_STRIDE0", false},
    {CommandId::Dma0SrcStride1, 0x4034, "NPU_SET_DMA0_SRC_STRIDE1", false},
    {CommandId::Dma0DstStride0, 0x4035, "NPU_SET_DMA0_DST_STRIDE0", false},
    {CommandId::Dma0DstStride1, 0x4036, "NPU_SET_DMA0_DST_STRIDE1", false},
    {CommandId::Dma0Idx, 0x4037, "NPU_SET_DMA0_IDX", false},
    {CommandId::Dma0IdxMax, 0x4038, "NPU_SET_DMA0_IDX_MAX", false},
    {CommandId::Dma0IdxSkip1, 0x4039, "NPU_SET_DMA0_IDX_SKIP1", false},
    {CommandId::Ifm2Base0, 0x4080, "NPU_SET_IFM2_BASE0", false},
    {CommandId::Ifm2Base1, 0x4081, "NPU_SET_IFM2_BASE1", false},
    {CommandId::Ifm2Base2, 0x4082, "NPU_SET_IFM2_BASE2", false},
    {CommandId::Ifm2Base3, 0x4083, "NPU_SET_IFM2_BASE3", false},
    {CommandId::Ifm2StrideX, 0x4084, "NPU_SET_IFM2_STRIDE_X", false},
    {CommandId::Ifm2StrideY, 0x4085, "NPU_SET_IFM2_STRIDE_Y", false},
    {CommandId::Ifm2StrideC, 0x4086, "NPU_SET_IFM2_STRIDE_C", false},
    {CommandId::Weight1Base, 0x4090, "NPU_SET_WEIGHT1_BASE", false},
    {CommandId::Weight1Length, 0x4091, "NPU_SET_WEIGHT1_LENGTH", false},
    {CommandId::Weight2Base, 0x4092, "NPU_SET_WEIGHT2_BASE", false},
    {CommandId::Weight2Length, 0x4093, "NPU_SET_WEIGHT2_LENGTH", false},
    {CommandId::Weight3Base, 0x4094, "NPU_SET_WEIGHT3_BASE", false},
    {CommandId::Weight3Length, 0x4095, "NPU_SET_WEIGHT3_LENGTH", false},
    {CommandId::ResizeXStep, 0x4096, "NPU_SET_RESIZE_X_STEP", false},
    {CommandId::ResizeYStep, 0x4097, "NPU_SET_RESIZE_Y_STEP", false},
    {CommandId::OpBranch, 0x4100, "NPU_OP_BRANCH", true},
  }, ethosU85CommandFields());
  return set;
}

} // namespace npusim::arch
