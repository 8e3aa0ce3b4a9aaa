// SPDX-License-Identifier: Apache-2.0
// Every row of fixtures/fvp-perop/sweeps.csv: a whole inference on the FVP with one setting of the
// timing adapters changed from the kit's profile, simulated on the platform it was measured on
// (Corstone_300_FVP for the U55 and U65, Corstone_320_FVP for the U85) with that setting changed.
// Two checks per row: its level (NPU_ACTIVE where the row gives it, else NPU_TOTAL, which the FVP
// quantises to about 1,000 cycles: fvp-perop/README.md) and its sensitivity, the change from the
// row of the same compile measured with the profile's values (the row the study marks "base").
// Issue 32's bounds hold for the U55 and U65: level within 5%, change within 15% of the FVP's,
// every row. The U85's rows are held to the
// model as it stands (issue 30 is open: its worst level is 28%), so that a change that moves them
// the wrong way fails; kOpenChange lists the change it does not follow, with the reason.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/fixtures.h"

namespace {

// The FVP's NPU_TOTAL carries up to this many cycles of scheduling quantum (fvp-perop/README.md).
constexpr double kTotalQuantum = 1000;
// A change smaller than this share of its base count is held to that share, not to a share of
// itself (SRAM_BWCAP 4000 -> 8000 moves the U65-512's kws by 0.8%).
constexpr double kSmallChange = 0.01;

struct Bounds {
  double level;        // |simulated - FVP| / FVP
  double sensitivity;  // |simulated change - FVP change| / |FVP change|
};
constexpr Bounds kIssue32{0.05, 0.15};
constexpr Bounds kU85AsItStands{0.30, 0.75};

// A row held to a wider bound than its accelerator's: accelerator, model, the changes column, the
// bound, why.
struct OpenRow {
  const char* accelerator;
  const char* model;
  const char* changes;  // a prefix of the row's changes
  double bound;         // the change's bound (a share of the FVP's)
  const char* reason;
};
// Rows whose change from the base row is held to a wider bound.
constexpr OpenRow kOpenChange[] = {
    {"ethos-u85-256", "rnnoise_INT8", "EXT_PULSE_ON=2000;EXT_PULSE_OFF=500", 1.0,
     "the command stream's fetch, 32-byte reads through a 128-byte FIFO, is a chain of EXT round trips that "
     "meets the pulse's closed window at the same phase with 4000/1000 and 2000/500 (no change; the FVP "
     "-4.2%): the pulse's phase at the inference's start is not known (docs/timing-model.md)"},
    {"ethos-u85-512", "kws_micronet_m", "EXT_RLATENCY=250;EXT_WLATENCY=250", 2.0,
     "one block's weights at a time through the one EXT port makes kws's weight fetch cost every cycle of read "
     "latency from 250 on (500 -> 250: -14.2 k); the FVP's kws hides it up to 500 (-5.0 k) and pays from there "
     "(1000: +49 k, the model +42 k): what lets the FVP overlap its blocks' fetches there is not found "
     "(docs/timing-model.md)"},
};

// The kOpenChange entry that names row `r`, null when none does.
const OpenRow* openChange(const npusim::test::CsvRow& r) {
  for (const OpenRow& o : kOpenChange) {
    if (r["accelerator"] == o.accelerator && r["model"] == o.model && r["changes"].rfind(o.changes, 0) == 0) return &o;
  }
  return nullptr;
}

// The adapter registers a row changes, as (group, register, value): SRAM_BWCAP=2000 -> ("SRAM",
// "bwcap", 2000). A row without any names the kit's profile. EXT_MAXR is a 6-bit field: the
// kit's 64 is written as 0, unlimited (fvp-perop/README.md).
std::vector<std::tuple<std::string, std::string, std::string>> registersOf(const std::string& changes) {
  static const std::regex reg(R"(^\s*(SRAM|EXT)_(MAXR|MAXW|MAXRW|RLATENCY|WLATENCY|PULSE_ON|PULSE_OFF|BWCAP)=(\d+))");
  std::vector<std::tuple<std::string, std::string, std::string>> out;
  std::stringstream in(changes);
  std::string token;
  while (std::getline(in, token, ';')) {
    std::smatch m;
    if (!std::regex_search(token, m, reg)) continue;
    std::string name = m[2];
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::string value = m[3];
    if (name == "maxr" && value == "64") value = "0";
    out.emplace_back(m[1], name, value);
  }
  return out;
}

// The adapter group of an NPU port: the Corstone-300's AXI0 and the U85's SRAM ports are behind the
// SRAM adapter, AXI1 and the EXT ports behind the external one (the kit's naming).
std::string groupOf(const std::string& port) {
  return port == "axi0" || port.rfind("sram", 0) == 0 ? "SRAM" : "EXT";
}

struct Simulated {
  int exitCode = -1;
  std::string err;
  double active = 0, total = 0;
};

Simulated simulate(const std::filesystem::path& model, const std::vector<std::string>& options) {
  npusim::test::TempDir tmp;
  const auto json = tmp.path() / "run.json";
  std::vector<std::string> args{"run", model.string(), "--json", json.string()};
  args.insert(args.end(), options.begin(), options.end());
  const auto result = npusim::test::runNpusim(args);
  Simulated s;
  s.exitCode = result.exitCode;
  s.err = result.err;
  if (result.exitCode != 0) return s;
  const auto j = nlohmann::json::parse(npusim::test::readText(json));
  s.active = j.at("npu_active_cycles").get<double>();
  s.total = s.active + j.at("npu_idle_cycles").get<double>();
  return s;
}

bool isBase(const npusim::test::CsvRow& r) {
  std::string c = r["condition"];
  std::transform(c.begin(), c.end(), c.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  return c.find("base") != std::string::npos || r["changes"] == "TA = base profile";
}

void checkSweeps(const std::string& prefix, const Bounds& bounds) {
  const auto dir = npusim::test::fixtureOrSkip("fvp-perop");
  if (!dir) return;
  std::vector<npusim::test::CsvRow> rows;
  for (const auto& r : npusim::test::readCsvTable(*dir / "sweeps.csv")) {
    if (r["accelerator"].rfind(prefix, 0) == 0) rows.push_back(r);
  }
  REQUIRE(!rows.empty());
  // Ports of each compile, from a run with the profile's values.
  const auto optionsOf = [&](const npusim::test::CsvRow& r, const std::vector<std::string>& ports) {
    std::vector<std::string> options{"--system-config",
                                     r["accelerator"].rfind("ethos-u85", 0) == 0 ? "Corstone_320_FVP" : "Corstone_300_FVP",
                                     "--memory-mode", r["memory_mode"]};
    const auto registers = registersOf(r["changes"]);
    INFO(r["changes"]);
    CHECK((!registers.empty() || r["changes"].find("profile") != std::string::npos));
    for (const auto& [group, name, value] : registers) {
      for (const std::string& port : ports) {
        if (groupOf(port) == group) options.insert(options.end(), {"--set", "npu." + port + ".ta." + name + "=" + value});
      }
    }
    return options;
  };
  std::map<std::string, std::vector<std::string>> portsOf;
  for (const auto& r : rows) {
    const std::string file = r["file"];
    if (portsOf.count(file) != 0) continue;
    npusim::test::TempDir tmp;
    const auto json = tmp.path() / "run.json";
    const auto result = npusim::test::runNpusim({"run", (*dir / file).string(), "--json", json.string(),
                                                 "--system-config",
                                                 r["accelerator"].rfind("ethos-u85", 0) == 0 ? "Corstone_320_FVP"
                                                                                              : "Corstone_300_FVP",
                                                 "--memory-mode", r["memory_mode"]});
    INFO(result.err);
    REQUIRE(result.exitCode == 0);
    const auto run = nlohmann::json::parse(npusim::test::readText(json));
    for (const auto& p : run.at("ports")) portsOf[file].push_back(p.at("name").get<std::string>());
  }
  // Every row, a few processes at a time.
  std::vector<Simulated> sims(rows.size());
  const size_t parallel = std::max(2u, std::thread::hardware_concurrency());
  for (size_t first = 0; first < rows.size(); first += parallel) {
    std::vector<std::future<Simulated>> batch;
    for (size_t i = first; i < std::min(rows.size(), first + parallel); ++i) {
      const auto options = optionsOf(rows[i], portsOf.at(rows[i]["file"]));
      batch.push_back(std::async(std::launch::async, simulate, *dir / rows[i]["file"], options));
    }
    for (size_t i = first; i < std::min(rows.size(), first + parallel); ++i) sims[i] = batch[i - first].get();
  }
  // The FVP's count of a row, its simulated one, and the quantum it carries.
  const auto counts = [&](size_t i) {
    const bool active = !rows[i]["npu_active"].empty();
    const double fvp = std::stod(active ? rows[i]["npu_active"] : rows[i]["npu_total"]);
    return std::tuple<double, double, double>{fvp, active ? sims[i].active : sims[i].total, active ? 0 : kTotalQuantum};
  };
  double sumLevel = 0;
  size_t sensitivities = 0, withinLevel = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    INFO(r["group"] << " " << r["accelerator"] << " " << r["model"] << " " << r["memory_mode"] << " ["
                    << r["changes"] << "]");
    INFO(sims[i].err);
    REQUIRE(sims[i].exitCode == 0);
    const auto [fvp, sim, quantum] = counts(i);
    INFO("simulated " << sim << ", FVP " << fvp << " (" << 100 * (sim - fvp) / fvp << "%)");
    CHECK(std::abs(sim - fvp) <= bounds.level * fvp + quantum);
    sumLevel += std::abs(sim - fvp) / fvp;
    withinLevel += std::abs(sim - fvp) <= bounds.level * fvp + quantum ? 1 : 0;
    // The change from the compile's base row (the same group's, else another group's).
    if (isBase(r)) continue;
    size_t base = rows.size();
    for (size_t k = 0; k < rows.size(); ++k) {
      if (rows[k]["file"] != r["file"] || rows[k]["memory_mode"] != r["memory_mode"] || !isBase(rows[k])) continue;
      if (base == rows.size() || (rows[k]["group"] == r["group"] && rows[base]["group"] != r["group"])) base = k;
    }
    if (base == rows.size()) continue; // a single measurement of its compile (P1A): its level only
    const auto [fvpBase, simBase, quantumBase] = counts(base);
    const double fvpChange = fvp - fvpBase, simChange = sim - simBase;
    const OpenRow* open = openChange(r);
    const double sensitivity = open ? open->bound : bounds.sensitivity;
    INFO("change from the base row [" << rows[base]["changes"] << "]: simulated " << simChange << ", FVP " << fvpChange
                                      << (open ? std::string(", open: ") + open->reason : ""));
    CHECK(std::abs(simChange - fvpChange) <=
          std::max(sensitivity * std::abs(fvpChange), kSmallChange * fvpBase) + quantum + quantumBase);
    ++sensitivities;
  }
  MESSAGE(prefix << ": " << rows.size() << " rows, mean |level error| " << 100 * sumLevel / double(rows.size())
                 << "%, " << withinLevel << " within " << 100 * bounds.level << "%; " << sensitivities
                 << " changes from a base row checked");
}

} // namespace

TEST_CASE("FVP sweeps: every Ethos-U55 and U65 row of fvp-perop/sweeps.csv (level and sensitivity)") {
  checkSweeps("ethos-u55", kIssue32);
  checkSweeps("ethos-u65", kIssue32);
}

TEST_CASE("FVP sweeps: every Ethos-U85 row of fvp-perop/sweeps.csv (level and sensitivity)") {
  checkSweeps("ethos-u85", kU85AsItStands);
}

TEST_CASE("FVP sweeps: with one EXT read outstanding, the Ethos-U85 makes as many EXT reads as the FVP") {
  // With EXT_MAXR 1 every EXT read waits for the one before, so each cycle of read latency costs
  // the run one cycle per read (1.25 where the EXT pulse closes the port a fifth of the time): the
  // slope between the rows at read latency 250 and 1000 counts the reads. The FVP's moves the same
  // beats as the model's (rnnoise: 7,650) in more reads than whole 64-byte command fetches give
  // (docs/timing-model.md, the command fetch): held within 10% of the FVP's slope.
  const auto dir = npusim::test::fixtureOrSkip("fvp-perop");
  if (!dir) return;
  std::map<std::string, std::map<int, npusim::test::CsvRow>> pairs; // accelerator -> read latency -> row
  static const std::regex maxr1(R"(^EXT_MAXR=1\(applied 1\);EXT_RLATENCY=(250|1000);)");
  for (const auto& r : npusim::test::readCsvTable(*dir / "sweeps.csv")) {
    std::smatch m;
    const std::string changes = r["changes"];
    if (r["accelerator"].rfind("ethos-u85", 0) == 0 && std::regex_search(changes, m, maxr1)) {
      pairs[r["accelerator"]][std::stoi(m[1])] = r;
    }
  }
  size_t checked = 0;
  for (const auto& [accelerator, rows] : pairs) {
    if (rows.size() != 2) continue;
    double fvp[2], sim[2];
    size_t k = 0;
    for (const auto& [latency, r] : rows) {
      INFO(accelerator << " [" << r["changes"] << "]");
      std::vector<std::string> options{"--system-config", "Corstone_320_FVP", "--memory-mode", r["memory_mode"]};
      for (const auto& [group, name, value] : registersOf(r["changes"])) {
        REQUIRE(group == "EXT"); // the 256 and 512 have one EXT port, ext0
        options.insert(options.end(), {"--set", "npu.ext0.ta." + name + "=" + value});
      }
      const Simulated s = simulate(*dir / r["file"], options);
      INFO(s.err);
      REQUIRE(s.exitCode == 0);
      fvp[k] = std::stod(r["npu_total"]);
      sim[k] = s.total;
      ++k;
    }
    const double fvpSlope = (fvp[1] - fvp[0]) / 750, simSlope = (sim[1] - sim[0]) / 750;
    INFO(accelerator << ": simulated " << simSlope << " cycles per cycle of read latency, FVP " << fvpSlope);
    CHECK(std::abs(simSlope - fvpSlope) <= 0.10 * fvpSlope);
    ++checked;
  }
  CHECK(checked == 2);
}
