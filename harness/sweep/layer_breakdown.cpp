// SPDX-License-Identifier: Apache-2.0
#include "harness/sweep/layer_breakdown.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "harness/probe/operation_type.h"
#include "harness/report/run_json.h"
#include "sim/io/decoded_network.h"
#include "sim/io/demo_network.h"

namespace npusim::sweep {
namespace {

namespace run_json = report::run_json;

constexpr const char* kTypes[] = {"conv", "depthwise", "pooling", "elementwise", "fully_connected", "cpu", "other"};

} // namespace

OperationTypes operationTypes(const std::string& modelPath) {
  const io::CompiledNetwork net = io::loadModelOrDemo(modelPath);
  OperationTypes types;
  for (const io::DecodedNpuOp& d : io::decodeAll(net)) {
    for (size_t i = 0; i < d.operations.size(); ++i) {
      const std::string type = probe::operationType(d.operations[i], "");
      if (!type.empty()) types[{d.operatorIndex, i}] = type;
    }
  }
  return types;
}

nlohmann::ordered_json cyclesByType(const nlohmann::ordered_json& run, const OperationTypes& types) {
  std::map<std::string, int64_t> cycles;
  // 1. CPU operators.
  for (const auto& op : run.at(run_json::kNetworkOperators)) {
    if (op.at(run_json::kKind) == run_json::kKindCpu) {
      cycles["cpu"] += op.at(run_json::kEndCycle).get<int64_t>() - op.at(run_json::kStartCycle).get<int64_t>();
    }
  }
  // 2. Kernel operations in start order, each from where the previous one ended.
  struct Span {
    int64_t start, end;
    std::string type;
  };
  std::vector<Span> spans;
  for (const auto& op : run.at(run_json::kOperations)) {
    const auto it = types.find({op.at(run_json::kNetworkOperator).get<size_t>(), op.at(run_json::kIndex).get<size_t>()});
    if (it == types.end()) continue;
    spans.push_back({op.at(run_json::kStartCycle).get<int64_t>(), op.at(run_json::kEndCycle).get<int64_t>(), it->second});
  }
  std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
  int64_t covered = 0;
  for (const Span& s : spans) {
    const int64_t from = std::max(s.start, covered);
    if (s.end > from) cycles[s.type] += s.end - from;
    covered = std::max(covered, s.end);
  }
  // 3. The rest.
  int64_t assigned = 0;
  for (const auto& [type, n] : cycles) assigned += n;
  cycles["other"] = run.at(run_json::kTotalCycles).get<int64_t>() - assigned;
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const char* type : kTypes) out[type] = cycles[type];
  return out;
}

nlohmann::ordered_json cyclesByBound(const nlohmann::ordered_json& run) {
  std::map<std::string, int64_t> cycles;
  for (const auto& op : run.at(run_json::kOperations)) {
    const std::string bound = op.value(run_json::kBound, "");
    if (!bound.empty()) {
      cycles[bound] += op.at(run_json::kEndCycle).get<int64_t>() - op.at(run_json::kStartCycle).get<int64_t>();
    }
  }
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [bound, n] : cycles) out[bound] = n;
  return out;
}

} // namespace npusim::sweep
