// SPDX-License-Identifier: Apache-2.0
#pragma once
// Builder-made command streams as the decoder returns them.

#include <cstdint>
#include <vector>

#include "sim/cmdstream/builder.h"
#include "sim/cmdstream/decoder.h"
#include "sim/cmdstream/operation.h"
#include "support/hardware.h"

namespace npusim::test {

// Regions of Vela's streams: the constants and the tensor arena.
constexpr uint8_t kFlashRegion = 0;
constexpr uint8_t kArenaRegion = 1;

// A kernel operation of `kind` from `ifm` to `ofm` in OFM blocks of `block`, no clamp (the
// int8 range).
inline cmd::Operation kernelOp(cmd::OpKind kind, cmd::FeatureMap ifm, cmd::FeatureMap ofm, Shape3 block) {
  cmd::Operation op;
  op.kind = kind;
  op.ifm = ifm;
  op.ofm = ofm;
  op.ofmBlock = block;
  op.activation.min = -128;
  op.activation.max = 127;
  return op;
}

// A DMA of `length` bytes from the constants at `src` to the arena at `dst`.
inline cmd::Operation dma(uint64_t src, uint64_t dst, uint64_t length) {
  cmd::Operation op;
  op.kind = cmd::OpKind::DmaStart;
  op.dma = {kFlashRegion, kArenaRegion, false, false, src, dst, length};
  return op;
}

// Encodes `ops` with the builder, ends the stream with a STOP and decodes it back.
inline std::vector<cmd::Operation> roundTrip(const std::vector<cmd::Operation>& ops) {
  cmd::CommandStreamBuilder b;
  for (const cmd::Operation& op : ops) {
    b.emit(op);
  }
  cmd::Operation stop;
  stop.kind = cmd::OpKind::Stop;
  stop.irqMask = 0xFFFF;
  b.emit(stop);
  const std::vector<uint8_t> bytes = b.bytes();
  const cmd::StreamOrigin origin{"<builder>", 0};
  return cmd::decodeProgram(u55(128), bytes.data(), bytes.size(), origin, {}).operations;
}

} // namespace npusim::test
