// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/network_estimate.h"

#include <algorithm>
#include <map>

#include "sim/common/error.h"

namespace npusim::analytic {

namespace {

// Which decoded operator each database stream describes. Streams are numbered in NPU
// subgraph order, which is the order of the ethos-u operators; the recorded file offsets are
// not reliable (Vela computes them before the final tensor layout).
std::map<int, size_t> matchStreams(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                                   const VelaDebugDb& db) {
  if (db.streams.size() != decoded.size()) {
    throwAtOffset(net.path, 0, "debug database describes " + std::to_string(db.streams.size()) +
                                   " command streams, the model has " + std::to_string(decoded.size()));
  }
  std::vector<int> ids;
  for (const VelaDebugDb::StreamEntry& s : db.streams) {
    ids.push_back(s.id);
  }
  std::sort(ids.begin(), ids.end());
  std::map<int, size_t> byOrder;
  for (size_t i = 0; i < ids.size(); ++i) {
    byOrder[ids[i]] = i;
  }
  return byOrder;
}

RowSpec labelledRow(const VelaDebugDb& db, const VelaDebugDb::OptimisedOp& op) {
  RowSpec row;
  row.nngOperator = op.type;
  row.sourceId = op.sourceId;
  if (const VelaDebugDb::SourceOp* src = db.findSource(op.sourceId)) {
    row.tfliteOperator = tfliteOperatorName(src->type);
  }
  return row;
}

} // namespace

std::vector<std::vector<RowSpec>> rowsFromDebugDb(const io::CompiledNetwork& net,
                                                  const std::vector<io::DecodedNpuOp>& decoded,
                                                  const VelaDebugDb& db) {
  const std::map<int, size_t> streamOf = matchStreams(net, decoded, db);
  std::vector<std::vector<RowSpec>> rows(decoded.size());
  std::vector<std::vector<int>> rowIds(decoded.size());   // optimised id of each row
  // 1. Kernel operations -> optimised operator, rows in order of first appearance.
  std::map<std::pair<size_t, uint32_t>, int> queue;
  for (const VelaDebugDb::QueueEntry& e : db.queue) {
    if (auto it = streamOf.find(e.streamId); it != streamOf.end()) {
      queue[{it->second, e.offset}] = e.optimisedId;
    }
  }
  for (size_t s = 0; s < decoded.size(); ++s) {
    const std::vector<cmd::Operation>& ops = decoded[s].operations;
    for (size_t i = 0; i < ops.size(); ++i) {
      if (!cmd::isKernel(ops[i].kind)) {
        continue;
      }
      auto entry = queue.find({s, ops[i].byteOffset + 4});
      const VelaDebugDb::OptimisedOp* op = entry == queue.end() ? nullptr : db.findOptimised(entry->second);
      if (op == nullptr) {
        throwAtOffset(net.path, net.operators[decoded[s].operatorIndex].npu.commands.offset + ops[i].byteOffset,
                      "debug database has no operator for the NPU operation at stream offset " +
                          std::to_string(ops[i].byteOffset));
      }
      auto known = std::find(rowIds[s].begin(), rowIds[s].end(), op->id);
      if (known == rowIds[s].end()) {
        rows[s].push_back(labelledRow(db, *op));
        rowIds[s].push_back(op->id);
        known = rowIds[s].end() - 1;
      }
      rows[s][static_cast<size_t>(known - rowIds[s].begin())].operations.push_back(i);
    }
  }
  // 2. DMA-only operators (Memcpy) have no queue entry: place them in model order, before
  //    the first row whose source operator follows theirs.
  auto sourceOfRow = [&](size_t s, size_t r) { return db.findOptimised(rowIds[s][r])->sourceId; };
  for (const VelaDebugDb::OptimisedOp& op : db.optimised) {
    if (op.type != "Memcpy" || std::any_of(rowIds.begin(), rowIds.end(), [&](const std::vector<int>& ids) {
          return std::find(ids.begin(), ids.end(), op.id) != ids.end();
        })) {
      continue;
    }
    size_t stream = decoded.size();
    size_t position = 0;
    for (size_t s = 0; s < decoded.size() && stream == decoded.size(); ++s) {
      for (size_t r = 0; r < rows[s].size(); ++r) {
        if (sourceOfRow(s, r) > op.sourceId) {
          stream = s;
          position = r;
          break;
        }
      }
    }
    if (stream == decoded.size()) {
      if (decoded.empty()) {
        continue;
      }
      stream = decoded.size() - 1;
      position = rows[stream].size();
    }
    RowSpec row = labelledRow(db, op);
    row.memcpy = true;
    rows[stream].insert(rows[stream].begin() + static_cast<std::ptrdiff_t>(position), row);
    rowIds[stream].insert(rowIds[stream].begin() + static_cast<std::ptrdiff_t>(position), op.id);
  }
  return rows;
}

NetworkEstimate estimateNetwork(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                                const config::SystemParams& params, const VelaDebugDb* db) {
  if (decoded.empty()) {
    throwAtOffset(net.path, 0, "the model has no ethos-u operator to estimate");
  }
  NetworkEstimate result;
  result.model = net.path;
  result.macs = net.operators[decoded.front().operatorIndex].npu.header.macs;
  result.systemConfig = params.systemConfig;
  result.memoryMode = params.memoryMode;
  result.coreClockHz = params.coreClockHz;
  result.rowsFromDebugDb = db != nullptr;
  const VelaSystem system(params, result.macs);
  const LayerBuilder builder(system);
  const Estimator estimator(system);
  const std::vector<std::vector<RowSpec>> rows =
      db != nullptr ? rowsFromDebugDb(net, decoded, *db) : std::vector<std::vector<RowSpec>>{};
  for (size_t s = 0; s < decoded.size(); ++s) {
    SubgraphEstimate sub;
    sub.operatorIndex = decoded[s].operatorIndex;
    const std::vector<cmd::Operation>& ops = decoded[s].operations;
    sub.layers = builder.build(ops, db != nullptr ? rows[s] : LayerBuilder::oneRowPerKernel(ops));
    sub.estimates = estimator.estimate(sub.layers);
    for (const LayerEstimate& e : sub.estimates) {
      result.totals.add(e);
    }
    result.subgraphs.push_back(std::move(sub));
  }
  return result;
}

} // namespace npusim::analytic
