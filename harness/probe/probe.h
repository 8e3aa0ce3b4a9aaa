// SPDX-License-Identifier: Apache-2.0
#pragma once
// Probe models: copies of a Vela-compiled network whose NPU work stops after one kernel
// operation each, so that an FVP or a board, which report one NPU_ACTIVE per inference, can
// measure what each operation adds (the difference between consecutive probes), and the
// per-operation timing of the simulator can be checked against it; and the network with an
// NPU_OP_IRQ after every launch, for a driver that reads the PMU at each interrupt (one run
// measures every launch: records.h compares such records). Plain C++.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/io/compiled_network.h"
#include "sim/io/decoded_network.h"

namespace npusim::probe {

// One probe: the network up to and including kernel operation `operation` of the `stream`-th
// ethos-u operator.
struct ProbePoint {
  size_t ordinal = 0;      // 1-based position of the operation among the network's kernel operations
  size_t stream = 0;       // index into the decoded ethos-u operators (execution order)
  size_t operation = 0;    // index of the operation in that stream's decoded operations
  uint32_t stopOffset = 0; // stream byte offset of the command after it, where the probe stops
};

// Where probes can stop: after each kernel operation (convolution, depthwise, pooling,
// elementwise, resize; not DMAs, waits or STOP) of every ethos-u operator in execution order,
// except one whose OFM goes to a chaining buffer (U85), which would leave its chained group's
// consumers unrun and the buffer undrained: its group is cut after its last operation. Of
// those, every `every`-th (every >= 1) and always the last.
struct ProbePlan {
  std::vector<ProbePoint> points;
  size_t kernels = 0;   // the network's kernel operations
  size_t chained = 0;   // of them, inside a chained group (no probe stops after them)
};
ProbePlan planProbes(const std::vector<io::DecodedNpuOp>& decoded, size_t every);

// The network's file with its NPU work cut after `point`: that operator's stream ends with an
// NPU_OP_STOP in place of the command at point.stopOffset, every later ethos-u operator's
// stream is that STOP alone, and earlier operators are unchanged. Each cut stream's COP1
// COMMAND_STREAM length is the words kept; the words it no longer covers become NOP driver
// actions, so the file keeps its size and layout (the Ethos-U driver skips NOPs, and the NPU
// never reads past the STOP).
std::vector<uint8_t> probeBytes(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                                const ProbePoint& point);

// An operation the IRQ method follows with an NPU_OP_IRQ, a "launch": every cmd0 NPU_OP_*
// command but STOP, IRQ and the DMA's, i.e. the kernel operations (convolution, depthwise,
// pooling, elementwise, resize) and KERNEL_WAIT and PMU_MASK. This is the method of the
// per-record measurements in fixtures/fvp-perop, whose IRQ counts (cells.csv `irqs`) count the
// KERNEL_WAITs too.
bool isLaunch(cmd::OpKind kind);

struct Launch {
  size_t number = 0;    // position among the network's launches, in execution order, from 0
  size_t stream = 0;    // index into the decoded ethos-u operators
  size_t operation = 0; // index of the operation in that stream's decoded operations
};
// The network's launches in execution order, numbered across its ethos-u operators.
std::vector<Launch> listLaunches(const std::vector<io::DecodedNpuOp>& decoded);

// The IRQ mask the NPU_OP_IRQ after launch `number` carries: one bit, 1 << (number % 16), so
// that the IRQ history mask (STATUS[31:16]) a driver reads says which launches finished since
// it last cleared it.
uint16_t irqMaskOf(size_t number);
// A mask as the manifests write it: 0x and four upper-case hexadecimal digits (0x0004).
std::string irqMaskText(uint16_t mask);

// The network's file with an NPU_OP_IRQ (mask irqMaskOf(n)) right after the command of every
// launch n, and nothing else changed: each ethos-u operator's COP1 payload is the same with the
// longer stream and its COMMAND_STREAM length, written as a new buffer of its command-stream
// tensor (io::replaceTensorData). The result is decoded again and checked against the original
// plus the IRQs (a difference is a logic_error). Throws InputError naming the file and the
// command when a stream already has an NPU_OP_IRQ (the mask history would not say which
// launch raised it), or when a stream would outgrow the COMMAND_STREAM length's 24 bits.
std::vector<uint8_t> irqBytes(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded);

// One row of a probe manifest (`npusim probe write` writes them, `probe compare` reads them).
struct ManifestRow {
  size_t probe = 0;            // 1-based
  std::string file;            // the probe model's file name (in the manifest's folder)
  size_t networkOperator = 0;  // index of the ethos-u operator in the compiled network
  size_t operation = 0;        // operation index in its stream (run --csv's `index`)
  uint32_t commandOffset = 0;  // byte offset of the operation's command in its stream
  std::string kind;            // CONV, DEPTHWISE, POOL, ELEMENTWISE, RESIZE
  std::string layer;           // the layer it belongs to and its source TFLite operator (as
  std::string sourceOperator;  // run --csv names them; empty when unknown)
  uint64_t simulatedNpuActive = 0;
};

std::string manifestHeader();
std::string manifestLine(const ManifestRow& row);
// Reads a manifest; throws InputError naming the file and line (or the missing column).
std::vector<ManifestRow> readManifest(const std::string& path);

// Measured NPU_ACTIVE per probe file: a CSV with a header naming the columns `file` and
// `npu_active` (others are ignored); a file given by path is matched by its name. Throws
// InputError naming the file and line for a missing column, an unparsable count or a file
// named twice.
std::vector<std::pair<std::string, uint64_t>> readMeasured(const std::string& path);

// Measured against simulated, per probe and per operation kind: each probe's cycles, and the
// cycles it adds to the previous probe (the first probe adds all of its own).
struct ProbeComparison {
  struct Row {
    ManifestRow probe;
    bool measured = false;
    uint64_t measuredNpuActive = 0;
    int64_t simulatedDelta = 0, measuredDelta = 0; // against the previous measured probe
  };
  std::vector<Row> rows;                 // every manifest row, in order
  std::vector<std::string> unmatched;    // measured files the manifest does not name
};
ProbeComparison compareProbes(const std::vector<ManifestRow>& manifest,
                              const std::vector<std::pair<std::string, uint64_t>>& measured);

} // namespace npusim::probe
