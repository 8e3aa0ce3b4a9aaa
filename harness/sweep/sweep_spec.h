// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sweep specifications: which models to simulate, at which system config and memory mode, and
// the grid of configuration overrides; expanded into numbered points with stable ids.
//
// Spec format (JSON; relative paths are relative to the spec file's folder):
//   {
//     "description": "free text (optional)",
//     "models": [
//       {"path": "models/*_vela.tflite", "system_config": "...", "memory_mode": "...", "vela_ini": "..."},
//       {"fixtures": "../shared/fixtures/vela", "models": ["kws_*"], "configs": ["ethos-u55-128_*"]},
//       {"demo": true}
//     ],
//     "grid": {"system.sram.read_latency": [16, 32, 64], "npu.axi1.max_outstanding_reads": [1, 2, 4, 8]},
//     "zip": [{"system.dram.read_latency": [250, 500], "system.dram.write_latency": [125, 250]}],
//     "points": [{"system.sram.read_latency": 128, "system.off_chip_flash.clock_scale": 0.03125}],
//     "baseline": {"system.sram.read_latency": 32, "npu.axi1.max_outstanding_reads": 2}
//   }
// "path" may be a glob (a model without "system_config" or "memory_mode" takes its compile's, as
// `npusim run` does, else Vela's default); "fixtures" names a Vela fixture tree <dir>/<model>/<accel>_<system
// config>_<memory mode>[_optimiseSize]/<model>_vela.tflite, whose folder names give the system
// config and memory mode ("models" and "configs" are optional glob filters). The parameter sets
// are the cartesian product of the dimensions — each "grid" key, then each "zip" group (alias
// "link": keys that vary together, their i-th values forming the group's i-th setting; equal
// lengths required) — followed by the explicit "points"; with none, each model runs once at its
// configuration. A key may be swept by one grid key or zip group only. "baseline" names the
// parameter set the report compares every point of a model with; it is added as a point when
// no other point has exactly its values. Points are numbered model-major in this order.

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/config/vela_version.h"

namespace npusim::sweep {

// One model at one system configuration.
struct ModelRef {
  std::string label;         // how results name it: path as written/matched, "<model>/<config folder>", "<demo>"
  std::string path;          // file to simulate; empty for the built-in demo network
  std::string systemConfig;  // as given, else the compile's (Vela's summary CSV beside the model), else Vela's default
  std::string memoryMode;
  std::string accelerator;   // what the model was compiled for (its COP1 header)
  std::string velaIni;       // optional vela.ini the sections are read from
  config::VelaReading vela;  // how velaIni is read: as the Vela that compiled the model
};

// One configuration override: a schema key with a checked value.
struct Param {
  std::string key;
  std::string text;                // canonical text, as passed to `npusim run --set key=text`
  nlohmann::ordered_json value;    // canonical JSON value (integral numbers as integers)
};
using ParamSet = std::vector<Param>;

// One simulation of a sweep.
struct Point {
  size_t index = 0;       // position in the expansion order
  std::string id;         // 16 hex digits, a hash of the model, its configuration and the sorted params
  ModelRef model;
  ParamSet params;
  bool baseline = false;            // its params are the spec's "baseline"
  nlohmann::ordered_json effective; // every swept key -> its value in the resolved configuration
};

// A parsed spec: its models, parameter sets and the points they expand to.
struct SweepSpec {
  std::string file;
  std::vector<ModelRef> models;
  std::vector<ParamSet> paramSets;
  std::vector<std::string> sweptKeys;  // every key of grid, zip, points and baseline, first appearance first
  bool hasBaseline = false;
  ParamSet baseline;
  std::vector<Point> points;        // models x paramSets, duplicates (same id) dropped
};

// Parses and validates a spec file: unknown keys, wrong value types, unknown configuration keys,
// out-of-range values, unknown system configs or memory modes and models that match no file
// throw InputError naming the file and the JSON key path.
SweepSpec loadSpec(const std::string& path);

// A checked parameter from JSON or from `key=value` text; `where` names the value in errors.
// Throws InputError for unknown keys (suggesting the nearest), wrong types and out-of-range values.
Param paramFromJson(const std::string& key, const nlohmann::ordered_json& value, const std::string& file,
                    const std::string& where);
Param paramFromText(const std::string& key, const std::string& text, const std::string& file,
                    const std::string& where);

// Canonical text of a parameter value as found in a results file.
std::string valueText(const nlohmann::ordered_json& value);

// The point's id: stable across runs, machines and spec edits that keep the point.
std::string pointId(const ModelRef& model, const ParamSet& params);

// A deterministic 1/count of the points: those whose index % count == index.
struct Shard {
  size_t index = 0;
  size_t count = 1;
  bool contains(const Point& p) const { return p.index % count == index; }
};
// "I/N" with 0 <= I < N; throws InputError otherwise.
Shard parseShard(const std::string& text);

} // namespace npusim::sweep
