// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/vela_artifacts.h"

#include <cstring>
#include <filesystem>

#include "sim/common/error.h"
#include "sim/io/compiled_network.h"

namespace npusim::analytic {

namespace {

namespace fs = std::filesystem;

bool isFile(const fs::path& p) {
  std::error_code ec;
  return !p.empty() && fs::is_regular_file(p, ec);
}

// Integer values of a constant tensor of the source model (empty when it has none).
std::vector<int64_t> constantValues(const io::CompiledNetwork& model, int tensor) {
  std::vector<int64_t> values;
  if (tensor < 0 || static_cast<size_t>(tensor) >= model.tensors.size()) return values;
  const io::TensorInfo& t = model.tensors[static_cast<size_t>(tensor)];
  if (!t.data || (t.type != "INT32" && t.type != "INT64")) return values;
  const size_t bytes = t.type == "INT32" ? 4 : 8;
  const uint8_t* p = model.at(*t.data);
  for (uint64_t i = 0; i + bytes <= t.data->size; i += bytes) {
    if (bytes == 4) {
      int32_t v;
      std::memcpy(&v, p + i, 4);
      values.push_back(v);
    } else {
      int64_t v;
      std::memcpy(&v, p + i, 8);
      values.push_back(v);
    }
  }
  return values;
}

// Candidate locations of the source model: the database records it relative to the directory
// Vela ran in, which is the database's directory less as many levels as the compiled model's
// recorded path has directories. Tried from the database's path as given (made absolute) and
// with symlinks resolved.
std::vector<fs::path> sourceCandidates(const std::string& dbPath, const VelaDebugDb& db) {
  std::vector<fs::path> out;
  const fs::path recorded(db.sourceModel);
  if (recorded.is_absolute()) {
    out.push_back(recorded);
    return out;
  }
  std::error_code ec;
  std::vector<fs::path> dbDirs{fs::absolute(dbPath, ec).lexically_normal().parent_path()};
  const fs::path canonical = fs::weakly_canonical(dbPath, ec);
  if (!ec) dbDirs.push_back(canonical.parent_path());
  size_t levels = 0;
  for (fs::path up = fs::path(db.optimisedModel).parent_path(); !up.empty() && up != up.root_path();
       up = up.parent_path()) {
    ++levels;
  }
  for (fs::path dir : dbDirs) {
    for (size_t i = 0; i < levels; ++i) dir = dir.parent_path();
    out.push_back((dir / recorded).lexically_normal());
  }
  return out;
}

// The model's operators in the order Vela numbers source operators: depth first from the
// subgraph outputs, an operator after the producers of its inputs.
std::vector<size_t> velaSourceOrder(const io::CompiledNetwork& model) {
  std::vector<int> producer(model.tensors.size(), -1);
  for (const io::Operator& op : model.operators) {
    for (int t : op.outputs) {
      if (t >= 0 && static_cast<size_t>(t) < producer.size()) producer[static_cast<size_t>(t)] = static_cast<int>(op.index);
    }
  }
  std::vector<size_t> order;
  std::vector<bool> opSeen(model.operators.size(), false), tensorSeen(model.tensors.size(), false);
  // Explicit stack instead of recursion: a deep network must not exhaust the call stack.
  struct Frame {
    size_t op;
    size_t nextInput;
  };
  std::vector<Frame> stack;
  auto visitTensor = [&](int t) {
    if (t < 0 || static_cast<size_t>(t) >= tensorSeen.size() || tensorSeen[static_cast<size_t>(t)]) return;
    tensorSeen[static_cast<size_t>(t)] = true;
    const int p = producer[static_cast<size_t>(t)];
    if (p >= 0 && !opSeen[static_cast<size_t>(p)]) {
      opSeen[static_cast<size_t>(p)] = true;
      stack.push_back({static_cast<size_t>(p), 0});
    }
  };
  for (int out : model.outputs) {
    visitTensor(out);
    while (!stack.empty()) {
      Frame& f = stack.back();
      const std::vector<int>& inputs = model.operators[f.op].inputs;
      if (f.nextInput < inputs.size()) {
        visitTensor(inputs[f.nextInput++]);
        continue;
      }
      const size_t op = f.op;
      stack.pop_back();
      order.push_back(op);
      for (int t : model.operators[op].outputs) visitTensor(t);
    }
  }
  return order;
}

} // namespace

std::optional<VelaSourceModel> matchSourceModel(const std::string& path, const VelaDebugDb& db, std::string* why) {
  const io::CompiledNetwork model = io::loadSourceModel(path);
  VelaSourceModel source;
  source.path = path;
  const std::vector<size_t> order = velaSourceOrder(model);
  if (order.size() != db.source.size()) {
    *why = "the database has " + std::to_string(db.source.size()) + " source operators, the model " +
           std::to_string(order.size()) + " that lead to its outputs";
    return std::nullopt;
  }
  for (const VelaDebugDb::SourceOp& s : db.source) {
    const size_t id = static_cast<size_t>(s.id);
    if (s.id < 0 || id >= order.size() || tfliteOperatorName(s.type) != model.operators[order[id]].opName ||
        model.operators[order[id]].outputs.empty()) {
      *why = "source operator " + std::to_string(s.id) + " (" + s.type + ") is not the model's operator " +
             (id < order.size() ? std::to_string(order[id]) : std::string("?"));
      return std::nullopt;
    }
    const io::Operator& op = model.operators[order[id]];
    SourceOperator info;
    info.type = s.type;
    const int out = op.outputs.front();
    info.name = out >= 0 ? model.tensors[static_cast<size_t>(out)].name : "unknown_op_name";
    info.inputCount = op.inputs.size();
    if (s.type == "Pad" && op.inputs.size() >= 2) {
      // Paddings [[0, 0], [top, bottom], [left, right], [0, 0]] (or without the batch row).
      const std::vector<int64_t> p = constantValues(model, op.inputs[1]);
      if (p.size() >= 6) info.padding = {p[p.size() - 6], p[p.size() - 4], p[p.size() - 5], p[p.size() - 3]};
    }
    source.operators[s.id] = info;
    source.inputs[s.id] = op.inputs;
    source.outputs[s.id] = op.outputs;
  }
  // Names of the optimised operators: each source operator's in database order.
  std::map<int, std::vector<const VelaDebugDb::OptimisedOp*>> bySource;
  for (const VelaDebugDb::OptimisedOp& o : db.optimised) bySource[o.sourceId].push_back(&o);
  for (const auto& [sourceId, ops] : bySource) {
    const auto it = source.operators.find(sourceId);
    if (it == source.operators.end()) continue;
    std::vector<std::string> types;
    for (const VelaDebugDb::OptimisedOp* o : ops) types.push_back(o->type);
    const std::vector<std::string> names = velaOperatorNames(it->second, types);
    for (size_t i = 0; i < ops.size(); ++i) source.optimisedNames[ops[i]->id] = names[i];
  }
  // A ReLU whose IFM and OFM scales differ is replaced by an AvgPool named `<relu>_avgpool`
  // that Vela records without a source: the ReLUs left without optimised operators, in order.
  std::vector<int> replacedRelus;
  for (const auto& [id, op] : source.operators) {
    const bool relu = op.type == "Relu" || op.type == "Relu6" || op.type == "ReluN1To1" || op.type == "Relu0To1";
    if (relu && bySource.count(id) == 0) replacedRelus.push_back(id);
  }
  size_t next = 0;
  for (const VelaDebugDb::OptimisedOp* o : bySource[-1]) {
    if (o->type == "AvgPool" && next < replacedRelus.size()) {
      source.optimisedNames[o->id] = source.operators[replacedRelus[next++]].name + "_avgpool";
    }
  }
  return source;
}

VelaArtifacts findVelaArtifacts(const std::string& modelPath, const std::string& debugDbPath) {
  VelaArtifacts a;
  // 1. The database: as asked, beside the model, or beside the file a symlink names.
  if (!debugDbPath.empty()) {
    a.debugDbPath = debugDbPath;
  } else if (!modelPath.empty()) {
    const std::string beside = velaDebugDbPath(modelPath);
    std::error_code ec;
    const fs::path resolved = fs::weakly_canonical(modelPath, ec);
    const std::string besideTarget = ec ? std::string() : velaDebugDbPath(resolved.string());
    if (isFile(beside)) a.debugDbPath = beside;
    else if (isFile(besideTarget)) a.debugDbPath = besideTarget;
  }
  if (a.debugDbPath.empty()) return a;
  a.db = readVelaDebugDb(a.debugDbPath);   // malformed or missing when asked for: InputError
  // Vela 5.x's database names its operations itself (its `source` attribute is the output
  // files' stem, not the source model): nothing more to find.
  if (a.db->regorLayout()) return a;
  // 2. The source model a Vela 3.x database was made from.
  if (a.db->sourceModel.empty()) {
    a.sourceWarning = a.debugDbPath + ": the debug database names no source model; layer names from the compiled "
                                      "model only";
    return a;
  }
  const std::vector<fs::path> candidates = sourceCandidates(a.debugDbPath, *a.db);
  for (const fs::path& candidate : candidates) {
    if (!isFile(candidate)) continue;
    std::string why;
    try {
      a.source = matchSourceModel(candidate.string(), *a.db, &why);
    } catch (const InputError& e) {
      why = e.what();
    }
    if (!a.source) {
      a.sourceWarning = candidate.string() + " does not match the debug database " + a.debugDbPath + " (" + why +
                        "); layer names from the compiled model only";
    }
    return a;
  }
  a.sourceWarning = a.debugDbPath + ": source model '" + a.db->sourceModel + "' not found (looked for " +
                    (candidates.empty() ? a.db->sourceModel : candidates.front().string()) +
                    "); layer names from the compiled model only";
  return a;
}

} // namespace npusim::analytic
