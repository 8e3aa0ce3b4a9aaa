// SPDX-License-Identifier: Apache-2.0
// `npusim probe write|compare`: per-operation measurements on an FVP or a board: probe models cut
// after each kernel operation, or one model with an NPU_OP_IRQ after every launch (--irq).
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "harness/cli/commands.h"
#include "harness/cli/config_options.h"
#include "harness/cli/output.h"
#include "harness/cli/workload.h"
#include "harness/probe/launches.h"
#include "harness/probe/probe.h"
#include "harness/probe/records.h"
#include "harness/process/process_pool.h"
#include "harness/report/layer_map.h"
#include "harness/report/run_json.h"
#include "harness/sweep/progress.h"
#include "models/platform/platform.h"
#include "sim/common/atomic_file.h"
#include "sim/common/csv.h"
#include "sim/common/error.h"
#include "sim/common/text_table.h"
#include "sim/io/demo_network.h"

namespace npusim::cli {
namespace {

namespace fs = std::filesystem;

struct WriteOptions {
  std::string model, out, vela;
  size_t every = 1;
  unsigned jobs = 0;
  bool strict = false, irq = false;
  config::ConfigRequest config;
};

// The `run` options that give a child the configuration this command was given, on the sections
// resolved for the model (a probe has no Vela summary CSV beside it to take its compile's from).
std::vector<std::string> configArguments(const config::ConfigRequest& c, const config::SystemParams& params,
                                         const std::string& vela) {
  std::vector<std::string> args;
  const auto add = [&args](const char* option, const std::string& value) {
    if (!value.empty()) {
      args.push_back(option);
      args.push_back(value);
    }
  };
  add("--system-config", params.systemConfig);
  add("--memory-mode", params.memoryMode);
  add("--vela-ini", c.velaIni);
  add("--config", c.jsonFile);
  add("--vela", vela);
  for (const std::string& o : c.overrides) add("--set", o);
  return args;
}

// The line telling how `npusim run` simulates a written model as this command did: with the
// options above, since nothing beside the model names its compile's system config.
std::string runAgainLine(const std::vector<std::string>& args) {
  std::string line = "  run      npusim run MODEL";
  for (const std::string& a : args) line += " " + a;
  return line + "\n           simulates a written model as here (no Vela summary beside it names the compile)\n";
}

std::string stemOf(const std::string& model) {
  return model.empty() ? std::string("demo") : fs::path(model).stem().string();
}

// The model, its configuration and its decoded streams, refused and warned about here as `run`
// would (the simulations of `probe write` print nothing).
struct Workload {
  io::CompiledNetwork net;
  config::SystemParams params;
  std::vector<io::DecodedNpuOp> decoded;
};

Workload loadWorkload(const WriteOptions& o) {
  Workload w;
  w.net = io::loadModelOrDemo(o.model);
  config::ConfigRequest request = o.config;
  applyVelaOption(o.vela, request);
  w.params = platform::resolveForModel(request, w.net);
  printConfigWarnings(w.params);
  w.decoded = decodeChecked(w.net, w.params);
  platform::refuseBranches(w.net, w.decoded);
  checkCompileTarget(w.net, w.decoded, w.params, o.strict);
  return w;
}

void createOutputFolder(const std::string& out) {
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec || !fs::is_directory(out)) {
    InputError::Location loc;
    loc.file = out;
    throw InputError(loc, "cannot create the output folder" + (ec ? ": " + ec.message() : std::string()));
  }
}

report::LayerMap layersOf(const Workload& w) {
  std::vector<std::string> warnings;
  report::LayerMap layers = report::mapLayers(w.net, w.decoded, analytic::findVelaArtifacts(w.net.path, ""), &warnings);
  for (const std::string& warning : warnings) std::cerr << "npusim: warning: " << warning << '\n';
  return layers;
}

// `probe write --irq`: the model with an NPU_OP_IRQ after every launch, and its launch manifest
// from one simulation of the model as it is (in this process).
int writeIrqModel(const WriteOptions& o) {
  const Workload w = loadWorkload(o);
  const std::vector<uint8_t> bytes = probe::irqBytes(w.net, w.decoded);
  const std::vector<probe::Launch> launches = probe::listLaunches(w.decoded);
  if (launches.empty()) {
    InputError::Location loc;
    loc.file = w.net.path;
    throw InputError(loc, "no launch (kernel operation, KERNEL_WAIT or PMU_MASK) to follow with an interrupt");
  }
  createOutputFolder(o.out);
  const report::LayerMap layers = layersOf(w);
  const probe::LaunchManifest manifest =
      probe::simulateLaunches(w.net, w.decoded, w.params, [&layers](size_t networkOperator, size_t operation) {
        const report::LayerInfo* layer = layers.find(networkOperator, operation);
        return layer == nullptr ? probe::LayerLabel{} : probe::LayerLabel{layer->name, layer->tfliteOperator};
      });
  const std::string modelPath = (fs::path(o.out) / (stemOf(o.model) + ".irq.tflite")).string();
  writeFileAtomically(modelPath, std::string(bytes.begin(), bytes.end()));
  const std::string manifestPath = (fs::path(o.out) / "launches.csv").string();
  writeFileAtomically(manifestPath, probe::launchManifestCsv(manifest));
  std::map<std::string, size_t> byKind;
  for (const probe::Launch& l : launches) ++byKind[std::string(cmd::opKindName(w.decoded[l.stream].operations[l.operation].kind))];
  std::string kinds;
  for (const auto& [kind, n] : byKind) kinds += (kinds.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
  const probe::LaunchRow& lastLaunch = manifest.rows[manifest.rows.size() - 2];
  std::cout << "npusim probe: " << w.net.path << "\n  system   " << w.params.accelerator << ", " << w.params.systemConfig
            << ", " << w.params.memoryMode << "\n  wrote    " << modelPath << " (an NPU_OP_IRQ after each of "
            << launches.size() << " launches: " << kinds << ")\n           and " << manifestPath
            << "\n  npusim   last launch's interrupt at " << lastLaunch.simulatedEnd << " cycles, PMU windows "
            << manifest.rows.back().simulatedEnd << " cycles (CYCLE)\n"
            << runAgainLine(configArguments(o.config, w.params, o.vela))
            << "  next     run the model with a driver that reads the PMU at each interrupt, write its records as CSV\n"
            << "           (columns ccnt, irq_mask, is_tail; optional rec, npu_active";
  for (const std::string& c : manifest.beatColumns) std::cout << ", " << c;
  std::cout << "), then: npusim probe compare " << manifestPath << " RECORDS.csv\n";
  return 0;
}

int writeProbes(const WriteOptions& o) {
  if (o.irq) {
    return writeIrqModel(o);
  }
  const Workload w = loadWorkload(o);
  const io::CompiledNetwork& net = w.net;
  const config::SystemParams& params = w.params;
  const std::vector<io::DecodedNpuOp>& decoded = w.decoded;
  const probe::ProbePlan plan = probe::planProbes(decoded, o.every);
  const std::vector<probe::ProbePoint>& points = plan.points;
  if (points.empty()) {
    InputError::Location loc;
    loc.file = net.path;
    throw InputError(loc, "no kernel operation (convolution, depthwise, pooling, elementwise, resize) to probe");
  }
  createOutputFolder(o.out);
  // Each probe is as large as the model: refused up front when they cannot all fit.
  const uint64_t total = uint64_t{net.bytes.size()} * points.size();
  std::error_code ec;
  const fs::space_info space = fs::space(o.out, ec);
  if (!ec && space.available < total) {
    InputError::Location loc;
    loc.file = o.out;
    throw InputError(loc, "the " + std::to_string(points.size()) + " probe models take " + std::to_string(total / 1000000) +
                              " MB, its file system has " + std::to_string(space.available / 1000000) +
                              " MB free (--every N writes fewer)");
  }
  const report::LayerMap layers = layersOf(w);

  // 1. The probe models.
  const size_t digits = std::to_string(plan.kernels).size();
  std::vector<probe::ManifestRow> rows;
  for (size_t i = 0; i < points.size(); ++i) {
    const probe::ProbePoint& p = points[i];
    std::ostringstream name;
    name << stemOf(o.model) << ".probe" << std::setw(static_cast<int>(digits)) << std::setfill('0') << p.ordinal
         << ".tflite";
    const std::vector<uint8_t> bytes = probe::probeBytes(net, decoded, p);
    writeFileAtomically((fs::path(o.out) / name.str()).string(), std::string(bytes.begin(), bytes.end()));
    const io::DecodedNpuOp& stream = decoded[p.stream];
    const cmd::Operation& op = stream.operations[p.operation];
    const report::LayerInfo* layer = layers.find(stream.operatorIndex, p.operation);
    probe::ManifestRow r;
    r.probe = i + 1;
    r.file = name.str();
    r.networkOperator = stream.operatorIndex;
    r.operation = p.operation;
    r.commandOffset = op.byteOffset;
    r.kind = std::string(cmd::opKindName(op.kind));
    r.layer = layer == nullptr ? "" : layer->name;
    r.sourceOperator = layer == nullptr ? "" : layer->tfliteOperator;
    rows.push_back(r);
  }

  // 2. Each probe simulated as `run` simulates it: a child process each (one SystemC
  //    elaboration per process).
  std::vector<std::vector<std::string>> commands;
  for (const probe::ManifestRow& r : rows) {
    std::vector<std::string> args{process::selfExecutable(), "run", (fs::path(o.out) / r.file).string(), "--json",
                                  "/dev/fd/" + std::to_string(process::kResultChannelFd)};
    for (std::string& a : configArguments(o.config, params, o.vela)) args.push_back(std::move(a));
    commands.push_back(std::move(args));
  }
  process::PoolOptions pool;
  pool.jobs = o.jobs > 0 ? o.jobs : process::availableCores();
  pool.captureStdout = false;
  pool.resultChannel = true;
  pool.inProcess = [](const std::vector<std::string>& args) { return runCommandLine(args); };
  std::vector<std::string> failures;
  size_t finished = 0;
  // A progress bar on a terminal: a large model's probes take minutes to simulate.
  std::optional<sweep::ProgressMeter> meter;
  if (isatty(STDERR_FILENO) != 0) {
    meter.emplace(std::cerr, commands.size(), 0, true);
    pool.tick = [&] { meter->update(finished, failures.size()); };
  }
  process::runEach(commands, pool, [&](size_t i, process::ChildResult&& child) {
    ++finished;
    nlohmann::json result;
    if (child.exitCode == 0) {
      result = nlohmann::json::parse(child.channel, nullptr, false);
    }
    if (child.exitCode != 0 || result.is_discarded() || !result.contains(report::run_json::kNpuActiveCycles)) {
      std::string reason = child.err.empty() ? "exit " + std::to_string(child.exitCode) : child.err;
      while (!reason.empty() && reason.back() == '\n') reason.pop_back();
      failures.push_back(rows[i].file + ": " + reason);
      return;
    }
    rows[i].simulatedNpuActive = result[report::run_json::kNpuActiveCycles].get<uint64_t>();
  });
  if (meter) {
    meter->finish(finished, failures.size());
  }
  if (!failures.empty()) {
    for (const std::string& f : failures) std::cerr << "npusim: error: " << f << '\n';
    return 1;
  }

  // 3. The manifest and a summary.
  std::string manifest = probe::manifestHeader() + '\n';
  for (const probe::ManifestRow& r : rows) manifest += probe::manifestLine(r) + '\n';
  const std::string manifestPath = (fs::path(o.out) / "probes.csv").string();
  writeFileAtomically(manifestPath, manifest);
  std::cout << "npusim probe: " << net.path << "\n  system   " << params.accelerator << ", "
            << params.systemConfig << ", " << params.memoryMode << "\n  wrote    " << rows.size()
            << " probe models (after ";
  const size_t cutPoints = plan.kernels - plan.chained;
  if (o.every > 1) {
    std::cout << "one in " << o.every << " of " << cutPoints << " kernel operations, and the last";
  } else {
    std::cout << "each of " << cutPoints << " kernel operations";
  }
  if (plan.chained > 0) {
    std::cout << "; " << plan.chained << " more run inside chained groups, which are cut after their last";
  }
  std::cout << ", " << std::fixed << std::setprecision(1) << static_cast<double>(total) / 1e6
            << " MB) and " << manifestPath << "\n  npusim   NPU active "
            << rows.front().simulatedNpuActive << " cycles (" << rows.front().file << ") to "
            << rows.back().simulatedNpuActive << " (" << rows.back().file << ")\n"
            << runAgainLine(configArguments(o.config, params, o.vela))
            << "  next     run each model on the FVP or board, write its NPU_ACTIVE as CSV (columns file,npu_active),\n"
            << "           then: npusim probe compare " << manifestPath << " MEASURED.csv\n";
  return 0;
}

struct CompareOptions {
  std::string manifest, measured, csv, json;
  std::vector<std::string> where;
  uint64_t quantum = 0;
};

std::string percent(double value) {
  std::ostringstream os;
  os << std::showpos << std::fixed << std::setprecision(1) << value << '%';
  return os.str();
}

// Simulated against measured, in percent of the measured ("" when that is 0).
std::string errorOf(double simulated, double measured) {
  return measured == 0 ? std::string() : percent((simulated / measured - 1) * 100);
}

int compareProbes(const CompareOptions& o) {
  const std::vector<probe::ManifestRow> manifest = probe::readManifest(o.manifest);
  const auto measured = probe::readMeasured(o.measured);
  const probe::ProbeComparison c = probe::compareProbes(manifest, measured);
  std::vector<size_t> missing;
  for (const auto& r : c.rows) {
    if (!r.measured) missing.push_back(r.probe.probe);
  }
  if (missing.size() == c.rows.size()) {
    InputError::Location loc;
    loc.file = o.measured;
    throw InputError(loc, "no file it names is a probe of " + o.manifest);
  }
  for (const std::string& f : c.unmatched) {
    std::cerr << "npusim: warning: " << o.measured << ": " << f << " is not a probe of " << o.manifest << '\n';
  }
  if (!missing.empty()) {
    std::cerr << "npusim: warning: " << missing.size() << " of " << c.rows.size()
              << " probes have no measurement; each measured probe's added cycles are counted from the previous "
                 "measured one (first missing: probe "
              << missing.front() << ")\n";
  }
  // Per probe, and the cycles each adds per operation kind.
  std::vector<std::vector<std::string>> table{{"probe", "kind", "layer", "measured", "npusim", "error", "adds (measured)",
                                               "adds (npusim)", "error"}};
  struct Sum {
    size_t ops = 0;
    double measured = 0, simulated = 0;
  };
  std::map<std::string, Sum> byKind;
  std::ostringstream csv;
  csv << "probe,file,kind,layer,measured_npu_active,simulated_npu_active,measured_added,simulated_added\n";
  nlohmann::ordered_json probes = nlohmann::ordered_json::array();
  for (const auto& r : c.rows) {
    if (!r.measured) continue;
    const double m = static_cast<double>(r.measuredNpuActive), s = static_cast<double>(r.probe.simulatedNpuActive);
    const double md = static_cast<double>(r.measuredDelta), sd = static_cast<double>(r.simulatedDelta);
    table.push_back({std::to_string(r.probe.probe), r.probe.kind, r.probe.layer, std::to_string(r.measuredNpuActive),
                     std::to_string(r.probe.simulatedNpuActive), errorOf(s, m), std::to_string(r.measuredDelta),
                     std::to_string(r.simulatedDelta), errorOf(sd, md)});
    Sum& k = byKind[r.probe.kind];
    ++k.ops;
    k.measured += md;
    k.simulated += sd;
    csv << r.probe.probe << ',' << csvField(r.probe.file) << ',' << r.probe.kind << ',' << csvField(r.probe.layer) << ','
        << r.measuredNpuActive << ',' << r.probe.simulatedNpuActive << ',' << r.measuredDelta << ',' << r.simulatedDelta
        << '\n';
    probes.push_back({{"probe", r.probe.probe},
                      {"file", r.probe.file},
                      {"kind", r.probe.kind},
                      {"layer", r.probe.layer},
                      {"measured_npu_active", r.measuredNpuActive},
                      {"simulated_npu_active", r.probe.simulatedNpuActive},
                      {"measured_added", r.measuredDelta},
                      {"simulated_added", r.simulatedDelta}});
  }
  std::cout << "npusim probe compare: " << o.manifest << " against " << o.measured << "\n  probes (NPU_ACTIVE; adds = "
            << "cycles over the previous measured probe)\n";
  writeAligned(std::cout, table, "    ");
  std::vector<std::vector<std::string>> kinds{{"kind", "probes", "adds (measured)", "adds (npusim)", "error"}};
  nlohmann::ordered_json kindsJson = nlohmann::ordered_json::array();
  for (const auto& [kind, k] : byKind) {
    kinds.push_back({kind, std::to_string(k.ops), std::to_string(std::llround(k.measured)),
                     std::to_string(std::llround(k.simulated)), errorOf(k.simulated, k.measured)});
    kindsJson.push_back({{"kind", kind},
                         {"probes", k.ops},
                         {"measured_added", std::llround(k.measured)},
                         {"simulated_added", std::llround(k.simulated)}});
  }
  std::cout << "  by operation kind\n";
  writeAligned(std::cout, kinds, "    ");
  if (!o.csv.empty()) {
    openOutput(o.csv) << csv.str();
  }
  if (!o.json.empty()) {
    nlohmann::ordered_json j{{"manifest", o.manifest}, {"measured", o.measured}, {"probes", probes}, {"kinds", kindsJson}};
    openOutput(o.json) << j.dump(2) << '\n';
  }
  return 0;
}

probe::RecordFilter filterOf(const std::vector<std::string>& where) {
  probe::RecordFilter filter;
  for (const std::string& w : where) {
    const size_t eq = w.find('=');
    if (eq == std::string::npos || eq == 0) {
      InputError::Location loc;
      loc.file = "--where";
      throw InputError(loc, "'" + w + "' is not COLUMN=VALUE");
    }
    filter.emplace_back(w.substr(0, eq), w.substr(eq + 1));
  }
  return filter;
}

std::string launchRange(const probe::RecordComparison::Row& r) {
  if (r.launches == 0) return "-";
  const std::string first = std::to_string(r.firstLaunch);
  return r.launches == 1 ? first : first + "-" + std::to_string(r.firstLaunch + r.launches - 1);
}

// `probe compare LAUNCHES RECORDS`: per-record measurements against the launch manifest.
int compareRecordFile(const CompareOptions& o) {
  const probe::LaunchManifest manifest = probe::readLaunchManifest(o.manifest);
  const probe::RecordFilter where = filterOf(o.where);
  const probe::RecordFile records = probe::readRecords(o.measured, manifest.beatColumns, where);
  const probe::RecordComparison c = probe::compareRecords(manifest, records, o.quantum);
  for (const std::string& b : records.otherBeats) {
    std::string known;
    for (const std::string& k : manifest.beatColumns) known += (known.empty() ? "" : ", ") + k;
    std::cerr << "npusim: warning: " << o.measured << ": column " << b << " is not compared: the model's beat columns are "
              << known << '\n';
  }

  std::vector<std::string> header{"record", "line",           "launches",         "type",  "measured",
                                  "npusim", "running (meas.)", "running (npusim)", "error"};
  for (const std::string& b : c.beatColumns) header.push_back(b + " (meas./npusim)");
  std::vector<std::vector<std::string>> table{header};
  std::ostringstream csv;
  csv << "record,line,tail,first_launch,launches,type,measured_cycles,simulated_cycles,measured_running,"
         "simulated_running";
  for (const std::string& b : c.beatColumns) csv << ",measured_" << b << ",simulated_" << b;
  csv << '\n';
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  double sumAbs = 0, maxAbs = -1;
  size_t worst = 0;
  for (size_t k = 0; k < c.rows.size(); ++k) {
    const probe::RecordComparison::Row& r = c.rows[k];
    const double m = static_cast<double>(r.measuredRunning), sim = static_cast<double>(r.simulatedRunning);
    if (m > 0) {
      const double abs = std::abs(sim / m - 1) * 100;
      sumAbs += abs;
      if (abs > maxAbs) {
        maxAbs = abs;
        worst = k;
      }
    }
    std::vector<std::string> line{r.tail ? std::to_string(k) + " tail" : std::to_string(k),
                                  std::to_string(r.line),
                                  launchRange(r),
                                  r.type,
                                  std::to_string(r.measuredCycles),
                                  std::to_string(r.simulatedCycles),
                                  std::to_string(r.measuredRunning),
                                  std::to_string(r.simulatedRunning),
                                  errorOf(sim, m)};
    csv << k << ',' << r.line << ',' << (r.tail ? 1 : 0) << ',' << r.firstLaunch << ',' << r.launches << ',' << r.type
        << ',' << r.measuredCycles << ',' << r.simulatedCycles << ',' << r.measuredRunning << ',' << r.simulatedRunning;
    nlohmann::ordered_json beats = nlohmann::ordered_json::object();
    for (size_t b = 0; b < c.beatColumns.size(); ++b) {
      line.push_back(std::to_string(r.measuredBeats[b]) + "/" + std::to_string(r.simulatedBeats[b]));
      csv << ',' << r.measuredBeats[b] << ',' << r.simulatedBeats[b];
      beats[c.beatColumns[b]] = {{"measured", r.measuredBeats[b]}, {"simulated", r.simulatedBeats[b]}};
    }
    csv << '\n';
    table.push_back(line);
    rows.push_back({{"record", k},
                    {"line", r.line},
                    {"tail", r.tail},
                    {"first_launch", r.firstLaunch},
                    {"launches", r.launches},
                    {"type", r.type},
                    {"measured_cycles", r.measuredCycles},
                    {"simulated_cycles", r.simulatedCycles},
                    {"measured_running", r.measuredRunning},
                    {"simulated_running", r.simulatedRunning},
                    {"beats", beats}});
  }
  std::vector<std::vector<std::string>> types{{"type", "records", "launches", "measured", "npusim", "error"}};
  nlohmann::ordered_json typesJson = nlohmann::ordered_json::array();
  for (const probe::RecordComparison::TypeSum& t : c.types) {
    types.push_back({t.type, std::to_string(t.records), std::to_string(t.launches), std::to_string(t.measured),
                     std::to_string(t.simulated),
                     errorOf(static_cast<double>(t.simulated), static_cast<double>(t.measured))});
    typesJson.push_back({{"type", t.type},
                         {"records", t.records},
                         {"launches", t.launches},
                         {"measured_cycles", t.measured},
                         {"simulated_cycles", t.simulated}});
  }
  // The tolerance at a record boundary: 5% of the measured running sum, or the FVP's
  // 1,000-cycle scheduling quantum (fixtures/fvp-perop/README.md) when that is larger.
  const size_t within = c.withinRunning(0.05, 1000);
  std::string selection;
  for (const auto& [column, value] : where) selection += (selection.empty() ? " (" : ", ") + column + "=" + value;
  if (!selection.empty()) selection += ")";
  std::cout << "npusim probe compare: " << o.manifest << " against " << o.measured << selection << "\n  "
            << c.rows.size() << " records cover " << c.covered << " of " << c.launches
            << " launches (cycles; running = from the PMU start to the record's end";
  if (c.quantum > 0) std::cout << ", simulated at the first " << c.quantum << "-cycle quantum edge after it";
  std::cout << ")\n";
  writeAligned(std::cout, table, "    ");
  std::cout << "  by layer type (records whose kernel launches are all of one type)\n";
  writeAligned(std::cout, types, "    ");
  const double mean = c.rows.empty() ? 0.0 : sumAbs / static_cast<double>(c.rows.size());
  std::cout << "  running sums: mean |error| " << std::fixed << std::setprecision(1) << mean << "%, largest "
            << maxAbs << "% (record " << worst << "); " << within << " of " << c.rows.size()
            << " within 5% or 1,000 cycles\n";
  if (!o.csv.empty()) {
    openOutput(o.csv) << csv.str();
  }
  if (!o.json.empty()) {
    nlohmann::ordered_json whereJson = nlohmann::ordered_json::object();
    for (const auto& [column, value] : where) whereJson[column] = value;
    nlohmann::ordered_json j{{"manifest", o.manifest},
                             {"records_file", o.measured},
                             {"where", whereJson},
                             {"launches", c.launches},
                             {"covered", c.covered},
                             {"quantum", c.quantum},
                             {"beat_columns", c.beatColumns},
                             {"records", rows},
                             {"types", typesJson},
                             {"running_error", {{"mean_abs_percent", mean},
                                                {"max_abs_percent", maxAbs},
                                                {"within_5_percent_or_1000_cycles", within}}}};
    openOutput(o.json) << j.dump(2) << '\n';
  }
  return 0;
}

int compareMeasured(const CompareOptions& o) {
  if (probe::isLaunchManifest(o.manifest)) {
    return compareRecordFile(o);
  }
  for (const auto& [option, given] : {std::pair<const char*, bool>{"--where", !o.where.empty()},
                                      std::pair<const char*, bool>{"--quantum", o.quantum > 0}}) {
    if (!given) continue;
    InputError::Location loc;
    loc.file = option;
    throw InputError(loc, std::string("applies to per-record measurements; ") + o.manifest +
                              " is a probe manifest (probes.csv), compared with a CSV of one row per probe");
  }
  return compareProbes(o);
}

} // namespace

void addProbe(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand(
      "probe", "Per-operation measurements: models that stop after each NPU operation, and their cycles against npusim's");
  sub->require_subcommand(1);

  auto* write = sub->add_subcommand(
      "write", "Write one model per kernel operation, its NPU work stopped after that operation, and their simulated "
               "cycles; or (--irq) the model with an NPU_OP_IRQ after every launch, and each launch's simulated time");
  auto w = std::make_shared<WriteOptions>();
  write->add_option("model", w->model, "Vela-compiled .tflite (default: the built-in demo network)");
  write->add_option("--out", w->out, "folder for the probe models and probes.csv (--irq: the model and launches.csv)")
      ->required();
  auto* irq = write->add_flag("--irq", w->irq,
                              "one model with an NPU_OP_IRQ after every launch (kernel operation, KERNEL_WAIT, PMU_MASK), "
                              "for a driver that reads the PMU at each interrupt");
  write->add_option("--every", w->every, "a probe after every N-th kernel operation (and the last; default 1)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 30))
      ->excludes(irq);
  write->add_option("-j,--jobs", w->jobs, "parallel simulations (default: cores)")->excludes(irq);
  addConfigOptions(write, w->config);
  addVelaOption(write, w->vela);
  write->add_flag("--strict", w->strict,
                  "refuse (exit 2) a configuration that contradicts what the model was compiled for, instead of warning");
  write->callback([w, &registry] { registry.select([w] { return writeProbes(*w); }); });

  auto* compare = sub->add_subcommand(
      "compare", "Measured NPU_ACTIVE of probe models, or per-record measurements of the --irq model, against npusim's");
  auto c = std::make_shared<CompareOptions>();
  compare->add_option("manifest", c->manifest, "probes.csv or launches.csv written by `probe write`")->required();
  compare->add_option("measured", c->measured,
                      "probes.csv: CSV with columns file and npu_active, one row per measured probe; launches.csv: "
                      "per-record measurements, columns ccnt, irq_mask, is_tail (rec, npu_active and beat columns optional)")
      ->required();
  compare->add_option("--where", c->where, "COLUMN=VALUE: compare only the records of that value (repeatable)")
      ->allow_extra_args(false);
  compare->add_option("--quantum", c->quantum,
                      "CYCLES: the measuring platform sees an interrupt only every CYCLES after the previous read (the "
                      "Corstone FVPs' scheduling quantum: 1000); each simulated record boundary is taken at the first "
                      "such edge at or after its launch's end (default 0: at the end)")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 32));
  compare->add_option("--csv", c->csv, "write the comparison, one row per probe or record, as CSV");
  compare->add_option("--json", c->json, "write the comparison as JSON");
  compare->callback([c, &registry] { registry.select([c] { return compareMeasured(*c); }); });
}

} // namespace npusim::cli
