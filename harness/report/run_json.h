// SPDX-License-Identifier: Apache-2.0
#pragma once
// The field names of `npusim run --json` (docs/outputs.md): the one spelling shared by the
// writer (run_report) and its readers (sweep, regress, compare-runs).

#include <cstdint>

namespace npusim::report::run_json {

// The format this npusim writes: 2 lists the NPU ports (ports[].name, operations[].bytes.read[]);
// format 1 (no format_version member) named them ports[].port and operations[].bytes.axiN_*.
constexpr int64_t kFormat = 2;

// Top level.
constexpr char kFormatVersion[] = "format_version";
constexpr char kModel[] = "model";
constexpr char kConfig[] = "config";
constexpr char kTotalCycles[] = "total_cycles";
constexpr char kTimeSeconds[] = "time_s";
constexpr char kNpuActiveCycles[] = "npu_active_cycles";
constexpr char kNpuIdleCycles[] = "npu_idle_cycles";
constexpr char kMacs[] = "macs";
constexpr char kLayerNamesFrom[] = "layer_names_from";
constexpr char kPmu[] = "pmu";
constexpr char kPorts[] = "ports";
constexpr char kNetworkOperators[] = "network_operators";
constexpr char kOperations[] = "operations";
constexpr char kLayers[] = "layers";
constexpr char kBreakdown[] = "breakdown";
constexpr char kCheck[] = "check";   // run --check only

// check (run --check).
constexpr char kCheckedBursts[] = "bursts";
constexpr char kCheckedBlocks[] = "blocks";
constexpr char kCheckedOperations[] = "operations";
constexpr char kViolations[] = "violations";
constexpr char kExamples[] = "examples";

// config.
constexpr char kAccelerator[] = "accelerator";
constexpr char kSystemConfig[] = "system_config";
constexpr char kMemoryMode[] = "memory_mode";
constexpr char kCoreClock[] = "core_clock";
constexpr char kSystemConfigFrom[] = "system_config_from";
constexpr char kMemoryModeFrom[] = "memory_mode_from";

// breakdown: the NPU operation kinds or bound labels with cycles, then these two.
constexpr char kByKind[] = "by_kind";
constexpr char kByBound[] = "by_bound";
constexpr char kCpuOperators[] = "cpu_operators";
constexpr char kOther[] = "other";

// ports[] (also kName).
constexpr char kMemory[] = "memory";
constexpr char kReadBytes[] = "read_bytes";
constexpr char kWriteBytes[] = "write_bytes";
constexpr char kReadBeats[] = "read_beats";
constexpr char kWriteBeats[] = "write_beats";
constexpr char kReadBursts[] = "read_bursts";
constexpr char kWriteBursts[] = "write_bursts";
constexpr char kReadLimitStallCycles[] = "read_limit_stall_cycles";
constexpr char kWriteLimitStallCycles[] = "write_limit_stall_cycles";
constexpr char kContentionCycles[] = "contention_cycles";
constexpr char kPeakBytesPerCycle[] = "peak_bytes_per_cycle";

// network_operators[] (also kNpuActiveCycles, kNpuIdleCycles for NPU operators, and their PMU
// window: the driver's inference-begin and inference-end callbacks).
constexpr char kIndex[] = "index";
constexpr char kOperator[] = "operator";
constexpr char kKind[] = "kind";
constexpr char kKindNpu[] = "npu";
constexpr char kKindCpu[] = "cpu";
constexpr char kStartCycle[] = "start_cycle";
constexpr char kEndCycle[] = "end_cycle";
constexpr char kPmuStartCycle[] = "pmu_start_cycle";
constexpr char kPmuEndCycle[] = "pmu_end_cycle";

// operations[] (also kIndex, kKind, kStartCycle, kEndCycle, kMacs) and layers[] (also
// kNetworkOperator, kSourceOperator, kChargedCycles, kBound, kBoundCycles; kOperations counts).
constexpr char kNetworkOperator[] = "network_operator";
constexpr char kLayer[] = "layer";
constexpr char kName[] = "name";
constexpr char kSourceOperator[] = "source_operator";
constexpr char kCommandOffset[] = "command_offset";
constexpr char kIssueCycle[] = "issue_cycle";
constexpr char kMacCycles[] = "mac_cycles";
constexpr char kOutputCycles[] = "output_cycles";
constexpr char kBlocks[] = "blocks";
constexpr char kBytes[] = "bytes";
constexpr char kStallCycles[] = "stall_cycles";
constexpr char kChargedCycles[] = "charged_cycles";
constexpr char kBound[] = "bound";
constexpr char kBoundCycles[] = "bound_cycles";

// operations[].bytes: bytes read and written per port, each an array in ports[] order.
constexpr char kRead[] = "read";
constexpr char kWrite[] = "write";

// operations[].stall_cycles.
constexpr char kStallIfm[] = "ifm";
constexpr char kStallWeights[] = "weights";
constexpr char kStallAccumulator[] = "accumulator";
constexpr char kStallBlockdep[] = "blockdep";
constexpr char kStallCommandProcessor[] = "command_processor";
constexpr char kStallCommandFetch[] = "command_fetch";

} // namespace npusim::report::run_json
