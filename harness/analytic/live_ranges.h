// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela's tensor live ranges in one memory, rebuilt from a compiled model: the tensors found
// from the addresses the command streams read and write, the compiled model's own tensors, and
// the time steps Vela gives the network's operators. Shared by Vela 3.10's SRAM Usage
// (sram_usage) and Vela 5.0's Staging Usage (vela5_staging_usage), which differ in which
// memory they count, their first step, and their weight-buffer and cascade rules.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/cmdstream/operation.h"
#include "sim/io/decoded_network.h"

namespace npusim::analytic {

// Vela allocates tensors in multiples of 16 bytes.
constexpr uint64_t kAllocationQuantum = 16;

// The bytes a feature map box occupies in its tensor: from its first element to the end of its
// last element's brick (NHCWB16 stores depth in bricks of 16 channels).
cmd::ByteSpan storageSpan(const cmd::FeatureMap& fm);

// Which writes fill one tensor: a compiled-model tensor, or one Vela operation's NPU operations
// (depth slices, stripes).
struct Writer {
  enum class Kind : uint8_t { None, Tensor, Operation } kind = Kind::None;
  size_t subgraph = 0;
  int64_t id = 0;
  bool operator==(const Writer& o) const {
    return kind != Kind::None && kind == o.kind && subgraph == o.subgraph && id == o.id;
  }
};

// Every live range of one memory over a network, Vela's: a tensor lives from the first to one
// step past the last time an operation touches it (both inclusive), and is as large as the
// bytes it occupies rounded up to the allocation quantum.
class LiveRanges {
public:
  // The operation at `time` reads `span`: the latest tensor there, else a new one.
  void read(cmd::ByteSpan span, int64_t time);
  // The operation at `time` writes `span`. Writes of one `writer` fill one tensor; a write
  // over a tensor the same operation reads is an elementwise operation overwriting its input
  // (Vela gives the output the input's live range); anything else is a new tensor in memory
  // freed earlier.
  // `part`: the box written when it fills only part of its tensor's rows or pixels (a
  // concatenation's copy): it joins a tensor written in parts whose span it overlaps when it
  // holds other channels of the same pixels as every part written so far.
  void write(cmd::ByteSpan span, int64_t time, Writer writer, const cmd::FeatureMap* part = nullptr);
  // A range nothing reads or writes by address (a weight buffer), live from `first` to `last`.
  void add(uint64_t bytes, int64_t first, int64_t last);
  // Ends the operation whose reads `write` compares with.
  void endOperation() { readNow_.clear(); }
  // The feature maps of kernel operation `op` at `time`, those in a region `counts` accepts
  // (a chained feature map lives in no memory): reads of its inputs, then the write of its
  // output; ends the operation.
  void markOperation(const cmd::Operation& op, int64_t time, Writer writer,
                     const std::function<bool(uint8_t)>& counts);
  // Bytes of every range live at `time`.
  uint64_t usage(int64_t time) const;

private:
  struct Range {
    uint64_t begin = 0, end = 0;   // addresses (a buffer added by size: 0, bytes)
    int64_t first = 0, last = 0;   // times
    Writer writer;
    std::vector<cmd::FeatureMap> parts;  // the boxes written when written in parts
    bool matchable = true;         // false once a later tensor took its place
    uint64_t bytes() const;
  };
  Range* find(cmd::ByteSpan span);
  Range* create(cmd::ByteSpan span, int64_t time, Writer writer);
  static void mark(Range& r, int64_t time);

  std::vector<Range> ranges_;
  std::vector<std::ptrdiff_t> readNow_;
};

// The steps a network's operators take in Vela's live-range graph: the network inputs at step
// 0, the first operator at `firstStep`, every CPU operator 2 steps, every ethos-u operator the
// steps `rows` reports, the network outputs at the end, variable tensors (an SVDF's state)
// throughout. The compiled model's tensors in the arena (CPU operators' and ethos-u operators'
// inputs and outputs, at their offline-planned offsets) are marked at their operator's step
// when `arenaCounts`.
struct NetworkSteps {
  int64_t firstStep = 0;
  bool arenaCounts = false;
  // Marks the rows of NPU subgraph `s` (decoded[s]) from step `start`; returns the steps used.
  std::function<int64_t(size_t s, int64_t start)> rows;
};

void walkNetwork(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                 const NetworkSteps& steps, LiveRanges& ranges);

// Rows that share one step, numbered from 0: the operations of a cascade interleave in the
// stream, so a row whose first operation comes before the previous row's last joins its group.
// `operations[r]` are row r's kernel operations (a row without any starts a group of its own).
std::vector<size_t> cascadeGroups(const std::vector<const std::vector<size_t>*>& operations);

} // namespace npusim::analytic
