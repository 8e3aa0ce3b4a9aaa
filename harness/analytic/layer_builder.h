// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reconstructs Vela's scheduled operations ("layers", one per-layer CSV row) from a decoded
// command stream: full-op shapes, block config, weight buffering, LUT loads.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/analytic/performance_model.h"
#include "harness/analytic/vela_system.h"
#include "harness/analytic/weight_slices.h"
#include "sim/cmdstream/operation.h"

namespace npusim::analytic {

// How an operation's encoded weights reach the NPU (timing doc 3.7).
enum class WeightBuffering : uint8_t {
  None,          // operation has no weights
  Unbuffered,    // read straight from the constant area (FC, Sram_Only, ...)
  SingleBuffer,  // one DMA'd buffer (also depth slices reusing one buffer)
  DoubleBuffer   // depth slices DMA'd into two alternating buffers
};

std::string_view weightBufferingName(WeightBuffering buffering);

// An operation's encoded weights: buffering, sizes, where they come from and go to.
struct WeightStreams {
  WeightBuffering buffering = WeightBuffering::None;
  MemArea sourceArea = MemArea::OffChipFlash;   // where the encoded stream lives
  MemArea bufferArea = MemArea::Sram;           // DMA destination when buffered
  uint64_t encodedBytes = 0;        // scales + weights over all depth slices
  uint64_t firstTransferBytes = 0;  // bytes of the first depth slice's DMA
  uint32_t depthSlices = 0;
  uint32_t lastSliceDepth = 0;      // OFM depth of the last depth slice
  bool cascaded = false;            // runs in height stripes interleaved with other operations
  uint64_t originalElements = 0;    // weight elements before encoding
  // Scales + weights of all slices encoded as one stream, the size Vela's full-transfer time
  // uses for sliced layers; 0 when unknown (constant region not given, or a single slice).
  uint64_t onePieceBytes = 0;
  // Where buffered weights are DMA'd: one buffer, or two the slices alternate between, each as
  // large as the largest slice it receives; `lastBuffer` is the one the last slice uses.
  struct Buffer {
    uint8_t region = 0;
    uint64_t address = 0, bytes = 0;
  };
  std::vector<Buffer> buffers;
  size_t lastBuffer = 0;
};

// A LUT copied into SHRAM before the operation.
struct LutLoad {
  MemArea source = MemArea::OffChipFlash;
  uint64_t bytes = 0;
};

// One Vela scheduled operation.
// A Memcpy that moves a feature map between memory areas (Dedicated_Sram: arena to cache).
struct FeatureMapCopy {
  MemArea source = MemArea::Sram, destination = MemArea::Sram;
  uint64_t bytes = 0;
};

struct Layer {
  LayerQuery query;                 // full-op shapes, block config, areas
  WeightStreams weights;
  std::optional<LutLoad> lut;
  std::optional<FeatureMapCopy> copy; // a Memcpy's DMA, when the stream has one
  std::optional<size_t> dma;          // that DMA (index into the Operations)
  std::vector<size_t> operations;   // kernel Operations (indices) that implement it; empty for Memcpy
  std::vector<uint32_t> byteOffsets;  // stream byte offsets of those operations' NPU_OP commands
  // Shape of the OFM tensor the operation writes (debug database; a Concatenation's copy
  // writes part of it), all zero when unknown.
  Shape3 ofmTensorShape{0, 0, 0};
  int sourceId = -1;                // Vela source operator (debug database), -1 when unknown
  std::string tfliteOperator, nngOperator, name;
};

// Which kernel operations form one Vela operation, and its labels.
struct RowSpec {
  std::vector<size_t> operations;   // indices into the Operation vector, in stream order
  std::string tfliteOperator, nngOperator, name;
  bool memcpy = false;              // a DMA-only Vela operation with no kernel commands
  std::optional<size_t> dma;        // a Memcpy's feature-map DMA (index into the Operations), if it moves data
  int sourceId = -1;                // Vela source operator id (debug database), -1 when unknown
  Shape3 ofmTensorShape{0, 0, 0};  // the whole OFM tensor (debug database), zero when unknown
};

// Builds layers from Operations. Contract: `rows` reference kernel operations only; every
// kernel operation of a stream belongs to at most one row.
class LayerBuilder {
public:
  // `constants` may be null; sliced layers then keep onePieceBytes = 0.
  explicit LayerBuilder(const VelaSystem& system, const ConstantRegion* constants = nullptr)
      : system_(system), constants_(constants) {}

  // Fallback grouping without Vela's debug database: one row per kernel operation.
  static std::vector<RowSpec> oneRowPerKernel(const std::vector<cmd::Operation>& ops);

  // Throws InputError when a row names a non-kernel operation or an index out of range, or
  // when a depth slice's weight stream is outside the constant region or not a valid stream.
  std::vector<Layer> build(const std::vector<cmd::Operation>& ops, const std::vector<RowSpec>& rows) const;

private:
  Layer buildLayer(const std::vector<cmd::Operation>& ops, const RowSpec& row,
                   const std::vector<Layer>& earlier) const;

  const VelaSystem& system_;
  const ConstantRegion* constants_;
};

} // namespace npusim::analytic
