// SPDX-License-Identifier: Apache-2.0
#pragma once
// The depth slices of an operation's encoded weights as the command stream shows them, and
// their size encoded in one piece (what Vela 3.10 and 5.0 time the full weight transfer with).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/arch/npu_config.h"
#include "sim/cmdstream/operation.h"
#include "sim/cmdstream/weight_codec.h"

namespace npusim::analytic {

// The compiled model's constant region (region 0: encoded weights, scales, LUTs), for
// re-encoding depth-sliced weights in one piece.
struct ConstantRegion {
  const uint8_t* data = nullptr;
  size_t size = 0;
  std::string file;          // for error messages
  uint64_t fileOffset = 0;   // where `data` starts in `file`
};

// One core's weight stream of a depth slice: its offset in the constant region (nullopt when
// it does not come from there) and size.
struct CoreStream {
  std::optional<uint64_t> source;
  uint64_t bytes = 0;
};

// One depth slice of an operation's weights.
struct Slice {
  std::pair<uint8_t, uint64_t> key;   // region and address the encoded slice is read from
  std::optional<size_t> dma;          // DMA that buffered it
  uint64_t bytes = 0;                 // scales and weights of every core (the DMA's length when buffered)
  uint64_t weightBytes = 0;           // weights of every core
  uint32_t depth = 0;
  std::vector<CoreStream> coreStreams;   // one per core (Ethos-U65-512: two)
};

// The depth slices of a row and, per kernel operation, the index of its slice (0 without weights).
struct SliceMap {
  std::vector<Slice> slices;
  std::vector<size_t> sliceOfOp;
};

// The distinct weight slices the kernel operations `operations` (indices into `ops`) read.
SliceMap collectSlices(const std::vector<cmd::Operation>& ops, const std::vector<size_t>& operations);

// Size of the scales and weights encoded as one stream over the whole OFM depth, in the
// slices' format (see the .cpp); `ifmBlockDepth` is the block config's (the Ethos-U85's weight
// order walks its IFM blocks). 0 when a slice's weight stream is not in the constant region or
// does not hold the weights the architecture's weight order (arch::WeightOrder) expects. Throws
// InputError for a stream outside the constant region or one that does not decode.
uint64_t onePieceBytes(const std::vector<Slice>& slices, const cmd::Operation& first, uint32_t ifmDepth,
                       uint32_t ofmDepth, uint32_t ifmBlockDepth, bool depthwise, const arch::NpuConfig& npu,
                       const ConstantRegion& constants, cmd::WeightEncoder encoder);

} // namespace npusim::analytic
