// SPDX-License-Identifier: Apache-2.0
#include "harness/probe/probe.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "harness/probe/probe_csv.h"
#include "sim/arch/architecture.h"
#include "sim/arch/command_set.h"
#include "sim/common/csv.h"
#include "sim/common/error.h"
#include "sim/io/tflite_writer.h"

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

uint32_t commandStreamAction(uint32_t words) {
  return kCommandStreamAction | ((words >> 16) & 0xFF) << 8 | (words & 0xFFFF) << 16;
}

// A cmd0 command word of the stream's command set: its key and its 16-bit parameter.
uint32_t cmd0Word(const io::NpuOp& npu, arch::CommandId id, uint16_t param) {
  const arch::CommandSet& set = *npu.header.hardware->arch->commands;
  return uint32_t{set.info(id).key} | uint32_t{param} << 16;
}

// Cuts one ethos-u operator's stream to its first `keepBytes` bytes followed by a STOP.
void cutStream(std::vector<uint8_t>& bytes, const io::NpuOp& npu, uint32_t keepBytes) {
  const uint64_t first = npu.commands.offset;
  storeWord(bytes, first + keepBytes, cmd0Word(npu, arch::CommandId::OpStop, kStopIrqMask));
  storeWord(bytes, first - 4, commandStreamAction(keepBytes / 4 + 1));
  for (uint64_t at = first + keepBytes + 4; at < first + npu.commands.size; at += 4) {
    storeWord(bytes, at, kNopAction);
  }
}

void appendWord(std::vector<uint8_t>& bytes, uint32_t word) {
  bytes.resize(bytes.size() + 4);
  storeWord(bytes, bytes.size() - 4, word);
}

// The COP1 payload of one ethos-u operator with an NPU_OP_IRQ after each of its launches,
// numbered from `first`.
std::vector<uint8_t> irqPayload(const io::CompiledNetwork& net, const io::DecodedNpuOp& stream, size_t first) {
  const io::NpuOp& npu = net.operators.at(stream.operatorIndex).npu;
  const uint8_t* commands = net.at(npu.commands);
  std::vector<uint8_t> cms;
  uint64_t from = 0;
  size_t number = first;
  for (const cmd::Operation& op : stream.operations) {
    if (!isLaunch(op.kind)) continue;
    const uint64_t after = op.byteOffset + stream.commands.at(op.commandIndex).sizeBytes();
    cms.insert(cms.end(), commands + from, commands + after);
    appendWord(cms, cmd0Word(npu, arch::CommandId::OpIrq, irqMaskOf(number++)));
    from = after;
  }
  cms.insert(cms.end(), commands + from, commands + npu.commands.size);
  // The COMMAND_STREAM length: 24 bits of words (ethos-u55-command-stream.md, driver payload).
  const uint64_t words = cms.size() / 4;
  if (words >= (uint64_t{1} << 24)) {
    InputError::Location loc;
    loc.file = net.path;
    loc.byteOffset = npu.commands.offset - 4;
    throw InputError(loc, "the command stream with an NPU_OP_IRQ after each launch has " + std::to_string(words) +
                              " words, more than the COMMAND_STREAM length's 24 bits hold");
  }
  const uint8_t* payload = net.at(npu.commandStreamTensor);
  const uint64_t action = npu.commands.offset - 4 - npu.commandStreamTensor.offset;
  const uint64_t tail = npu.commands.offset + npu.commands.size - npu.commandStreamTensor.offset;
  std::vector<uint8_t> out(payload, payload + action);
  appendWord(out, commandStreamAction(static_cast<uint32_t>(words)));
  out.insert(out.end(), cms.begin(), cms.end());
  out.insert(out.end(), payload + tail, payload + npu.commandStreamTensor.size);
  return out;
}

// Checks that `bytes` decodes to `decoded` with an NPU_OP_IRQ after each launch; a difference
// is a bug in irqBytes.
void checkIrqModel(const std::vector<uint8_t>& bytes, const io::CompiledNetwork& net,
                   const std::vector<io::DecodedNpuOp>& decoded) {
  const std::vector<io::DecodedNpuOp> got = io::decodeAll(io::loadNetworkFromBytes(bytes, net.path));
  const auto fail = [](const std::string& what) { throw std::logic_error("irqBytes: " + what); };
  if (got.size() != decoded.size()) fail("the instrumented model has another number of ethos-u operators");
  size_t number = 0;
  for (size_t s = 0; s < decoded.size(); ++s) {
    std::vector<bool> launchCommand(decoded[s].commands.size(), false);
    for (const cmd::Operation& op : decoded[s].operations) launchCommand.at(op.commandIndex) = isLaunch(op.kind);
    size_t g = 0;
    for (size_t c = 0; c < decoded[s].commands.size(); ++c, ++g) {
      const cmd::Command& want = decoded[s].commands[c];
      if (g >= got[s].commands.size()) fail("stream " + std::to_string(s) + " is shorter");
      const cmd::Command& have = got[s].commands[g];
      if (have.key != want.key || have.param != want.param || have.payload != want.payload) {
        fail("stream " + std::to_string(s) + " command " + std::to_string(g) + " differs");
      }
      if (!launchCommand[c]) continue;
      ++g;
      if (g >= got[s].commands.size() || got[s].commands[g].id() != arch::CommandId::OpIrq ||
          got[s].commands[g].param != irqMaskOf(number++)) {
        fail("stream " + std::to_string(s) + " command " + std::to_string(g) + " is not the launch's NPU_OP_IRQ");
      }
    }
    if (g != got[s].commands.size()) fail("stream " + std::to_string(s) + " is longer");
  }
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

bool isLaunch(cmd::OpKind kind) {
  return cmd::isKernel(kind) || kind == cmd::OpKind::KernelWait || kind == cmd::OpKind::PmuMask;
}

std::vector<Launch> listLaunches(const std::vector<io::DecodedNpuOp>& decoded) {
  std::vector<Launch> launches;
  for (size_t s = 0; s < decoded.size(); ++s) {
    for (size_t i = 0; i < decoded[s].operations.size(); ++i) {
      if (isLaunch(decoded[s].operations[i].kind)) launches.push_back({launches.size(), s, i});
    }
  }
  return launches;
}

uint16_t irqMaskOf(size_t number) { return static_cast<uint16_t>(1u << (number % 16)); }

std::string irqMaskText(uint16_t mask) {
  std::ostringstream os;
  os << "0x" << std::uppercase << std::hex << std::setw(4) << std::setfill('0') << mask;
  return os.str();
}

std::vector<uint8_t> irqBytes(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded) {
  std::vector<uint8_t> bytes = net.bytes;
  size_t first = 0;
  for (const io::DecodedNpuOp& stream : decoded) {
    const io::NpuOp& npu = net.operators.at(stream.operatorIndex).npu;
    for (const cmd::Command& c : stream.commands) {
      if (c.id() == arch::CommandId::OpIrq) {
        InputError::Location loc;
        loc.file = net.path;
        loc.byteOffset = npu.commands.offset + c.offset;
        loc.commandIndex = c.index;
        throw InputError(loc, "the stream already has an NPU_OP_IRQ: its interrupt would be taken for a launch's "
                              "(instrument the model Vela wrote)");
      }
    }
    bytes = io::replaceTensorData(bytes, net.path, npu.commandStreamTensorIndex, irqPayload(net, stream, first));
    for (const cmd::Operation& op : stream.operations) first += isLaunch(op.kind) ? 1 : 0;
  }
  checkIrqModel(bytes, net, decoded);
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
  const CsvTable csv = readCsvTable(path, kManifestColumns);
  std::vector<ManifestRow> rows;
  for (const auto& row : csv.rows) {
    ManifestRow r;
    r.probe = static_cast<size_t>(csv.count(row, "probe"));
    r.file = csv.field(row, "file");
    r.networkOperator = static_cast<size_t>(csv.count(row, "network_operator"));
    r.operation = static_cast<size_t>(csv.count(row, "index"));
    r.commandOffset = static_cast<uint32_t>(csv.count(row, "command_offset"));
    r.kind = csv.field(row, "kind");
    r.layer = csv.field(row, "layer");
    r.sourceOperator = csv.field(row, "source_operator");
    r.simulatedNpuActive = csv.count(row, "simulated_npu_active");
    rows.push_back(r);
  }
  return rows;
}

std::vector<std::pair<std::string, uint64_t>> readMeasured(const std::string& path) {
  const CsvTable csv = readCsvTable(path, {"file", "npu_active"});
  std::vector<std::pair<std::string, uint64_t>> out;
  std::map<std::string, size_t> lineOf;
  for (const auto& row : csv.rows) {
    const std::string name = std::filesystem::path(csv.field(row, "file")).filename().string();
    const auto [it, fresh] = lineOf.emplace(name, row.number);
    if (!fresh) {
      throwForKey(path, "file", "line " + std::to_string(row.number) + ": " + name + " was measured on line " +
                                    std::to_string(it->second) + " already");
    }
    out.emplace_back(name, csv.count(row, "npu_active"));
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
