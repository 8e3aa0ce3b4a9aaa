// SPDX-License-Identifier: Apache-2.0
#include "harness/probe/probe.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include "sim/arch/architecture.h"
#include "sim/arch/command_set.h"
#include "sim/common/csv.h"
#include "sim/common/error.h"

namespace npusim::probe {
namespace {

// COP1 driver actions (ethos-u55-command-stream.md, driver payload): the COMMAND_STREAM word
// carries the stream's length in words, [31:16] its low and [15:8] its high bits.
constexpr uint32_t kCommandStreamAction = 0x02;
constexpr uint32_t kNopAction = 0x05;
// NPU_OP_STOP's parameter: the IRQ mask, all set as Vela writes it.
constexpr uint32_t kStopIrqMask = 0xFFFF;

void storeWord(std::vector<uint8_t>& bytes, uint64_t at, uint32_t word) {
  for (int i = 0; i < 4; ++i) {
    bytes.at(at + static_cast<uint64_t>(i)) = static_cast<uint8_t>(word >> (8 * i));
  }
}

// Cuts one ethos-u operator's stream to its first `keepBytes` bytes followed by a STOP.
void cutStream(std::vector<uint8_t>& bytes, const io::NpuOp& npu, uint32_t keepBytes) {
  const arch::CommandSet& set = *npu.header.hardware->arch->commands;
  const uint32_t stop = uint32_t{set.info(arch::CommandId::OpStop).key} | kStopIrqMask << 16;
  const uint64_t first = npu.commands.offset;
  storeWord(bytes, first + keepBytes, stop);
  const uint32_t words = keepBytes / 4 + 1;
  storeWord(bytes, first - 4, kCommandStreamAction | ((words >> 16) & 0xFF) << 8 | (words & 0xFFFF) << 16);
  for (uint64_t at = first + keepBytes + 4; at < first + npu.commands.size; at += 4) {
    storeWord(bytes, at, kNopAction);
  }
}

uint64_t parseCount(const std::string& text, const std::string& file, size_t line, const std::string& column) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    throwForKey(file, column, "line " + std::to_string(line) + ": '" + text + "' is not a cycle count");
  }
  return value;
}

// A CSV file whose first non-empty line names the columns; throws InputError naming the file
// and the first of `required` the header lacks, or the file when it has no line at all.
struct CsvFile {
  std::vector<std::string> header;
  std::vector<CsvLine> rows;
  size_t column(const std::string& name) const {
    return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  }
};

CsvFile readCsv(const std::string& path, const std::vector<std::string>& required) {
  std::vector<CsvLine> lines = readCsvFile(path);
  if (lines.empty()) {
    throwAtOffset(path, 0, "empty file: expected a header line naming the columns");
  }
  CsvFile csv;
  csv.header = std::move(lines.front().fields);
  for (const std::string& name : required) {
    if (csv.column(name) == csv.header.size()) {
      throwForKey(path, name, "the header line has no column '" + name + "'");
    }
  }
  csv.rows.assign(std::make_move_iterator(lines.begin() + 1), std::make_move_iterator(lines.end()));
  return csv;
}

const std::string& field(const CsvFile& csv, const CsvLine& row, const std::string& name, const std::string& path) {
  const size_t i = csv.column(name);
  if (i >= row.fields.size()) {
    throwForKey(path, name, "line " + std::to_string(row.number) + " has no '" + name + "' field");
  }
  return row.fields[i];
}

const std::vector<std::string> kManifestColumns{"probe", "file",  "network_operator", "index",          "command_offset",
                                                "kind",  "layer", "source_operator",  "simulated_npu_active"};

} // namespace

ProbePlan planProbes(const std::vector<io::DecodedNpuOp>& decoded, size_t every) {
  std::vector<ProbePoint> all;
  ProbePlan plan;
  for (size_t s = 0; s < decoded.size(); ++s) {
    const cmd::Program& program = decoded[s];
    for (size_t i = 0; i < program.operations.size(); ++i) {
      const cmd::Operation& op = program.operations[i];
      if (!cmd::isKernel(op.kind)) continue;
      ++plan.kernels;
      // Not inside a chained group (U85): its consumers would never drain the chaining buffer.
      if (op.ofm.storage == cmd::Storage::Chained) {
        ++plan.chained;
        continue;
      }
      ProbePoint p;
      p.ordinal = plan.kernels;
      p.stream = s;
      p.operation = i;
      p.stopOffset = op.byteOffset + program.commands.at(op.commandIndex).sizeBytes();
      all.push_back(p);
    }
  }
  const size_t step = std::max<size_t>(every, 1);
  for (size_t k = 0; k < all.size(); ++k) {
    if ((k + 1) % step == 0 || k + 1 == all.size()) {
      plan.points.push_back(all[k]);
    }
  }
  return plan;
}

std::vector<uint8_t> probeBytes(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                                const ProbePoint& point) {
  std::vector<uint8_t> bytes = net.bytes;
  for (size_t s = point.stream; s < decoded.size(); ++s) {
    const io::NpuOp& npu = net.operators.at(decoded[s].operatorIndex).npu;
    cutStream(bytes, npu, s == point.stream ? point.stopOffset : 0);
  }
  return bytes;
}

std::string manifestHeader() {
  std::string h;
  for (const std::string& c : kManifestColumns) {
    h += (h.empty() ? "" : ",") + c;
  }
  return h;
}

std::string manifestLine(const ManifestRow& r) {
  std::ostringstream os;
  os << r.probe << ',' << csvField(r.file) << ',' << r.networkOperator << ',' << r.operation << ',' << r.commandOffset
     << ',' << r.kind << ',' << csvField(r.layer) << ',' << csvField(r.sourceOperator) << ',' << r.simulatedNpuActive;
  return os.str();
}

std::vector<ManifestRow> readManifest(const std::string& path) {
  const CsvFile csv = readCsv(path, kManifestColumns);
  std::vector<ManifestRow> rows;
  for (const auto& row : csv.rows) {
    const auto count = [&](const std::string& name) { return parseCount(field(csv, row, name, path), path, row.number, name); };
    ManifestRow r;
    r.probe = static_cast<size_t>(count("probe"));
    r.file = field(csv, row, "file", path);
    r.networkOperator = static_cast<size_t>(count("network_operator"));
    r.operation = static_cast<size_t>(count("index"));
    r.commandOffset = static_cast<uint32_t>(count("command_offset"));
    r.kind = field(csv, row, "kind", path);
    r.layer = field(csv, row, "layer", path);
    r.sourceOperator = field(csv, row, "source_operator", path);
    r.simulatedNpuActive = count("simulated_npu_active");
    rows.push_back(r);
  }
  return rows;
}

std::vector<std::pair<std::string, uint64_t>> readMeasured(const std::string& path) {
  const CsvFile csv = readCsv(path, {"file", "npu_active"});
  std::vector<std::pair<std::string, uint64_t>> out;
  std::map<std::string, size_t> lineOf;
  for (const auto& row : csv.rows) {
    const std::string name = std::filesystem::path(field(csv, row, "file", path)).filename().string();
    const auto [it, fresh] = lineOf.emplace(name, row.number);
    if (!fresh) {
      throwForKey(path, "file", "line " + std::to_string(row.number) + ": " + name + " was measured on line " +
                                    std::to_string(it->second) + " already");
    }
    out.emplace_back(name, parseCount(field(csv, row, "npu_active", path), path, row.number, "npu_active"));
  }
  return out;
}

ProbeComparison compareProbes(const std::vector<ManifestRow>& manifest,
                              const std::vector<std::pair<std::string, uint64_t>>& measured) {
  std::map<std::string, uint64_t> byFile(measured.begin(), measured.end());
  ProbeComparison c;
  std::optional<size_t> previous; // the last measured row
  for (const ManifestRow& m : manifest) {
    ProbeComparison::Row row;
    row.probe = m;
    const auto it = byFile.find(m.file);
    if (it != byFile.end()) {
      row.measured = true;
      row.measuredNpuActive = it->second;
      byFile.erase(it);
      const int64_t simBefore = previous ? static_cast<int64_t>(c.rows[*previous].probe.simulatedNpuActive) : 0;
      const int64_t measuredBefore = previous ? static_cast<int64_t>(c.rows[*previous].measuredNpuActive) : 0;
      row.simulatedDelta = static_cast<int64_t>(m.simulatedNpuActive) - simBefore;
      row.measuredDelta = static_cast<int64_t>(row.measuredNpuActive) - measuredBefore;
    }
    c.rows.push_back(row);
    if (row.measured) {
      previous = c.rows.size() - 1;
    }
  }
  for (const auto& [file, cycles] : byFile) {
    c.unmatched.push_back(file);
  }
  return c;
}

} // namespace npusim::probe
