// SPDX-License-Identifier: Apache-2.0
#include "support/vela5_perf_tables.h"

#include <algorithm>
#include <stdexcept>

#include "harness/analytic/vela_debug_db.h"
#include "support/fixtures.h"

namespace npusim::test {

namespace {

using analytic::vela5::GroupMember;
using analytic::vela5::OpType;
using analytic::vela5::Query;
using analytic::vela5::Tensor;

std::map<int, std::map<std::string, std::string>> rowsById(const std::string& text, const std::string& table,
                                                           const std::string& path) {
  const analytic::VelaDebugDbTable t = analytic::readVelaDebugDbTable(text, table, path);
  const size_t id = t.column("id", path, 0);
  std::map<int, std::map<std::string, std::string>> out;
  for (const auto& row : t.rows) {
    auto& fields = out[std::stoi(row.at(id))];
    for (size_t c = 0; c < t.header.size() && c < row.size(); ++c) {
      fields[t.header[c]] = row[c];
    }
  }
  return out;
}

bool isFused(const std::string& type) {
  return type == "Relu" || type == "Relu0To1" || type == "Relu6" || type == "ReluN" || type == "ReluN1To1" ||
         type == "Prelu" || type == "Clamp" || type == "Sigmoid" || type == "Tanh" || type == "LUT" ||
         type == "Transpose" || type == "Reverse";
}

uint32_t bitsOf(const std::string& dtype) {
  if (dtype == "Int8" || dtype == "UInt8") return 8;
  if (dtype == "Int16" || dtype == "UInt16") return 16;
  if (dtype == "Int32") return 32;
  if (dtype == "Int48" || dtype == "Int64") return 64;
  throw std::runtime_error("unknown data type '" + dtype + "'");
}

cmd::DataFormat formatOf(const std::string& name) {
  if (name == "NHWC") return cmd::DataFormat::Nhwc;
  if (name == "NHCWB16") return cmd::DataFormat::Nhcwb16;
  throw std::runtime_error("unknown tensor format '" + name + "'");
}

analytic::vela5::Transpose transposeOf(const std::string& name) {
  using analytic::vela5::Transpose;
  if (name == "None" || name == "NHWC") return Transpose::None;
  if (name == "NWHC") return Transpose::Nwhc;
  if (name == "NHCW") return Transpose::Nhcw;
  if (name == "NWCH") return Transpose::Nwch;
  if (name == "NCHW") return Transpose::Nchw;
  if (name == "NCWH") return Transpose::Ncwh;
  throw std::runtime_error("unknown transpose '" + name + "'");
}

analytic::vela5::Reverse reverseOf(const std::string& name) {
  using analytic::vela5::Reverse;
  if (name == "None") return Reverse::None;
  if (name == "H") return Reverse::H;
  if (name == "W") return Reverse::W;
  if (name == "C") return Reverse::C;
  throw std::runtime_error("unknown reverse '" + name + "'");
}

OpType opTypeOf(const std::string& name) {
  const std::optional<OpType> t = analytic::vela5::opTypeFromName(name);
  if (!t) {
    throw std::runtime_error("unknown operator type '" + name + "'");
  }
  return *t;
}

} // namespace

int64_t Vela5OpRecord::integer(const std::map<std::string, std::string>& row, const std::string& column) const {
  const auto it = row.find(column);
  if (it == row.end()) {
    throw std::runtime_error("operation " + std::to_string(id) + " has no column " + column);
  }
  return it->second.empty() ? 0 : std::stoll(it->second);
}

Shape3 Vela5OpRecord::shape(const std::map<std::string, std::string>& row, const std::string& prefix) const {
  return {static_cast<uint32_t>(integer(row, prefix + "_h")), static_cast<uint32_t>(integer(row, prefix + "_w")),
          static_cast<uint32_t>(integer(row, prefix + "_c"))};
}

std::vector<Vela5OpRecord> readVela5PerfTables(const std::string& debugDbPath) {
  const std::string text = readText(debugDbPath);
  const auto perf = analytic::readVelaDebugDbTable(text, "perf", debugDbPath);
  const auto debug = rowsById(text, "perf_debug", debugDbPath);
  const auto main = rowsById(text, "perf_debug_main", debugDbPath);
  std::map<int, int> groupOf;
  const auto group = analytic::readVelaDebugDbTable(text, "group", debugDbPath);
  for (const auto& row : group.rows) {
    groupOf[std::stoi(row.at(0))] = std::stoi(row.at(1));
  }
  std::map<int, std::vector<std::pair<int, int>>> inputs;
  const auto conn = analytic::readVelaDebugDbTable(text, "perf_debug_conn", debugDbPath);
  for (const auto& row : conn.rows) {
    const auto number = [](std::string s) {
      s.erase(std::remove(s.begin(), s.end(), '"'), s.end());
      return std::stoi(s);
    };
    inputs[number(row.at(0))].emplace_back(number(row.at(1)), std::stoi(row.at(2)));
  }
  std::vector<Vela5OpRecord> out;
  const size_t idColumn = perf.column("id", debugDbPath, 0);
  for (const auto& row : perf.rows) {
    Vela5OpRecord r;
    r.id = std::stoi(row.at(idColumn));
    for (size_t c = 0; c < perf.header.size(); ++c) {
      r.perf[perf.header[c]] = row.at(c);
    }
    r.type = r.perf.at("operator");
    if (auto g = groupOf.find(r.id); g != groupOf.end()) {
      r.groupId = g->second;
    }
    r.debug = debug.at(r.id);
    if (auto m = main.find(r.id); m != main.end()) {
      r.main = m->second;
    }
    r.inputs = inputs[r.id];
    out.push_back(std::move(r));
  }
  return out;
}

const analytic::vela5::Memory& Vela5Memories::byName(const std::string& name) const {
  for (analytic::MemArea area : analytic::kAccessAreas) {
    if (system->memory(area).name == name) {
      return system->memory(area);
    }
  }
  throw std::runtime_error("no memory '" + name + "'");
}

Query vela5QueryOf(const Vela5OpRecord& op, const std::vector<Vela5OpRecord>& all, const Vela5Memories& memories) {
  Query q;
  q.type = opTypeOf(op.type);
  // 1. Feature maps: the operation's slices of them.
  const auto tensor = [&](const Vela5OpRecord& r, const std::string& name) {
    Tensor t;
    t.shape = r.shape(r.debug, name + "_slice");
    if (t.shape.elements() == 0) {
      t.shape = r.shape(r.debug, name + "_shape");
    }
    if (t.shape.elements() == 0) {
      t.shape = Shape3{0, 0, 0};
      return t;
    }
    t.format = formatOf(r.debug.at(name + "_format"));
    t.bits = bitsOf(r.debug.at(name + "_dtype"));
    t.memory = &memories.byName(r.debug.at(name + "_memory"));
    return t;
  };
  q.ifm = {tensor(op, "ifm"), tensor(op, "ifm2")};
  q.ofm = tensor(op, "ofm");
  // 2. Kernel and block config.
  q.kernel.width = static_cast<uint32_t>(op.integer(op.debug, "kernel_size_x"));
  q.kernel.height = static_cast<uint32_t>(op.integer(op.debug, "kernel_size_y"));
  q.kernel.strideX = static_cast<uint32_t>(op.integer(op.debug, "kernel_stride_x"));
  q.kernel.strideY = static_cast<uint32_t>(op.integer(op.debug, "kernel_stride_y"));
  q.kernel.dilationX = static_cast<uint32_t>(op.integer(op.debug, "kernel_dilation_x"));
  q.kernel.dilationY = static_cast<uint32_t>(op.integer(op.debug, "kernel_dilation_y"));
  if (!op.main.empty()) {
    q.config.ofmBlock = op.shape(op.main, "ofm_block");
    q.config.ifmBlock = op.shape(op.main, "ifm_block");
    q.config.ofmUblock = op.shape(op.main, "ofm_ublock");
    const std::string& traversal = op.main.at("traversal");
    q.config.traversal = traversal == "PartKernel" ? analytic::vela5::Traversal::PartKernel
                         : traversal == "Depthwise" ? analytic::vela5::Traversal::Depthwise
                                                    : analytic::vela5::Traversal::DepthFirst;
  }
  // 3. Weights and scales: encoded sizes, buffering, the share pre-buffered under the previous
  //    operation. The scale bytes are the scale reads over the OFM block columns.
  const std::string& weightFormat = op.debug.at("weight_format");
  if (!weightFormat.empty()) {
    q.weightFormat = weightFormat.find("Fast") != std::string::npos ? arch::WeightFormat::Fast
                                                                     : arch::WeightFormat::Standard;
    q.sparse = weightFormat.find("Sparse2_4") != std::string::npos;
    q.hasScales = true;
    q.constMemory = &memories.system->readonly();
    q.encodedWeightSize = static_cast<uint64_t>(op.integer(op.debug, "weight_total_bytes"));
    int64_t scaleReads = 0;
    for (analytic::MemArea area : analytic::kAccessAreas) {
      const std::string column = std::string(memories.system->memory(area).name) + "Scales_read";
      if (auto it = op.debug.find(column); it != op.debug.end() && !it->second.empty()) {
        scaleReads += std::stoll(it->second);
      }
    }
    const Shape3 block{std::min(q.ofm.shape.height, q.config.ofmBlock.height),
                       std::min(q.ofm.shape.width, q.config.ofmBlock.width), 1};
    const int64_t columns = ((q.ofm.shape.height + block.height - 1) / block.height) *
                            ((q.ofm.shape.width + block.width - 1) / block.width);
    q.encodedScaleSize = static_cast<uint64_t>(scaleReads / columns);
    const std::string& buffering = op.debug.at("weight_buffering");
    if (buffering == "Single" || buffering == "Double") {
      q.weightStagingMemory = &memories.system->staging();
      if (op.debug.at("weight_pre_buffer") == "1") {
        std::vector<int64_t> slices;
        std::string list = op.debug.at("ofm_depth_slices");
        for (size_t at = 0; at <= list.size();) {
          const size_t bar = std::min(list.find('|', at), list.size());
          slices.push_back(std::stoll(list.substr(at, bar - at)));
          at = bar + 1;
        }
        const float ratio = static_cast<float>(slices.at(1)) / static_cast<float>(slices.back());
        q.firstWeightDmaSize = static_cast<uint64_t>(static_cast<float>(q.encodedWeightSize) * ratio);
      }
    }
  }
  // 4. The group: the operation, then its members in `perf` order. A member's OFM stays on-chip
  //    when a later member reads it (chained) or an activation is fused to it; a fused member's
  //    OFM when the operation it is fused to writes on-chip.
  std::vector<const Vela5OpRecord*> members{&op};
  for (const Vela5OpRecord& r : all) {
    if (r.groupId == op.id) {
      members.push_back(&r);
    }
  }
  const auto readByLater = [&](size_t producer, size_t from) {
    for (size_t j = from; j < members.size(); ++j) {
      for (const auto& [id, index] : members[j]->inputs) {
        if (id == members[producer]->id && j != producer) {
          return true;
        }
      }
    }
    return false;
  };
  const auto inGroup = [&](int id) {
    return std::any_of(members.begin(), members.end(), [id](const Vela5OpRecord* m) { return m->id == id; });
  };
  std::vector<bool> onChip(members.size());
  for (size_t i = 0; i < members.size(); ++i) {
    const Vela5OpRecord& m = *members[i];
    GroupMember g;
    g.type = opTypeOf(m.type);
    g.ifmBits = bitsOf(m.debug.at("ifm_dtype"));
    g.ofmBits = bitsOf(m.debug.at("ofm_dtype"));
    g.transpose = transposeOf(m.debug.at("transpose_type"));
    g.reverse = reverseOf(m.debug.at("reverse_type"));
    if (i > 0 && isFused(m.type)) {
      size_t host = i - 1;
      while (host > 0 && isFused(members[host]->type)) {
        --host;
      }
      onChip[i] = readByLater(host, i + 1);
      q.group.back().ofmBits = g.ifmBits;   // the operation before converts to the activation's input type
    } else {
      onChip[i] = readByLater(i, 0);
    }
    g.onChipOutput = onChip[i];
    q.group.push_back(g);
  }
  for (size_t i = 1; i < members.size(); ++i) {
    const Vela5OpRecord& m = *members[i];
    for (size_t input = 0; input < 2; ++input) {
      const std::string name = input == 0 ? "ifm" : "ifm2";
      const Tensor t = tensor(m, name);
      bool internal = false;
      for (const auto& [id, index] : m.inputs) {
        internal = internal || (static_cast<size_t>(index) == input && inGroup(id));
      }
      if (t.present() && !internal) {
        q.external.push_back({i, q.group[i].type, false, input, t});
      }
    }
    if (!onChip[i]) {
      Tensor t = tensor(m, "ofm");
      t.bits = q.group[i].ofmBits;
      q.external.push_back({i, q.group[i].type, true, 0, t});
    }
  }
  q.ofmWritten = !onChip[0];
  return q;
}

} // namespace npusim::test
