// SPDX-License-Identifier: Apache-2.0
#include "harness/report/layer_map.h"

#include <climits>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "harness/analytic/network_estimate.h"
#include "harness/analytic/vela_debug_db.h"
#include "sim/common/error.h"

namespace npusim::report {
namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// The source model a debug database names: its `source` path is relative to the directory
// Vela ran in, which is the database's directory less the `optimised` path's directories.
std::optional<std::string> sourceModelPath(const std::string& dbPath, const analytic::VelaDebugDb& db) {
  namespace fs = std::filesystem;
  if (db.sourceModel.empty()) return std::nullopt;
  fs::path cwd = fs::path(dbPath).parent_path();
  for (fs::path up = fs::path(db.optimisedModel).parent_path(); !up.empty() && up != up.root_path();
       up = up.parent_path()) {
    cwd = cwd.parent_path();
  }
  const fs::path source = cwd / db.sourceModel;
  std::error_code ec;
  if (!fs::is_regular_file(source, ec)) return std::nullopt;
  return source.string();
}

// Layer names by Vela source operator id: the operator's first output tensor in the source
// model. Empty when the model's operators do not match the database's source table.
std::map<int, std::string> sourceNames(const std::string& dbPath, const analytic::VelaDebugDb& db,
                                       std::vector<std::string>* warnings) {
  std::map<int, std::string> names;
  const std::optional<std::string> path = sourceModelPath(dbPath, db);
  if (!path) return names;
  try {
    const io::CompiledNetwork source = io::loadSourceModel(*path);
    for (const analytic::VelaDebugDb::SourceOp& s : db.source) {
      const size_t id = static_cast<size_t>(s.id);
      if (s.id < 0 || id >= source.operators.size() ||
          analytic::tfliteOperatorName(s.type) != source.operators[id].opName || source.operators[id].outputs.empty()) {
        warnings->push_back(*path + ": source operator " + std::to_string(s.id) + " does not match the debug database " +
                            dbPath + "; layer names from the compiled .tflite only");
        return {};
      }
      const std::string& tensor = source.tensors[static_cast<size_t>(source.operators[id].outputs[0])].name;
      if (!tensor.empty()) names[s.id] = tensor;
    }
  } catch (const InputError& e) {
    warnings->push_back(std::string(e.what()) + "; layer names from the compiled .tflite only");
    return {};
  }
  return names;
}

} // namespace

const LayerInfo* LayerMap::find(size_t networkOp, size_t index) const {
  const size_t i = indexOf(networkOp, index);
  return i == SIZE_MAX ? nullptr : &layers[i];
}

size_t LayerMap::indexOf(size_t networkOp, size_t index) const {
  const auto it = ofOperation.find(networkOp);
  return it == ofOperation.end() || index >= it->second.size() ? SIZE_MAX : it->second[index];
}

const LayerInfo* LayerMap::findCpu(size_t networkOp) const {
  const auto it = ofCpuOperator.find(networkOp);
  return it == ofCpuOperator.end() ? nullptr : &layers[it->second];
}

LayerMap mapLayers(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                   std::vector<std::string>* warnings) {
  LayerMap map;
  // 1. Vela's rows and source names, when a matching debug database sits beside the model.
  std::vector<std::vector<analytic::RowSpec>> rows;
  std::map<int, std::string> names;
  const std::string dbPath = analytic::velaDebugDbPath(net.path);
  std::error_code ec;
  if (std::filesystem::is_regular_file(dbPath, ec)) {
    const analytic::VelaDebugDb db = analytic::readVelaDebugDb(dbPath);   // malformed: InputError
    try {
      rows = analytic::rowsFromDebugDb(net, decoded, db);
      names = sourceNames(dbPath, db, warnings);
      map.fromDebugDb = true;
    } catch (const InputError& e) {
      warnings->push_back(std::string(e.what()) + " (debug database " + dbPath +
                          " does not match the model); layer names from the .tflite only");
      rows.clear();
    }
  }
  // 2. Each ethos-u operator's operations: rows, or one layer per kernel operation.
  for (size_t s = 0; s < decoded.size(); ++s) {
    const size_t networkOp = decoded[s].operatorIndex;
    const std::vector<cmd::Operation>& ops = decoded[s].operations;
    std::vector<size_t>& of = map.ofOperation[networkOp];
    of.assign(ops.size(), SIZE_MAX);
    if (!rows.empty()) {
      for (const analytic::RowSpec& row : rows[s]) {
        const auto n = names.find(row.sourceId);
        const std::string name = n != names.end() ? n->second
                                                  : row.tfliteOperator + " (source operator " +
                                                        std::to_string(row.sourceId) + ")";
        map.rowNames[networkOp].push_back(name);
        if (row.operations.empty()) continue;   // DMA-only rows have no operation of their own
        LayerInfo info;
        info.networkOp = networkOp;
        info.tfliteOperator = row.tfliteOperator;
        info.name = name;
        for (size_t i : row.operations) of[i] = map.layers.size();
        map.layers.push_back(std::move(info));
      }
    } else {
      for (size_t i = 0; i < ops.size(); ++i) {
        if (!cmd::isKernel(ops[i].kind)) continue;
        of[i] = map.layers.size();
        map.layers.push_back({std::string(cmd::opKindName(ops[i].kind)) + " @" + hex(ops[i].byteOffset), "", networkOp});
      }
    }
    // DMAs and waits belong to the next kernel operation's layer (the last one's at the end).
    size_t next = SIZE_MAX;
    for (size_t i = ops.size(); i-- > 0;) {
      if (of[i] != SIZE_MAX) next = of[i];
      else of[i] = next;
    }
    for (size_t i = 0, last = SIZE_MAX; i < ops.size(); ++i) {
      if (of[i] == SIZE_MAX) of[i] = last;
      last = of[i];
    }
  }
  // 3. CPU operators: named after their first output tensor.
  for (const io::Operator& op : net.operators) {
    if (op.kind != io::OperatorKind::Cpu) continue;
    map.ofCpuOperator[op.index] = map.layers.size();
    const std::string name =
        op.outputs.empty() ? op.opName : net.tensors[static_cast<size_t>(op.outputs[0])].name;
    map.layers.push_back({name, op.opName, op.index});
  }
  return map;
}

} // namespace npusim::report
