// SPDX-License-Identifier: Apache-2.0
#pragma once
// Optional observer of the NPU's internal steps (OFM block stages, command fetch waits) for
// timeline traces. The NPU calls it only when one is attached: one pointer
// test per step, nothing else, so runs without a trace behave and cost as before.

#include <cstdint>

#include "models/mem/memory_timing.h"
#include "sim/cmdstream/operation.h"

namespace npusim::npu {

// Stage times of one OFM block of a kernel operation (NPU cycles).
struct BlockEvent {
  uint64_t block = 0;                 // index in the operation's block order
  Shape3 origin, extent;         // OFM elements (y, x, c) it produces
  double ifmStart = 0, ifmDone = 0;   // IFM (and IFM2) reads
  double weightStart = 0, weightDone = 0; // weight and scale reads (equal when none)
  double macStart = 0, macDone = 0;
  double macActive = 0;               // MAC cycles of its work; the rest of [macStart, macDone] waits for streamed weights
  double outputStart = 0, outputDone = 0; // output unit (scale, bias, activation)
  double writeDone = 0;               // OFM write complete (starts at outputDone)
  uint64_t ifmBytes = 0, weightBytes = 0, ofmBytes = 0;
};

class NpuObserver {
public:
  virtual ~NpuObserver() = default;
  // A block of the kernel operation whose record index is `record`.
  virtual void block(size_t record, const BlockEvent& event) = 0;
  // The command processor waited for its command FIFO from `from` to `to`.
  virtual void commandFetchWait(double from, double to) = 0;
};

} // namespace npusim::npu
