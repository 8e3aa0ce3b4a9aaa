// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Ethos-U55's execution units as plain C++ cost models: the kernel pipeline (IFM fetch,
// weight fetch, MAC array, output unit, OFM write per OFM block) and the DMA engine. They
// book their AXI traffic through an NpuTransport; times are NPU cycles.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "models/mem/memory_timing.h"
#include "models/npu/npu_observer.h"
#include "sim/arch/npu_config.h"
#include "sim/cmdstream/operation.h"

namespace npusim::npu {

// Bytes moved per NPU port by one operation; a port it did not use reads 0. Held in place (one
// record per operation, no allocation): up to kMaxPorts ports, more than any Ethos-U has (the
// U85: 4 SRAM + 2 EXT); EthosU checks its configuration against it.
class PortBytes {
public:
  static constexpr size_t kMaxPorts = 8;
  void add(arch::PortId port, mem::Direction dir, uint64_t n) { bytes_.at(port.index)[static_cast<size_t>(dir)] += n; }
  uint64_t read(arch::PortId port) const { return of(port, mem::Direction::Read); }
  uint64_t write(arch::PortId port) const { return of(port, mem::Direction::Write); }

private:
  uint64_t of(arch::PortId port, mem::Direction dir) const {
    return port.index < bytes_.size() ? bytes_[port.index][static_cast<size_t>(dir)] : 0;
  }
  std::array<std::array<uint64_t, 2>, kMaxPorts> bytes_{}; // per port: read, write (Direction order)
};

// How a unit reaches memory: region + offset, as the command stream addresses it.
class NpuTransport {
public:
  virtual ~NpuTransport() = default;
  // Books a transfer starting no earlier than `start`; returns its completion time and adds its
  // bytes to `bytes` under the NPU ports it used.
  virtual double transfer(uint8_t region, uint64_t offset, mem::Direction dir, const mem::TransferShape& shape,
                          double start, PortBytes& bytes) = 0;
};

// Lets a unit advance simulated time before it books the traffic of its next step (the
// SystemC module waits; unit tests do nothing).
class UnitClock {
public:
  virtual ~UnitClock() = default;
  virtual void sync(double t) = 0;
};

// Timing of one kernel operation.
struct KernelTiming {
  double start = 0, end = 0;
  double macCycles = 0, outputCycles = 0;
  uint64_t blocks = 0;
  double stallIfm = 0;        // MAC array waiting for IFM data
  double stallWeights = 0;    // MAC array waiting for weights
  double stallOutput = 0;     // MAC array waiting for a free accumulator buffer (output unit busy)
  double stallBlockdep = 0;   // first block waiting for the previous operation's OFM (BLOCKDEP)
  double stallShramReconfig = 0; // first block waiting for the previous operation to leave SHRAM (new layout)
  double writeTail = 0;       // end minus the last block's output-unit end: the final OFM write
  PortBytes bytes;
};

class KernelUnit {
public:
  KernelUnit(const arch::NpuConfig& npu, NpuTransport& transport, UnitClock& clock)
      : npu_(npu), transport_(transport), clock_(clock) {}

  // Runs `op` (a CONV/DEPTHWISE/POOL/ELEMENTWISE) dispatched at `issue`; operations execute in
  // order and overlap with the previous one as its BLOCKDEP allows.
  KernelTiming execute(const cmd::Operation& op, double issue);
  // Reports every block's stage times to `sink` (null: none, the default).
  void setBlockSink(BlockSink* sink) { sink_ = sink; }

private:
  double dependencyReady(uint32_t blockDep, uint64_t block) const;
  const arch::NpuConfig& npu_;
  NpuTransport& transport_;
  UnitClock& clock_;
  BlockSink* sink_ = nullptr;
  double macFree_ = 0, aoFree_ = 0;
  std::array<double, 2> ifmBufferFree_{}, weightBufferFree_{}, accBufferFree_{};
  std::vector<double> prevTail_;   // OFM-complete times of the previous op's last blocks
  double prevEnd_ = 0;
  std::optional<cmd::ShramLayout> prevShram_; // the previous op's SHRAM layout (none before the first op)
  cmd::AccFormat prevAccFormat_ = cmd::AccFormat::Int32;
};

struct DmaTiming {
  double start = 0, end = 0;
  PortBytes bytes;
};

// The DMA engine: one transfer at a time, through one buffer of `chunkBytes` (NpuConfig): a
// chunk is read into it, then written out, and the next chunk's read waits for this chunk's write
// (docs/timing-model.md has the evidence). SHRAM destinations (LUT loads) take no AXI write.
class DmaUnit {
public:
  DmaUnit(NpuTransport& transport, UnitClock& clock, uint32_t chunkBytes)
      : transport_(transport), clock_(clock), chunk_(chunkBytes) {}
  DmaTiming execute(const cmd::DmaTransfer& dma, double issue);

private:
  NpuTransport& transport_;
  UnitClock& clock_;
  uint32_t chunk_;
  double busyUntil_ = 0;
};

} // namespace npusim::npu
