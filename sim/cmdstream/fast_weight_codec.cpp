// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/fast_weight_codec.h"

#include <algorithm>
#include <stdexcept>

#include "sim/common/error.h"

namespace npusim::cmd {

namespace {

// Header layout (bit positions).
constexpr size_t kRawBit = 0, kSmallPaletteBit = 1;
constexpr size_t kReservedFirst = 2, kReservedEnd = 104;
constexpr size_t kZeroAdjustBit = 104, kPaletteBit = 112, kPaletteEntryBits = 9;
constexpr size_t kPaletteSize = 16, kSmallPaletteSize = 4;
constexpr size_t kHeaderBits = kFastWeightHeaderBytes * 8;
// Palette entries and raw weights lie in -256..255 (a 9-bit sign-magnitude code).
constexpr int kMinWeight = -256, kMaxWeight = 255;

uint32_t bitsAt(const uint8_t* data, size_t pos, size_t count) {
  uint32_t v = 0;
  for (size_t i = 0; i < count; ++i) {
    v |= static_cast<uint32_t>((data[(pos + i) >> 3] >> ((pos + i) & 7)) & 1) << i;
  }
  return v;
}

// Sign-folded value (|v| << 1 | sign) and back.
uint32_t fold(int v) { return static_cast<uint32_t>(v < 0 ? (-v) << 1 | 1 : v << 1); }
int unfold(uint32_t code) { return (code & 1) != 0 ? -static_cast<int>(code >> 1) : static_cast<int>(code >> 1); }

class PositionalBitWriter {
public:
  explicit PositionalBitWriter(size_t bits) : bytes_((bits + 7) / 8, 0) {}
  void put(size_t pos, size_t count, uint32_t value) {
    for (size_t i = 0; i < count; ++i) {
      if ((value >> i) & 1) bytes_[(pos + i) >> 3] |= static_cast<uint8_t>(1u << ((pos + i) & 7));
    }
  }
  std::vector<uint8_t> take() { return std::move(bytes_); }

private:
  std::vector<uint8_t> bytes_;
};

size_t indexBits(FastWeightMode mode) {
  switch (mode) {
  case FastWeightMode::Palette2: return 2;
  case FastWeightMode::Palette4: return 4;
  case FastWeightMode::Raw: return 8;
  }
  return 8;
}

} // namespace

std::string_view fastWeightModeName(FastWeightMode mode) {
  switch (mode) {
  case FastWeightMode::Palette2: return "palette of 4 (2-bit indices)";
  case FastWeightMode::Palette4: return "palette of 16 (4-bit indices)";
  case FastWeightMode::Raw: return "raw bytes";
  }
  return "?";
}

FastWeights decodeFastWeightStream(const uint8_t* data, size_t size, const std::string& file, uint64_t fileOffset) {
  const auto fail = [&](size_t at, const std::string& m) { throwAtOffset(file, fileOffset + at, m); };
  if (size < kFastWeightHeaderBytes) {
    fail(0, "fast weight stream has " + std::to_string(size) + " bytes, fewer than its " +
                std::to_string(kFastWeightHeaderBytes) + "-byte header");
  }
  if (size % kFastWeightHeaderBytes != 0) {
    fail(size - size % kFastWeightHeaderBytes, "fast weight stream length " + std::to_string(size) +
                                                   " is not a multiple of " + std::to_string(kFastWeightHeaderBytes) +
                                                   " bytes");
  }
  const bool raw = bitsAt(data, kRawBit, 1) != 0, small = bitsAt(data, kSmallPaletteBit, 1) != 0;
  if (raw && small) {
    fail(0, "fast weight stream header sets both raw mode and the small palette");
  }
  for (size_t bit = kReservedFirst; bit < kReservedEnd; ++bit) {
    if (bitsAt(data, bit, 1) != 0) {
      fail(bit / 8, "fast weight stream header sets reserved bit " + std::to_string(bit) + " (bits 2-103 are 0)");
    }
  }
  FastWeights w;
  w.mode = raw ? FastWeightMode::Raw : small ? FastWeightMode::Palette2 : FastWeightMode::Palette4;
  w.zeroAdjust = static_cast<int8_t>(bitsAt(data, kZeroAdjustBit, 8));
  for (size_t i = 0; i < kPaletteSize; ++i) {
    w.palette[i] = static_cast<int16_t>(unfold(bitsAt(data, kPaletteBit + kPaletteEntryBits * i, kPaletteEntryBits)));
  }
  const size_t bits = indexBits(w.mode);
  const size_t count = (size * 8 - kHeaderBits) / bits;
  if (count > kMaxStreamWeights) {
    fail(0, "fast weight stream holds " + std::to_string(count) + " weights, more than npusim's limit of " +
                std::to_string(kMaxStreamWeights));
  }
  w.values.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const uint32_t v = bitsAt(data, kHeaderBits + i * bits, bits);
    w.values.push_back(static_cast<int16_t>(raw ? static_cast<int8_t>(v) - w.zeroAdjust : w.palette[v]));
  }
  return w;
}

std::vector<uint8_t> encodeFastWeightStream(const WeightValues& weights, bool forceRaw) {
  // 1. The palette (distinct weights in order of first appearance, while at most 16) and range.
  std::vector<int16_t> palette;
  bool paletteFits = true;
  int lo = kMaxWeight, hi = kMinWeight;
  for (size_t i = 0; i < weights.size(); ++i) {
    const int v = weights[i];
    if (v < kMinWeight || v > kMaxWeight) {
      throw std::invalid_argument("weight " + std::to_string(v) + " at index " + std::to_string(i) + " outside -256..255");
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    if (paletteFits && std::find(palette.begin(), palette.end(), v) == palette.end()) {
      if (palette.size() < kPaletteSize) {
        palette.push_back(static_cast<int16_t>(v));
      } else {
        paletteFits = false;
      }
    }
  }
  // 2. The mode; a raw stream's zero adjust brings its weights into -128..127.
  const bool raw = forceRaw || !paletteFits;
  const bool small = !raw && palette.size() <= kSmallPaletteSize;
  int zeroAdjust = 0;
  if (!paletteFits) {
    if (hi - lo >= 256) {
      throw std::invalid_argument("weights span " + std::to_string(lo) + ".." + std::to_string(hi) +
                                  ": a raw fast weight stream holds a range below 256");
    }
    zeroAdjust = lo < -128 ? -128 - lo : hi > 127 ? 127 - hi : 0;
  }
  // 3. Header, then the body, padded to a multiple of 32 bytes.
  const FastWeightMode mode = raw ? FastWeightMode::Raw : small ? FastWeightMode::Palette2 : FastWeightMode::Palette4;
  const size_t bits = indexBits(mode);
  const size_t streamBits = kHeaderBits + (weights.size() * bits + kHeaderBits - 1) / kHeaderBits * kHeaderBits;
  PositionalBitWriter out(streamBits);
  out.put(kRawBit, 1, raw ? 1 : 0);
  out.put(kSmallPaletteBit, 1, small ? 1 : 0);
  out.put(kZeroAdjustBit, 8, static_cast<uint32_t>(zeroAdjust) & 0xFF);
  for (size_t i = 0; i < palette.size(); ++i) {
    out.put(kPaletteBit + kPaletteEntryBits * i, kPaletteEntryBits, fold(palette[i]));
  }
  for (size_t i = 0; i < weights.size(); ++i) {
    const uint32_t code = raw ? static_cast<uint32_t>(weights[i] + zeroAdjust) & 0xFF
                              : static_cast<uint32_t>(std::find(palette.begin(), palette.end(), weights[i]) - palette.begin());
    out.put(kHeaderBits + i * bits, bits, code);
  }
  return out.take();
}

} // namespace npusim::cmd
