// SPDX-License-Identifier: Apache-2.0
#pragma once
// The NPU's command processor as an event-driven model in plain C++: it fetches the command
// stream from QBASE through its FIFO (chunks requested ahead of the parser), parses one command
// per cycle and dispatches each operation to the kernel or DMA unit once the dispatch policy's
// waits (queue depths, NPU_OP_KERNEL_WAIT / DMA_WAIT, STOP draining both) are met. The commands
// come decoded (npusim's fast path, whose memories hold no data) or are decoded from the fetched
// bytes as they arrive.

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "models/mem/axi_port.h"
#include "models/mem/event_queue.h"
#include "models/npu/command_policy.h"
#include "models/npu/npu_observer.h"
#include "models/npu/npu_stats.h"
#include "models/npu/npu_units.h"
#include "sim/arch/npu_config.h"
#include "sim/cmdstream/decoder.h"

namespace npusim::npu {

class CommandProcessor : public mem::EventTarget, public mem::TransferSink {
public:
  // How the command processor reads its stream: a read through the port of the command stream's
  // memory area.
  class Fetch {
  public:
    virtual ~Fetch() = default;
    virtual void fetch(uint64_t address, uint32_t bytes, double start, mem::TransferSink& sink, uint64_t token) = 0;
    // The stream's bytes fetched so far, from its start (a stream read from memory).
    virtual const uint8_t* fetched() const = 0;
    // A bus abort stopped the NPU: nothing more is fetched or dispatched.
    virtual bool halted() const = 0;
  };
  // Told when the stream has run to its end, was stopped by a bus abort or could not be parsed
  // (at the queue's time), and of each NPU_OP_IRQ.
  class Listener {
  public:
    virtual ~Listener() = default;
    virtual void streamDone(double started, double end) = 0;
    virtual void streamStopped(double started, const std::string& why, bool parseError) = 0;
    virtual void interrupt(uint32_t mask) = 0;
  };

  CommandProcessor(const arch::NpuConfig& npu, mem::EventQueue& queue, Fetch& fetch, KernelUnit& kernel, DmaUnit& dma,
                   NpuStats& stats);
  // Reports the waits for the command FIFO to `observer` (null: none, the default).
  void setObserver(NpuObserver* observer) { observer_ = observer; }
  // Runs `program`, fetched from `qbase`, from the queue's time; its operations' records go to the
  // stats under `invocation`. Contract: `program` and `listener` outlive the run.
  void start(const cmd::Program& program, uint64_t qbase, uint32_t invocation, Listener& listener);
  // Runs the `qsize` bytes at `qbase`, parsing and decoding each command as its bytes arrive.
  void startFromMemory(uint64_t qbase, uint32_t qsize, uint32_t invocation, Listener& listener);
  // The last stream's NPU_OP_STOP interrupt mask, and the offset after its last command parsed (QREAD).
  uint32_t stopMask() const { return stopMask_; }
  uint32_t parsed() const { return parsed_; }
  // A unit finished one of the operations dispatched to it.
  void unitDone(Unit unit);
  // The kernel unit started an operation at `at` (now or later): its first block's IFM fetch.
  void kernelStarted(double at);

  void onEvent(uint32_t kind, uint64_t data) override;
  void transferDone(uint64_t token) override;

private:
  enum class Phase : uint8_t { Fetch, Dispatch, Done };
  enum class Waiting : uint8_t { Nothing, Chunk, Time, Unit, KernelStart };
  void begin(uint64_t qbase, uint32_t streamBytes, uint32_t invocation, Listener& listener);
  // Runs the stream as far as it can go now.
  void step();
  // Requests the stream's chunks up to byte `upTo` plus the prefetch window.
  void request(uint32_t upTo);
  // Requests the chunks up to `upTo`; when the one holding byte upTo - 1 has arrived, *when gets
  // its arrival, else the processor waits for it (false).
  bool arrived(uint32_t upTo, double* when);
  // Ends the stream early (a bus abort, an unparseable command).
  void stop(const std::string& why, bool parseError);

  const arch::NpuConfig& npu_;
  mem::EventQueue& queue_;
  Fetch& fetch_;
  KernelUnit& kernel_;
  DmaUnit& dma_;
  NpuStats& stats_;
  NpuObserver* observer_ = nullptr;
  Listener* listener_ = nullptr;
  const cmd::Program* program_ = nullptr;       // the commands decoded, or null: read from memory
  std::optional<cmd::StreamDecoder> decoder_;   // reading from memory: the next command
  std::deque<cmd::Operation> decoded_;          // its operations so far (the units refer to them)
  uint32_t streamBytes_ = 0;
  uint32_t stopMask_ = 0, parsed_ = 0;
  uint64_t qbase_ = 0;
  uint32_t invocation_ = 0;
  size_t command_ = 0, operation_ = 0;
  Phase phase_ = Phase::Done;
  Waiting waiting_ = Waiting::Nothing;
  double started_ = 0;
  double t_ = 0;           // the parser's time
  double reached_ = -1;    // when the current operation's dispatch was first tried
  double fetchWait_ = 0;   // waiting for the command FIFO since the previous operation
  uint32_t fetchRequested_ = 0;
  std::vector<double> chunkDone_; // per requested chunk: when it arrived (-1: not yet)
  std::array<uint32_t, 2> outstanding_{}; // per Unit: dispatched and not finished
  // When the kernel dispatched last started, -1 until it has (Architecture::dispatchWaitsForKernelStart).
  double lastKernelStart_ = 0;
};

} // namespace npusim::npu
