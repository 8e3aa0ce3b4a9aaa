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
    cmd::Shape3 ofmShape{0, 0, 0};  // its OFM (a Concatenation's part: the whole output); 0 when absent
  };
  struct QueueEntry {
    uint32_t offset = 0;       // byte offset just after the NPU_OP_* command in the stream
    int streamId = 0;
    int optimisedId = 0;
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
  // The <debug> element's `source` and `optimised` attributes: model paths relative to the
  // directory Vela ran in (empty when absent).
  std::string sourceModel, optimisedModel;

  const SourceOp* findSource(int id) const;
  const OptimisedOp* findOptimised(int id) const;
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
