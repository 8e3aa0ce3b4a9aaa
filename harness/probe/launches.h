// SPDX-License-Identifier: Apache-2.0
#pragma once
// The launches of a network as `probe write --irq` instruments it (probe.h: an NPU_OP_IRQ after
// each), with what npusim simulates up to each launch's interrupt: the launch manifest that
// `probe compare` joins per-record measurements with (records.h). Plain C++.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/config/system_params.h"
#include "sim/io/compiled_network.h"
#include "sim/io/decoded_network.h"

namespace npusim::probe {

// One row of a launch manifest (DIR/launches.csv; docs/outputs.md).
struct LaunchRow {
  bool end = false;            // the last row: the end of the PMU windows, where a tail record ends
  size_t launch = 0;           // Launch::number
  uint16_t irqMask = 0;        // irqMaskOf(launch)
  size_t networkOperator = 0;  // the ethos-u operator
  size_t operation = 0;        // index of the operation in its stream (run --csv's `index`)
  uint32_t commandOffset = 0;  // byte offset of its command in the original stream
  std::string kind;            // CONV, DEPTHWISE, POOL, ELEMENTWISE, RESIZE, KERNEL_WAIT, PMU_MASK; END
  std::string type;            // operationType; "other" for KERNEL_WAIT and PMU_MASK; "" for END
  std::string layer, sourceOperator; // as run --csv names them (empty when unknown)
  // Cycles from the start of the PMU window (the driver's inference-begin callback, where the
  // CYCLE counter starts) to this launch's interrupt: the end of this launch and of every launch
  // before it, counted over the ethos-u operators' PMU windows one after another, as CYCLE sums
  // them. END: the windows' total (CYCLE).
  uint64_t simulatedEnd = 0;
  // AXI data beats per LaunchManifest::beatColumns of the bursts that completed after the
  // previous row's interrupt, up to and including this one's.
  std::vector<uint64_t> simulatedBeats;
};

struct LaunchManifest {
  // The beat counts, read and write per port group of the accelerator, named as the PMU names
  // the group in lower case (U85: sram_rd_beats, sram_wr_beats, ext_rd_beats, ext_wr_beats;
  // U55, U65, whose PMU counts per port: axi0_rd_beats, ..., axi1_wr_beats).
  std::vector<std::string> beatColumns;
  std::vector<LaunchRow> rows; // one per launch in execution order, then the END row
};

std::string launchManifestCsv(const LaunchManifest& manifest);
// Reads a launch manifest; throws InputError naming the file and line (or the missing column)
// for a malformed one.
LaunchManifest readLaunchManifest(const std::string& path);
// True when the CSV file at `path` has a launch manifest's header (columns irq_mask and
// simulated_end); throws InputError when it cannot be read or is empty.
bool isLaunchManifest(const std::string& path);

// The layer of operation `operation` of ethos-u operator `networkOperator`, and that layer's
// source TFLite operator (empty when unknown).
struct LayerLabel {
  std::string layer, sourceOperator;
};
using LayerLabels = std::function<LayerLabel(size_t networkOperator, size_t operation)>;

// Simulates `net` as `npusim run` would with `params` (one SystemC elaboration: call it once per
// process) and returns its launch manifest, layers and types from `labels`.
LaunchManifest simulateLaunches(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                                const config::SystemParams& params, const LayerLabels& labels);

} // namespace npusim::probe
