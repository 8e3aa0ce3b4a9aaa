// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test helpers: sample NPU operations with consistent shapes, and Vela-style .tflite models
// built in memory around a command stream.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/cmdstream/builder.h"

namespace npusim::test {

// Region sizes of a test model; the sample operations below fit into the defaults.
struct ModelLayout {
  uint32_t macs = 128;
  uint64_t flashBytes = 4096;     // region 0
  uint64_t scratchBytes = 16384;  // regions 1 and 2
};

// A .tflite with one ethos-u operator whose command-stream tensor holds `cop1Payload`
// (inputs: command stream, flash, scratch, scratch_fast, network input; one output).
std::vector<uint8_t> buildNpuModel(const std::vector<uint8_t>& cop1Payload, const ModelLayout& layout = {});
// The same, with Vela's 32-byte COP1 header for `layout.macs` put in front of `stream`.
std::vector<uint8_t> buildNpuModelWithStream(const std::vector<uint8_t>& stream, const ModelLayout& layout = {});

// Byte offset of the first occurrence of `needle` in `haystack`; throws when absent.
uint64_t findBytes(const std::vector<uint8_t>& haystack, const std::vector<uint8_t>& needle);

// A single-tile feature map with Vela's strides for `format` (int8 unless changed).
cmd::FeatureMap featureMap(uint64_t base, Shape3 shape, cmd::DataFormat format, uint8_t region = 1);

// Sample operations; every address lies inside a ModelLayout{} model.
cmd::Operation sampleConv();         // 8x8x16 NHWC -> 8x8x16 NHCWB16, 3x3, pads 1/2/1/0, weights in flash
cmd::Operation sampleDepthwise();    // 8x8x16 -> 4x4x16, 3x3 stride 2, weights in the arena
cmd::Operation samplePool();         // average 2x2/2, global scale, natural rounding
cmd::Operation sampleElementwise();  // ADD of two 8x8x16 maps, IFM2 broadcast in H
cmd::Operation sampleScalarMul();    // MUL by an IFM2 scalar, operands swapped
cmd::Operation sampleDma();          // flash -> arena weight copy
cmd::Operation sampleLutDma();       // flash -> SHRAM LUT load
cmd::Operation waitOp(cmd::OpKind kind, uint32_t count);
cmd::Operation stopOp();

// Stream bytes of `ops` encoded by a fresh builder, followed by NPU_OP_STOP.
std::vector<uint8_t> encodeOps(const std::vector<cmd::Operation>& ops);

// Origin used for streams decoded outside a file.
cmd::StreamOrigin testOrigin();

// doctest CHECKs that `got` equals `want` in every field the decoder defines for `want.kind`
// (fields an operation of that kind does not use hold stale registers and are skipped).
void checkSameOperation(const cmd::Operation& want, const cmd::Operation& got);

// Parses `stream` and decodes its operations for `hardware` (regions unchecked).
std::vector<cmd::Operation> decodeStream(const std::vector<uint8_t>& stream, const arch::NpuConfig& hardware);
// The same for an ethos-u55-128.
std::vector<cmd::Operation> decodeStream(const std::vector<uint8_t>& stream);

} // namespace npusim::test
