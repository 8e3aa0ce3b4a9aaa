// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/decoder_common.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace npusim::cmd::detail {

using Id = arch::CommandId;

int32_t signed16(uint32_t v) { return static_cast<int16_t>(static_cast<uint16_t>(v & 0xFFFF)); }

namespace {

// The operation kind of each NPU_OP_* meaning.
constexpr std::pair<Id, OpKind> kOperationKinds[] = {
    {Id::OpStop, OpKind::Stop},           {Id::OpIrq, OpKind::Irq},
    {Id::OpConv, OpKind::Conv},           {Id::OpDepthwise, OpKind::Depthwise},
    {Id::OpPool, OpKind::Pool},           {Id::OpElementwise, OpKind::Elementwise},
    {Id::OpResize, OpKind::Resize},       {Id::OpBranch, OpKind::Branch},
    {Id::OpDmaStart, OpKind::DmaStart},   {Id::OpDmaWait, OpKind::DmaWait},
    {Id::OpKernelWait, OpKind::KernelWait}, {Id::OpPmuMask, OpKind::PmuMask},
};

} // namespace

OpKind operationKind(const Command& command) {
  for (const auto& [operation, kind] : kOperationKinds) {
    if (operation == command.id()) {
      return kind;
    }
  }
  throw std::logic_error("command " + std::string(command.info->name) + " is not an NPU_OP_*");
}

void readTiles(const Snapshot& s, FeatureMap& fm, const arch::FeatureMapRegisters& r) {
  for (size_t t = 0; t < 4; ++t) {
    fm.base[t] = s.address(r.base[t]);
  }
  fm.strideX = s.get(r.strideX);
  fm.strideY = s.get(r.strideY);
  fm.strideC = s.get(r.strideC);
  fm.width0 = (s.get(r.width0) & 0xFFFF) + 1;
  fm.height0 = (s.get(r.height0) & 0xFFFF) + 1;
  fm.height1 = (s.get(r.height1) & 0xFFFF) + 1;
  fm.region = static_cast<uint8_t>(s.get(r.region) & 7);
  fm.zeroPoint = signed16(s.get(r.zeroPoint));
}

Kernel readKernel(const Snapshot& s) {
  // KERNEL_STRIDE: [0]/[6] stride x - 1 (lsb/msb), [1]/[9] stride y - 1, [2] part-kernel-first,
  // [3]/[4] dilation x/y - 1.
  Kernel k;
  const uint32_t ks = s.get(Id::KernelStride);
  k.strideX = ((ks & 1) | ((ks >> 6) & 1) << 1) + 1;
  k.strideY = (((ks >> 1) & 1) | ((ks >> 9) & 1) << 1) + 1;
  k.partKernelFirst = (ks >> 2) & 1;
  k.dilationX = ((ks >> 3) & 1) + 1;
  k.dilationY = ((ks >> 4) & 1) + 1;
  k.width = (s.get(Id::KernelWidthM1) & 0xFFFF) / k.dilationX + 1;
  k.height = (s.get(Id::KernelHeightM1) & 0xFFFF) / k.dilationY + 1;
  return k;
}

Padding readPadding(const Snapshot& s) {
  return {s.get(Id::IfmPadTop) & 0x7F, s.get(Id::IfmPadLeft) & 0x7F, s.get(Id::IfmPadBottom) & 0xFF,
          s.get(Id::IfmPadRight) & 0xFF};
}

uint32_t convExtent(uint32_t ofm, uint32_t stride, uint32_t dilatedKernel, uint32_t padA, uint32_t padB,
                    Upscale upscale) {
  int64_t ext = int64_t{ofm - 1} * stride + dilatedKernel - padA - padB;
  if (upscale != Upscale::None) {
    ext = (ext + 1) / 2;
  }
  return static_cast<uint32_t>(std::max<int64_t>(ext, 1));
}

void checkSpan(const StreamOrigin& origin, const Command& c, const RegionLimits& limits, uint8_t region, ByteSpan span,
               const std::string& what) {
  const uint64_t size = limits.size[region];
  if (size == 0 || span.empty()) {
    return;
  }
  if (span.end > size) {
    failAt(origin, c.offset, c.index,
           what + " bytes [" + hexText(span.begin) + ", " + hexText(span.end) + ") lie outside region " +
               std::to_string(region) + " (" + std::to_string(size) + " bytes)");
  }
}

} // namespace npusim::cmd::detail
