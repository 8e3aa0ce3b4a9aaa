// SPDX-License-Identifier: Apache-2.0
#pragma once
// Ethos-U85 command streams written register by register (ethos-u85.md 3.3-3.4), for the
// decoder's and the loader's tests: a small elementwise ADD and convolution whose every address
// lies inside a ModelLayout{} model, which tests then vary one register at a time.

#include <cstdint>

#include "sim/cmdstream/builder.h"

namespace npusim::test {

// A U85 stream builder (raw commands by meaning).
inline cmd::CommandStreamBuilder u85Builder() { return cmd::CommandStreamBuilder(arch::ethosU85CommandSet()); }

// The registers of a 4x4x16 int8 NHWC feature map at `base` of region 1.
inline void u85FeatureMap(cmd::CommandStreamBuilder& b, const arch::FeatureMapRegisters& r, uint32_t base) {
  b.cmd0(r.region, 1);
  b.cmd1(r.base[0], base);
  b.cmd0(r.width0, 3);
  b.cmd0(r.height0, 3);
  b.cmd0(r.height1, 3);
  b.cmd1(r.strideX, 16);
  b.cmd1(r.strideY, 64);
  b.cmd1(r.strideC, 1);
  b.cmd0(r.precision, 1);   // signed int8, NHWC, TILE2X2
}

// Everything a 4x4x16 kernel operation needs besides its own registers: IFM at 0, OFM at 512 of
// region 1, OFM block 4x4x16, accumulators with micro-block `ublock` (ACC_FORMAT [10:8]; 1 = 1x2,
// which ethos-u85-256 has), the int8 clamp.
inline void u85Common(cmd::CommandStreamBuilder& b, uint32_t ublock = 1) {
  using Id = arch::CommandId;
  u85FeatureMap(b, arch::kIfmRegisters, 0);
  b.cmd0(Id::IfmDepthM1, 15);
  u85FeatureMap(b, arch::kOfmRegisters, 512);
  b.cmd0(Id::OfmHeightM1, 3);
  b.cmd0(Id::OfmWidthM1, 3);
  b.cmd0(Id::OfmDepthM1, 15);
  b.cmd0(Id::OfmBlkHeightM1, 3);
  b.cmd0(Id::OfmBlkWidthM1, 3);
  b.cmd0(Id::OfmBlkDepthM1, 15);
  b.cmd0(Id::AccFormat, static_cast<uint16_t>(ublock << 8));
  b.cmd0(Id::ActivationMin, 0xFF80);
  b.cmd0(Id::ActivationMax, 0x007F);
}

// An elementwise ADD of two 4x4x16 maps (IFM2 at 256) without its NPU_OP_ELEMENTWISE.
inline void u85AddRegisters(cmd::CommandStreamBuilder& b) {
  u85Common(b);
  u85FeatureMap(b, arch::kIfm2Registers, 256);
}

// A 1x1 convolution 4x4x16 -> 4x4x16 with the weight and scale streams of `decoders` weight
// decoders in region 0 (stream k of 64 bytes at 64 + 64 k, scales at 0), without its NPU_OP_CONV.
inline void u85ConvRegisters(cmd::CommandStreamBuilder& b, uint32_t decoders, uint32_t ublock) {
  using Id = arch::CommandId;
  u85Common(b, ublock);
  b.cmd0(Id::WeightRegion, 0);
  b.cmd0(Id::ScaleRegion, 0);
  b.cmd1(Id::ScaleBase, 0);
  b.cmd1(Id::ScaleLength, 160);
  const Id bases[] = {Id::WeightBase, Id::Weight1Base, Id::Weight2Base, Id::Weight3Base};
  const Id lengths[] = {Id::WeightLength, Id::Weight1Length, Id::Weight2Length, Id::Weight3Length};
  for (uint32_t k = 0; k < decoders; ++k) {
    b.cmd1(bases[k], 256 + 64 * k);
    b.cmd1(lengths[k], 64);
  }
}

// NPU_OP_STOP.
inline void u85Stop(cmd::CommandStreamBuilder& b) { b.cmd0(arch::CommandId::OpStop, 0xFFFF); }

} // namespace npusim::test
