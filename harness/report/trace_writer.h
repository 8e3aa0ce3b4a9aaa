// SPDX-License-Identifier: Apache-2.0
#pragma once
// `npusim run --trace FILE`: a Chrome Trace Event Format timeline (Perfetto UI,
// chrome://tracing) of one run, plain JSON or gzip-compressed (FILE ends in .gz). Tracks and
// fields: docs/outputs.md, "Timeline trace".

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "harness/report/layer_map.h"
#include "models/npu/npu_observer.h"
#include "sim/io/decoded_network.h"
#include "models/platform/platform.h"
#include "models/platform/run_result.h"

namespace npusim::report {

enum class TraceDetail : uint8_t {
  Op,     // host, command processor, one slice per kernel and DMA operation, counters
  Block,  // also each OFM block's stages (IFM fetch, weights, MAC, output unit, OFM write)
  Burst   // also every AXI burst on each port
};

// Collects what the NPU and its AXI ports report during a run (pass observers() to simulate()).
class TraceRecorder : public npu::NpuObserver {
public:
  // For an NPU with `ports` AXI ports (SystemParams::ports).
  explicit TraceRecorder(size_t ports) : ports_(ports) {}

  // Bursts of one AXI port.
  class PortRecorder : public mem::BurstObserver {
  public:
    void burst(const mem::BurstEvent& event) override { bursts_.push_back(event); }
    const std::vector<mem::BurstEvent>& bursts() const { return bursts_; }

  private:
    std::vector<mem::BurstEvent> bursts_;
  };

  struct Block {
    size_t record;
    npu::BlockEvent event;
  };
  struct FetchWait {
    double from, to;
  };
  void block(size_t record, const npu::BlockEvent& event) override { blocks_.push_back({record, event}); }
  void commandFetchWait(double from, double to) override { fetchWaits_.push_back({from, to}); }

  const std::vector<Block>& blocks() const { return blocks_; }
  const std::vector<mem::BurstEvent>& bursts(size_t port) const { return ports_[port].bursts(); }
  platform::RunObservers observers();
  const std::vector<FetchWait>& fetchWaits() const { return fetchWaits_; }

private:
  std::vector<Block> blocks_;
  std::vector<PortRecorder> ports_;  // arch::PortId order
  std::vector<FetchWait> fetchWaits_;
};

// The output file, opened (and so checked) before the simulation starts. Throws InputError
// naming the path when it cannot be written.
class TraceFile {
public:
  explicit TraceFile(const std::string& path);
  ~TraceFile();
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;
  void write(const std::string& text);
  // Flushes and closes; throws InputError when the data could not be written.
  void close();

private:
  std::string path_;
  std::FILE* plain_ = nullptr;
  void* gz_ = nullptr;   // gzFile
};

// Writes the trace of `run` (whose NPU was observed by `recorder`) to `file`.
void writeTrace(TraceFile& file, TraceDetail detail, const platform::RunResult& run, const LayerMap& layers,
                const std::vector<io::DecodedNpuOp>& decoded, const TraceRecorder& recorder);

} // namespace npusim::report
