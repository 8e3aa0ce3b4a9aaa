// SPDX-License-Identifier: Apache-2.0
// `npusim run --trace`: the timeline agrees with the run's own counters, its tracks are well
// formed, it costs nothing when absent, and bad paths or details are refused before simulating.

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include "support/fixtures.h"
#include "support/skip.h"

namespace fs = std::filesystem;
using nlohmann::json;
using npusim::test::runNpusim;

namespace {

const char* const kConfig = "ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram";

std::string gunzip(const fs::path& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  REQUIRE(f != nullptr);
  std::string out;
  char buf[1 << 16];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  CHECK(n == 0);
  gzclose(f);
  return out;
}

// Slices of one thread, in integer nanoseconds (the trace's resolution).
struct Span {
  int64_t from, to;
};
int64_t ns(double us) { return std::llround(us * 1000.0); }

// Every thread's slices must be disjoint or nested (a slice that starts inside another ends
// inside it too).
void checkTracks(const json& events, const std::string& model) {
  std::map<std::pair<int, int>, std::vector<Span>> threads;
  for (const json& e : events) {
    if (e.at("ph") != "X") continue;
    const double ts = e.at("ts").get<double>(), dur = e.at("dur").get<double>();
    REQUIRE(dur >= 0);
    threads[{e.at("pid").get<int>(), e.at("tid").get<int>()}].push_back({ns(ts), ns(ts + dur)});
  }
  CHECK(threads.size() >= 4);
  for (auto& [thread, spans] : threads) {
    std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
      return a.from != b.from ? a.from < b.from : a.to > b.to;
    });
    std::vector<int64_t> open;   // ends of the enclosing slices
    for (const Span& s : spans) {
      while (!open.empty() && open.back() <= s.from) open.pop_back();
      if (!open.empty() && s.to > open.back()) {
        FAIL_CHECK(model << ": thread " << thread.first << "/" << thread.second << " has a slice [" << s.from << ", "
                         << s.to << "] ns crossing the end of its enclosing one at " << open.back());
        break;
      }
      open.push_back(s.to);
    }
  }
}

} // namespace

TEST_CASE("run --trace: tracks nest and never overlap, MAC time, port bytes and operations match the run counters, and so do operations[].bytes") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  npusim::test::TempDir tmp;
  size_t models = 0, large = 0;
  for (const auto& folder : npusim::test::velaFolders(*root)) {
    if (folder.config != kConfig) continue;
    // The sanitizer build leaves out models over 1 MiB (MobileNetV2: a 76 MB trace, most of this
    // test's time there, through the same code as the others); the Release build runs them.
    if (npusim::test::kSanitizerBuild && fs::file_size(folder.tflite) > (1u << 20)) {
      ++large;
      continue;
    }
    ++models;
    const fs::path trace = tmp.path() / "t.json", result = tmp.path() / "r.json";
    const auto r = runNpusim({"run", folder.tflite.string(), "--trace", trace.string(), "--trace-detail", "burst",
                              "--json", result.string()});
    REQUIRE_MESSAGE(r.exitCode == 0, folder.name() << ": " << r.err);
    const json t = json::parse(npusim::test::readText(trace));
    const json run = json::parse(npusim::test::readText(result));
    const double clock = t.at("otherData").at("npu_clock_hz").get<double>();
    CHECK(clock == run.at("config").at("core_clock").get<double>());
    const double cyclesPerUs = clock / 1e6;
    const json& events = t.at("traceEvents");
    checkTracks(events, folder.name());

    // The MAC slices' active cycles add up to MAC_ACTIVE (each rounded to a cycle), and a slice
    // lasts at least its active cycles (its duration is rounded to 1 ns of simulated time).
    double macActiveSum = 0;
    size_t macSlices = 0, macShort = 0;
    std::map<std::pair<int, std::string>, uint64_t> portBytes, portBeats, portBursts;   // (pid, read|write)
    std::map<std::pair<uint64_t, uint64_t>, std::pair<double, double>> kernelSpans;   // (network op, index)
    size_t dmaSlices = 0;
    for (const json& e : events) {
      if (e.at("ph") != "X") continue;
      const int pid = e.at("pid").get<int>();
      const std::string name = e.at("name").get<std::string>();
      const double ts = e.at("ts").get<double>(), dur = e.at("dur").get<double>();
      if (pid == 3 && name == "MAC") {
        const double active = e.at("args").at("active_cycles").get<double>();
        macActiveSum += active;
        ++macSlices;
        if (dur * cyclesPerUs < active - 0.5 - 1e-3 * cyclesPerUs) ++macShort;
      }
      if (pid >= 5 && (name == "read" || name == "write")) {
        portBytes[{pid, name}] += e.at("args").at("bytes").get<uint64_t>();
        portBeats[{pid, name}] += e.at("args").at("beats").get<uint64_t>();
        ++portBursts[{pid, name}];
      }
      if (pid == 3 && e.at("args").contains("kind")) {
        kernelSpans[{e.at("args").at("network_operator").get<uint64_t>(), e.at("args").at("operation").get<uint64_t>()}] =
            {ts * cyclesPerUs, (ts + dur) * cyclesPerUs};
      }
      if (pid == 4) ++dmaSlices;
    }
    const double macActive = run.at("pmu").at("MAC_ACTIVE").get<double>();
    CHECK_MESSAGE(std::abs(macActiveSum - macActive) <= 1.0 + double(macSlices) * 0.5,
                  folder.name() << ": MAC slices' active cycles " << macActiveSum << ", MAC_ACTIVE " << macActive);
    CHECK_MESSAGE(macShort == 0, folder.name() << ": " << macShort << " MAC slices shorter than their active cycles");

    // Port bursts (the tracks after the DMA unit's, one per port in ports[] order) add up to the
    // port's byte, beat and burst counters (PMU <PORT>_*), and the beats carry the bytes: 8 bytes
    // a beat on the 64-bit ports, less than one beat unused per burst.
    REQUIRE(run.at("ports").size() == 2);
    for (size_t port = 0; port < run.at("ports").size(); ++port) {
      const json& p = run.at("ports").at(port);
      const int pid = 5 + static_cast<int>(port);
      std::string upper = p.at("name").get<std::string>();
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      for (const char* dir : {"read", "write"}) {
        const std::string d(dir);
        const uint64_t bytes = portBytes[{pid, d}];
        CHECK_MESSAGE(bytes == p.at(d + "_bytes").get<uint64_t>(), folder.name() << " " << p.at("name") << " " << d);
        const uint64_t beats = p.at(d + "_beats").get<uint64_t>(), bursts = p.at(d + "_bursts").get<uint64_t>();
        CHECK(portBeats[{pid, d}] == beats);
        CHECK(portBursts[{pid, d}] == bursts);
        const std::string pmu = upper + (d == "read" ? "_RD_DATA_BEAT_RECEIVED" : "_WR_DATA_BEAT_WRITTEN");
        CHECK(run.at("pmu").at(pmu).get<uint64_t>() == beats);
        CHECK(bytes <= beats * 8);
        if (bursts > 0) {
          CHECK(bytes + bursts * 8 > beats * 8);
        } else {
          CHECK(beats == 0);
        }
      }
    }

    // One kernel slice per kernel operation, at its start and end; one DMA slice per DMA_START.
    size_t kernels = 0, dmas = 0;
    for (const json& op : run.at("operations")) {
      const std::string kind = op.at("kind").get<std::string>();
      if (kind == "DMA_START") ++dmas;
      if (kind != "CONV" && kind != "DEPTHWISE" && kind != "POOL" && kind != "ELEMENTWISE") continue;
      ++kernels;
      const auto it = kernelSpans.find({op.at("network_operator").get<uint64_t>(), op.at("index").get<uint64_t>()});
      REQUIRE_MESSAGE(it != kernelSpans.end(), folder.name() << ": no slice for operation " << op.at("index"));
      CHECK(std::abs(it->second.first - op.at("start_cycle").get<double>()) <= 1.0);
      CHECK(std::abs(it->second.second - op.at("end_cycle").get<double>()) <= 1.0);
    }
    CHECK(kernelSpans.size() == kernels);
    CHECK(dmaSlices == dmas);

    // operations[].bytes: per direction an array in ports[] order. Only operations write, so their
    // writes add up to each port's; the port's reads also hold the command-stream fetches.
    for (size_t port = 0; port < run.at("ports").size(); ++port) {
      uint64_t read = 0, written = 0;
      for (const json& op : run.at("operations")) {
        REQUIRE(op.at("bytes").at("read").size() == run.at("ports").size());
        REQUIRE(op.at("bytes").at("write").size() == run.at("ports").size());
        read += op.at("bytes").at("read").at(port).get<uint64_t>();
        written += op.at("bytes").at("write").at(port).get<uint64_t>();
      }
      const json& p = run.at("ports").at(port);
      CHECK_MESSAGE(written == p.at("write_bytes").get<uint64_t>(), folder.name() << " " << p.at("name"));
      CHECK_MESSAGE(read <= p.at("read_bytes").get<uint64_t>(), folder.name() << " " << p.at("name"));
    }
  }
  if (large > 0) MESSAGE(models << " models traced, " << large << " over 1 MiB left to the Release build");
  if (models == 0) npusim::test::skip(std::string("no fixture folder ") + kConfig);
}

TEST_CASE("run --trace: .json.gz holds the same trace and outputs without --trace are byte-identical") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto folder = npusim::test::velaFolder(*root, "kws_ref_model", kConfig);
  npusim::test::TempDir tmp;
  const auto p = [&](const char* name) { return (tmp.path() / name).string(); };
  const auto plain = runNpusim({"run", folder.tflite.string(), "--json", p("a.json"), "--csv", p("a.csv")});
  const auto traced = runNpusim({"run", folder.tflite.string(), "--json", p("b.json"), "--csv", p("b.csv"), "--trace",
                                 p("t.json")});
  const auto zipped = runNpusim({"run", folder.tflite.string(), "--trace", p("t.json.gz")});
  REQUIRE(plain.exitCode == 0);
  REQUIRE(traced.exitCode == 0);
  REQUIRE(zipped.exitCode == 0);
  CHECK(plain.out == traced.out);
  CHECK(npusim::test::readText(p("a.json")) == npusim::test::readText(p("b.json")));
  CHECK(npusim::test::readText(p("a.csv")) == npusim::test::readText(p("b.csv")));
  const std::string text = npusim::test::readText(p("t.json"));
  CHECK(gunzip(p("t.json.gz")) == text);
  CHECK(fs::file_size(p("t.json.gz")) < text.size() / 4);
}

TEST_CASE("run --trace: an unwritable path or an unknown detail is refused in one line before simulating") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto folder = npusim::test::velaFolder(*root, "kws_ref_model", kConfig);
  npusim::test::TempDir tmp;
  const std::vector<std::vector<std::string>> cases{
      {"--trace", tmp.path().string()},
      {"--trace", (tmp.path() / "no" / "such" / "dir" / "t.json").string()},
      {"--trace", (tmp.path() / "t.json").string(), "--trace-detail", "cycles"}};
  for (const auto& extra : cases) {
    std::vector<std::string> args{"run", folder.tflite.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = runNpusim(args);
    CHECK(r.exitCode == 2);
    CHECK(r.out.empty());   // no run summary: nothing was simulated
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK((r.err.find(extra[1]) != std::string::npos || r.err.find("cycles") != std::string::npos));
  }
}

TEST_CASE("run --trace: the host is named after the platform's CPU (Corstone-300: Cortex-M55, Corstone-320: Cortex-M85)") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  const auto u85 = npusim::test::fixtureOrSkip(
      "vela-u85/kws_ref_model/ethos-u85-256_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/kws_ref_model_vela.tflite");
  if (!u85) return;
  npusim::test::TempDir tmp;
  const fs::path trace = tmp.path() / "t.json";
  const auto hostName = [&](const std::vector<std::string>& args) {
    std::vector<std::string> all{"run"};
    all.insert(all.end(), args.begin(), args.end());
    all.insert(all.end(), {"--trace", trace.string(), "--trace-detail", "op"});
    REQUIRE(runNpusim(all).exitCode == 0);
    const json events = json::parse(npusim::test::readText(trace)).at("traceEvents");
    for (const json& e : events) {
      if (e.at("ph") == "M" && e.at("name") == "process_name" && e.at("pid") == 1) return e.at("args").at("name").get<std::string>();
    }
    return std::string();
  };
  const std::string u55 = npusim::test::velaFolder(*root, "kws_ref_model", kConfig).tflite.string();
  CHECK(hostName({u55}) == "host (Cortex-M55)");
  CHECK(hostName({u55, "--system-config", "Corstone_300_FVP"}) == "host (Cortex-M55)");
  CHECK(hostName({u85->string()}) == "host (Cortex-M85)");
  CHECK(hostName({u85->string(), "--system-config", "Corstone_320_FVP"}) == "host (Cortex-M85)");
}

TEST_CASE("plot_timeline.py draws a trace, a cycle range and one layer, and refuses an unknown layer") {
  const auto root = npusim::test::fixturesDirOrSkip();
  if (!root) return;
  if (std::system("/usr/bin/python3 -c 'import matplotlib' 2>/dev/null") != 0) {
    npusim::test::skip("python3-matplotlib not installed: plot_timeline.py not exercised");
    return;
  }
  const auto folder = npusim::test::velaFolder(*root, "kws_ref_model", kConfig);
  npusim::test::TempDir tmp;
  const fs::path trace = tmp.path() / "t.json.gz", result = tmp.path() / "r.json";
  REQUIRE(runNpusim({"run", folder.tflite.string(), "--trace", trace.string(), "--json", result.string()}).exitCode == 0);
  const std::string layer = json::parse(npusim::test::readText(result)).at("layers").at(0).at("name").get<std::string>();
  const std::string script = std::string("/usr/bin/python3 ") + NPUSIM_SOURCE_DIR + "/scripts/plot_timeline.py " +
                             trace.string() + " ";
  const auto png = [&](const char* name) { return (tmp.path() / name).string(); };
  REQUIRE(std::system((script + png("all.png")).c_str()) == 0);
  REQUIRE(std::system((script + png("range.png") + " --from 1000 --to 20000").c_str()) == 0);
  REQUIRE(std::system((script + png("layer.png") + " --layer '" + layer + "'").c_str()) == 0);
  for (const char* name : {"all.png", "range.png", "layer.png"}) {
    const std::string bytes = npusim::test::readText(png(name));
    CHECK(bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  }
  CHECK(std::system((script + png("none.png") + " --layer no-such-layer 2>/dev/null").c_str()) != 0);
  CHECK(!fs::exists(png("none.png")));
  // Colours follow the track, not the row: the rows of two windows with different tracks in range,
  // and the numbered threads of a track, agree on each track's colour.
  const fs::path check = tmp.path() / "colours.py";
  std::ofstream(check) << "import re, sys\n"
                          "sys.path.insert(0, sys.argv[1])\n"
                          "import plot_timeline as p\n"
                          "t = p.load(sys.argv[2])\n"
                          "a, b = p.gantt_rows(t, 0, 3000), p.gantt_rows(t, 14000, 34000)\n"
                          "track = lambda label: re.sub(r' \\(\\d+\\)$', '', label.split(': ', 1)[1])\n"
                          "assert {track(l) for l, _, _ in a} != {track(l) for l, _, _ in b}, 'windows with the same tracks'\n"
                          "colour = {}\n"
                          "for label, c, _ in a + b:\n"
                          "    assert colour.setdefault(track(label), c) == c, (label, c, colour[track(label)])\n"
                          "assert len(set(colour.values())) == len(colour), colour\n";
  CHECK(std::system(("/usr/bin/python3 " + check.string() + " " + NPUSIM_SOURCE_DIR + "/scripts " + trace.string()).c_str()) == 0);
}
