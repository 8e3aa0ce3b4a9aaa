// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/network_estimate.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "harness/analytic/sram_usage.h"
#include "harness/analytic/vela5_staging_usage.h"
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

// True when `range` lies in the DMA's destination.
bool insideDestination(const cmd::DmaTransfer& dma, uint8_t region, uint64_t address) {
  return region == dma.dstRegion && address >= dma.dst && address < dma.dst + dma.length;
}

// What the first kernel operation after DMA `i` that reads the DMA's destination reads it as.
enum class DmaUse : uint8_t { None, FeatureMap, WeightsOrScales };

std::pair<DmaUse, size_t> firstUse(const std::vector<cmd::Operation>& ops, size_t i) {
  const cmd::DmaTransfer& dma = ops[i].dma;
  for (size_t j = i + 1; j < ops.size(); ++j) {
    const cmd::Operation& op = ops[j];
    if (!cmd::isKernel(op.kind)) {
      continue;
    }
    // Only convolutions read weight and scale streams; other kinds keep stale registers.
    const bool weighted = op.kind == cmd::OpKind::Conv || op.kind == cmd::OpKind::Depthwise;
    const cmd::Stream& weights = op.weights[0];
    const cmd::Stream& scales = op.scales[0];
    if (weighted && ((weights.length > 0 && insideDestination(dma, weights.region, weights.base)) ||
                     (scales.length > 0 && insideDestination(dma, scales.region, scales.base)))) {
      return {DmaUse::WeightsOrScales, j};
    }
    if (insideDestination(dma, op.ifm.region, op.ifm.base[0]) ||
        (op.hasIfm2() && insideDestination(dma, op.ifm2.region, op.ifm2.base[0]))) {
      return {DmaUse::FeatureMap, j};
    }
  }
  return {DmaUse::None, ops.size()};
}

// A DMA that copies a feature map (a Memcpy), as opposed to a weight or LUT load.
bool isFeatureMapDma(const std::vector<cmd::Operation>& ops, size_t i) {
  return ops[i].kind == cmd::OpKind::DmaStart && !ops[i].dma.dstInternal &&
         firstUse(ops, i).first != DmaUse::WeightsOrScales;
}

// The kernel operation that reads what feature-map DMA `i` wrote, if any does.
std::optional<size_t> consumerOf(const std::vector<cmd::Operation>& ops, size_t i) {
  const auto [use, index] = firstUse(ops, i);
  return use == DmaUse::FeatureMap ? std::optional<size_t>(index) : std::nullopt;
}

// Removes and returns the Memcpy with the latest source operator before `limit` (the
// consumer's), or the earliest one when none precedes it. Contract: `memcpys` is not empty.
const VelaDebugDb::OptimisedOp* takeMemcpy(std::vector<const VelaDebugDb::OptimisedOp*>& memcpys, int limit) {
  auto best = memcpys.end();
  for (auto it = memcpys.begin(); it != memcpys.end(); ++it) {
    if ((*it)->sourceId < limit && (best == memcpys.end() || (*it)->sourceId > (*best)->sourceId)) {
      best = it;
    }
  }
  if (best == memcpys.end()) {
    best = std::min_element(memcpys.begin(), memcpys.end(),
                            [](const auto* a, const auto* b) { return a->sourceId < b->sourceId; });
  }
  const VelaDebugDb::OptimisedOp* op = *best;
  memcpys.erase(best);
  return op;
}

// Vela 5.x: the database's rows of the operators left on the CPU, in order; they are the
// compiled model's CPU operators, in order. Throws InputError when the counts differ.
std::vector<const VelaDebugDb::ScheduledOp*> passthroughRows(const io::CompiledNetwork& net, const VelaDebugDb& db) {
  std::vector<const VelaDebugDb::ScheduledOp*> rows;
  for (const VelaDebugDb::ScheduledOp& s : db.scheduled) {
    if (s.type == kPassthrough) rows.push_back(&s);
  }
  const auto cpu = static_cast<size_t>(std::count_if(net.operators.begin(), net.operators.end(), [](const io::Operator& op) {
    return op.kind == io::OperatorKind::Cpu;
  }));
  if (rows.size() != cpu) {
    throwAtOffset(net.path, 0, "debug database has " + std::to_string(rows.size()) +
                                   " Passthrough rows (operators on the CPU), the model " + std::to_string(cpu) +
                                   " CPU operators");
  }
  return rows;
}

RowSpec labelledRow(const VelaDebugDb& db, const VelaDebugDb::OptimisedOp& op, const VelaSourceModel* source) {
  RowSpec row;
  row.nngOperator = op.type;
  if (source != nullptr) {
    if (const auto it = source->optimisedNames.find(op.id); it != source->optimisedNames.end()) row.name = it->second;
  }
  row.sourceId = op.sourceId;
  row.ofmTensorShape = op.ofmShape;
  // An operator Vela made without recording its source (a ReLU rescaling its IFM runs as an
  // AvgPool of its own) is labelled as Vela labels it.
  const VelaDebugDb::SourceOp* src = db.findSource(op.sourceId);
  row.tfliteOperator = src != nullptr ? tfliteOperatorName(src->type) : "UNKNOWN";
  return row;
}

// What reads a tensor: one optimised operator (a Concatenation's or Pack's copy of it), or
// any row of a source operator.
struct Consumer {
  std::optional<int> optimisedId, sourceId;
  bool matches(int rowOptimisedId, int rowSourceId) const {
    return optimisedId ? *optimisedId == rowOptimisedId : sourceId == rowSourceId;
  }
};

// What reads the output of a Memcpy that emits no DMA, from the source model's graph (the
// consumer with the lowest source id). nullopt without a source model or consumer.
std::optional<Consumer> consumerOf(const VelaDebugDb& db, const VelaSourceModel* source,
                                   const VelaDebugDb::OptimisedOp& op) {
  if (source == nullptr) return std::nullopt;
  const auto outputs = source->outputs.find(op.sourceId);
  if (outputs == source->outputs.end() || outputs->second.empty()) return std::nullopt;
  const int tensor = outputs->second.front();
  for (const auto& [id, inputs] : source->inputs) {
    const auto at = std::find(inputs.begin(), inputs.end(), tensor);
    if (id == op.sourceId || at == inputs.end()) continue;
    const std::string& type = source->operators.at(id).type;
    if (type == "ConcatTFLite" || type == "Pack") {
      // Part i copies input i: the i-th AvgPool Vela made from the operator.
      auto part = at - inputs.begin();
      for (const VelaDebugDb::OptimisedOp& o : db.optimised) {
        if (o.sourceId == id && o.type == "AvgPool" && part-- == 0) return Consumer{o.id, std::nullopt};
      }
    }
    return Consumer{std::nullopt, id};
  }
  return std::nullopt;
}

} // namespace

std::vector<std::vector<RowSpec>> rowsFromDebugDb(const io::CompiledNetwork& net,
                                                  const std::vector<io::DecodedNpuOp>& decoded,
                                                  const VelaDebugDb& db, const VelaSourceModel* source) {
  const std::map<int, size_t> streamOf = matchStreams(net, decoded, db);
  std::vector<std::vector<RowSpec>> rows(decoded.size());
  if (db.regorLayout()) {
    // Vela 5.x: its scheduled operations, chained activations as rows without operations. (Its
    // CPU operators' rows, which no stream has, must be the model's: cpuOperators.)
    passthroughRows(net, db);
    for (const auto& [id, s] : streamOf) {
      const io::NpuOp& npu = net.operators[decoded[s].operatorIndex].npu;
      for (vela5::OperationSpec& spec :
           vela5::operationSpecs(decoded[s].operations, &db, id, net.path, npu.commands.offset)) {
        RowSpec row;
        row.operations = std::move(spec.operations);
        row.tfliteOperator = spec.sourceType.empty() ? "" : tfliteOperatorName(spec.sourceType);
        row.nngOperator = spec.typeName;
        row.name = spec.name;
        row.sourceId = spec.sourceId;
        rows[s].push_back(std::move(row));
      }
    }
    return rows;
  }
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
      // Vela 3.x records the offset after the NPU_OP_* command, Vela 5.x the command's own.
      auto entry = queue.find({s, ops[i].byteOffset + (db.regorLayout() ? 0u : 4u)});
      const VelaDebugDb::OptimisedOp* op = entry == queue.end() ? nullptr : db.findOptimised(entry->second);
      if (op == nullptr) {
        throwAtOffset(net.path, net.operators[decoded[s].operatorIndex].npu.commands.offset + ops[i].byteOffset,
                      "debug database has no operator for the NPU operation at stream offset " +
                          std::to_string(ops[i].byteOffset));
      }
      auto known = std::find(rowIds[s].begin(), rowIds[s].end(), op->id);
      if (known == rowIds[s].end()) {
        rows[s].push_back(labelledRow(db, *op, source));
        rowIds[s].push_back(op->id);
        known = rowIds[s].end() - 1;
      }
      rows[s][static_cast<size_t>(known - rowIds[s].begin())].operations.push_back(i);
    }
  }
  // 2. DMA-only operators (Memcpy) have no queue entry. One that moves data is the stream's
  //    feature-map DMA at its scheduled position; one whose source and destination coincide
  //    emits nothing and is placed in model order.
  std::vector<const VelaDebugDb::OptimisedOp*> memcpys;
  for (const VelaDebugDb::OptimisedOp& op : db.optimised) {
    const bool queued = std::any_of(rowIds.begin(), rowIds.end(), [&](const std::vector<int>& ids) {
      return std::find(ids.begin(), ids.end(), op.id) != ids.end();
    });
    if (op.type == "Memcpy" && !queued) {
      memcpys.push_back(&op);
    }
  }
  auto sourceOfRow = [&](size_t s, size_t r) { return db.findOptimised(rowIds[s][r])->sourceId; };
  auto insertRow = [&](size_t s, size_t position, const VelaDebugDb::OptimisedOp& op, std::optional<size_t> dma) {
    RowSpec row = labelledRow(db, op, source);
    row.memcpy = true;
    row.dma = dma;
    rows[s].insert(rows[s].begin() + static_cast<std::ptrdiff_t>(position), row);
    rowIds[s].insert(rowIds[s].begin() + static_cast<std::ptrdiff_t>(position), op.id);
  };
  for (size_t s = 0; s < decoded.size(); ++s) {
    const std::vector<cmd::Operation>& ops = decoded[s].operations;
    const std::vector<RowSpec> kernelRows = rows[s];
    std::vector<int> kernelSources;
    for (size_t r = 0; r < kernelRows.size(); ++r) {
      kernelSources.push_back(sourceOfRow(s, r));
    }
    size_t inserted = 0;
    for (size_t i = 0; i < ops.size() && !memcpys.empty(); ++i) {
      if (!isFeatureMapDma(ops, i)) {
        continue;
      }
      // The copy's consumer bounds the Memcpy's source operator, which precedes it in the model.
      int limit = std::numeric_limits<int>::max();
      if (const std::optional<size_t> consumer = consumerOf(ops, i)) {
        for (size_t r = 0; r < kernelRows.size(); ++r) {
          const std::vector<size_t>& members = kernelRows[r].operations;
          if (std::find(members.begin(), members.end(), *consumer) != members.end()) {
            limit = kernelSources[r];
          }
        }
      }
      const size_t before = static_cast<size_t>(std::count_if(
          kernelRows.begin(), kernelRows.end(), [i](const RowSpec& row) { return row.operations.front() < i; }));
      insertRow(s, before + inserted, *takeMemcpy(memcpys, limit), i);
      ++inserted;
    }
  }
  for (const VelaDebugDb::OptimisedOp* op : memcpys) {
    size_t stream = decoded.size();
    size_t position = 0;
    // Right before the row that reads the copy (Vela orders operators depth first from the
    // outputs, so an operator's only producer comes just before it), else in model order.
    if (const std::optional<Consumer> consumer = consumerOf(db, source, *op)) {
      for (size_t s = 0; s < decoded.size() && stream == decoded.size(); ++s) {
        for (size_t r = 0; r < rows[s].size(); ++r) {
          if (consumer->matches(rowIds[s][r], sourceOfRow(s, r))) {
            stream = s;
            position = r;
            break;
          }
        }
      }
    }
    for (size_t s = 0; s < decoded.size() && stream == decoded.size(); ++s) {
      for (size_t r = 0; r < rows[s].size(); ++r) {
        if (sourceOfRow(s, r) > op->sourceId) {
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
    insertRow(stream, position, *op, std::nullopt);
  }
  return rows;
}

namespace {

// Vela 3.10's rows and estimates of one stream.
SubgraphEstimate estimateVela310(const io::CompiledNetwork& net, const io::DecodedNpuOp& decoded,
                                 const VelaSystem& system, const std::vector<RowSpec>* rows) {
  SubgraphEstimate sub;
  sub.operatorIndex = decoded.operatorIndex;
  const std::vector<cmd::Operation>& ops = decoded.operations;
  const io::FileRange& flash = net.operators[decoded.operatorIndex].npu.flash;
  const ConstantRegion constants{net.at(flash), flash.size, net.path, flash.offset};
  const LayerBuilder builder(system, &constants);
  std::vector<RowSpec> own = rows != nullptr ? *rows : LayerBuilder::oneRowPerKernel(ops);
  // Vela 5.x's rows of chained activations have no operation and no Vela 3.10 counterpart.
  own.erase(std::remove_if(own.begin(), own.end(), [](const RowSpec& r) { return r.operations.empty() && !r.memcpy; }),
            own.end());
  sub.layers = builder.build(ops, own);
  sub.estimates = Estimator(system).estimate(sub.layers);
  return sub;
}

// Vela 5.0's rows and estimates of one stream (stream `streamId` of the debug database).
SubgraphEstimate estimateVela50(const io::CompiledNetwork& net, const io::DecodedNpuOp& decoded,
                                const vela5::Estimator& estimator, const VelaDebugDb* db, int streamId) {
  SubgraphEstimate sub;
  sub.operatorIndex = decoded.operatorIndex;
  const std::vector<cmd::Operation>& ops = decoded.operations;
  const io::NpuOp& npu = net.operators[decoded.operatorIndex].npu;
  const ConstantRegion constants{net.at(npu.flash), npu.flash.size, net.path, npu.flash.offset};
  sub.vela5 = estimator.build(ops, vela5::operationSpecs(ops, db, streamId, net.path, npu.commands.offset), &constants);
  sub.estimates = estimator.estimate(sub.vela5);
  for (const vela5::ScheduledOp& op : sub.vela5) {
    Layer layer;
    layer.operations = op.spec.operations;
    for (size_t index : op.spec.operations) {
      layer.byteOffsets.push_back(ops[index].byteOffset);
    }
    layer.tfliteOperator = op.spec.sourceType;
    layer.nngOperator = op.spec.typeName;
    layer.name = op.spec.name;
    sub.layers.push_back(std::move(layer));
  }
  return sub;
}

// Vela 5.0's rows of the operators left on the CPU: one Passthrough row each, in the compiled
// model's operator order. Labels and names are those of the database's Passthrough rows
// (passthroughRows); without a Vela 5.x database, the operator's TFLite builtin name and its
// output tensor's name.
std::vector<SubgraphEstimate> cpuOperators(const io::CompiledNetwork& net, const VelaDebugDb* db) {
  std::vector<SubgraphEstimate> out;
  for (const io::Operator& op : net.operators) {
    if (op.kind != io::OperatorKind::Cpu) continue;
    SubgraphEstimate sub;
    sub.operatorIndex = op.index;
    sub.onCpu = true;
    Layer layer;
    layer.tfliteOperator = op.opName;
    layer.nngOperator = kPassthrough;
    if (!op.outputs.empty() && op.outputs.front() >= 0 && static_cast<size_t>(op.outputs.front()) < net.tensors.size()) {
      layer.name = net.tensors[static_cast<size_t>(op.outputs.front())].name;
    }
    sub.layers.push_back(std::move(layer));
    sub.estimates.emplace_back();
    out.push_back(std::move(sub));
  }
  if (db == nullptr || !db->regorLayout()) return out;
  const std::vector<const VelaDebugDb::ScheduledOp*> rows = passthroughRows(net, *db);
  for (size_t k = 0; k < rows.size(); ++k) {
    Layer& layer = out[k].layers.front();
    const VelaDebugDb::SourceOp* src = db->findSource(rows[k]->sourceId);
    layer.tfliteOperator = src != nullptr ? src->type : "";
    layer.nngOperator = rows[k]->type;
    layer.name = rows[k]->name;
  }
  return out;
}

// Puts each row's memory use (`perRow[subgraph][row]`) into its estimate.
void setUsage(NetworkEstimate& result, const std::vector<std::vector<uint64_t>>& perRow) {
  for (size_t s = 0; s < result.subgraphs.size() && s < perRow.size(); ++s) {
    for (size_t i = 0; i < result.subgraphs[s].estimates.size() && i < perRow[s].size(); ++i) {
      result.subgraphs[s].estimates[i].sramUsage = perRow[s][i];
    }
  }
}

} // namespace

NetworkEstimate estimateNetwork(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                                const config::SystemParams& params, const VelaDebugDb* db, config::VelaVersion vela,
                                const VelaSourceModel* source) {
  if (decoded.empty()) {
    throwAtOffset(net.path, 0, "the model has no ethos-u operator to estimate");
  }
  NetworkEstimate result;
  result.model = net.path;
  result.vela = vela;
  result.hardware = net.hardware();
  result.systemConfig = params.systemConfig;
  result.memoryMode = params.memoryMode;
  result.systemConfigFrom = params.systemConfigFrom;
  result.memoryModeFrom = params.memoryModeFrom;
  result.coreClockHz = params.coreClockHz;
  // Vela 5.0's rows need Vela 5.x's database; without it they are grouped from the stream.
  result.rowsFromDebugDb = db != nullptr && (vela == config::VelaVersion::V3_10 || db->regorLayout());
  // Vela 5.x's database names its rows itself; Vela 3.x's rows are named from the source model.
  result.rowsNamed = db != nullptr && (db->regorLayout() || (vela == config::VelaVersion::V3_10 && source != nullptr));
  if (vela == config::VelaVersion::V5_0) {
    result.vela5System = std::make_shared<const vela5::System>(params, *result.hardware);
    const std::unique_ptr<vela5::ArchitecturePerformance> arch = vela5::makeArchitecturePerformance(*result.vela5System);
    const vela5::Estimator estimator(*result.vela5System, *arch);
    // Streams are numbered in ethos-u operator order (as for Vela 3.x, see matchStreams).
    std::vector<int> streamIds;
    if (db != nullptr) {
      const std::map<int, size_t> order = matchStreams(net, decoded, *db);
      streamIds.resize(decoded.size());
      for (const auto& [id, index] : order) {
        streamIds[index] = id;
      }
    }
    for (size_t s = 0; s < decoded.size(); ++s) {
      result.subgraphs.push_back(estimateVela50(net, decoded[s], estimator, db, db != nullptr ? streamIds[s] : 0));
    }
    // Staging-memory use at each scheduled operation, from regor's live ranges.
    std::vector<const std::vector<vela5::ScheduledOp>*> scheduled;
    for (const SubgraphEstimate& sub : result.subgraphs) scheduled.push_back(&sub.vela5);
    const vela5::StagingUsage usage = vela5::stagingUsage(net, decoded, scheduled, *result.vela5System);
    result.fastStorageBytes = usage.allocatedBytes;
    setUsage(result, usage.perRow);
    // The CPU operators' rows between them, in execution order.
    for (SubgraphEstimate& cpu : cpuOperators(net, db)) {
      const auto at = std::find_if(result.subgraphs.begin(), result.subgraphs.end(), [&](const SubgraphEstimate& sub) {
        return sub.operatorIndex > cpu.operatorIndex;
      });
      result.subgraphs.insert(at, std::move(cpu));
    }
  } else {
    const VelaSystem system(params, *result.hardware);
    const std::vector<std::vector<RowSpec>> rows =
        db != nullptr ? rowsFromDebugDb(net, decoded, *db, source) : std::vector<std::vector<RowSpec>>{};
    for (size_t s = 0; s < decoded.size(); ++s) {
      result.subgraphs.push_back(estimateVela310(net, decoded[s], system, db != nullptr ? &rows[s] : nullptr));
    }
    // Fast-storage use at each layer, from the live ranges over the whole network.
    std::vector<const std::vector<Layer>*> layers;
    for (const SubgraphEstimate& sub : result.subgraphs) layers.push_back(&sub.layers);
    const SramUsage usage = sramUsage(net, decoded, layers, system);
    result.fastStorageBytes = usage.fastStorageBytes;
    setUsage(result, usage.perLayer);
  }
  for (const SubgraphEstimate& sub : result.subgraphs) {
    for (const LayerEstimate& e : sub.estimates) {
      result.totals.add(e);
    }
  }
  return result;
}

} // namespace npusim::analytic
