// SPDX-License-Identifier: Apache-2.0
// The compressed weight-stream codec: streams assembled bit by bit from the format description
// decode to the intended weights, encoded weights decode back, and malformed streams are
// InputErrors at the right byte offset.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/cmdstream/fast_weight_codec.h"
#include "sim/cmdstream/weight_codec.h"
#include "sim/common/error.h"

using npusim::InputError;
using npusim::cmd::decodeWeightStream;
using npusim::cmd::encodeWeightStream;
using npusim::cmd::WeightValues;

namespace {

// Packs fields least significant bit first, as the format stores them.
class Bits {
public:
  Bits& put(int width, uint32_t value) {
    for (int i = 0; i < width; ++i) {
      if (pos_ % 8 == 0) {
        bytes_.push_back(0);
      }
      bytes_.back() = static_cast<uint8_t>(bytes_.back() | (((value >> i) & 1u) << (pos_ % 8)));
      ++pos_;
    }
    return *this;
  }
  // End-of-stream marker (ZDIV = 7), 1 bits to the byte boundary, 0xff bytes to 16 bytes.
  std::vector<uint8_t> finish() {
    put(3, 7);
    while (pos_ % 8 != 0) {
      put(1, 1);
    }
    while (bytes_.size() % 16 != 0) {
      put(8, 0xff);
    }
    return bytes_;
  }
  // The bytes so far (the last one zero-filled), without an end marker.
  const std::vector<uint8_t>& bytes() const { return bytes_; }

private:
  std::vector<uint8_t> bytes_;
  size_t pos_ = 0;
};

WeightValues decode(const std::vector<uint8_t>& s) { return decodeWeightStream(s.data(), s.size(), "w.bin", 100); }

InputError errorOf(const std::vector<uint8_t>& s) {
  try {
    decode(s);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError");
  return InputError({}, "");
}

// Uncompressed 3-bit direct codes, no palette, no zero runs: 3, -2, 0, 1 are the
// sign-magnitude codes 6, 5, 0, 2.
std::vector<uint8_t> uncompressedStream() {
  Bits b;
  b.put(3, 6).put(15, 3).put(3, 7).put(1, 0).put(1, 1);   // ZDIV none, 4 weights, WDIV uncompressed, NEWPAL
  b.put(5, 0).put(5, 0).put(3, 1);                         // DIROFS 0, no palette, PALBITS 3 bits
  b.put(3, 6).put(3, 5).put(3, 0).put(3, 2);               // remainders of the first chunk
  return b.finish();
}

// Varied weight sets for encode/decode round trips.
std::vector<WeightValues> weightSets() {
  uint32_t seed = 12345;
  auto next = [&seed]() {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) & 0x7fff;
  };
  WeightValues sparse, dense, narrow, wide, zeros(100, 0), long_, phases;
  for (int i = 0; i < 3000; ++i) {
    sparse.push_back(next() % 7 == 0 ? static_cast<int16_t>(static_cast<int>(next() % 61) - 30) : 0);
    dense.push_back(static_cast<int16_t>(static_cast<int>(next() % 255) - 127));
    narrow.push_back(static_cast<int16_t>(static_cast<int>(next() % 5) - 2));
    wide.push_back(static_cast<int16_t>(static_cast<int>(next() % 511) - 255));
  }
  for (int i = 0; i < 70000; ++i) {   // beyond one slice's 32768 weights
    long_.push_back(static_cast<int16_t>(static_cast<int>(next() % 9) - 4));
  }
  for (int i = 0; i < 4000; ++i) {     // distribution changes: palette restarts
    const int value = i < 2000 ? static_cast<int>(next() % 4) : static_cast<int>(next() % 200) - 100;
    phases.push_back(static_cast<int16_t>(value));
  }
  return {sparse, dense, narrow, wide, zeros, long_, phases, WeightValues{1}, WeightValues{-255, 255, 0}};
}

} // namespace

TEST_CASE("weight codec decodes an uncompressed stream assembled from the format") {
  CHECK(decode(uncompressedStream()) == WeightValues{3, -2, 0, 1});
}

TEST_CASE("weight codec decodes a palette stream with zero runs assembled from the format") {
  // Weights 0 0 5 0 0 0 5: palette {code 10 (= 5), 0}, both weights index 0, zero runs 2, 3, 0.
  Bits b;
  b.put(3, 0).put(15, 1).put(3, 0).put(1, 0).put(1, 1);   // ZDIV 0, 2 weights, WDIV 0, NEWPAL
  b.put(5, 0).put(5, 1).put(3, 2);                         // DIROFS 0, 2 entries, 4-bit entries
  b.put(4, 10).put(4, 0);
  b.put(12, 0);                                            // WUNARY0: both quotients 0
  b.put(12, 0b111011);                                     // ZUNARY: runs 2 (110), 3 (1110), 0 (0)
  CHECK(decode(b.finish()) == WeightValues{0, 0, 5, 0, 0, 0, 5});
}

TEST_CASE("weight codec: encoded weights decode back and end on a 16-byte boundary") {
  for (const WeightValues& w : weightSets()) {
    const std::vector<uint8_t> s = encodeWeightStream(w);
    CHECK(s.size() % 16 == 0);
    CHECK(decode(s) == w);
  }
}

TEST_CASE("weight codec rejects weights outside -255..255") {
  CHECK_THROWS_AS(encodeWeightStream(WeightValues{0, 256}), std::invalid_argument);
}

TEST_CASE("weight codec: malformed streams are InputErrors with the byte offset") {
  const std::vector<uint8_t> good = uncompressedStream();
  SUBCASE("truncated") {
    std::vector<uint8_t> s(good.begin(), good.begin() + 3);
    const InputError e = errorOf(s);
    CHECK(e.where().file == "w.bin");
    CHECK(e.where().byteOffset == 103u);   // the end of the 3 bytes given
    CHECK(e.message().find("truncated") != std::string::npos);
  }
  SUBCASE("zero-run divisor 4") {
    std::vector<uint8_t> s = good;
    s[0] = static_cast<uint8_t>((s[0] & ~7u) | 4u);
    CHECK(errorOf(s).where().byteOffset == 100u);
  }
  SUBCASE("weight divisor 6") {
    Bits b;
    b.put(3, 6).put(15, 0).put(3, 6);
    CHECK(errorOf(b.finish()).message().find("weight divisor 6") != std::string::npos);
  }
  SUBCASE("first slice without a palette header") {
    Bits b;
    b.put(3, 6).put(15, 0).put(3, 7).put(1, 0).put(1, 0);
    CHECK(errorOf(b.finish()).message().find("without a palette") != std::string::npos);
  }
  SUBCASE("direct value beyond 9 bits") {
    Bits b;
    b.put(3, 6).put(15, 0).put(3, 7).put(1, 0).put(1, 1);
    b.put(5, 31).put(5, 0).put(3, 7).put(9, 511);          // DIROFS 31 + index 511 = code 542
    const InputError e = errorOf(b.finish());
    CHECK(e.message().find("9-bit") != std::string::npos);
    CHECK(e.where().byteOffset == 104u);                   // the remainder starts in byte 4
  }
  SUBCASE("zero runs beyond 2^26 weights") {
    // One weight and a leading zero run of (2^23 + 8) << 3 zeros: 2^20 + 1 all-ones ZUNARY chunks.
    Bits b;
    b.put(3, 3).put(15, 0).put(3, 7).put(1, 0).put(1, 1);   // ZDIV 3, 1 weight, uncompressed, NEWPAL
    b.put(5, 0).put(5, 0).put(3, 0);                         // no palette, 2-bit indices
    b.put(8, 0xff);                                          // chunk 1: ZUNARY (no WUNARY0)
    b.put(8, 0xff).put(2, 1);                                // chunk 2: ZUNARY, chunk 1's weight remainder
    for (int i = 0; i < (1 << 20) - 1; ++i) {
      b.put(8, 0xff);
    }
    b.put(8, 0).put(3, 0).put(3, 0);                         // runs end; their remainders
    const InputError e = errorOf(b.finish());
    CHECK(e.where().byteOffset == 100u);
    CHECK(e.message().find("more than 67108864 weights") != std::string::npos);
  }
  SUBCASE("trailing garbage after the padding") {
    std::vector<uint8_t> s = good;
    s.insert(s.end(), 16, 0xff);
    CHECK(errorOf(s).where().byteOffset == 116u);
  }
  SUBCASE("non-padding byte after the end marker") {
    std::vector<uint8_t> s = good;
    s[10] = 0x00;
    CHECK(errorOf(s).where().byteOffset == 110u);
  }
  SUBCASE("padding short of the 16-byte boundary") {
    std::vector<uint8_t> s(good.begin(), good.end() - 1);
    CHECK(errorOf(s).where().byteOffset == 115u);
  }
}

TEST_CASE("brick order visits every OHWI weight exactly once, padding the rest") {
  using npusim::cmd::BrickLayout;
  std::vector<BrickLayout> layouts;
  BrickLayout conv;   // 3x3 conv, 20 -> 40 channels, OFM blocks of 16, depth first
  conv.ofmDepth = 40;
  conv.kernelHeight = conv.kernelWidth = 3;
  conv.ifmDepth = 20;
  conv.ofmBlockDepth = 16;
  layouts.push_back(conv);
  BrickLayout part = conv;   // part-kernel first, 16-bit IFM, 4-deep OFM micro-blocks
  part.partKernelFirst = true;
  part.ifmBits = 16;
  part.ofmUblockDepth = 4;
  layouts.push_back(part);
  BrickLayout big = conv;    // 10x10 kernel: sub-kernels of 8 and 2
  big.kernelHeight = big.kernelWidth = 10;
  layouts.push_back(big);
  for (const BrickLayout& l : layouts) {
    const std::vector<int64_t> order = npusim::cmd::brickOrder(l, npusim::cmd::kMaxStreamWeights).value();
    const int64_t count = int64_t{l.ofmDepth} * l.kernelHeight * l.kernelWidth * l.ifmDepth;
    std::vector<int> seen(static_cast<size_t>(count), 0);
    for (int64_t index : order) {
      REQUIRE(index >= -1);
      REQUIRE(index < count);
      if (index >= 0) {
        ++seen[static_cast<size_t>(index)];
      }
    }
    CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  }
}

TEST_CASE("brick order of a depthwise 3x3 kernel: OFM micro-block inside each padded kernel element") {
  npusim::cmd::BrickLayout dw;
  dw.depthwise = true;
  dw.ofmDepth = 8;
  dw.kernelHeight = dw.kernelWidth = 3;
  dw.ofmBlockDepth = 8;
  const std::vector<int64_t> order = npusim::cmd::brickOrder(dw, 96).value();
  REQUIRE(order.size() == 12u * 8u);   // 9 elements padded to 12, 8 channels each
  CHECK_FALSE(npusim::cmd::brickOrder(dw, 95));
  CHECK(order[0] == 0);                // channel 0, element (0, 0)
  CHECK(order[1] == 9);                // channel 1, element (0, 0): OHWI index 1 * 9
  CHECK(order[8] == 1);                // channel 0, element (0, 1)
  CHECK(order[8 * 8] == 8);            // channel 0, element (2, 2)
  CHECK(std::all_of(order.begin() + 72, order.end(), [](int64_t i) { return i == -1; }));
}

// ------------------------------------------------------------------------------------------
// The Ethos-U85's weight order (ethos-u85.md 4.1-4.3): a stream per weight decoder, groups of
// 4 OFM channels of each micro-block dealt round-robin to the decoders.

namespace {

using npusim::arch::WeightOrder;
using npusim::cmd::BrickLayout;

BrickLayout u85Layout() {
  BrickLayout l;
  l.order = WeightOrder::DecoderGroups;
  l.macs = 1024;
  return l;
}

// The U85 stream `stream` of `l` (every position must be in range).
std::vector<int64_t> u85Order(const BrickLayout& l, uint32_t stream) {
  return npusim::cmd::brickOrder(l, npusim::cmd::kMaxStreamWeights, stream).value();
}

} // namespace

TEST_CASE("U85 weight order: the decoders' streams visit every OHWI weight exactly once, padding the rest") {
  std::vector<BrickLayout> layouts;
  BrickLayout deep = u85Layout();   // depth first: 3 IFM blocks (serpentine), 3 OFM blocks, 4 decoders
  deep.ofmDepth = 40;
  deep.kernelHeight = deep.kernelWidth = 3;
  deep.ifmDepth = 70;
  deep.ifmBlockDepth = 32;
  deep.ofmBlockDepth = 16;
  deep.ofmUblockDepth = 16;
  deep.streams = 4;
  layouts.push_back(deep);
  BrickLayout part = u85Layout();   // part-kernel first, 16-bit, stride 2 phases, 2 decoders
  part.partKernelFirst = true;
  part.ifmBits = 16;
  part.strideX = part.strideY = 2;
  part.ofmDepth = 24;
  part.kernelHeight = 5;
  part.kernelWidth = 3;
  part.ifmDepth = 20;
  part.ifmBlockDepth = 16;
  part.ofmBlockDepth = 16;
  part.ofmUblockDepth = 8;
  part.streams = 2;
  layouts.push_back(part);
  BrickLayout dw = u85Layout();     // depthwise, 10x3 kernel (two sub-kernels), stride 2, padding gaps
  dw.depthwise = true;
  dw.strideX = dw.strideY = 2;
  dw.ofmDepth = 40;
  dw.kernelHeight = 10;
  dw.kernelWidth = 3;
  dw.ofmBlockDepth = 32;
  dw.ofmUblockDepth = 16;
  dw.streams = 4;
  dw.macs = 2048;
  layouts.push_back(dw);
  BrickLayout sparse = deep;        // 2:4 sparse: IFM groups of 16
  sparse.sparse = true;
  sparse.ifmBlockDepth = 128;
  sparse.ofmUblockDepth = 32;
  sparse.ofmBlockDepth = 32;
  layouts.push_back(sparse);
  BrickLayout fast = part;          // fast format: one stream, the decoders interleaved
  fast.fast = true;
  fast.ifmBits = 8;
  fast.streams = 4;
  fast.ofmUblockDepth = 16;
  layouts.push_back(fast);
  for (size_t i = 0; i < layouts.size(); ++i) {
    INFO("layout " << i);
    const BrickLayout& l = layouts[i];
    const int64_t count = int64_t{l.ofmDepth} * l.kernelHeight * l.kernelWidth * l.ifmDepth;
    std::vector<int> seen(static_cast<size_t>(count), 0);
    CHECK(npusim::cmd::weightStreamCount(l) == (l.fast ? 1u : l.streams));
    for (uint32_t stream = 0; stream < npusim::cmd::weightStreamCount(l); ++stream) {
      for (int64_t index : u85Order(l, stream)) {
        REQUIRE(index >= -1);
        REQUIRE(index < count);
        if (index >= 0) {
          ++seen[static_cast<size_t>(index)];
        }
      }
    }
    CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  }
  // Depth first: per decoder, OFM blocks x IFM blocks x kernel elements x the IFM block's depth
  // x its share of each micro-block, nothing rounded but the IFM block.
  for (uint32_t stream = 0; stream < deep.streams; ++stream) {
    CHECK(u85Order(deep, stream).size() == 3u * 3u * 9u * 32u * 4u);
  }
}

TEST_CASE("U85 weight order of a 1x1 depth-first convolution: decoder groups, IFM blocks reversed on every OFM block") {
  BrickLayout l = u85Layout();   // 32 OFM channels in blocks of 16, 16 IFM channels in blocks of 8
  l.ofmDepth = 32;
  l.ifmDepth = 16;
  l.ifmBlockDepth = 8;
  l.ofmBlockDepth = 16;
  l.ofmUblockDepth = 16;
  l.streams = 2;
  const std::vector<int64_t> first = u85Order(l, 0);
  REQUIRE(first.size() == 2u * 2u * 8u * 8u);   // OFM blocks x IFM blocks x 8 IFM x 8 channels
  CHECK(first[0] == 0);                  // channel 0, IFM 0 (OHWI index o * 16 + i)
  CHECK(first[7] == 7);                  // channel 0, IFM 7
  CHECK(first[8] == 16);                 // channel 1, IFM 0
  CHECK(first[32] == 8 * 16);            // channels 4-7 are decoder 1's: channel 8 next
  CHECK(first[64] == 8);                 // second IFM block: channel 0, IFM 8
  CHECK(first[128] == 16 * 16 + 8);      // second OFM block starts at the last IFM block
  CHECK(first[192] == 16 * 16);          // ... and returns to the first
  CHECK(u85Order(l, 1)[0] == 4 * 16);    // decoder 1 starts at channel 4
  // Fast format: one stream, 4 decoders' orders interleaved in blocks of 16 x 8 / 4 weights.
  l.fast = true;
  l.streams = 4;
  const std::vector<int64_t> fast = u85Order(l, 0);
  REQUIRE(fast.size() == 32u * 16u);
  CHECK(fast[0] == 0);                   // decoder 0: channel 0
  CHECK(fast[32] == 4 * 16);             // decoder 1: channel 4
  CHECK(fast[96] == 12 * 16);            // decoder 3: channel 12
  CHECK(fast[128] == 8);                 // decoder 0 again: channel 0, second IFM block
}

TEST_CASE("U85 weight order of a depthwise 3x3 kernel: serpentine rows, elements padded to 10, gaps on large MAC arrays") {
  BrickLayout dw = u85Layout();
  dw.depthwise = true;
  dw.ofmDepth = 16;
  dw.kernelHeight = dw.kernelWidth = 3;
  dw.ofmBlockDepth = 16;
  dw.ofmUblockDepth = 16;
  dw.streams = 4;
  const std::vector<int64_t> order = u85Order(dw, 1);
  REQUIRE(order.size() == (9u + 1u + 6u) * 4u);   // 9 elements + 1 to round to 10 + 6 gap, 4 channels
  CHECK(order[0] == 4 * 9);              // channel 4, element (0, 0)
  CHECK(order[3] == 7 * 9);              // channel 7
  CHECK(order[4] == 4 * 9 + 1);          // channel 4, element (0, 1)
  CHECK(order[12] == 4 * 9 + 5);         // row 1 reversed: element (1, 2) first
  CHECK(std::all_of(order.begin() + 36, order.end(), [](int64_t i) { return i == -1; }));
  dw.macs = 256;                         // 8-bit on 256 MACs: no gap
  CHECK(u85Order(dw, 1).size() == 10u * 4u);
  dw.macs = 512;
  CHECK(u85Order(dw, 1).size() == (10u + 2u) * 4u);
}

TEST_CASE("scale stream bytes: one per core of its channels (U55/U65), one per operation padded to micro-blocks (U85)") {
  BrickLayout bricks;
  bricks.ofmDepth = 17;
  bricks.streams = 2;
  CHECK(npusim::cmd::weightStreamCount(bricks) == 2);
  CHECK(npusim::cmd::scaleStreamBytes(bricks, 0, 10) == 96);   // 9 channels, 90 bytes
  CHECK(npusim::cmd::scaleStreamBytes(bricks, 1, 10) == 80);
  BrickLayout u85 = u85Layout();
  u85.ofmDepth = 17;
  u85.streams = 4;
  u85.ofmUblockDepth = 8;
  CHECK(npusim::cmd::scaleStreamBytes(u85, 0, 10) == 320);     // 32 records (a multiple of 16)
  CHECK(npusim::cmd::scaleStreamBytes(u85, 1, 10) == 0);
  u85.ofmDepth = 16;
  CHECK(npusim::cmd::scaleStreamBytes(u85, 0, 10) == 160);
  u85.ofmUblockDepth = 64;
  CHECK(npusim::cmd::scaleStreamBytes(u85, 0, 10) == 640);     // a multiple of the micro-block depth
}

// ------------------------------------------------------------------------------------------
// The Ethos-U85's fast weight decoder format (ethos-u85.md 4.3).

namespace {

// A fast stream assembled from the format: header flags, zero adjust, palette, body, padding.
std::vector<uint8_t> fastStream(bool raw, bool small, int zeroAdjust, const std::vector<int>& palette,
                                int indexBits, const std::vector<uint32_t>& body) {
  Bits b;
  b.put(1, raw ? 1 : 0).put(1, small ? 1 : 0);
  for (int i = 2; i < 104; ++i) b.put(1, 0);
  b.put(8, static_cast<uint32_t>(zeroAdjust) & 0xFF);
  for (int i = 0; i < 16; ++i) {
    const int v = i < static_cast<int>(palette.size()) ? palette[static_cast<size_t>(i)] : 0;
    b.put(9, static_cast<uint32_t>(v < 0 ? (-v) << 1 | 1 : v << 1));
  }
  for (uint32_t code : body) b.put(indexBits, code);
  std::vector<uint8_t> bytes = b.bytes();
  bytes.resize((bytes.size() + 31) / 32 * 32, 0);
  return bytes;
}

} // namespace

TEST_CASE("fast weight codec: palette streams assembled from the format decode, and Vela's choices encode them") {
  using npusim::cmd::FastWeightMode;
  // Three distinct weights: a palette of up to 4, 2-bit indices, in order of first appearance.
  const WeightValues weights{1, -1, 1, 0};
  const std::vector<uint8_t> small = fastStream(false, true, 0, {1, -1, 0}, 2, {0, 1, 0, 2});
  REQUIRE(small.size() == 64);
  const npusim::cmd::FastWeights decoded = npusim::cmd::decodeFastWeightStream(small.data(), small.size(), "w.bin", 0);
  CHECK(decoded.mode == FastWeightMode::Palette2);
  REQUIRE(decoded.values.size() == 128);   // (64 - 32) bytes of 2-bit indices, padding included
  CHECK(WeightValues(decoded.values.begin(), decoded.values.begin() + 4) == weights);
  CHECK(std::all_of(decoded.values.begin() + 4, decoded.values.end(), [](int16_t v) { return v == 1; }));
  CHECK(npusim::cmd::encodeFastWeightStream(weights, false) == small);
  CHECK(npusim::cmd::encodeFastWeightStream(decoded.values, false) == small);
  // Five distinct: 4-bit indices.
  const WeightValues five{3, 2, 1, 0, -1, 3};
  const std::vector<uint8_t> lut4 = fastStream(false, false, 0, {3, 2, 1, 0, -1}, 4, {0, 1, 2, 3, 4, 0});
  CHECK(npusim::cmd::encodeFastWeightStream(five, false) == lut4);
  CHECK(npusim::cmd::decodeFastWeightStream(lut4.data(), lut4.size(), "w.bin", 0).mode == FastWeightMode::Palette4);
}

TEST_CASE("fast weight codec: raw bytes with a zero adjust, and forced raw for 2:4-sparse weights") {
  // 17 distinct weights from -200: raw, zero adjust -128 - (-200) = 72 brings them into int8.
  WeightValues weights;
  for (int i = 0; i < 17; ++i) weights.push_back(static_cast<int16_t>(-200 + 10 * i));
  std::vector<uint32_t> bytes;
  for (int16_t w : weights) bytes.push_back(static_cast<uint32_t>(w + 72) & 0xFF);
  std::vector<int> palette(weights.begin(), weights.begin() + 16);
  const std::vector<uint8_t> raw = fastStream(true, false, 72, palette, 8, bytes);
  CHECK(npusim::cmd::encodeFastWeightStream(weights, false) == raw);
  const npusim::cmd::FastWeights decoded = npusim::cmd::decodeFastWeightStream(raw.data(), raw.size(), "w.bin", 0);
  CHECK(decoded.mode == npusim::cmd::FastWeightMode::Raw);
  CHECK(decoded.zeroAdjust == 72);
  CHECK(WeightValues(decoded.values.begin(), decoded.values.begin() + 17) == weights);
  CHECK(decoded.values.back() == -72);   // a padding byte 0
  // Forced raw (Vela's rule for 2:4-sparse weights): palette still the distinct weights, no adjust.
  const WeightValues sparse{5, 0, 0, -3};
  CHECK(npusim::cmd::encodeFastWeightStream(sparse, true) == fastStream(true, false, 0, {5, 0, -3}, 8, {5, 0, 0, 253}));
  CHECK_THROWS_AS(npusim::cmd::encodeFastWeightStream({-256, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 255}, false),
                  std::invalid_argument);
}

TEST_CASE("fast weight codec: malformed streams are InputErrors with the byte offset") {
  const auto error = [](const std::vector<uint8_t>& s) -> std::string {
    try {
      npusim::cmd::decodeFastWeightStream(s.data(), s.size(), "w.bin", 1000);
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  };
  const std::vector<uint8_t> good = fastStream(false, true, 0, {1}, 2, {0});
  CHECK(error({good.begin(), good.begin() + 16}).rfind("w.bin: byte 1000 (0x3e8): fast weight stream has 16 bytes", 0) == 0);
  CHECK(error({good.begin(), good.begin() + 48}).find("byte 1032 (0x408): fast weight stream length 48 is not a multiple of 32") !=
        std::string::npos);
  CHECK(error(fastStream(true, true, 0, {}, 8, {})).find("sets both raw mode and the small palette") != std::string::npos);
  std::vector<uint8_t> reserved = good;
  reserved[7] |= 0x10;   // bit 60
  CHECK(error(reserved).find("byte 1007 (0x3ef): fast weight stream header sets reserved bit 60") != std::string::npos);
}
