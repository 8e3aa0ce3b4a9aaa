// SPDX-License-Identifier: Apache-2.0
#include "harness/analytic/vela_debug_db.h"

#include <algorithm>
#include <cstdint>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/common/csv.h"
#include "sim/common/error.h"

namespace npusim::analytic {

namespace {

// One CSV table embedded in the XML: header names and rows of fields.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<uint64_t> rowOffsets;   // byte offset of each row in the file
  size_t column(const std::string& name, const std::string& file, uint64_t offset) const {
    auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) {
      throwAtOffset(file, offset, "debug database table lacks column '" + name + "'");
    }
    return static_cast<size_t>(it - header.begin());
  }
};


Table readTable(std::string_view text, const std::string& name, const std::string& file, uint64_t* tableOffset) {
  // Vela 3.x writes `<table name="x"><![CDATA[` on one line, Vela 5.x puts a line break between.
  const std::string open = "<table name=\"" + name + "\">";
  const size_t start = text.find(open);
  const size_t cdata = start == std::string_view::npos ? start : text.find_first_not_of(" \t\r\n", start + open.size());
  const std::string_view cdataOpen = "<![CDATA[";
  if (cdata == std::string_view::npos || text.substr(cdata, cdataOpen.size()) != cdataOpen) {
    throwAtOffset(file, 0, "debug database has no table '" + name + "'");
  }
  const size_t body = cdata + cdataOpen.size();
  const size_t end = text.find("]]>", body);
  if (end == std::string_view::npos) {
    throwAtOffset(file, body, "debug database table '" + name + "' is not terminated");
  }
  *tableOffset = body;
  Table table;
  size_t pos = body;
  while (pos < end) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos || eol > end) {
      eol = end;
    }
    const std::string_view line = text.substr(pos, eol - pos);
    if (!line.empty() && line != "\r") {
      if (table.header.empty()) {
        table.header = splitCsvLine(line);
      } else {
        table.rows.push_back(splitCsvLine(line));
        table.rowOffsets.push_back(pos);
      }
    }
    pos = eol + 1;
  }
  return table;
}

bool hasTable(std::string_view text, const std::string& name) {
  return text.find("<table name=\"" + name + "\">") != std::string_view::npos;
}

int64_t toInt(const std::string& field, const std::string& file, uint64_t offset) {
  try {
    size_t used = 0;
    const long long v = std::stoll(field, &used);
    if (used == field.size()) {
      return v;
    }
  } catch (const std::exception&) {
  }
  throwAtOffset(file, offset, "debug database field '" + field + "' is not an integer");
}

} // namespace

const VelaDebugDb::SourceOp* VelaDebugDb::findSource(int id) const {
  auto it = std::find_if(source.begin(), source.end(), [id](const SourceOp& s) { return s.id == id; });
  return it == source.end() ? nullptr : &*it;
}

const VelaDebugDb::OptimisedOp* VelaDebugDb::findOptimised(int id) const {
  auto it = std::find_if(optimised.begin(), optimised.end(), [id](const OptimisedOp& o) { return o.id == id; });
  return it == optimised.end() ? nullptr : &*it;
}

VelaDebugDb parseVelaDebugDb(std::string_view text, const std::string& displayName) {
  VelaDebugDb db;
  // 0. The model paths on the <debug> element.
  if (const size_t element = text.find("<debug "); element != std::string_view::npos) {
    const std::string_view tag = text.substr(element, text.find('>', element) - element);
    const auto attribute = [&](std::string_view name) {
      const std::string key = " " + std::string(name) + "=\"";
      const size_t at = tag.find(key);
      if (at == std::string_view::npos) return std::string();
      const size_t begin = at + key.size();
      return std::string(tag.substr(begin, tag.find('"', begin) - begin));
    };
    db.sourceModel = attribute("source");
    db.optimisedModel = attribute("optimised");
  }
  uint64_t at = 0;
  // 1. Each table: check its columns, then convert every row.
  // Columns named "?x" are optional: an absent one reads as "0".
  auto rowsOf = [&](const std::string& name, std::initializer_list<const char*> columns, auto&& addRow) {
    const Table t = readTable(text, name, displayName, &at);
    std::vector<size_t> index;
    for (const char* c : columns) {
      const bool optional = c[0] == '?';
      const bool absent = optional && std::find(t.header.begin(), t.header.end(), c + 1) == t.header.end();
      index.push_back(absent ? SIZE_MAX : t.column(optional ? c + 1 : c, displayName, at));
    }
    for (size_t r = 0; r < t.rows.size(); ++r) {
      if (t.rows[r].size() != t.header.size()) {
        throwAtOffset(displayName, t.rowOffsets[r], "debug database row of table '" + name + "' has " +
                                                        std::to_string(t.rows[r].size()) + " fields, expected " +
                                                        std::to_string(t.header.size()));
      }
      std::vector<std::string> fields;
      for (size_t i : index) {
        fields.push_back(i == SIZE_MAX ? "0" : t.rows[r][i]);
      }
      addRow(fields, t.rowOffsets[r]);
    }
  };
  rowsOf("source", {"id", "operator"}, [&](const std::vector<std::string>& f, uint64_t off) {
    db.source.push_back({static_cast<int>(toInt(f[0], displayName, off)), f[1]});
  });
  rowsOf("optimised", {"id", "source_id", "operator", "?ofm_h", "?ofm_w", "?ofm_d"},
         [&](const std::vector<std::string>& f, uint64_t off) {
    auto dim = [&](const std::string& field) {
      return static_cast<uint32_t>(std::max<int64_t>(toInt(field, displayName, off), 0));
    };
    db.optimised.push_back({static_cast<int>(toInt(f[0], displayName, off)),
                            static_cast<int>(toInt(f[1], displayName, off)), f[2], {dim(f[3]), dim(f[4]), dim(f[5])}});
  });
  rowsOf("queue", {"offset", "cmdstream_id", "optimised_id"}, [&](const std::vector<std::string>& f, uint64_t off) {
    db.queue.push_back({static_cast<uint32_t>(toInt(f[0], displayName, off)),
                        static_cast<int>(toInt(f[1], displayName, off)),
                        static_cast<int>(toInt(f[2], displayName, off))});
  });
  // 2. Vela 5.x's scheduled operations: the queue names them, `perf` lists them in the
  //    per-layer CSV's order (identity columns only) and `group` chains activations.
  if (hasTable(text, "perf")) {
    size_t entry = 0;
    rowsOf("queue", {"scheduled_id"}, [&](const std::vector<std::string>& f, uint64_t off) {
      db.queue[entry++].scheduledId = static_cast<int>(toInt(f[0], displayName, off));
    });
    rowsOf("perf", {"id", "source_id", "optimised_id", "operator", "name"},
           [&](const std::vector<std::string>& f, uint64_t off) {
             db.scheduled.push_back({static_cast<int>(toInt(f[0], displayName, off)),
                                     static_cast<int>(toInt(f[1], displayName, off)),
                                     static_cast<int>(toInt(f[2], displayName, off)), f[3], f[4]});
           });
    if (hasTable(text, "group")) {
      rowsOf("group", {"id", "group_id"}, [&](const std::vector<std::string>& f, uint64_t off) {
        db.groups.push_back(
            {static_cast<int>(toInt(f[0], displayName, off)), static_cast<int>(toInt(f[1], displayName, off))});
      });
    }
  }
  rowsOf("cmdstream", {"id"}, [&](const std::vector<std::string>& f, uint64_t off) {
    db.streams.push_back({static_cast<int>(toInt(f[0], displayName, off))});
  });
  return db;
}

VelaDebugDb readVelaDebugDb(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throwAtOffset(path, 0, "cannot read Vela debug database");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parseVelaDebugDb(text.str(), path);
}

std::string velaDebugDbPath(const std::string& modelPath) {
  const size_t slash = modelPath.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "" : modelPath.substr(0, slash + 1);
  std::string stem = slash == std::string::npos ? modelPath : modelPath.substr(slash + 1);
  for (const char* suffix : {".tflite", "_vela"}) {
    const std::string s(suffix);
    if (stem.size() > s.size() && stem.compare(stem.size() - s.size(), s.size(), s) == 0) {
      stem.resize(stem.size() - s.size());
    }
  }
  return dir + stem + "_debug.xml";
}

std::string tfliteOperatorName(std::string_view velaType) {
  // Vela types whose TFLite name is not the upper snake case of the type.
  static const std::map<std::string_view, std::string_view> kSpecial{
      {"Conv2DBias", "CONV_2D"},
      {"Conv2D", "CONV_2D"},
      {"DepthwiseConv2DBias", "DEPTHWISE_CONV_2D"},
      {"DepthwiseConv2D", "DEPTHWISE_CONV_2D"},
      {"Conv2DBackpropInput", "TRANSPOSE_CONV"},
      {"AvgPool", "AVERAGE_POOL_2D"},
      {"MaxPool", "MAX_POOL_2D"},
      {"ConcatTFLite", "CONCATENATION"},
      {"Sigmoid", "LOGISTIC"},
      {"ReluN1To1", "RELU_N1_TO_1"},
      {"Relu6", "RELU6"},
      {"SplitV", "SPLIT_V"},
      {"ArgMax", "ARG_MAX"},
  };
  if (auto it = kSpecial.find(velaType); it != kSpecial.end()) {
    return std::string(it->second);
  }
  std::string out;
  for (size_t i = 0; i < velaType.size(); ++i) {
    const char c = velaType[i];
    const bool wordStart = i > 0 && std::isupper(static_cast<unsigned char>(c)) &&
                           std::islower(static_cast<unsigned char>(velaType[i - 1]));
    if (wordStart) {
      out += '_';
    }
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

} // namespace npusim::analytic
