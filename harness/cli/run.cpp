// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>

#include "harness/report/run_report.h"
#include "harness/report/trace_writer.h"
#include "harness/cli/commands.h"
#include "harness/cli/output.h"
#include "harness/cli/config_options.h"
#include "harness/cli/workload.h"
#include "sim/io/demo_network.h"
#include "sim/config/config.h"
#include "models/platform/invariant_checker.h"
#include "models/platform/platform.h"

namespace npusim::cli {
namespace {

// "6.21 ms" (unit "s"), "147 M" (no unit): three significant digits and the SI prefix that
// keeps the number in [1, 1000) (the table's first or last beyond its ends).
std::string withSiPrefix(double value, const std::string& unit) {
  static constexpr std::pair<double, const char*> kPrefixes[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"},
                                                                  {1e6, "M"},  {1e3, "k"},  {1, ""},     {1e-3, "m"},
                                                                  {1e-6, "u"}, {1e-9, "n"}};
  const auto* p = std::find_if(std::begin(kPrefixes), std::end(kPrefixes),
                               [&](const auto& prefix) { return std::fabs(value) >= prefix.first; });
  if (p == std::end(kPrefixes)) p = std::prev(std::end(kPrefixes));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", value / p->first);
  const std::string suffix = p->second + unit;
  return suffix.empty() ? std::string(buf) : buf + (" " + suffix);
}

} // namespace

void addRun(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand("run", "Simulate a Vela-compiled network on its Ethos-U55, U65 or U85 and the memory system around it");
  struct Options {
    std::string model, json, csv, trace, vela;
    std::string traceDetail = "block";
    config::ConfigRequest config;
    bool strict = false;
    bool check = false;
  };
  auto opts = std::make_shared<Options>();
  sub->add_option("model", opts->model, "Vela-compiled .tflite (default: the built-in demo network)");
  sub->add_option("--json", opts->json, "write the full result as JSON");
  sub->add_option("--csv", opts->csv, "write one row per NPU operation as CSV");
  auto* trace =
      sub->add_option("--trace", opts->trace, "write a timeline (Chrome Trace Event JSON; gzip when FILE ends in .gz)");
  sub->add_option("--trace-detail", opts->traceDetail, "with --trace: op | block | burst (default block)")
      ->check(CLI::IsMember({"op", "block", "burst"}))
      ->needs(trace);
  addConfigOptions(sub, opts->config);
  addVelaOption(sub, opts->vela);
  sub->add_flag("--check", opts->check,
                "check the model's own rules on everything it did (outstanding limits, bandwidth, timing adapters, "
                "dependencies); exit 1 when one was broken");
  sub->add_flag("--strict", opts->strict,
                "refuse (exit 2) a configuration that contradicts what the model was compiled for, instead of warning");
  sub->callback([opts, &registry] {
    registry.select([opts] {
      const auto wallStart = std::chrono::steady_clock::now();
      const io::CompiledNetwork net = io::loadModelOrDemo(opts->model);
      const auto decoded = io::decodeAll(net);
      applyVelaOption(opts->vela, opts->config);
      const config::SystemParams params = platform::resolveForModel(opts->config, net);
      printConfigWarnings(params);
      checkCompileTarget(net, decoded, params, opts->strict);
      std::vector<std::string> warnings;
      const analytic::VelaArtifacts vela = analytic::findVelaArtifacts(net.path, "");
      const report::LayerMap layers = report::mapLayers(net, decoded, vela, &warnings);
      for (const std::string& w : warnings) std::cerr << "npusim: warning: " << w << '\n';
      // The trace file is opened before simulating, so a bad path fails at once.
      std::unique_ptr<report::TraceFile> traceFile;
      std::unique_ptr<report::TraceRecorder> recorder;
      if (!opts->trace.empty()) {
        traceFile = std::make_unique<report::TraceFile>(opts->trace);
        recorder = std::make_unique<report::TraceRecorder>(params.ports.size());
      }
      std::unique_ptr<platform::InvariantChecker> checker;
      platform::ObserverFanout observers;
      if (recorder) observers.add(recorder->observers());
      if (opts->check) {
        checker = std::make_unique<platform::InvariantChecker>(params);
        observers.add(checker->observers());
      }
      platform::RunResult result = platform::simulate(net, decoded, params, observers.observers());
      if (checker) result.check = checker->check(result, decoded);
      if (traceFile) {
        const report::TraceDetail detail = opts->traceDetail == "op"      ? report::TraceDetail::Op
                                           : opts->traceDetail == "burst" ? report::TraceDetail::Burst
                                                                          : report::TraceDetail::Block;
        report::writeTrace(*traceFile, detail, result, layers, decoded, *recorder);
        traceFile->close();
      }
      if (!opts->json.empty()) {
        openOutput(opts->json) << report::runJson(result, layers).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
      }
      if (!opts->csv.empty()) {
        auto out = openOutput(opts->csv);
        report::writeRunCsv(out, result, layers);
      }
      report::writeRunSummary(std::cout, result, layers);
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
      std::cerr << "npusim: " << std::llround(result.totalCycles) << " simulated cycles in " << withSiPrefix(wall, "s")
                << " wall (" << withSiPrefix(result.totalCycles / wall, "") << " simulated cycles/s)\n";
      if (result.check && !result.check->ok()) {
        std::cerr << "npusim: error: the model broke its own rules " << result.check->violations
                  << " times (run --check; the first: " << result.check->examples.front() << ")\n";
        return 1;
      }
      return 0;
    });
  });
}

} // namespace npusim::cli
