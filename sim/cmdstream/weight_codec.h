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

namespace npusim::cmd {

// Weights of one stream in stream order (the NPU's brick order), -255..255.
using WeightValues = std::vector<int16_t>;

// Decodes one compressed weight stream of `size` bytes. Throws InputError naming `file` and the
// byte offset (`fileOffset` + offset in the stream) for a truncated stream, an impossible header
// field, palette index, value or run, bytes other than padding after the end marker, or more
// than kMaxStreamWeights decoded weights.
WeightValues decodeWeightStream(const uint8_t* data, size_t size, const std::string& file, uint64_t fileOffset);

// A weight volume in OHWI order and how Vela's weight encoder lays it out in bricks: OFM
// blocks, IFM blocks, sub-kernels of at most decompHeight x decompWidth, micro-blocks.
struct BrickLayout {
  uint32_t ofmDepth = 1, kernelHeight = 1, kernelWidth = 1, ifmDepth = 1;   // ifmDepth 1 for depthwise
  uint32_t ofmBlockDepth = 1;      // OFM block depth of the operation's block config
  uint32_t ifmUblockDepth = 8, ofmUblockDepth = 8;
  uint32_t ifmBits = 8;
  uint32_t decompHeight = 8, decompWidth = 8;   // 8 / dilation
  bool depthwise = false;
  bool partKernelFirst = false;    // the stream's block traversal
};

// Most weights one stream decodes to (a sanity bound on corrupt input; see the .cpp).
constexpr size_t kMaxStreamWeights = size_t{1} << 26;

// Stream position -> OHWI index ((o * H + y) * W + x) * I + i of the weight there, or -1 for
// a padding zero; nullopt when the stream would hold more than `maxLength` weights.
// Contract: every dimension and depth of `layout` is at least 1.
std::optional<std::vector<int64_t>> brickOrder(const BrickLayout& layout, size_t maxLength);

// Whose choices (palettes, zero runs, Golomb-Rice parameters) the encoder makes: Vela 3.10's
// (Python back end, its C mlw_codec) or Vela 5.0's (C++ back end, its rewritten encoder).
enum class WeightEncoder : uint8_t { Vela310, Vela50 };

// Encodes weights (each -255..255) as `encoder` does; the result is padded to a multiple of 16
// bytes. Throws std::invalid_argument for a value out of range.
std::vector<uint8_t> encodeWeightStream(const WeightValues& weights, WeightEncoder encoder = WeightEncoder::Vela310);

} // namespace npusim::cmd
