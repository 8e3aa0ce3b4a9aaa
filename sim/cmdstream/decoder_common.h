// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the generations' decoders share: reading the registers whose meaning and encoding the
// U55/U65 and the U85 have in common (tile addresses and strides, kernel, padding), the IFM
// extent of a convolution, and the check of a byte range against its region. Internal to the
// decoders (decoder_u55, decoder_u85).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/cmdstream/decoder.h"

namespace npusim::cmd::detail {

// One generation's decoder over one stream: takes its commands in order and returns the operation
// each NPU_OP_* starts (decodeOperations runs it over a whole stream, StreamDecoder command by
// command).
class OperationDecoder {
public:
  virtual ~OperationDecoder() = default;
  // Applies `c` to the register file; appends the operation it starts to `out` if it is an
  // NPU_OP_* (returns whether it did).
  virtual bool step(const Command& c, std::vector<Operation>& out) = 0;
};

// What a decoder checks an operation against: the hardware, the origin for messages, the regions'
// sizes, and the stream (branch targets must start one of its commands; null while the stream is
// read command by command, when only its length `streamBytes` bounds them). The referenced
// objects outlive the decoder.
struct DecoderContext {
  const arch::NpuConfig& hardware;
  const StreamOrigin& origin;
  const RegionLimits& limits;
  const std::vector<Command>* commands;
  uint32_t streamBytes;
};

int32_t signed16(uint32_t v);

// The operation kind an NPU_OP_* command starts. Contract: `command` is an operation.
OpKind operationKind(const Command& command);

// The register file as one operation sees it.
struct Snapshot {
  const RegisterFile& r;
  uint32_t get(arch::CommandId id) const { return r.read(id); }
  uint32_t high(arch::CommandId id) const { return r.readHigh(id); }
  // A 40-bit address: the payload and the parameter's low 8 bits.
  uint64_t address(arch::CommandId id) const { return uint64_t{get(id)} | uint64_t{high(id) & 0xFF} << 32; }
};

// Region, tile bases, strides, tile split and zero point of a feature map.
void readTiles(const Snapshot& s, FeatureMap& fm, const arch::FeatureMapRegisters& r);

// KERNEL_STRIDE (stride, part-kernel-first, dilation) with KERNEL_WIDTH_M1/HEIGHT_M1 (the
// dilated extent - 1), and the four IFM_PAD registers.
Kernel readKernel(const Snapshot& s);
Padding readPadding(const Snapshot& s);

// The IFM extent along one axis that `ofm` outputs need.
uint32_t convExtent(uint32_t ofm, uint32_t stride, uint32_t dilatedKernel, uint32_t padA, uint32_t padB,
                    Upscale upscale);

// Throws the InputError of command `c` when `span` of region `region` passes the region's size
// (`limits`; 0 = unchecked).
void checkSpan(const StreamOrigin& origin, const Command& c, const RegionLimits& limits, uint8_t region, ByteSpan span,
               const std::string& what);

} // namespace npusim::cmd::detail
