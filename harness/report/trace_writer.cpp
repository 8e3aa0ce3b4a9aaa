// SPDX-License-Identifier: Apache-2.0
#include "harness/report/trace_writer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <cerrno>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include "sim/common/error.h"

namespace npusim::report {
namespace {

// Counter tracks average over windows of this many NPU cycles: 2 us at 500 MHz, a few OFM
// blocks of a typical layer, so a layer's phases show while a MobileNetV2 run (7.4e6 cycles)
// needs under 10^4 points per counter.
constexpr double kWindowCycles = 1000;

// Process ids, in the order the tracks are shown; the NPU ports follow the DMA unit, in
// arch::PortId order.
enum Pid : int { kHost = 1, kCommandProcessor, kKernel, kDma, kFirstPort };

std::string quoted(const std::string& s) { return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// The args object of one event, built field by field.
class Args {
public:
  Args& add(std::string_view key, const std::string& text) { return raw(key, quoted(text)); }
  Args& add(std::string_view key, uint64_t v) { return raw(key, std::to_string(v)); }
  Args& add(std::string_view key, double v) { return raw(key, number(v)); }
  Args& raw(std::string_view key, const std::string& json) {
    text_ += (text_.empty() ? "{\"" : ",\"") + std::string(key) + "\":" + json;
    return *this;
  }
  std::string str() const { return text_.empty() ? "{}" : text_ + "}"; }

private:
  std::string text_;
};

struct Slice {
  int64_t from, to;   // ns of simulated time
  std::string name;
  std::string args;
};

// Writes events in time units of the trace (microseconds, 1 ns resolution) and buffers them
// for the file.
class Emitter {
public:
  Emitter(TraceFile& file, double clockHz) : file_(file), nsPerCycle_(1e9 / clockHz) {}

  int64_t ns(double cycles) const { return static_cast<int64_t>(std::llround(cycles * nsPerCycle_)); }

  void event(const std::string& json) {
    buffer_ += first_ ? "\n" : ",\n";
    buffer_ += json;
    first_ = false;
    if (buffer_.size() > (1u << 20)) flush();
  }
  void flush() {
    file_.write(buffer_);
    buffer_.clear();
  }

  void processName(int pid, const std::string& name) {
    event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"name\":\"process_name\",\"args\":{\"name\":" +
          quoted(name) + "}}");
    event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" +
          std::to_string(pid) + "}}");
  }
  void threadName(int pid, int tid, const std::string& name) {
    event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
          ",\"name\":\"thread_name\",\"args\":{\"name\":" + quoted(name) + "}}");
    event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
          ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" + std::to_string(tid) + "}}");
  }

  // One named track: slices are placed on threads tid, tid+1, ... so that the slices of one
  // thread never overlap (the first thread whose last slice ended at or before the start).
  // Returns the number of threads used.
  int track(int pid, int tid, const std::string& name, std::vector<Slice> slices) {
    std::stable_sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) { return a.from < b.from; });
    std::vector<int64_t> laneEnd;
    for (const Slice& s : slices) {
      size_t lane = 0;
      while (lane < laneEnd.size() && laneEnd[lane] > s.from) ++lane;
      if (lane == laneEnd.size()) {
        laneEnd.push_back(s.to);
        threadName(pid, tid + static_cast<int>(lane), lane == 0 ? name : name + " (" + std::to_string(lane + 1) + ")");
      }
      laneEnd[lane] = s.to;
      complete(pid, tid + static_cast<int>(lane), s);
    }
    return static_cast<int>(laneEnd.size());
  }

  // A counter track: one value per window, written where it changes.
  void counter(int pid, const std::string& name, const std::string& series, const std::vector<double>& values) {
    double last = -1;
    for (size_t w = 0; w < values.size(); ++w) {
      if (w > 0 && values[w] == last) continue;
      last = values[w];
      event("{\"ph\":\"C\",\"pid\":" + std::to_string(pid) + ",\"name\":" + quoted(name) + ",\"ts\":" +
            us(ns(double(w) * kWindowCycles)) + ",\"args\":{" + quoted(series) + ":" + number(values[w]) + "}}");
    }
  }

  // A slice on a given thread (the caller keeps that thread's slices disjoint or nested).
  void slice(int pid, int tid, const Slice& s) { complete(pid, tid, s); }

private:
  static std::string us(int64_t ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000), static_cast<long long>(ns % 1000));
    return buf;
  }
  void complete(int pid, int tid, const Slice& s) {
    event("{\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"name\":" +
          quoted(s.name) + ",\"ts\":" + us(s.from) + ",\"dur\":" + us(s.to - s.from) + ",\"args\":" + s.args + "}");
  }

  TraceFile& file_;
  double nsPerCycle_;
  std::string buffer_;
  bool first_ = true;
};

// Adds `amount` spread evenly over [from, to] (cycles) to per-window sums.
void spread(std::vector<double>& windows, double from, double to, double amount) {
  if (to <= from) {
    const size_t w = std::min(windows.size() - 1, static_cast<size_t>(std::max(0.0, from) / kWindowCycles));
    windows[w] += amount;
    return;
  }
  const double rate = amount / (to - from);
  for (size_t w = static_cast<size_t>(from / kWindowCycles); w < windows.size() && double(w) * kWindowCycles < to; ++w) {
    const double a = std::max(from, double(w) * kWindowCycles), z = std::min(to, double(w + 1) * kWindowCycles);
    if (z > a) windows[w] += rate * (z - a);
  }
}

std::string waitName(cmd::OpKind kind) {
  switch (kind) {
  case cmd::OpKind::DmaWait: return "DMA_WAIT";
  case cmd::OpKind::KernelWait: return "KERNEL_WAIT";
  case cmd::OpKind::Stop: return "STOP: drain";
  case cmd::OpKind::DmaStart: return "DMA queue full";
  case cmd::OpKind::Conv:
  case cmd::OpKind::Depthwise:
  case cmd::OpKind::Pool:
  case cmd::OpKind::Elementwise:
  case cmd::OpKind::Resize: return "kernel queue full";
  case cmd::OpKind::Irq:
  case cmd::OpKind::PmuMask:
  case cmd::OpKind::Branch: return "wait";
  }
  return "wait";
}

std::string shape(const Shape3& s) {
  return std::to_string(s.height) + "," + std::to_string(s.width) + "," + std::to_string(s.depth);
}

} // namespace

platform::RunObservers TraceRecorder::observers() {
  platform::RunObservers o;
  o.npu = this;
  for (PortRecorder& p : ports_) o.ports.push_back(&p);
  return o;
}

TraceFile::TraceFile(const std::string& path) : path_(path) {
  const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  InputError::Location loc;
  loc.file = path;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    throw InputError(loc, std::string("cannot open trace file for writing (") + std::strerror(errno) + ")");
  }
  if (gz) {
    gz_ = gzdopen(fileno(f), "wb6");
    if (gz_ == nullptr) {
      std::fclose(f);
      throw InputError(loc, "cannot start a gzip stream");
    }
  } else {
    plain_ = f;
  }
}

TraceFile::~TraceFile() {
  if (plain_ != nullptr) std::fclose(plain_);
  if (gz_ != nullptr) gzclose(static_cast<gzFile>(gz_));
}

void TraceFile::write(const std::string& text) {
  InputError::Location loc;
  loc.file = path_;
  if (text.empty()) return;
  const bool ok = gz_ != nullptr ? gzwrite(static_cast<gzFile>(gz_), text.data(), static_cast<unsigned>(text.size())) ==
                                       static_cast<int>(text.size())
                                 : std::fwrite(text.data(), 1, text.size(), plain_) == text.size();
  if (!ok) throw InputError(loc, "cannot write trace file (disk full?)");
}

void TraceFile::close() {
  InputError::Location loc;
  loc.file = path_;
  int status = 0;
  if (gz_ != nullptr) {
    status = gzclose(static_cast<gzFile>(gz_)) == Z_OK ? 0 : -1;
    gz_ = nullptr;
  }
  if (plain_ != nullptr) {
    status = std::fclose(plain_);
    plain_ = nullptr;
  }
  if (status != 0) throw InputError(loc, "cannot write trace file");
}

void writeTrace(TraceFile& file, TraceDetail detail, const platform::RunResult& run, const LayerMap& layers,
                const std::vector<io::DecodedNpuOp>& decoded, const TraceRecorder& recorder) {
  const config::SystemParams& p = run.params;
  Emitter e(file, p.coreClockHz);
  const char* detailName = detail == TraceDetail::Op ? "op" : detail == TraceDetail::Block ? "block" : "burst";
  file.write("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"npusim run --trace\",\"model\":" +
             quoted(run.model) + ",\"accelerator\":" + quoted(p.accelerator) + ",\"system_config\":" +
             quoted(p.systemConfig) + ",\"memory_mode\":" + quoted(p.memoryMode) + ",\"npu_clock_hz\":" +
             number(p.coreClockHz) + ",\"time\":\"simulated; ts and dur in microseconds at npu_clock_hz\"" +
             ",\"detail\":\"" + detailName + "\",\"counter_window_cycles\":" + number(kWindowCycles) +
             "},\n\"traceEvents\":[");
  const auto operationOf = [&](const platform::OperationReport& o) -> const cmd::Operation& {
    const auto it = std::find_if(decoded.begin(), decoded.end(),
                                 [&](const io::DecodedNpuOp& d) { return d.operatorIndex == o.networkOp; });
    return it->operations.at(o.record.index);
  };
  const auto layerOf = [&](size_t networkOp, size_t index) {
    const LayerInfo* l = layers.find(networkOp, index);
    return l == nullptr ? std::string() : l->name;
  };
  // Bytes per NPU port: <port>_read_bytes, <port>_write_bytes.
  const auto addPortBytes = [&](Args& a, const npu::OperationRecord& r) {
    for (uint8_t i = 0; i < run.ports.size(); ++i) {
      a.add(run.ports[i].name + "_read_bytes", r.bytes.read({i})).add(run.ports[i].name + "_write_bytes", r.bytes.write({i}));
    }
  };
  const auto operationArgs = [&](const platform::OperationReport& o) {
    Args a;
    a.add("operation", uint64_t{o.record.index}).add("command_offset", hex(o.record.commandOffset));
    a.add("network_operator", uint64_t{o.networkOp}).add("layer", layerOf(o.networkOp, o.record.index));
    return a;
  };

  // 1. Host: one slice per network operator; an ethos-u operator's driver steps nest in it.
  e.processName(kHost, "host (" + std::string(run.params.architecture().hostCpu) + ")");
  e.threadName(kHost, 1, "network operators");
  for (const platform::NetworkOpRecord& n : run.networkOps) {
    Args a;
    a.add("index", uint64_t{n.index}).add("operator", n.name).add("runs_on", std::string(n.npu ? "NPU" : "CPU"));
    if (const LayerInfo* l = layers.findCpu(n.index)) a.add("layer", l->name);
    if (n.npu) a.add("npu_active_cycles", n.npuActive);
    e.slice(kHost, 1, {e.ns(n.start), e.ns(n.end), n.name + " " + std::to_string(n.index), a.str()});
    if (n.npu) {
      const std::string index = Args().add("index", uint64_t{n.index}).str();
      e.slice(kHost, 1, {e.ns(n.start), e.ns(n.pmuStart), "driver: prepare", index});
      e.slice(kHost, 1, {e.ns(n.pmuStart), e.ns(n.pmuEnd), "inference (PMU window)", index});
    }
  }

  // 2. Command processor: its waits, with their reason.
  e.processName(kCommandProcessor, "NPU command processor");
  std::vector<Slice> waits;
  for (const platform::OperationReport& o : run.operations) {
    if (o.record.ccWait <= 0) continue;
    Args a = operationArgs(o);
    a.add("reason", waitName(o.record.kind)).add("cycles", o.record.ccWait);
    waits.push_back({e.ns(o.record.issue - o.record.ccWait), e.ns(o.record.issue), waitName(o.record.kind), a.str()});
  }
  for (const TraceRecorder::FetchWait& f : recorder.fetchWaits()) {
    waits.push_back({e.ns(f.from), e.ns(f.to), "command fetch", Args().add("reason", std::string("command fetch")).add("cycles", f.to - f.from).str()});
  }
  e.track(kCommandProcessor, 1, "waits", waits);

  // 3. Kernel unit: operations, then (block detail) each block's stages; MAC activity.
  e.processName(kKernel, "NPU kernel unit");
  std::vector<Slice> kernelOps, dmaOps;
  for (const platform::OperationReport& o : run.operations) {
    const npu::OperationRecord& r = o.record;
    if (cmd::isKernel(r.kind)) {
      Args a = operationArgs(o);
      a.add("kind", std::string(cmd::opKindName(r.kind))).add("bound", o.bound).add("blocks", r.blocks);
      a.add("mac_cycles", r.macCycles).add("output_cycles", r.outputCycles).add("mac_operations", r.macs);
      addPortBytes(a, r);
      a.add("stall_ifm_cycles", r.stallIfm).add("stall_weights_cycles", r.stallWeights);
      a.add("stall_accumulator_cycles", r.stallOutput).add("stall_blockdep_cycles", r.stallBlockdep);
      kernelOps.push_back({e.ns(r.start), e.ns(r.end),
                           std::string(cmd::opKindName(r.kind)) + " " + layerOf(o.networkOp, r.index), a.str()});
    } else if (r.kind == cmd::OpKind::DmaStart) {
      const cmd::DmaTransfer& d = operationOf(o).dma;
      Args a = operationArgs(o);
      a.add("bytes", d.length).add("source_region", uint64_t{d.srcRegion});
      a.add("destination", d.dstInternal ? std::string("SHRAM") : "region " + std::to_string(d.dstRegion));
      addPortBytes(a, r);
      dmaOps.push_back({e.ns(r.start), e.ns(r.end), "DMA " + std::to_string(d.length) + " B", a.str()});
    }
  }
  int tid = 1 + e.track(kKernel, 1, "operations", kernelOps);
  const size_t windows = static_cast<size_t>(run.totalCycles / kWindowCycles) + 1;
  std::vector<double> macBusy(windows, 0.0);
  for (const TraceRecorder::Block& b : recorder.blocks()) spread(macBusy, b.event.macStart, b.event.macDone, b.event.macActive);
  if (detail != TraceDetail::Op) {
    std::array<std::vector<Slice>, 5> stages;
    for (const TraceRecorder::Block& b : recorder.blocks()) {
      const platform::OperationReport& o = run.operations.at(b.record);
      const npu::BlockEvent& v = b.event;
      Args a;
      a.add("operation", uint64_t{o.record.index}).add("network_operator", uint64_t{o.networkOp});
      a.add("layer", layerOf(o.networkOp, o.record.index)).add("block", v.block);
      a.add("ofm_origin_yxc", shape(v.origin)).add("ofm_extent_yxc", shape(v.extent));
      const std::string common = a.str();
      const auto with = [&](const char* key, uint64_t bytes) {
        return common.substr(0, common.size() - 1) + ",\"" + key + "\":" + std::to_string(bytes) + "}";
      };
      const auto add = [&](size_t stage, const char* name, double from, double to, const std::string& args) {
        if (to > from) stages[stage].push_back({e.ns(from), e.ns(to), name, args});
      };
      add(0, "IFM fetch", v.ifmStart, v.ifmDone, with("bytes", v.ifmBytes));
      add(1, "weights", v.weightStart, v.weightDone, with("bytes", v.weightBytes));
      // The MAC slice spans the block's work, with its streamed weights' waits: active_cycles of it
      // are MAC work (MAC_ACTIVE).
      add(2, "MAC", v.macStart, v.macDone, with("active_cycles", static_cast<uint64_t>(std::llround(v.macActive))));
      add(3, "output unit", v.outputStart, v.outputDone, common);
      add(4, "OFM write", v.outputDone, v.writeDone, with("bytes", v.ofmBytes));
    }
    const std::array<const char*, 5> names{"IFM fetch", "weights", "MAC", "output unit", "OFM write"};
    for (size_t s = 0; s < stages.size(); ++s) tid += e.track(kKernel, tid, names[s], std::move(stages[s]));
  }
  for (double& v : macBusy) v = 100.0 * v / kWindowCycles;
  e.counter(kKernel, "MAC active %", "percent", macBusy);

  // 4. DMA unit: one slice per transfer (DMA_START).
  e.processName(kDma, "NPU DMA unit");
  e.track(kDma, 1, "transfers", dmaOps);

  // 5. AXI ports: bandwidth and outstanding bursts per direction; (burst detail) every burst.
  //    A burst's bytes count over its data phase: the last bytes / (bytes per cycle) cycles
  //    before it completes; it is outstanding from address acceptance to completion.
  for (size_t port = 0; port < run.ports.size(); ++port) {
    const int pid = kFirstPort + static_cast<int>(port);
    std::string portName = run.ports[port].name;
    std::transform(portName.begin(), portName.end(), portName.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    e.processName(pid, portName + " (" + run.ports[port].memory + ")");
    std::array<std::vector<double>, 2> bytes{std::vector<double>(windows, 0.0), std::vector<double>(windows, 0.0)};
    std::array<std::vector<double>, 2> outstanding = bytes;
    std::array<std::vector<Slice>, 2> transfers;
    const double bytesPerCycle = run.ports[port].bytesPerCycle;
    for (const mem::BurstEvent& b : recorder.bursts(port)) {
      const size_t d = b.dir == mem::Direction::Read ? 0 : 1;
      spread(bytes[d], std::max(b.issue, b.done - double(b.bytes) / bytesPerCycle), b.done, double(b.bytes));
      spread(outstanding[d], b.issue, b.done, b.done - b.issue);
      if (detail == TraceDetail::Burst) {
        Args a;
        a.add("bytes", b.bytes).add("beats", b.beats).add("issue_wait_cycles", b.issue - b.ready);
        transfers[d].push_back({e.ns(b.issue), e.ns(b.done), d == 0 ? "read" : "write", a.str()});
      }
    }
    for (size_t d = 0; d < 2; ++d) {
      const std::string dir = d == 0 ? "read" : "write";
      for (double& v : bytes[d]) v /= kWindowCycles;
      for (double& v : outstanding[d]) v /= kWindowCycles;
      e.counter(pid, portName + " " + dir + " B/cycle", "bytes_per_cycle", bytes[d]);
      e.counter(pid, portName + " outstanding " + dir + "s", "bursts", outstanding[d]);
    }
    if (detail == TraceDetail::Burst) {
      const int lanes = e.track(pid, 1, "read bursts", std::move(transfers[0]));
      e.track(pid, 1 + lanes, "write bursts", std::move(transfers[1]));
    }
  }
  e.flush();
  file.write("\n]}\n");
}

} // namespace npusim::report
