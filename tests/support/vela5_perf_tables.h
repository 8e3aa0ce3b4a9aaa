// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela 5.x's own per-operation figures from its debug database (tables perf, perf_debug,
// perf_debug_main, perf_debug_conn and group), and the performance queries that database
// describes: what the fidelity tests check Vela 5.0's cost models against step by step, apart
// from the command stream. Test-only: the estimator itself reads the stream.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/analytic/vela5_performance.h"

namespace npusim::test {

// One scheduled operation of the `perf` table with everything the database says about it.
struct Vela5OpRecord {
  int id = 0;
  std::string type;                        // regor's operator type
  int groupId = -1;                        // the group's primary, when this is a member of another's group
  std::map<std::string, std::string> perf;        // `perf` row by column
  std::map<std::string, std::string> debug;       // `perf_debug` row by column
  std::map<std::string, std::string> main;        // `perf_debug_main` row by column (empty: none)
  std::vector<std::pair<int, int>> inputs;        // `perf_debug_conn`: (producing operation, input index)
  int64_t integer(const std::map<std::string, std::string>& row, const std::string& column) const;
  Shape3 shape(const std::map<std::string, std::string>& row, const std::string& prefix) const;
};

// The database's operations in `perf` order.
std::vector<Vela5OpRecord> readVela5PerfTables(const std::string& debugDbPath);

// The memories a query of the database points to, by regor's name (Sram, Dram, OffChipFlash).
struct Vela5Memories {
  const analytic::vela5::System* system;
  const analytic::vela5::Memory& byName(const std::string& name) const;
};

// The query Vela 5.0 measured primary operation `op` (with its group's members from `all`) with,
// as the database records it: its slices of the feature maps with their memories, formats and
// element types, the kernel, the block config (OFM and IFM block, micro-block, traversal), the
// weight format, encoded weight bytes (scale bytes from the scale reads), buffering and
// pre-buffered share, the group and its external feature maps. Throws std::runtime_error for an
// operation the database does not describe enough.
analytic::vela5::Query vela5QueryOf(const Vela5OpRecord& op, const std::vector<Vela5OpRecord>& all,
                                    const Vela5Memories& memories);

} // namespace npusim::test
