// SPDX-License-Identifier: Apache-2.0
// `npusim probe write|compare`: per-operation measurements on an FVP or a board.
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
#include "harness/probe/probe.h"
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
  bool strict = false;
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

std::string stemOf(const std::string& model) {
  return model.empty() ? std::string("demo") : fs::path(model).stem().string();
}

int writeProbes(const WriteOptions& o) {
  const io::CompiledNetwork net = io::loadModelOrDemo(o.model);
  config::ConfigRequest request = o.config;
  applyVelaOption(o.vela, request);
  const config::SystemParams params = platform::resolveForModel(request, net);
  printConfigWarnings(params);
  // Refused and warned about here as `run` would for each probe (whose output goes unseen).
  const std::vector<io::DecodedNpuOp> decoded = decodeChecked(net, params);
  platform::refuseBranches(net, decoded);
  checkCompileTarget(net, decoded, params, o.strict);
  const probe::ProbePlan plan = probe::planProbes(decoded, o.every);
  const std::vector<probe::ProbePoint>& points = plan.points;
  if (points.empty()) {
    InputError::Location loc;
    loc.file = net.path;
    throw InputError(loc, "no kernel operation (convolution, depthwise, pooling, elementwise, resize) to probe");
  }
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec || !fs::is_directory(o.out)) {
    InputError::Location loc;
    loc.file = o.out;
    throw InputError(loc, "cannot create the output folder" + (ec ? ": " + ec.message() : std::string()));
  }
  // Each probe is as large as the model: refused up front when they cannot all fit.
  const uint64_t total = uint64_t{net.bytes.size()} * points.size();
  const fs::space_info space = fs::space(o.out, ec);
  if (!ec && space.available < total) {
    InputError::Location loc;
    loc.file = o.out;
    throw InputError(loc, "the " + std::to_string(points.size()) + " probe models take " + std::to_string(total / 1000000) +
                              " MB, its file system has " + std::to_string(space.available / 1000000) +
                              " MB free (--every N writes fewer)");
  }
  std::vector<std::string> warnings;
  const report::LayerMap layers = report::mapLayers(net, decoded, analytic::findVelaArtifacts(net.path, ""), &warnings);
  for (const std::string& w : warnings) std::cerr << "npusim: warning: " << w << '\n';

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
            << "  next     run each model on the FVP or board, write its NPU_ACTIVE as CSV (columns file,npu_active),\n"
            << "           then: npusim probe compare " << manifestPath << " MEASURED.csv\n";
  return 0;
}

struct CompareOptions {
  std::string manifest, measured, csv;
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
  }
  std::cout << "npusim probe compare: " << o.manifest << " against " << o.measured << "\n  probes (NPU_ACTIVE; adds = "
            << "cycles over the previous measured probe)\n";
  writeAligned(std::cout, table, "    ");
  std::vector<std::vector<std::string>> kinds{{"kind", "probes", "adds (measured)", "adds (npusim)", "error"}};
  for (const auto& [kind, k] : byKind) {
    kinds.push_back({kind, std::to_string(k.ops), std::to_string(std::llround(k.measured)),
                     std::to_string(std::llround(k.simulated)), errorOf(k.simulated, k.measured)});
  }
  std::cout << "  by operation kind\n";
  writeAligned(std::cout, kinds, "    ");
  if (!o.csv.empty()) {
    openOutput(o.csv) << csv.str();
  }
  return 0;
}

} // namespace

void addProbe(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand(
      "probe", "Per-operation measurements: models that stop after each NPU operation, and their cycles against npusim's");
  sub->require_subcommand(1);

  auto* write = sub->add_subcommand(
      "write", "Write one model per kernel operation, its NPU work stopped after that operation, and their simulated cycles");
  auto w = std::make_shared<WriteOptions>();
  write->add_option("model", w->model, "Vela-compiled .tflite (default: the built-in demo network)");
  write->add_option("--out", w->out, "folder for the probe models and probes.csv")->required();
  write->add_option("--every", w->every, "a probe after every N-th kernel operation (and the last; default 1)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 30));
  write->add_option("-j,--jobs", w->jobs, "parallel simulations (default: cores)");
  addConfigOptions(write, w->config);
  addVelaOption(write, w->vela);
  write->add_flag("--strict", w->strict,
                  "refuse (exit 2) a configuration that contradicts what the model was compiled for, instead of warning");
  write->callback([w, &registry] { registry.select([w] { return writeProbes(*w); }); });

  auto* compare = sub->add_subcommand("compare", "Measured NPU_ACTIVE of probe models against npusim's, per operation");
  auto c = std::make_shared<CompareOptions>();
  compare->add_option("manifest", c->manifest, "probes.csv written by `probe write`")->required();
  compare->add_option("measured", c->measured, "CSV with columns file and npu_active, one row per measured probe")
      ->required();
  compare->add_option("--csv", c->csv, "write the per-probe comparison as CSV");
  compare->callback([c, &registry] { registry.select([c] { return compareProbes(*c); }); });
}

} // namespace npusim::cli
