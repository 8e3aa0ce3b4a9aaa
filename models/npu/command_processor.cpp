// SPDX-License-Identifier: Apache-2.0
#include "models/npu/command_processor.h"

#include <algorithm>
#include <stdexcept>

#include "sim/common/error.h"

namespace npusim::npu {

CommandProcessor::CommandProcessor(const arch::NpuConfig& npu, mem::EventQueue& queue, Fetch& fetch,
                                   KernelUnit& kernel, DmaUnit& dma, NpuStats& stats)
    : npu_(npu), queue_(queue), fetch_(fetch), kernel_(kernel), dma_(dma), stats_(stats) {}

void CommandProcessor::start(const cmd::Program& program, uint64_t qbase, uint32_t invocation, Listener& listener) {
  program_ = &program;
  begin(qbase, program.streamBytes(), invocation, listener);
}

void CommandProcessor::startFromMemory(uint64_t qbase, uint32_t qsize, uint32_t invocation, Listener& listener) {
  program_ = nullptr;
  decoder_.emplace(npu_, qsize, cmd::StreamOrigin{"the command stream at QBASE " + cmd::hexText(qbase), 0});
  decoded_.clear();
  begin(qbase, qsize, invocation, listener);
}

void CommandProcessor::begin(uint64_t qbase, uint32_t streamBytes, uint32_t invocation, Listener& listener) {
  if (phase_ != Phase::Done) {
    throw std::logic_error("CommandProcessor: started while a stream runs");
  }
  streamBytes_ = streamBytes;
  qbase_ = qbase;
  invocation_ = invocation;
  listener_ = &listener;
  command_ = operation_ = 0;
  phase_ = Phase::Fetch;
  waiting_ = Waiting::Nothing;
  started_ = t_ = queue_.now();
  reached_ = -1;
  fetchWait_ = 0;
  fetchRequested_ = 0;
  lastKernelStart_ = 0;
  stopMask_ = parsed_ = 0;
  chunkDone_.clear();
  step();
}

void CommandProcessor::request(uint32_t upTo) {
  const uint32_t chunkBytes = npu_.arch->commandFetchBytes;
  const uint32_t want = std::min(streamBytes_, upTo + npu_.arch->commandPrefetchChunks * chunkBytes);
  while (fetchRequested_ < want) {
    const uint32_t bytes = std::min(chunkBytes, streamBytes_ - fetchRequested_);
    // Chunks are requested one after another from the parser's time.
    const double issue = std::max(t_, queue_.now());
    chunkDone_.push_back(-1);
    fetch_.fetch(qbase_ + fetchRequested_, bytes, issue, *this, chunkDone_.size() - 1);
    stats_.commandFetchBytes += bytes;
    fetchRequested_ += bytes;
  }
}

bool CommandProcessor::arrived(uint32_t upTo, double* when) {
  request(upTo);
  const size_t chunk = upTo == 0 ? 0 : (upTo - 1) / npu_.arch->commandFetchBytes;
  *when = chunkDone_.empty() ? t_ : chunkDone_.at(std::min(chunk, chunkDone_.size() - 1));
  if (*when < 0) {
    waiting_ = Waiting::Chunk;
    return false;
  }
  return true;
}

void CommandProcessor::stop(const std::string& why, bool parseError) {
  phase_ = Phase::Done;
  listener_->streamStopped(started_, why, parseError);
}

void CommandProcessor::step() {
  waiting_ = Waiting::Nothing;
  for (;;) {
    if (fetch_.halted()) {
      stop("a bus abort", false);
      return;
    }
    const cmd::Operation* op = nullptr;
    if (phase_ == Phase::Fetch) {
      // 1. Fetch (through the command FIFO) and parse.
      const cmd::Command* c = nullptr;
      uint32_t upTo = 0;
      double arrival = 0;
      if (program_ != nullptr) {
        if (command_ == program_->commands.size()) break;
        c = &program_->commands[command_];
        upTo = c->offset + c->sizeBytes();
      } else {
        if (decoder_->stopped()) break;
        // The command's first word says its size (a cmd1's payload may lie in the next chunk).
        const uint32_t at = decoder_->offset();
        upTo = std::min(at + 4, streamBytes_);
        if (at + 4 <= streamBytes_) {
          if (!arrived(upTo, &arrival)) return;
          upTo = std::min(at + decoder_->nextBytes(fetch_.fetched()), streamBytes_);
        }
      }
      if (!arrived(upTo, &arrival)) return;
      const double fetched = std::max(t_, arrival);
      fetchWait_ += fetched - t_;
      if (observer_ != nullptr && fetched > t_) {
        observer_->commandFetchWait(t_, fetched);
      }
      t_ = fetched + npu_.arch->parseCyclesPerCommand;
      if (program_ == nullptr) {
        try {
          if (const cmd::Operation* next = decoder_->next(fetch_.fetched())) {
            decoded_.push_back(*next);
          }
        } catch (const InputError& e) {
          stop(e.what(), true);
          return;
        }
        c = &decoder_->command();
      }
      parsed_ = c->offset + c->sizeBytes();
      if (!c->info->isOperation) {
        ++command_;
        continue;
      }
      phase_ = Phase::Dispatch;
      reached_ = -1;
    }
    // 2. Dispatch at the parser's time, once the waits' conditions hold.
    if (queue_.now() < t_) {
      waiting_ = Waiting::Time;
      queue_.schedule(t_, *this);
      return;
    }
    if (reached_ < 0) {
      reached_ = queue_.now();
    }
    op = program_ != nullptr ? &program_->operations.at(operation_) : &decoded_.back();
    if (op->kind == cmd::OpKind::Branch) {
      throw std::runtime_error("the command stream at QBASE " + cmd::hexText(qbase_) + " branches at byte " +
                               std::to_string(op->byteOffset) + ": the command processor's branches are not simulated");
    }
    const DispatchRule rule = dispatchRule(npu_, *op);
    for (size_t w = 0; w < rule.waitCount; ++w) {
      if (outstanding_[static_cast<size_t>(rule.waits[w].unit)] > rule.waits[w].allowed) {
        waiting_ = Waiting::Unit;
        return;
      }
    }
    // The parser holds the next kernel or DMA while the kernel latched last has not started
    // (Architecture::dispatchWaitsForKernelStart).
    if (rule.queue && npu_.arch->dispatchWaitsForKernelStart) {
      if (lastKernelStart_ < 0) {
        waiting_ = Waiting::KernelStart;
        return;
      }
      if (queue_.now() < lastKernelStart_) {
        waiting_ = Waiting::Time;
        queue_.schedule(lastKernelStart_, *this);
        return;
      }
    }
    t_ = queue_.now();
    OperationRecord rec;
    rec.invocation = invocation_;
    rec.index = static_cast<uint32_t>(operation_);
    rec.kind = op->kind;
    rec.commandOffset = op->byteOffset;
    rec.macs = op->macs();
    rec.issue = rec.start = rec.end = t_;
    rec.ccWait = t_ - reached_;
    rec.fetchWait = fetchWait_;
    fetchWait_ = 0;
    stats_.operations.push_back(rec);
    const size_t record = stats_.operations.size() - 1;
    if (rule.queue) {
      ++outstanding_[static_cast<size_t>(*rule.queue)];
      if (*rule.queue == Unit::Kernel) {
        lastKernelStart_ = -1; // set by kernelStarted, possibly within dispatch
        kernel_.dispatch(*op, record);
      } else {
        dma_.dispatch(op->dma, record);
      }
    }
    if (op->kind == cmd::OpKind::Irq) {
      listener_->interrupt(op->irqMask);
    } else if (op->kind == cmd::OpKind::Stop) {
      stopMask_ = op->irqMask;
    }
    ++operation_;
    ++command_;
    phase_ = Phase::Fetch;
  }
  // 3. The end of the stream (its STOP drained both units).
  if (queue_.now() < t_) {
    waiting_ = Waiting::Time;
    queue_.schedule(t_, *this);
    return;
  }
  phase_ = Phase::Done;
  listener_->streamDone(started_, t_);
}

void CommandProcessor::unitDone(Unit unit) {
  uint32_t& n = outstanding_[static_cast<size_t>(unit)];
  if (n == 0) {
    throw std::logic_error("CommandProcessor: a unit finished an operation it was never given");
  }
  --n;
  if (waiting_ == Waiting::Unit) {
    step();
  }
}

void CommandProcessor::kernelStarted(double at) {
  if (!npu_.arch->dispatchWaitsForKernelStart) return;
  lastKernelStart_ = at;
  // Resumed through the queue: the kernel unit calls from within its own work.
  if (waiting_ == Waiting::KernelStart) {
    waiting_ = Waiting::Time;
    queue_.schedule(std::max(at, queue_.now()), *this);
  }
}

void CommandProcessor::onEvent(uint32_t, uint64_t) {
  if (waiting_ == Waiting::Time) {
    step();
  }
}

void CommandProcessor::transferDone(uint64_t token) {
  chunkDone_.at(token) = queue_.now();
  if (waiting_ == Waiting::Chunk) {
    step();
  }
}

} // namespace npusim::npu
