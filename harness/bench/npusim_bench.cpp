// SPDX-License-Identifier: Apache-2.0
// Google Benchmark suite: decode speed in-process, and whole `npusim run` processes on fixture
// models (simulated NPU cycles per wall second, peak RSS). Simulations run as child processes
// because SystemC allows one elaboration per process; that is also what users pay. One more
// benchmark times the machine rather than npusim (Calibrate/machine).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <systemc>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "harness/process/process_pool.h"
#include "sim/io/decoded_network.h"
#include "sim/io/demo_network.h"

namespace fs = std::filesystem;

namespace {

fs::path fixturesDir() {
  const char* env = std::getenv("NPUSIM_FIXTURES");
  return env != nullptr ? fs::path(env) : fs::path(NPUSIM_FIXTURES_DEFAULT);
}

// A benchmark workload: a fixture model path relative to the fixtures dir ("" = demo network),
// and the system config to run it on (nullptr: the one `run` resolves for the model).
struct Workload {
  const char* name;
  const char* relativePath;
  const char* systemConfig = nullptr;
};

constexpr Workload kWorkloads[] = {
    {"demo", ""},
    {"kws_ref_model/u55-128", "vela/kws_ref_model/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram/kws_ref_model_vela.tflite"},
    {"vww_96_int8/u55-256", "vela/vww_96_int8/ethos-u55-256_Ethos_U55_High_End_Embedded_Shared_Sram/vww_96_int8_vela.tflite"},
    {"kws_micronet_m/u55-128", "mlek/compiled/kws_micronet_m_vela-3.2.0_mlek-76a15808/kws_micronet_m_vela.tflite"},
    {"mobilenet_v2/u55-128",
     "vela/mobilenet_v2_quantized_1x3x224x224/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram/"
     "mobilenet_v2_quantized_1x3x224x224_vela.tflite"},
    // The U85's port groups behind the Corstone-320's shared timing adapters (many paced writes
    // waiting at once).
    {"mobilenet_v2/u85-256/Corstone_320_FVP",
     "vela-u85/mobilenet_v2_quantized_1x3x224x224/ethos-u85-256_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/"
     "mobilenet_v2_quantized_1x3x224x224_vela.tflite",
     "Corstone_320_FVP"},
};

// Resolves a workload to a model path ("" for the demo); false when its fixture is absent.
bool resolve(const Workload& w, std::string* model) {
  if (w.relativePath[0] == '\0') {
    model->clear();
    return true;
  }
  const fs::path p = fixturesDir() / w.relativePath;
  *model = p.string();
  return fs::exists(p);
}

// Runs `npusim run MODEL [--system-config S] --json OUT` and returns (exit status, peak RSS in KiB
// of the child).
std::pair<int, long> runProcess(const std::string& model, const char* systemConfig, const std::string& json) {
  std::vector<std::string> args{NPUSIM_BINARY, "run"};
  if (!model.empty()) args.push_back(model);
  if (systemConfig != nullptr) args.insert(args.end(), {"--system-config", systemConfig});
  args.insert(args.end(), {"--json", json});
  npusim::process::PoolOptions options;
  options.captureStdout = false;
  npusim::process::ChildResult result;
  npusim::process::runEach({args}, options, [&](size_t, npusim::process::ChildResult&& r) { result = std::move(r); });
  return {result.exitCode, result.peakRssKiB};
}

void simulateProcess(benchmark::State& state, const Workload& w) {
  std::string model;
  if (!resolve(w, &model)) {
    state.SkipWithError("fixture absent (set NPUSIM_FIXTURES)");
    return;
  }
  const std::string json = (fs::temp_directory_path() / ("npusim_bench_" + std::to_string(getpid()) + ".json")).string();
  double cycles = 0;
  long rss = 0;
  for (auto _ : state) {
    const auto [status, maxRss] = runProcess(model, w.systemConfig, json);
    if (status != 0) {
      state.SkipWithError("npusim run failed");
      return;
    }
    rss = std::max(rss, maxRss);
    state.PauseTiming();
    std::ifstream in(json);
    cycles = nlohmann::json::parse(in).at("npu_active_cycles").get<double>();
    state.ResumeTiming();
  }
  fs::remove(json);
  state.counters["npu_cycles"] = cycles;
  state.counters["sim_cycles_per_s"] = benchmark::Counter(cycles * double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["peak_rss_MiB"] = double(rss) / 1024.0;
}

void decodeInProcess(benchmark::State& state, const Workload& w) {
  std::string model;
  if (!resolve(w, &model)) {
    state.SkipWithError("fixture absent (set NPUSIM_FIXTURES)");
    return;
  }
  const auto net = npusim::io::loadModelOrDemo(model);
  size_t ops = 0;
  for (auto _ : state) {
    const auto decoded = npusim::io::decodeAll(net);
    ops = 0;
    for (const auto& d : decoded) ops += d.operations.size();
    benchmark::DoNotOptimize(decoded.data());
  }
  state.counters["operations"] = double(ops);
}

// The machine's speed, not npusim's: a fixed workload of no npusim code over pseudo-random keys
// that allocates nothing while timed (a walk through a random cycle of 1 MiB of links, a binary
// heap built and emptied, a sort: the cache misses and branches an event-driven simulator spends
// its time on), so that scripts/bench_compare.py can tell a slower machine from slower code.
void calibrateMachine(benchmark::State& state) {
  constexpr size_t kKeys = size_t(1) << 15, kLinks = size_t(1) << 18;
  uint64_t x = 0x9e3779b97f4a7c15u; // xorshift64*
  const auto next = [&x] {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x * 0x2545f4914f6cdd1du;
  };
  std::vector<uint64_t> keys(kKeys), work(kKeys);
  for (uint64_t& key : keys) key = next();
  std::vector<uint32_t> order(kLinks), link(kLinks);
  for (size_t i = 0; i < kLinks; ++i) order[i] = uint32_t(i);
  for (size_t i = kLinks - 1; i > 0; --i) std::swap(order[i], order[next() % (i + 1)]);
  for (size_t i = 0; i < kLinks; ++i) link[order[i]] = order[(i + 1) % kLinks]; // one cycle through all
  for (auto _ : state) {
    uint32_t at = 0;
    for (size_t i = 0; i < 4 * kLinks; ++i) at = link[at];
    uint64_t sum = at;
    std::copy(keys.begin(), keys.end(), work.begin());
    std::make_heap(work.begin(), work.end());
    for (auto end = work.end(); end != work.begin(); --end) std::pop_heap(work.begin(), end);
    std::copy(keys.begin(), keys.end(), work.begin());
    std::sort(work.begin(), work.end());
    sum += work[kKeys / 2];
    benchmark::DoNotOptimize(sum);
  }
}

void registerAll() {
  benchmark::RegisterBenchmark("Calibrate/machine", calibrateMachine)->Unit(benchmark::kMillisecond);
  for (const Workload& w : kWorkloads) {
    benchmark::RegisterBenchmark((std::string("Simulate/") + w.name).c_str(),
                                 [&w](benchmark::State& s) { simulateProcess(s, w); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("Decode/") + w.name).c_str(),
                                 [&w](benchmark::State& s) { decodeInProcess(s, w); })
        ->Unit(benchmark::kMicrosecond);
  }
}

} // namespace

// SystemC's library references sc_main; main() hands over to SystemC, which calls it.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char** argv) {
  registerAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
