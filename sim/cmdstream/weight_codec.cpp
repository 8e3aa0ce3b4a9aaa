// SPDX-License-Identifier: Apache-2.0
#include "sim/cmdstream/weight_codec.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <stdexcept>

#include "sim/common/error.h"
#include "sim/common/int_math.h"

namespace npusim::cmd {

namespace {

// Header field values with a special meaning (format summary in the header).
constexpr uint32_t kZdivNoRuns = 6;
constexpr uint32_t kZdivEndOfStream = 7;
constexpr uint32_t kWdivUncompressed = 7;
constexpr uint32_t kMaxWdiv = 5;
constexpr uint32_t kMaxZdiv = 3;
// Symbols per chunk: 12 weight or zero-run unary bits; 8 for zero runs with a divisor of 3 and
// for uncompressed indices wider than 5 bits.
constexpr int kChunkSymbols = 12;
constexpr int kShortChunkSymbols = 8;
// The encoder lets the weight side run at most this many symbols ahead of the zero runs.
constexpr int kMaxRunAhead = 8;
// Weight indices and sign-magnitude codes are 9 bits.
constexpr int kCodeLimit = 512;
constexpr int kMaxMagnitude = 255;
constexpr int kMaxPalette = 32;
constexpr int kMaxSliceLength = 32767;   // SLICELEN is 15 bits holding length - 1
// A weight stream ends on a 16-byte boundary.
constexpr size_t kStreamAlignment = 16;
// kMaxStreamWeights is a sanity bound, not a format limit: zero runs let a corrupt stream of
// n bytes describe some 64 n zeros. The fixtures' largest stream (mobilenet_v2's classifier,
// 1280 x 1000) holds 1,280,000 weights; 2^26 int16 weights are 128 MiB.

// 9-bit sign-magnitude code of a weight (bit 0 = sign), and back.
int codeOf(int weight) { return weight < 0 ? ((-weight) << 1) | 1 : weight << 1; }
int weightOf(int code) { return (code & 1) != 0 ? -(code >> 1) : code >> 1; }

int zeroRunChunkSymbols(int zdiv) { return zdiv < 3 ? kChunkSymbols : kShortChunkSymbols; }
int weightChunkSymbols(bool uncompressed, int divisor) {
  return uncompressed && divisor > 5 ? kShortChunkSymbols : kChunkSymbols;
}
// Bits of an uncompressed palette index: enough for every entry.
int indexBits(int paletteSize) {
  int bits = 0;
  while ((1 << bits) < paletteSize) {
    ++bits;
  }
  return bits;
}

// ------------------------------------------------------------------------------------------
// Decoder

// Least-significant-bit-first reader that throws InputError at the end of the data.
class BitReader {
public:
  BitReader(const uint8_t* data, size_t size, const std::string& file, uint64_t fileOffset)
      : data_(data), size_(size), file_(file), fileOffset_(fileOffset) {}

  uint32_t get(int bits, const char* field) {
    uint32_t value = 0;
    for (int i = 0; i < bits; ++i) {
      const size_t byte = pos_ >> 3;
      if (byte >= size_) {
        fail(size_, std::string("weight stream truncated in field ") + field);
      }
      value |= static_cast<uint32_t>((data_[byte] >> (pos_ & 7)) & 1) << i;
      ++pos_;
    }
    return value;
  }
  size_t bytePos() const { return pos_ >> 3; }
  size_t bitPos() const { return pos_; }
  [[noreturn]] void fail(size_t byte, const std::string& message) const {
    throwAtOffset(file_, fileOffset_ + byte, message);
  }

private:
  const uint8_t* data_;
  size_t size_;
  const std::string& file_;
  uint64_t fileOffset_;
  size_t pos_ = 0;
};

// Palette state a slice without a palette header inherits.
struct DecodePalette {
  std::vector<int> entries;   // sign-magnitude codes
  int bits = 2;               // PALBITS: entry width, and index width without a palette
  int directOffset = 0;
  bool zeroRuns = false;
};

// Quotients completed by one chunk's unary part.
struct Quotients {
  std::array<int, kChunkSymbols> q{};
  int count = 0;
};

// Reads WUNARY1 for the WUNARY0 bits `unary0` and turns both into quotients; `carry` holds a
// quotient still unfinished at the end of the previous chunk.
Quotients readWeightUnary(BitReader& in, uint32_t unary0, bool truncated, int symbols, int& carry) {
  Quotients out;
  int ones = 0;
  for (int i = 0; i < symbols; ++i) {
    ones += static_cast<int>((unary0 >> i) & 1);
  }
  uint32_t unary1 = in.get(ones, "WUNARY1");
  for (int i = 0; i < symbols; ++i) {
    int code = 0;
    if (((unary0 >> i) & 1) != 0) {
      code = 1 + static_cast<int>(unary1 & 1);
      unary1 >>= 1;
    }
    carry += code;
    if (code < 2 || truncated) {
      out.q[static_cast<size_t>(out.count++)] = carry;
      carry = 0;
    }
  }
  return out;
}

// Reads one chunk's zero-run unary bits into quotients.
Quotients readRunUnary(BitReader& in, int symbols, int& carry) {
  Quotients out;
  const uint32_t unary = in.get(symbols, "ZUNARY");
  for (int i = 0; i < symbols; ++i) {
    if (((unary >> i) & 1) != 0) {
      ++carry;
    } else {
      out.q[static_cast<size_t>(out.count++)] = carry;
      carry = 0;
    }
  }
  return out;
}

// Decodes one slice whose header fields up to NEWPAL have been read; appends its weights.
void decodeSlice(BitReader& in, size_t sliceStart, int zdiv, int length, int wdiv, bool truncated,
                 bool newPalette, DecodePalette& palette, WeightValues& out) {
  const bool zeroRuns = zdiv != static_cast<int>(kZdivNoRuns);
  if (newPalette) {
    palette.directOffset = static_cast<int>(in.get(5, "DIROFS"));
    const uint32_t size = in.get(5, "PALSIZE");
    palette.bits = static_cast<int>(in.get(3, "PALBITS")) + 2;
    palette.entries.assign(size > 0 ? size + 1 : 0, 0);
    for (int& entry : palette.entries) {
      entry = static_cast<int>(in.get(palette.bits, "palette entry"));
    }
    palette.zeroRuns = zeroRuns;
  } else if (palette.zeroRuns != zeroRuns) {
    in.fail(sliceStart, "weight stream slice changes the zero-run mode without a new palette");
  }
  const int paletteSize = static_cast<int>(palette.entries.size());
  const bool uncompressed = wdiv == static_cast<int>(kWdivUncompressed);
  const int divisor = !uncompressed ? wdiv : paletteSize > 0 ? indexBits(paletteSize) : palette.bits;
  const int runCount = zeroRuns ? length + (newPalette ? 1 : 0) : 0;
  std::vector<int> indices(static_cast<size_t>(length), 0);
  std::vector<int64_t> runs(static_cast<size_t>(runCount), 0);
  const int weightSymbols = weightChunkSymbols(uncompressed, divisor);
  const int runSymbols = zeroRunChunkSymbols(zdiv);

  // Chunks: this chunk's unary parts, then the previous chunk's remainders.
  int weightsSeen = 0, runsSeen = 0, weightsDone = 0, runsDone = 0, weightCarry = 0, runCarry = 0;
  Quotients prevWeights, prevRuns;
  bool prevWeightsOn = false, prevRunsOn = false;
  do {
    const int balance = zeroRuns ? weightsSeen - runsSeen : 0;
    const bool weightsOn = (balance < kMaxRunAhead || !zeroRuns) && weightsSeen < length;
    const bool runsOn = zeroRuns && balance >= 0 && runsSeen < runCount;
    Quotients weights, zeroes;
    // WUNARY0, ZUNARY, WUNARY1, then the previous chunk's remainders.
    const uint32_t unary0 = weightsOn && !uncompressed ? in.get(kChunkSymbols, "WUNARY0") : 0;
    if (runsOn) {
      zeroes = readRunUnary(in, runSymbols, runCarry);
      runsSeen += zeroes.count;
    }
    if (weightsOn) {
      weights = readWeightUnary(in, unary0, truncated, weightSymbols, weightCarry);
      weightsSeen += weights.count;
    }
    for (int i = 0; prevWeightsOn && i < prevWeights.count && weightsDone < length; ++i) {
      const size_t at = in.bytePos();
      const int64_t index = (int64_t{prevWeights.q[static_cast<size_t>(i)]} << divisor) +
                            in.get(divisor, "WREMAIN");
      const int64_t code = index < paletteSize ? palette.entries[static_cast<size_t>(index)]
                                               : index - paletteSize + palette.directOffset;
      if (code >= kCodeLimit) {
        in.fail(at, "weight stream codes weight index " + std::to_string(index) + ", value code " +
                        std::to_string(code) + " (9-bit codes only)");
      }
      indices[static_cast<size_t>(weightsDone++)] = static_cast<int>(code);
    }
    for (int i = 0; prevRunsOn && i < prevRuns.count && runsDone < runCount; ++i) {
      runs[static_cast<size_t>(runsDone++)] =
          (int64_t{prevRuns.q[static_cast<size_t>(i)]} << zdiv) + in.get(zdiv, "ZREMAIN");
    }
    prevWeights = weights;
    prevRuns = zeroes;
    prevWeightsOn = weightsOn;
    prevRunsOn = runsOn;
  } while (prevWeightsOn || prevRunsOn);

  // Weights with their zero runs: a slice opening a palette also codes a leading run.
  int64_t total = static_cast<int64_t>(out.size()) + length;
  for (int64_t run : runs) {
    total += run;
  }
  if (total > static_cast<int64_t>(kMaxStreamWeights)) {
    in.fail(sliceStart, "weight stream decodes to more than " + std::to_string(kMaxStreamWeights) +
                            " weights (corrupt zero runs?)");
  }
  const size_t first = newPalette && zeroRuns ? 1 : 0;
  if (first == 1) {
    out.insert(out.end(), static_cast<size_t>(runs[0]), 0);
  }
  for (size_t i = 0; i < indices.size(); ++i) {
    out.push_back(static_cast<int16_t>(weightOf(indices[i])));
    if (zeroRuns) {
      out.insert(out.end(), static_cast<size_t>(runs[i + first]), 0);
    }
  }
}

// ------------------------------------------------------------------------------------------
// Encoder (Vela 3.10's choices)

// Least-significant-bit-first writer.
class BitWriter {
public:
  void put(int bits, uint32_t value) {
    for (int i = 0; i < bits; ++i) {
      if ((pos_ & 7) == 0) {
        bytes_.push_back(0);
      }
      bytes_.back() = static_cast<uint8_t>(bytes_.back() | (((value >> i) & 1) << (pos_ & 7)));
      ++pos_;
    }
  }
  size_t bitPos() const { return pos_; }
  std::vector<uint8_t> take() { return std::move(bytes_); }

private:
  std::vector<uint8_t> bytes_;
  size_t pos_ = 0;
};

// Occurrences of each weight, indexed by weight + 256.
using Histogram = std::array<int, kCodeLimit>;

Histogram histogramOf(const int16_t* w, size_t n) {
  Histogram h{};
  for (size_t i = 0; i < n; ++i) {
    ++h[static_cast<size_t>(w[i] + 256)];
  }
  return h;
}

// Index bits a palette of `size` entries needs (0 for one entry or none).
int paletteIndexBits(int size) {
  for (int i = 7; i >= 0; --i) {
    if (size > (1 << i)) {
      return i + 1;
    }
  }
  return 0;
}

bool isPowerOfTwoOrZero(int x) { return ((x - 1) & x) == 0; }

// Where the encoder starts a new palette: positions found by estimating, every 32..512
// non-zero weights, whether a palette over the recent weights saves bits over the current one.
std::vector<size_t> paletteSections(const WeightValues& w) {
  const int n = static_cast<int>(w.size());
  std::vector<size_t> restarts{0};
  std::array<int, kCodeLimit> lastSeen;
  lastSeen.fill(-1);
  int lastRestart = 0, paletteSize = 0, zeros = 0;
  bool havePalette = false;
  for (int i = 0; i < n; ++i) {
    const int excludeZero = zeros > (i - lastRestart) / 4 ? 1 : 0;
    const size_t slot = static_cast<size_t>(w[static_cast<size_t>(i)] + 256);
    if (havePalette && lastSeen[slot] < lastRestart) {
      ++paletteSize;
      // One more index bit for a long-lived palette: start afresh instead.
      if (isPowerOfTwoOrZero(paletteSize - 1 - excludeZero) &&
          ((i - lastRestart - zeros) > 512 || (paletteSize - excludeZero) > kMaxPalette)) {
        restarts.push_back(static_cast<size_t>(i));
        lastRestart = i;
        havePalette = false;
        zeros = 0;
      }
    }
    lastSeen[slot] = i;
    zeros += w[static_cast<size_t>(i)] == 0 ? 1 : 0;
    for (int window : {32, 64, 128, 256, 512}) {
      const int span = window * (havePalette ? 2 : 1);
      const int nonZeros = i - lastRestart - zeros;
      if (nonZeros <= 0 || nonZeros % span != 0) {
        continue;
      }
      // Start of the last `span` + 1 non-zero weights.
      int start = i, counted = 0;
      for (; start > lastRestart; --start) {
        if (w[static_cast<size_t>(start)] != 0) {
          if (counted == span + 1) {
            break;
          }
          ++counted;
        }
      }
      int newSize = 0;
      for (int seen : lastSeen) {
        newSize += seen >= start ? 1 : 0;
      }
      bool restart = false;
      if (havePalette) {
        const int newBits = paletteIndexBits(newSize - excludeZero);
        const int oldBits = paletteIndexBits(paletteSize - excludeZero);
        restart = span * (oldBits * 15 - newBits * 15) / 16 - newSize * 8 - 20 > 0;
      } else if (newSize - excludeZero <= kMaxPalette) {
        const int newBits = paletteIndexBits(newSize - excludeZero);
        restart = span * (90 - newBits * 15) / 16 - newSize * 8 - 20 > 0;
      }
      if (restart) {
        paletteSize = newSize;
        havePalette = true;
        lastRestart = start;
        if (restarts.back() != static_cast<size_t>(lastRestart)) {
          restarts.push_back(static_cast<size_t>(lastRestart));
        }
        zeros = 0;
        for (int j = lastRestart; j <= i; ++j) {
          zeros += w[static_cast<size_t>(j)] == 0 ? 1 : 0;
        }
      }
    }
  }
  return restarts;
}

// One section's palette and index mapping.
struct EncodePalette {
  std::vector<int> entries;    // sign-magnitude codes, most frequent first
  int bits = 2;                // PALBITS
  int directOffset = 0;
  bool zeroRuns = false;
  bool onlyPalette = false;    // every value is a palette entry
  bool onlyZeros = false;      // nothing but zeros
  std::array<int, kCodeLimit> indexOf{};   // weight + 256 -> weight index
};

// The palette and weight indices of a section whose zero-run choice is made: the most frequent
// codes, as many as fit, when they cover more than half of the coded weights (at least half
// with `halfSuffices`), else direct codes only.
EncodePalette paletteWith(const Histogram& h, bool zeroRuns, bool halfSuffices) {
  EncodePalette p;
  p.zeroRuns = zeroRuns;
  // Counts per sign-magnitude code; (count << 16 | code) sorts by count, then code.
  std::array<uint64_t, kCodeLimit> keyed{};
  int total = 0, maxCode = 0;
  for (int v = -kMaxMagnitude; v <= kMaxMagnitude; ++v) {
    if (v == 0 && p.zeroRuns) {
      continue;
    }
    const int code = codeOf(v);
    const int c = h[static_cast<size_t>(v + 256)];
    keyed[static_cast<size_t>(code)] = (uint64_t(c) << 16) | uint64_t(code);
    total += c;
    if (c > 0) {
      maxCode = std::max(maxCode, code);
    }
  }
  constexpr int kMaxDirectOffset = 31;
  while (p.directOffset < kMaxDirectOffset && (keyed[static_cast<size_t>(p.directOffset)] >> 16) == 0) {
    ++p.directOffset;
  }
  std::sort(keyed.begin(), keyed.end(), [](uint64_t a, uint64_t b) { return a > b; });
  p.onlyZeros = (keyed[0] >> 16) == 0;
  if (p.onlyZeros) {
    p.directOffset = 0;
  }
  p.onlyPalette = (keyed[0] >> 16) > 0 && (keyed[kMaxPalette] >> 16) == 0;
  int maxSize = kMaxPalette;
  if (!p.onlyPalette) {
    // Direct indices (index - size + offset) must stay below 512.
    maxSize = std::min(kMaxPalette, kCodeLimit - 1 - maxCode);
    if (maxSize == 1) {
      maxSize = 0;
    }
  }
  int covered = 0, largest = 0, size = 0;
  for (; size < maxSize; ++size) {
    const int c = static_cast<int>(keyed[static_cast<size_t>(size)] >> 16);
    if (c == 0) {
      break;
    }
    p.entries.push_back(static_cast<int>(keyed[static_cast<size_t>(size)] & 0xffff));
    largest = std::max(largest, p.entries.back());
    covered += c;
  }
  if (size == 1) {
    p.entries.push_back(0);   // a one-entry palette cannot be coded
    ++size;
  }
  int widest = maxCode;
  if (covered > total / 2 || (halfSuffices && covered == total / 2)) {
    widest = largest;
  } else {
    p.entries.clear();
  }
  p.bits = 2;
  while ((1 << p.bits) <= widest) {
    ++p.bits;
  }
  // Weight index of every value: direct codes shifted past the palette, then palette entries.
  const int paletteSize = static_cast<int>(p.entries.size());
  for (int code = 0; code < kCodeLimit; ++code) {
    p.indexOf[static_cast<size_t>(weightOf(code) + 256)] = code + paletteSize - p.directOffset;
  }
  for (int i = 0; i < paletteSize; ++i) {
    p.indexOf[static_cast<size_t>(weightOf(p.entries[static_cast<size_t>(i)]) + 256)] = i;
  }
  return p;
}

// Vela 3.10's palette of one section.
EncodePalette paletteFor(const int16_t* w, size_t n) {
  const Histogram h = histogramOf(w, n);
  // Zero runs when zero is the most common weight by more than a factor of 4 over the next.
  std::array<int, 2> topCount{0, 0};
  std::array<int, 2> topValue{0, 0};
  for (int i = 0; i < kCodeLimit; ++i) {
    const int c = h[static_cast<size_t>(i)];
    if (c > topCount[0]) {
      topCount[1] = topCount[0];
      topValue[1] = topValue[0];
      topCount[0] = c;
      topValue[0] = i - 256;
    } else if (c > topCount[1]) {
      topCount[1] = c;
      topValue[1] = i - 256;
    }
  }
  constexpr int kZeroRunFactor = 4;
  return paletteWith(h, topValue[0] == 0 && topCount[0] > kZeroRunFactor * topCount[1], false);
}

// Golomb-Rice parameter sets the search chooses from: divisor, truncated, uncompressed.
struct GrcParam {
  int divisor;
  bool truncated;
  bool uncompressed;
};
constexpr std::array<GrcParam, 13> kWeightParams{{{0, false, false}, {1, false, false}, {2, false, false},
                                                  {3, false, false}, {4, false, false}, {5, false, false},
                                                  {0, true, false},  {1, true, false},  {2, true, false},
                                                  {3, true, false},  {4, true, false},  {5, true, false},
                                                  {0, false, true}}};
constexpr std::array<GrcParam, 4> kRunParams{
    {{0, false, false}, {1, false, false}, {2, false, false}, {3, false, false}}};

// A run of values coded with one parameter set, ending before `end`.
struct Segment {
  size_t param;
  int end;
};

// Vela's parameter search: the cheapest sequence of parameter sets for `values`, a switch
// costing 40 bits except at `freeSwitches` (ends of the weight segments, for the zero runs).
std::vector<Segment> searchParams(const std::vector<int>& values, bool runs, int uncompressedBits,
                                  const std::vector<Segment>& freeSwitches) {
  const size_t nParams = runs ? kRunParams.size() : kWeightParams.size();
  const size_t n = values.size();
  struct State {
    int bits;
    uint8_t prev;
  };
  std::vector<std::vector<State>> state(nParams, std::vector<State>(n + 1));
  for (size_t j = 0; j < nParams; ++j) {
    state[j][0] = {0, static_cast<uint8_t>(j)};
  }
  constexpr int kSwitchCost = 40;
  constexpr int kImpossible = 10000;
  constexpr int kMaxQuotient = 31;
  size_t nextFree = 0;
  for (size_t i = 0; i < n; ++i) {
    int bestBits = 0x7fffffff;
    size_t best = 0;
    for (size_t j = 0; j < nParams; ++j) {
      if (state[j][i].bits < bestBits) {
        bestBits = state[j][i].bits;
        best = j;
      }
    }
    int switchCost = kSwitchCost;
    if (nextFree < freeSwitches.size() && freeSwitches[nextFree].end == static_cast<int>(i + 1)) {
      switchCost = 0;
      ++nextFree;
    }
    for (size_t j = 0; j < nParams; ++j) {
      const GrcParam& g = runs ? kRunParams[j] : kWeightParams[j];
      const int q = values[i] >> g.divisor;
      const bool capped = g.truncated || g.uncompressed;   // Vela's parameter byte has a nonzero high nibble
      int bits = capped ? std::min(q + 1, 2) + g.divisor : q + 1 + g.divisor;
      if (!runs && ((capped && q > 2) || q > kMaxQuotient)) {
        bits = kImpossible;
      }
      if (g.uncompressed) {
        bits = uncompressedBits;
      }
      if (bestBits + switchCost < state[j][i].bits) {
        state[j][i + 1] = {bestBits + switchCost + bits, static_cast<uint8_t>(best)};
      } else {
        state[j][i + 1] = {state[j][i].bits + bits, static_cast<uint8_t>(j)};
      }
    }
  }
  int bestBits = 0x7fffffff;
  size_t param = 0;
  for (size_t j = 0; j < nParams; ++j) {
    if (state[j][n].bits < bestBits) {
      bestBits = state[j][n].bits;
      param = j;
    }
  }
  // Walk back from the end, closing a segment wherever the chosen parameter set changed.
  std::vector<Segment> segments;
  int end = static_cast<int>(n);
  for (size_t i = n + 1; i-- > 0;) {
    if (state[param][i].prev != param || i == 0) {
      segments.push_back({param, end});
      param = state[param][i].prev;
      end = static_cast<int>(i) - 1;
    }
  }
  std::reverse(segments.begin(), segments.end());
  return segments;
}

// Writes one slice: header, optional palette, then the interleaved chunks.
void writeSlice(BitWriter& out, const int* indices, const int* runs, int length, const EncodePalette& p,
                bool newPalette, int uncompressedBits, const GrcParam& wp, const GrcParam& zp) {
  const int divisor = wp.uncompressed ? uncompressedBits : wp.divisor;
  const int zdiv = zp.divisor;
  out.put(3, p.zeroRuns ? static_cast<uint32_t>(zdiv) : kZdivNoRuns);
  out.put(15, static_cast<uint32_t>(length - 1));
  out.put(3, wp.uncompressed ? kWdivUncompressed : static_cast<uint32_t>(divisor));
  out.put(1, wp.truncated ? 1 : 0);
  out.put(1, newPalette ? 1 : 0);
  if (newPalette) {
    out.put(5, static_cast<uint32_t>(p.directOffset));
    out.put(5, static_cast<uint32_t>(std::max<int>(0, static_cast<int>(p.entries.size()) - 1)));
    out.put(3, static_cast<uint32_t>(p.bits - 2));
    for (int e : p.entries) {
      out.put(p.bits, static_cast<uint32_t>(e));
    }
  }
  const int runCount = length + (newPalette ? 1 : 0);
  const int weightSymbols = weightChunkSymbols(wp.uncompressed, divisor);
  const int runSymbols = zeroRunChunkSymbols(zdiv);
  int weightPos = 0, runPos = 0;
  int wq = -1, wr = 0, zq = -1, zr = 0;   // symbol being emitted (quotient left, remainder)
  std::array<int, kChunkSymbols> prevWeightRem{}, prevRunRem{};
  int prevWeightCount = 0, prevRunCount = 0;
  bool prevWeightsOn = false, prevRunsOn = false;
  do {
    const int balance = p.zeroRuns ? weightPos - runPos : 0;
    const bool weightsOn = balance < kMaxRunAhead && weightPos < length;
    const bool runsOn = balance >= 0 && p.zeroRuns && runPos < runCount;
    uint32_t unary0 = 0, unary1 = 0, zunary = 0;
    int unary1Len = 0;
    std::array<int, kChunkSymbols> weightRem{}, runRem{};
    int weightCount = 0, runCount2 = 0;
    if (weightsOn) {
      for (int j = 0; j < weightSymbols;) {
        if (wq < 0) {
          if (weightPos < length) {
            wq = indices[weightPos] >> divisor;
            wr = indices[weightPos] & ((1 << divisor) - 1);
          } else {
            wq = 0;
            wr = -1;   // filler after the last weight: no remainder
          }
        }
        while (wq >= 0 && j < weightSymbols) {
          if (wq > 0) {
            unary0 |= 1u << j;
            unary1 |= (wq > 1 ? 1u : 0u) << unary1Len;
            ++unary1Len;
          }
          ++j;
          wq -= wp.truncated ? 3 : 2;
        }
        if (wq < 0 && wr >= 0) {
          weightRem[static_cast<size_t>(weightCount++)] = wr;
          ++weightPos;
        }
      }
    }
    if (runsOn) {
      for (int j = 0; j < runSymbols;) {
        if (zq < 0) {
          if (runPos < runCount) {
            zq = runs[runPos] >> zdiv;
            zr = runs[runPos] & ((1 << zdiv) - 1);
          } else {
            zq = 0;
            zr = -1;
          }
        }
        while (zq >= 0 && j < runSymbols) {
          zunary |= (zq > 0 ? 1u : 0u) << j;
          ++j;
          --zq;
        }
        if (zq < 0 && zr >= 0) {
          runRem[static_cast<size_t>(runCount2++)] = zr;
          ++runPos;
        }
      }
    }
    if (weightsOn && !wp.uncompressed) {
      out.put(kChunkSymbols, unary0);
    }
    if (runsOn) {
      out.put(runSymbols, zunary);
    }
    if (weightsOn && !wp.uncompressed) {
      out.put(unary1Len, unary1);
    }
    for (int i = 0; prevWeightsOn && i < prevWeightCount; ++i) {
      out.put(divisor, static_cast<uint32_t>(prevWeightRem[static_cast<size_t>(i)]));
    }
    for (int i = 0; prevRunsOn && i < prevRunCount; ++i) {
      out.put(zdiv, static_cast<uint32_t>(prevRunRem[static_cast<size_t>(i)]));
    }
    prevWeightsOn = weightsOn;
    prevWeightCount = weightCount;
    prevWeightRem = weightRem;
    prevRunsOn = runsOn;
    prevRunCount = runCount2;
    prevRunRem = runRem;
  } while (prevWeightsOn || prevRunsOn);
}

// One palette section as the symbols a slice codes: palette indices of the weights, the zero
// runs around them (when the palette has zero runs), and the bits of an uncompressed index.
struct SectionSymbols {
  std::vector<int> indices, runs;
  int uncompressedBits = 100;   // uncompressed mode unusable: never cheapest
};

// Splits a section into its symbols. When the section is all zeros the first zero is coded as
// a weight so that the slice is not empty.
SectionSymbols sectionSymbols(const int16_t* w, size_t n, const EncodePalette& p) {
  SectionSymbols s;
  if (p.onlyPalette) {
    s.uncompressedBits = indexBits(static_cast<int>(p.entries.size()));
  } else if (p.entries.empty()) {
    s.uncompressedBits = p.bits;
  }
  size_t i = 0;
  while (true) {
    if (p.zeroRuns) {
      int zeros = 0;
      if (!p.onlyZeros || i > 0) {
        while (i < n && w[i] == 0) {
          ++zeros;
          ++i;
        }
      }
      s.runs.push_back(zeros);
    }
    if (i == n) {
      break;
    }
    s.indices.push_back(p.indexOf[static_cast<size_t>(w[i] + 256)]);
    ++i;
  }
  return s;
}

// Encodes one palette section.
void writeSection(BitWriter& out, const int16_t* w, size_t n, const EncodePalette& p) {
  const SectionSymbols symbols = sectionSymbols(w, n, p);
  const std::vector<int>& indices = symbols.indices;
  const std::vector<int>& runs = symbols.runs;
  const int uncompressedBits = symbols.uncompressedBits;
  const int nWeights = static_cast<int>(indices.size());
  std::vector<Segment> weightSegments = searchParams(indices, false, uncompressedBits, {});
  if (nWeights == 0) {
    weightSegments.clear();
  }
  const std::vector<Segment> runSegments =
      p.zeroRuns ? searchParams(runs, true, 0, weightSegments) : std::vector<Segment>{};
  size_t wi = 0, zi = 0;
  bool newPalette = true;
  for (int pos = 0; pos < nWeights || newPalette;) {
    int end = pos + kMaxSliceLength;
    if (wi < weightSegments.size() && weightSegments[wi].end < end) {
      end = weightSegments[wi].end;
    }
    if (zi < runSegments.size() && runSegments[zi].end < end) {
      end = runSegments[zi].end;
    }
    end = std::min(end, nWeights);
    const size_t wParam = wi < weightSegments.size() ? weightSegments[wi].param : 0;
    const size_t zParam = zi < runSegments.size() ? runSegments[zi].param : 0;
    const int* runPtr = p.zeroRuns ? runs.data() + pos + (newPalette ? 0 : 1) : nullptr;
    writeSlice(out, indices.data() + pos, runPtr, end - pos, p, newPalette, uncompressedBits,
               kWeightParams[wParam], kRunParams[zParam]);
    newPalette = false;
    if (wi < weightSegments.size() && weightSegments[wi].end == end) {
      ++wi;
    }
    if (zi < runSegments.size() && runSegments[zi].end == end) {
      ++zi;
    }
    pos = end;
  }
}

// ------------------------------------------------------------------------------------------
// Encoder (Vela 5.0's choices: its C++ back end's mlw encoder)

// Weights Vela 5.0's encoder takes from its source at a time; each batch is a section with a
// palette of its own.
constexpr size_t kVela50Section = 131072;

// The palette of one section: zero runs when most zeros come in runs of two or more and zero
// outnumbers the most common other value more than fivefold; the palette when it covers at
// least half of the (coded) weights.
EncodePalette paletteForVela50(const int16_t* w, size_t n) {
  const Histogram h = histogramOf(w, n);
  int totalZeros = 0, zerosInRuns = 0, run = 0;
  for (size_t i = 0; i < n; ++i) {
    if (w[i] == 0) {
      ++totalZeros;
      ++run;
    } else {
      zerosInRuns += run >= 2 ? run : 0;
      run = 0;
    }
  }
  zerosInRuns += run >= 2 ? run : 0;
  int commonCount = 0;
  for (int i = 0; i < kCodeLimit; ++i) {
    if (i != 256) {
      commonCount = std::max(commonCount, h[static_cast<size_t>(i)]);
    }
  }
  constexpr int kZeroFrequencyFactor = 5;
  return paletteWith(h, zerosInRuns >= totalZeros / 2 && totalZeros > kZeroFrequencyFactor * commonCount, true);
}

// Vela 5.0's greedy parameter search: the cheapest parameter set so far is kept until another
// is cheaper by more than a 40-bit switch; a switch is backdated when the new set was usable
// and cheaper since before the current one started.
std::vector<Segment> searchParamsVela50(const std::vector<int>& values, bool runs, int uncompressedBits) {
  const size_t nParams = runs ? kRunParams.size() : kWeightParams.size();
  constexpr int kSwitchCost = 40;
  constexpr int kMaxQuotient = 31;
  std::array<int, kWeightParams.size()> bitCount{}, resetPos{};
  std::array<bool, kWeightParams.size()> coded{};
  int activeBits = 0;
  int active = -1;
  std::vector<Segment> result;
  for (size_t i = 0; i < values.size(); ++i) {
    int bestBits = 0x7fffffff;
    int best = 0;
    for (size_t j = 0; j < nParams; ++j) {
      const GrcParam& g = runs ? kRunParams[j] : kWeightParams[j];
      const int q = values[i] >> g.divisor;
      const bool capped = g.truncated || g.uncompressed;
      int bits = capped ? std::min(q + 1, 2) + g.divisor : q + 1 + g.divisor;
      bool canCode = runs || !((capped && q > 2) || q > kMaxQuotient);
      if (g.uncompressed) {
        bits = uncompressedBits;
        canCode = true;
      }
      if (canCode) {
        if (!coded[j]) {
          bitCount[j] = activeBits;
        }
        bitCount[j] += bits;
        if (bitCount[j] < bestBits) {
          bestBits = bitCount[j];
          best = static_cast<int>(j);
        }
      } else {
        resetPos[j] = static_cast<int>(i) + 1;
        bitCount[j] += kSwitchCost;
      }
      coded[j] = canCode;
    }
    const bool mustCode = active == -1 || !coded[static_cast<size_t>(active)];
    if (mustCode || (best != active && bestBits + kSwitchCost < activeBits)) {
      if (active != -1) {
        const auto a = static_cast<size_t>(active), b = static_cast<size_t>(best);
        if (!(bitCount[b] < bitCount[a] && resetPos[b] <= resetPos[a])) {
          result.push_back({a, static_cast<int>(i)});
        }
      }
      active = best;
    }
    activeBits = bitCount[static_cast<size_t>(active)];
  }
  if (result.empty() || result.back().param != static_cast<size_t>(active)) {
    result.push_back({static_cast<size_t>(std::max(active, 0)), 0});
  }
  result.back().end = static_cast<int>(values.size());
  return result;
}

// Encodes one section as Vela 5.0 does: weight and zero-run parameter segments end slices
// independently, and a slice codes the weights up to its weight segment's end.
void writeSectionVela50(BitWriter& out, const int16_t* w, size_t n, const EncodePalette& p) {
  const SectionSymbols symbols = sectionSymbols(w, n, p);
  const std::vector<int>& indices = symbols.indices;
  const std::vector<int>& runs = symbols.runs;
  const int uncompressedBits = symbols.uncompressedBits;
  const int nWeights = static_cast<int>(indices.size());
  const std::vector<Segment> weightSegments =
      nWeights > 0 ? searchParamsVela50(indices, false, uncompressedBits) : std::vector<Segment>{};
  const std::vector<Segment> runSegments = p.zeroRuns ? searchParamsVela50(runs, true, 0) : std::vector<Segment>{};
  size_t wi = 0, zi = 0;
  bool newPalette = true;
  bool runsOnlyPass = !runs.empty();
  for (int pos = 0; pos < nWeights || newPalette || runsOnlyPass;) {
    const int wLen = wi < weightSegments.size() ? std::min(weightSegments[wi].end - pos, kMaxSliceLength) : 0;
    const int zLen = zi < runSegments.size() ? std::min(runSegments[zi].end - pos, kMaxSliceLength) : 0;
    const size_t wParam = wLen > 0 ? weightSegments[wi].param : 0;
    const size_t zParam = zi < runSegments.size() ? runSegments[zi].param : 0;
    const int* runPtr = p.zeroRuns ? runs.data() + pos + (newPalette ? 0 : 1) : nullptr;
    writeSlice(out, indices.data() + pos, runPtr, wLen, p, newPalette, uncompressedBits, kWeightParams[wParam],
               kRunParams[zParam]);
    newPalette = false;
    runsOnlyPass = false;
    if (zLen <= 0 && wLen > 0) {
      pos += wLen;
    } else if (wLen <= 0 && zLen > 0) {
      pos += zLen;
    } else {
      pos += std::min(zLen, wLen);
    }
    if (wi < weightSegments.size() && weightSegments[wi].end <= pos) {
      ++wi;
    }
    if (zi < runSegments.size() && runSegments[zi].end <= pos) {
      ++zi;
    }
  }
}

} // namespace

WeightValues decodeWeightStream(const uint8_t* data, size_t size, const std::string& file, uint64_t fileOffset) {
  BitReader in(data, size, file, fileOffset);
  WeightValues out;
  DecodePalette palette;
  bool havePalette = false;
  while (true) {
    const size_t sliceStart = in.bytePos();
    const uint32_t zdiv = in.get(3, "ZDIV");
    if (zdiv == kZdivEndOfStream) {
      break;
    }
    if (zdiv > kMaxZdiv && zdiv != kZdivNoRuns) {
      in.fail(sliceStart, "weight stream slice has zero-run divisor " + std::to_string(zdiv) +
                              " (0-3, 6 = no zero runs, 7 = end of stream)");
    }
    const int length = static_cast<int>(in.get(15, "SLICELEN")) + 1;
    const uint32_t wdiv = in.get(3, "WDIV");
    if (wdiv > kMaxWdiv && wdiv != kWdivUncompressed) {
      in.fail(sliceStart, "weight stream slice has weight divisor " + std::to_string(wdiv) +
                              " (0-5, 7 = uncompressed)");
    }
    const bool truncated = in.get(1, "WTRUNC") != 0;
    const bool newPalette = in.get(1, "NEWPAL") != 0;
    if (!newPalette && !havePalette) {
      in.fail(sliceStart, "weight stream starts with a slice without a palette header");
    }
    decodeSlice(in, sliceStart, static_cast<int>(zdiv), length, static_cast<int>(wdiv), truncated, newPalette,
                palette, out);
    havePalette = true;
  }
  // End marker: the rest of its byte is 1 bits, then 0xff bytes up to the 16-byte boundary.
  const size_t markerByte = (in.bitPos() - 1) >> 3;
  const size_t tailBits = (8 - (in.bitPos() & 7)) & 7;
  if (tailBits > 0 && in.get(static_cast<int>(tailBits), "end-of-stream alignment") != (1u << tailBits) - 1) {
    in.fail(markerByte, "weight stream end-of-stream byte is not padded with 1 bits");
  }
  const size_t end = roundUp(markerByte + 1, kStreamAlignment);
  for (size_t i = markerByte + 1; i < size; ++i) {
    if (i >= end || data[i] != 0xff) {
      in.fail(i, "weight stream has trailing bytes after its end (expected 0xff padding up to stream byte " +
                     std::to_string(end) + ")");
    }
  }
  if (size < end) {
    in.fail(size, "weight stream padding ends at stream byte " + std::to_string(size) +
                      ", not at the 16-byte boundary " + std::to_string(end));
  }
  return out;
}

namespace {

// Collects a stream's order, refusing to grow past `maxLength` positions.
class OrderWriter {
public:
  explicit OrderWriter(size_t maxLength) : maxLength_(maxLength) {}
  bool room(size_t n) const { return order_.size() + n <= maxLength_; }
  void push(int64_t index) {
    if (order_.size() >= maxLength_) {
      overflow_ = true;
      return;
    }
    order_.push_back(index);
  }
  void pad(size_t n) {
    for (size_t i = 0; i < n && !overflow_; ++i) {
      push(-1);
    }
  }
  bool overflow() const { return overflow_; }
  std::vector<int64_t> take() { return std::move(order_); }

private:
  size_t maxLength_;
  bool overflow_ = false;
  std::vector<int64_t> order_;
};

// Channels of `depth` that core `core` of `cores` handles: every cores-th, starting at `core`.
uint32_t coreShare(uint32_t depth, uint32_t core, uint32_t cores) { return (depth + cores - 1 - core) / cores; }

// Bricks: core `stream`'s share of the channels in the U55/U65 brick order; OHWI indices of the
// whole volume (local channel o is channel stream + o * streams).
std::optional<std::vector<int64_t>> bricksOrder(const BrickLayout& whole, size_t maxLength, uint32_t stream) {
  BrickLayout l = whole;
  l.ofmDepth = coreShare(whole.ofmDepth, stream, whole.streams);
  l.ofmBlockDepth = coreShare(whole.ofmBlockDepth, stream, whole.streams);
  if (l.ofmDepth == 0 || l.ofmBlockDepth == 0) {
    return std::nullopt;
  }
  const int64_t perOfm = int64_t{l.kernelHeight} * l.kernelWidth * l.ifmDepth;
  OrderWriter out(maxLength);
  const uint32_t ifmBlockDepth = l.partKernelFirst || l.ifmBits == 16 ? 16 : 32;
  for (uint32_t ofmBlock = 0; ofmBlock < l.ofmDepth; ofmBlock += l.ofmBlockDepth) {
    const uint32_t ofmInBlock = std::min(l.ofmBlockDepth, l.ofmDepth - ofmBlock);
    for (uint32_t ifmBlock = 0; ifmBlock < (l.depthwise ? 1 : l.ifmDepth); ifmBlock += ifmBlockDepth) {
      const uint32_t ifmInBlock = l.depthwise         ? l.ifmUblockDepth
                                  : l.partKernelFirst ? std::min(ifmBlockDepth, l.ifmDepth - ifmBlock)
                                                      : ifmBlockDepth;
      for (uint32_t subY = 0; subY < l.kernelHeight; subY += l.decompHeight) {
        const uint32_t subHeight = std::min(l.kernelHeight - subY, l.decompHeight);
        for (uint32_t subX = 0; subX < l.kernelWidth; subX += l.decompWidth) {
          const uint32_t subWidth = std::min(l.kernelWidth - subX, l.decompWidth);
          // Kernel elements are padded to the MAC array's kernel quantum.
          uint32_t elements = subWidth * subHeight;
          if (l.partKernelFirst) {
            elements = roundUp(elements, l.ifmBits == 16 ? 2u : 4u);
          } else if (l.depthwise) {
            elements = roundUp(elements, 4u);
          }
          // Part-kernel-first walks IFM micro-blocks outside the kernel elements, depth-first inside.
          const uint32_t ifmOuter = l.partKernelFirst ? ifmInBlock : 1;
          const uint32_t ifmInner = l.partKernelFirst ? 1 : ifmInBlock;
          for (uint32_t outer = 0; outer < ifmOuter; outer += l.ifmUblockDepth) {
            for (uint32_t ofmU = 0; ofmU < ofmInBlock; ofmU += l.ofmUblockDepth) {
              for (uint32_t e = 0; e < elements; ++e) {
                const uint32_t kx = e % subWidth, ky = e / subWidth;
                for (uint32_t inner = 0; inner < ifmInner; inner += l.ifmUblockDepth) {
                  for (uint32_t oz = 0; oz < l.ofmUblockDepth; ++oz) {
                    const uint32_t ifmElements = l.depthwise ? 1 : l.ifmUblockDepth;
                    if (!out.room(ifmElements)) {
                      return std::nullopt;
                    }
                    for (uint32_t iz = 0; iz < ifmElements; ++iz) {
                      const uint32_t ifm = ifmBlock + outer + inner + iz;
                      const uint32_t ofm = ofmBlock + ofmU + oz;
                      if (ifm < l.ifmDepth && ofm < l.ofmDepth && ky < subHeight) {
                        const int64_t y = subY + ky, x = subX + kx;
                        const int64_t channel = stream + int64_t{ofm} * whole.streams;
                        out.push(channel * perOfm + (y * l.kernelWidth + x) * l.ifmDepth + ifm);
                      } else {
                        out.push(-1);
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return out.take();
}

// OFM channels of a micro-block one U85 weight decoder takes at a time (ethos-u85.md 4.2).
constexpr uint32_t kDecoderGroup = 4;
// U85 scale streams: records padded to a multiple of 16 channels (ethos-u85.md 4.1).
constexpr uint64_t kScaleRecordGranule = 16;

// DecoderGroups: the kernel elements of a sub-kernel are padded to a multiple of `quantum`;
// `chunk` IFM channels of the IFM block are walked per kernel element, `group` of them per OFM
// channel group.
struct DecoderSteps {
  uint32_t quantum = 1, chunk = 1, group = 1;
};

DecoderSteps decoderSteps(const BrickLayout& l) {
  const bool wide = l.ifmBits == 16;
  DecoderSteps s;
  s.quantum = l.depthwise ? 10 : l.partKernelFirst ? (wide || l.sparse ? 10 : 5) : 1;
  s.chunk = l.depthwise ? 1 : l.partKernelFirst && wide && !l.sparse ? 8 : l.ifmBlockDepth;
  s.group = l.depthwise ? 1 : l.sparse ? 16 : 8;
  return s;
}

// DecoderGroups: weight decoder `decoder`'s stream (ethos-u85.md 4.2).
std::optional<std::vector<int64_t>> decoderOrder(const BrickLayout& l, size_t maxLength, uint32_t decoder) {
  const bool wide = l.ifmBits == 16;
  const bool depthFirst = !l.depthwise && !l.partKernelFirst;
  const auto [quantum, chunk, group] = decoderSteps(l);
  const uint32_t strideX = depthFirst ? 1 : l.strideX, strideY = depthFirst ? 1 : l.strideY;
  // Depthwise: zeros after every `quantum` kernel elements, per micro-block channel, on the
  // larger MAC arrays.
  const uint32_t depthwiseGap = !wide && l.macs <= 256 ? 0 : l.macs <= 512 ? 2 : 6;
  const uint32_t perDecoder = l.ofmUblockDepth / l.streams;   // channels of a micro-block per decoder
  const int64_t perOfm = int64_t{l.kernelHeight} * l.kernelWidth * l.ifmDepth;
  const uint32_t ifmLimit = l.depthwise ? 1 : l.ifmDepth;
  const uint32_t lastIfmBlock = (ifmLimit - 1) / l.ifmBlockDepth * l.ifmBlockDepth;
  OrderWriter out(maxLength);
  bool forward = true;
  for (uint32_t ofmBlock = 0; ofmBlock < l.ofmDepth; ofmBlock += l.ofmBlockDepth, forward = !forward) {
    const uint32_t ofmInBlock = std::min(l.ofmBlockDepth, l.ofmDepth - ofmBlock);
    for (uint32_t b = 0; b <= lastIfmBlock; b += l.ifmBlockDepth) {
      const uint32_t ifmBlock = forward ? b : lastIfmBlock - b;
      const uint32_t ifmInBlock = l.depthwise ? 1 : std::min(l.ifmBlockDepth, l.ifmDepth - ifmBlock);
      for (uint32_t subX = 0; subX < l.kernelWidth; subX += l.decompWidth) {
        const uint32_t subWidth = std::min(l.kernelWidth - subX, l.decompWidth);
        for (uint32_t subY = 0; subY < l.kernelHeight; subY += l.decompHeight) {
          const uint32_t subHeight = std::min(l.kernelHeight - subY, l.decompHeight);
          for (uint32_t outer = 0; outer < ifmInBlock; outer += chunk) {
            for (uint32_t ofmU = 0; ofmU < ofmInBlock; ofmU += l.ofmUblockDepth) {
              uint32_t left = roundUp(subWidth * subHeight, quantum);   // kernel elements still to pad
              for (uint32_t phaseY = 0; phaseY < strideY; ++phaseY) {
                const uint32_t rows = (subHeight + strideY - 1 - phaseY) / strideY;
                for (uint32_t phaseX = 0; phaseX < strideX; ++phaseX) {
                  const uint32_t columns = (subWidth + strideX - 1 - phaseX) / strideX;
                  for (uint32_t ky = 0; ky < rows; ++ky) {
                    for (uint32_t kx = 0; kx < columns; ++kx) {
                      const uint32_t x = ky % 2 == 0 ? kx : columns - 1 - kx;
                      const int64_t wx = subX + phaseX + x * strideX, wy = subY + phaseY + ky * strideY;
                      --left;
                      for (uint32_t inner = 0; inner < chunk; inner += group) {
                        for (uint32_t g = decoder * kDecoderGroup; g < l.ofmUblockDepth;
                             g += kDecoderGroup * l.streams) {
                          for (uint32_t oz = 0; oz < kDecoderGroup; ++oz) {
                            for (uint32_t iz = 0; iz < group; ++iz) {
                              const uint32_t ifm = ifmBlock + outer + inner + iz;
                              const uint32_t ofm = ofmBlock + ofmU + g + oz;
                              out.push(ifm < l.ifmDepth && ofm < l.ofmDepth
                                           ? ofm * perOfm + (wy * l.kernelWidth + wx) * l.ifmDepth + ifm
                                           : -1);
                            }
                          }
                        }
                      }
                      if (l.depthwise && left % quantum == 0) {
                        out.pad(size_t{depthwiseGap} * perDecoder);
                      }
                      if (out.overflow()) {
                        return std::nullopt;
                      }
                    }
                  }
                }
              }
              if (left > 0) {
                out.pad(size_t{left + (l.depthwise ? depthwiseGap : 0)} * chunk * perDecoder);
              }
              if (out.overflow()) {
                return std::nullopt;
              }
            }
          }
        }
      }
    }
  }
  if (out.overflow()) {
    return std::nullopt;
  }
  return out.take();
}

// The fast format's one stream: the decoders' orders interleaved in blocks of one padded
// sub-kernel's IFM chunk for the decoder's share of a micro-block (ethos-u85.md 4.3).
std::optional<std::vector<int64_t>> interleavedOrder(const BrickLayout& l, size_t maxLength) {
  std::vector<std::vector<int64_t>> orders;
  for (uint32_t d = 0; d < l.streams; ++d) {
    std::optional<std::vector<int64_t>> order = decoderOrder(l, maxLength, d);
    if (!order) {
      return std::nullopt;
    }
    orders.push_back(std::move(*order));
  }
  const DecoderSteps steps = decoderSteps(l);
  const size_t block = size_t{l.ofmUblockDepth} * steps.chunk * steps.quantum / l.streams;
  OrderWriter out(maxLength);
  for (size_t at = 0; block > 0; at += block) {
    bool more = false;
    for (const std::vector<int64_t>& order : orders) {
      for (size_t i = at; i < std::min(at + block, order.size()); ++i) {
        out.push(order[i]);
      }
      more = more || at + block < order.size();
    }
    if (!more) {
      break;
    }
  }
  if (out.overflow()) {
    return std::nullopt;
  }
  return out.take();
}

} // namespace

uint64_t scaleStreamBytes(const BrickLayout& layout, uint32_t stream, uint32_t bytesPerChannel) {
  uint64_t records = 0;
  switch (layout.order) {
  case arch::WeightOrder::Bricks:
    records = coreShare(layout.ofmDepth, stream, layout.streams);
    break;
  case arch::WeightOrder::DecoderGroups:
    records = stream == 0 ? roundUp(uint64_t{layout.ofmDepth}, roundUp(uint64_t{layout.ofmUblockDepth}, kScaleRecordGranule)) : 0;
    break;
  }
  return roundUp(records * bytesPerChannel, uint64_t{kStreamAlignment});
}

uint32_t weightStreamCount(const BrickLayout& layout) {
  switch (layout.order) {
  case arch::WeightOrder::Bricks:
    return std::min(layout.streams, layout.ofmDepth);
  case arch::WeightOrder::DecoderGroups:
    return layout.fast ? 1 : layout.streams;
  }
  return 1;
}

std::optional<std::vector<int64_t>> brickOrder(const BrickLayout& layout, size_t maxLength, uint32_t stream) {
  switch (layout.order) {
  case arch::WeightOrder::Bricks:
    return bricksOrder(layout, maxLength, stream);
  case arch::WeightOrder::DecoderGroups:
    return layout.fast && layout.streams > 1 ? interleavedOrder(layout, maxLength)
                                             : decoderOrder(layout, maxLength, stream);
  }
  return std::nullopt;
}

std::vector<uint8_t> encodeWeightStream(const WeightValues& weights, WeightEncoder encoder) {
  for (size_t i = 0; i < weights.size(); ++i) {
    if (std::abs(weights[i]) > kMaxMagnitude) {
      throw std::invalid_argument("weight " + std::to_string(weights[i]) + " at index " + std::to_string(i) +
                                  " outside -255..255");
    }
  }
  BitWriter out;
  switch (encoder) {
  case WeightEncoder::Vela310: {
    const std::vector<size_t> restarts = paletteSections(weights);
    for (size_t s = 0; s < restarts.size(); ++s) {
      const size_t begin = restarts[s];
      const size_t end = s + 1 < restarts.size() ? restarts[s + 1] : weights.size();
      const EncodePalette p = paletteFor(weights.data() + begin, end - begin);
      writeSection(out, weights.data() + begin, end - begin, p);
    }
    break;
  }
  case WeightEncoder::Vela50:
    for (size_t begin = 0; begin < weights.size(); begin += kVela50Section) {
      const size_t n = std::min(kVela50Section, weights.size() - begin);
      writeSectionVela50(out, weights.data() + begin, n, paletteForVela50(weights.data() + begin, n));
    }
    break;
  }
  out.put(3, kZdivEndOfStream);
  out.put(static_cast<int>((8 - (out.bitPos() & 7)) & 7), 0xff);
  while ((out.bitPos() & (kStreamAlignment * 8 - 1)) != 0) {
    out.put(8, 0xff);
  }
  return out.take();
}

} // namespace npusim::cmd
