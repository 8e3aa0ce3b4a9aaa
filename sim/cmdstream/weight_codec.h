// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Ethos-U compressed weight-stream format (what Vela's weight compressor writes and the
// NPU's weight decoder reads): decoder with byte-offset errors, and an encoder that makes the
// same choices as Vela 3.10's or Vela 5.0's (palette sections, zero-run mode, Golomb-Rice
// parameters), so decoding a Vela stream and encoding the values again gives the same bytes.
//
// Format summary (bits are read least significant first within each byte):
//   stream  = slice* EOS-marker, byte-aligned with 1 bits, then 0xff bytes to a 16-byte multiple
//   slice   = ZDIV:3 SLICELEN:15 WDIV:3 WTRUNC:1 NEWPAL:1 [DIROFS:5 PALSIZE:5 PALBITS:3 palette]
//             chunk*
//   ZDIV 0-3 = zero-run Golomb-Rice divisor (zero runs coded), 6 = no zero runs, 7 = end of stream
//   WDIV 0-5 = weight-index divisor, 7 = uncompressed indices; WTRUNC = truncated unary (q <= 2)
//   A weight index below the palette size selects a palette entry, else index - size + DIROFS
//   is the value itself; values are 9-bit sign-magnitude (bit 0 = sign, bits 1-8 = magnitude).
//   Chunks interleave the unary parts of up to 12 weight and 12 (or 8) zero-run symbols with the
//   remainders of the previous chunk's symbols.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/arch/architecture.h"

namespace npusim::cmd {

// Weights of one stream in stream order (the NPU's brick order), -255..255.
using WeightValues = std::vector<int16_t>;

// Decodes one compressed weight stream of `size` bytes. Throws InputError naming `file` and the
// byte offset (`fileOffset` + offset in the stream) for a truncated stream, an impossible header
// field, palette index, value or run, bytes other than padding after the end marker, or more
// than kMaxStreamWeights decoded weights.
WeightValues decodeWeightStream(const uint8_t* data, size_t size, const std::string& file, uint64_t fileOffset);

// A weight volume in OHWI order and how the weight encoder lays it out in streams, in the
// architecture's weight order (arch::WeightOrder):
//   Bricks (Vela's U55/U65 encoder): OFM blocks, IFM blocks of 32 (16 part-kernel-first or
//     16-bit), sub-kernels of at most decompHeight x decompWidth, micro-blocks; core c of
//     `streams` encodes OFM channels c, c + streams, ... with a 1/streams share of the OFM block.
//   DecoderGroups (Vela's U85 encoder, ethos-u85.md 4.2): OFM blocks, IFM blocks of
//     ifmBlockDepth (direction reversed on every OFM block), sub-kernel columns then rows, IFM
//     chunks, OFM micro-blocks, stride phases (part-kernel-first, depthwise), kernel rows (odd
//     rows reversed), IFM groups of 8 (16 sparse, 1 depthwise), weight decoder `stream`'s groups
//     of 4 OFM channels; kernel elements padded per sub-kernel (to 5, or 10 for 16-bit, sparse
//     and depthwise), depthwise with extra zeros after every 10 elements on the larger MAC arrays.
//     The fast format has one stream: the decoders' orders interleaved in blocks.
struct BrickLayout {
  arch::WeightOrder order = arch::WeightOrder::Bricks;
  uint32_t ofmDepth = 1, kernelHeight = 1, kernelWidth = 1, ifmDepth = 1;   // ifmDepth 1 for depthwise
  uint32_t ofmBlockDepth = 1;      // OFM block depth of the operation's block config
  uint32_t ifmBlockDepth = 1;      // IFM block depth of the block config (DecoderGroups)
  uint32_t ifmUblockDepth = 8, ofmUblockDepth = 8;
  uint32_t ifmBits = 8;
  uint32_t decompHeight = 8, decompWidth = 8;   // 8 / dilation
  uint32_t strideX = 1, strideY = 1;            // kernel stride (DecoderGroups)
  bool depthwise = false;
  bool partKernelFirst = false;    // the stream's block traversal
  bool sparse = false;             // 2:4 sparse weights (DecoderGroups)
  bool fast = false;               // the fast weight format: one stream for every decoder (DecoderGroups)
  uint32_t streams = 1;            // cores (Bricks) or weight decoders (DecoderGroups) sharing the OFM channels
  uint32_t macs = 128;             // MACs per cycle (DecoderGroups: the depthwise padding)
};

// Most weights one stream decodes to (a sanity bound on corrupt input; see the .cpp).
constexpr size_t kMaxStreamWeights = size_t{1} << 26;

// Weight streams an operation with `layout` has: Bricks one per core that has OFM channels,
// DecoderGroups one per weight decoder (one in the fast format).
uint32_t weightStreamCount(const BrickLayout& layout);

// Bytes of scale stream `stream` (< weightStreamCount; every scale stream is followed by the
// weight stream of the same index) of `bytesPerChannel`-byte records: Bricks one per core, of
// its share of the channels; DecoderGroups only stream 0, of every channel, its records padded
// to a multiple of the OFM micro-block depth and of 16 (ethos-u85.md 4.1). Padded to 16 bytes.
uint64_t scaleStreamBytes(const BrickLayout& layout, uint32_t stream, uint32_t bytesPerChannel);

// Position in weight stream `stream` (< weightStreamCount) -> OHWI index
// ((o * H + y) * W + x) * I + i of the weight there, or -1 for a padding zero; nullopt when the
// stream would hold more than `maxLength` weights or (Bricks) the stream's core has no OFM
// channels or no share of the OFM block. Contract: every dimension and depth of `layout` is at
// least 1; DecoderGroups: the OFM block depth is a multiple of the micro-block depth.
std::optional<std::vector<int64_t>> brickOrder(const BrickLayout& layout, size_t maxLength, uint32_t stream = 0);

// Whose choices (palettes, zero runs, Golomb-Rice parameters) the encoder makes: Vela 3.10's
// (Python back end, its C mlw_codec) or Vela 5.0's (C++ back end, its rewritten encoder).
enum class WeightEncoder : uint8_t { Vela310, Vela50 };

// Encodes weights (each -255..255) as `encoder` does; the result is padded to a multiple of 16
// bytes. Throws std::invalid_argument for a value out of range.
std::vector<uint8_t> encodeWeightStream(const WeightValues& weights, WeightEncoder encoder = WeightEncoder::Vela310);

} // namespace npusim::cmd
