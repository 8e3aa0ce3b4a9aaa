// SPDX-License-Identifier: Apache-2.0
#include "harness/report/layer_map.h"

#include <climits>
#include <cstdio>
#include <optional>

#include "harness/analytic/network_estimate.h"
#include "harness/analytic/vela_artifacts.h"
#include "sim/common/error.h"

namespace npusim::report {
namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
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
                   const analytic::VelaArtifacts& vela, std::vector<std::string>* warnings) {
  LayerMap map;
  // 1. Vela's rows and names, when its debug database (and source model) sit beside the model.
  std::vector<std::vector<analytic::RowSpec>> rows;
  if (vela.db) {
    try {
      rows = analytic::rowsFromDebugDb(net, decoded, *vela.db, vela.source ? &*vela.source : nullptr);
      map.fromDebugDb = true;
      if (!vela.sourceWarning.empty()) warnings->push_back(vela.sourceWarning);
    } catch (const InputError& e) {
      warnings->push_back(std::string(e.what()) + " (debug database " + vela.debugDbPath +
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
        // Vela's name when known (empty for an unnamed tensor, as Vela's CSV has it): Vela 5.x's
        // database carries it, Vela 3.x's comes from the source model. Else the source
        // operator's type and number.
        const bool named = vela.source || vela.db->regorLayout();
        const std::string name =
            named ? row.name : row.tfliteOperator + " (source operator " + std::to_string(row.sourceId) + ")";
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
