// SPDX-License-Identifier: Apache-2.0
#include "harness/probe/launches.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <sstream>
#include <stdexcept>

#include "harness/probe/operation_type.h"
#include "harness/probe/probe.h"
#include "harness/probe/probe_csv.h"
#include "models/mem/memory_timing.h"
#include "models/platform/platform.h"
#include "sim/common/counts.h"
#include "sim/common/csv.h"
#include "sim/common/error.h"

namespace npusim::probe {
namespace {

constexpr char kEndKind[] = "END";
constexpr char kSimulated[] = "simulated_";
constexpr char kBeats[] = "_beats";
const std::vector<std::string> kColumns{"launch", "irq_mask", "network_operator", "index",        "command_offset",
                                        "kind",   "type",     "layer",            "source_operator", "simulated_end"};

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The beats a port's bursts add to, by completion time.
class BeatLog : public mem::BurstObserver {
public:
  struct Burst {
    double done;
    uint64_t beats;
    mem::Direction dir;
  };
  void burst(const mem::BurstEvent& e) override { bursts_.push_back({e.done, e.beats, e.dir}); }
  const std::vector<Burst>& bursts() const { return bursts_; }

private:
  std::vector<Burst> bursts_;
};

// Time as the PMU's CYCLE counter counts it: within the ethos-u operators' PMU windows, one
// after another.
class PmuClock {
public:
  explicit PmuClock(const platform::RunResult& run) {
    for (const platform::NetworkOpRecord& n : run.networkOps) {
      if (n.npu) windows_.emplace_back(n.pmuStart, n.pmuEnd);
    }
  }
  double at(double t) const {
    double before = 0;
    for (const auto& [start, end] : windows_) {
      if (t <= end) return before + std::max(0.0, t - start);
      before += end - start;
    }
    return before;
  }
  double total() const { return windows_.empty() ? 0.0 : at(windows_.back().second); }

private:
  std::vector<std::pair<double, double>> windows_;
};

// The beat column of each port and direction: the port's PMU group (U85: SRAM, EXT), or the
// port itself where the PMU counts per port (U55, U65).
struct BeatColumns {
  std::vector<std::string> names;
  std::vector<std::array<size_t, 2>> ofPort; // per arch::PortId: read, write (Direction order)
};

BeatColumns beatColumns(const config::SystemParams& params) {
  BeatColumns c;
  for (const arch::PortDesc& port : params.portDescs()) {
    std::string group(port.pmuGroup.empty() ? port.name : port.pmuGroup);
    std::transform(group.begin(), group.end(), group.begin(), [](unsigned char ch) { return std::tolower(ch); });
    const std::string read = group + "_rd" + kBeats;
    auto it = std::find(c.names.begin(), c.names.end(), read);
    if (it == c.names.end()) {
      c.names.push_back(read);
      c.names.push_back(group + "_wr" + kBeats);
      it = c.names.end() - 2;
    }
    const size_t at = static_cast<size_t>(it - c.names.begin());
    c.ofPort.push_back({at, at + 1});
  }
  return c;
}

LaunchManifest manifestOf(const platform::RunResult& run, const std::vector<BeatLog>& logs,
                          const std::vector<io::DecodedNpuOp>& decoded, const config::SystemParams& params,
                          const LayerLabels& labels) {
  const PmuClock clock(run);
  std::map<std::pair<size_t, size_t>, double> endOf; // (network operator, operation) -> end
  for (const platform::OperationReport& o : run.operations) endOf[{o.networkOp, o.record.index}] = o.record.end;

  LaunchManifest m;
  const BeatColumns columns = beatColumns(params);
  m.beatColumns = columns.names;
  std::vector<double> boundary; // each row's interrupt, exact
  double latest = 0;
  for (const Launch& l : listLaunches(decoded)) {
    const io::DecodedNpuOp& stream = decoded[l.stream];
    const cmd::Operation& op = stream.operations[l.operation];
    const auto it = endOf.find({stream.operatorIndex, l.operation});
    if (it == endOf.end()) {
      throw std::logic_error("simulateLaunches: launch " + std::to_string(l.number) + " has no simulated operation");
    }
    latest = std::max(latest, clock.at(it->second));
    boundary.push_back(latest);
    LaunchRow r;
    r.launch = l.number;
    r.irqMask = irqMaskOf(l.number);
    r.networkOperator = stream.operatorIndex;
    r.operation = l.operation;
    r.commandOffset = op.byteOffset;
    r.kind = std::string(cmd::opKindName(op.kind));
    const LayerLabel label = labels ? labels(stream.operatorIndex, l.operation) : LayerLabel{};
    r.layer = label.layer;
    r.sourceOperator = label.sourceOperator;
    r.type = cmd::isKernel(op.kind) ? operationType(op, label.sourceOperator) : "other";
    m.rows.push_back(r);
  }
  LaunchRow end;
  end.end = true;
  end.kind = kEndKind;
  m.rows.push_back(end);
  boundary.push_back(std::max(latest, clock.total()));
  for (size_t k = 0; k < m.rows.size(); ++k) {
    m.rows[k].simulatedEnd = static_cast<uint64_t>(roundCount(boundary[k]));
    m.rows[k].simulatedBeats.assign(m.beatColumns.size(), 0);
  }
  // Each burst to the row whose interval (previous interrupt, this one] holds its completion.
  for (size_t port = 0; port < logs.size(); ++port) {
    for (const BeatLog::Burst& b : logs[port].bursts()) {
      const auto at = std::lower_bound(boundary.begin(), boundary.end(), clock.at(b.done));
      const size_t row = std::min(static_cast<size_t>(at - boundary.begin()), m.rows.size() - 1);
      m.rows[row].simulatedBeats[columns.ofPort[port][static_cast<size_t>(b.dir)]] += b.beats;
    }
  }
  return m;
}

} // namespace

std::string launchManifestCsv(const LaunchManifest& m) {
  std::ostringstream os;
  for (size_t i = 0; i < kColumns.size(); ++i) os << (i ? "," : "") << kColumns[i];
  for (const std::string& c : m.beatColumns) os << ',' << kSimulated << c;
  os << '\n';
  for (const LaunchRow& r : m.rows) {
    if (r.end) {
      os << ",,,,," << r.kind << ",,,," << r.simulatedEnd;
    } else {
      os << r.launch << ',' << irqMaskText(r.irqMask) << ',' << r.networkOperator << ',' << r.operation << ','
         << r.commandOffset << ',' << r.kind << ',' << r.type << ',' << csvField(r.layer) << ','
         << csvField(r.sourceOperator) << ',' << r.simulatedEnd;
    }
    for (const uint64_t beats : r.simulatedBeats) os << ',' << beats;
    os << '\n';
  }
  return os.str();
}

bool isLaunchManifest(const std::string& path) {
  const CsvTable csv = readCsvTable(path, {});
  return csv.has("irq_mask") && csv.has("simulated_end");
}

LaunchManifest readLaunchManifest(const std::string& path) {
  const CsvTable csv = readCsvTable(path, kColumns);
  LaunchManifest m;
  for (const std::string& h : csv.header) {
    if (h.rfind(kSimulated, 0) == 0 && endsWith(h, kBeats)) m.beatColumns.push_back(h.substr(sizeof kSimulated - 1));
  }
  const auto bad = [&](const CsvLine& row, const std::string& column, const std::string& what) {
    throwForKey(path, column, "line " + std::to_string(row.number) + ": " + what);
  };
  for (const CsvLine& row : csv.rows) {
    LaunchRow r;
    if (!m.rows.empty() && m.rows.back().end) bad(row, "kind", "a row after the END row");
    r.kind = csv.field(row, "kind");
    r.end = r.kind == kEndKind;
    if (!r.end) {
      r.launch = static_cast<size_t>(csv.count(row, "launch", "launch number"));
      if (r.launch != m.rows.size()) {
        bad(row, "launch", "launch " + std::to_string(r.launch) + " where launch " + std::to_string(m.rows.size()) +
                               " was expected (launches are numbered from 0 in order)");
      }
      r.irqMask = csv.irqMask(row, "irq_mask");
      if (r.irqMask != irqMaskOf(r.launch)) {
        bad(row, "irq_mask", irqMaskText(r.irqMask) + " is not launch " + std::to_string(r.launch) + "'s bit " +
                                 irqMaskText(irqMaskOf(r.launch)));
      }
      r.networkOperator = static_cast<size_t>(csv.count(row, "network_operator", "operator index"));
      r.operation = static_cast<size_t>(csv.count(row, "index", "operation index"));
      r.commandOffset = static_cast<uint32_t>(csv.count(row, "command_offset", "byte offset"));
      r.type = csv.field(row, "type");
      r.layer = csv.field(row, "layer");
      r.sourceOperator = csv.field(row, "source_operator");
    }
    r.simulatedEnd = csv.count(row, "simulated_end");
    if (!m.rows.empty() && r.simulatedEnd < m.rows.back().simulatedEnd) {
      bad(row, "simulated_end", std::to_string(r.simulatedEnd) + " is before the previous row's " +
                                    std::to_string(m.rows.back().simulatedEnd));
    }
    for (const std::string& c : m.beatColumns) r.simulatedBeats.push_back(csv.count(row, kSimulated + c, "beat count"));
    m.rows.push_back(r);
  }
  if (m.rows.empty() || !m.rows.back().end) {
    throwForKey(path, "kind", "no END row: a launch manifest ends with the end of the PMU windows");
  }
  return m;
}

LaunchManifest simulateLaunches(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                                const config::SystemParams& params, const LayerLabels& labels) {
  std::vector<BeatLog> logs(params.ports.size());
  platform::RunObservers observers;
  for (BeatLog& log : logs) observers.ports.push_back(&log);
  const platform::RunResult run = platform::simulate(net, decoded, params, observers);
  return manifestOf(run, logs, decoded, params, labels);
}

} // namespace npusim::probe
