// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Ethos-U85's fast weight decoder format (FWD, ethos-u85.md 4.3): decoder with byte-offset
// errors, and an encoder that makes Vela 5.0's choices, so decoding a Vela stream and encoding
// its weights again gives the same bytes.
//
// Format (bits least significant first within little-endian bytes):
//   header (256 bits): [0] raw mode, [1] small palette (2-bit indices), [103:2] zero,
//                      [111:104] zero adjust (int8), [255:112] 16 palette entries of 9 bits,
//                      each |v| << 1 | sign
//   body: a 2-bit (small palette) or 4-bit palette index per weight, or in raw mode one byte per
//         weight, (weight + zero adjust) mod 256; zero bits up to a 32-byte multiple.
// The encoder puts the distinct weights into the palette in order of first appearance: up to 4
// give 2-bit indices, up to 16 4-bit ones, more raw bytes (whose zero adjust brings the weights
// into -128..127: -128 - min below it, 127 - max above it; max - min must be below 256).
// Vela forces raw mode for 2:4-sparse weights, the palette then still holding the first 16
// distinct weights. The stream does not record the weight count: its padding decodes as
// weights too (palette entry 0, or -zero adjust), which re-encode to the same bits.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/cmdstream/weight_codec.h"

namespace npusim::cmd {

// How a fast-format stream codes its weights.
enum class FastWeightMode : uint8_t { Palette2, Palette4, Raw };

struct FastWeights {
  FastWeightMode mode = FastWeightMode::Raw;
  int32_t zeroAdjust = 0;
  std::array<int16_t, 16> palette{};
  WeightValues values;   // one per index or byte of the body, padding included
};

// Bytes of a fast-format stream's header, and the multiple its length is padded to.
constexpr size_t kFastWeightHeaderBytes = 32;

// Decodes a fast-format stream of `size` bytes. Throws InputError naming `file` and the byte
// offset (`fileOffset` + offset in the stream) for a stream shorter than its header or not a
// multiple of 32 bytes, reserved header bits set, both mode flags set, or more than
// kMaxStreamWeights weights.
FastWeights decodeFastWeightStream(const uint8_t* data, size_t size, const std::string& file, uint64_t fileOffset);

// Encodes weights (each -256..255, max - min below 256 when more than 16 distinct) as Vela 5.0
// does; `forceRaw` as Vela does for 2:4-sparse weights. Throws std::invalid_argument for weights
// the format cannot hold.
std::vector<uint8_t> encodeFastWeightStream(const WeightValues& weights, bool forceRaw);

std::string_view fastWeightModeName(FastWeightMode mode);

} // namespace npusim::cmd
