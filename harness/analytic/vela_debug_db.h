// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela's debug database (`<model>_debug.xml`, written with --enable-debug-db): source and
// optimised operators and the command-stream offset of every NPU kernel operation.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cmdstream/operation.h"

namespace npusim::analytic {

// The four tables of the database.
struct VelaDebugDb {
  struct SourceOp {
    int id = 0;
    std::string type;          // Vela operator type, e.g. "Conv2DBias"
  };
  struct OptimisedOp {
    int id = 0;
    int sourceId = -1;
    std::string type;          // Vela operator type after graph rewrites, e.g. "SHR"
    Shape3 ofmShape{0, 0, 0};  // its OFM (a Concatenation's part: the whole output); 0 when absent
  };
  struct QueueEntry {
    uint32_t offset = 0;       // Vela 3.x: byte offset just after the NPU_OP_* command in the
                               // stream; Vela 5.x: the command's own offset
    int streamId = 0;
    int optimisedId = 0;
    int scheduledId = -1;      // Vela 5.x: the scheduled operation (a `perf` row), else -1
  };
  // Vela 5.x: one scheduled operation (a per-layer CSV row) of the `perf` table; only its
  // identity is read, never its figures.
  struct ScheduledOp {
    int id = 0;
    int sourceId = -1;
    int optimisedId = -1;
    std::string type;          // Vela 5.x operator type, e.g. "Conv2D", "Relu"
    std::string name;          // the operation's OFM tensor name
  };
  // Vela 5.x: an activation chained to (executed by) another scheduled operation.
  struct GroupEntry {
    int id = 0;                // the chained operation
    int groupId = 0;           // the operation that executes it
  };
  // Vela 3.x also records a `file_offset` per stream; it is not reliable (computed before the
  // final file layout) and Vela 5.x no longer writes it, so it is not read.
  struct StreamEntry {
    int id = 0;
  };
  std::vector<SourceOp> source;
  std::vector<OptimisedOp> optimised;
  std::vector<QueueEntry> queue;
  std::vector<StreamEntry> streams;
  std::vector<ScheduledOp> scheduled;  // Vela 5.x, in the per-layer CSV's order; empty for 3.x
  std::vector<GroupEntry> groups;      // Vela 5.x
  // The <debug> element's `source` and `optimised` attributes: model paths relative to the
  // directory Vela ran in (empty when absent).
  std::string sourceModel, optimisedModel;

  const SourceOp* findSource(int id) const;
  const OptimisedOp* findOptimised(int id) const;
  // True for the layout of Vela 5.x (its C++ back end): scheduled operations and groups.
  bool regorLayout() const { return !scheduled.empty(); }
};

// Reads a debug database. Throws InputError (file and byte offset) for a missing table or a
// malformed row.
VelaDebugDb readVelaDebugDb(const std::string& path);
VelaDebugDb parseVelaDebugDb(std::string_view text, const std::string& displayName);

// Where Vela writes the debug database for a compiled model: `x_vela.tflite` -> `x_debug.xml`.
std::string velaDebugDbPath(const std::string& modelPath);

// TFLite builtin name of a Vela source operator type (as Vela's per-layer CSV prints it).
std::string tfliteOperatorName(std::string_view velaType);

} // namespace npusim::analytic
