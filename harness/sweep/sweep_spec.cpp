// SPDX-License-Identifier: Apache-2.0
#include "harness/sweep/sweep_spec.h"

#include <fnmatch.h>
#include <glob.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_set>

#include "sim/common/error.h"
#include "sim/common/json_node.h"
#include "sim/config/config.h"
#include "sim/config/config_builder.h"
#include "sim/config/config_schema.h"
#include "sim/config/presets.h"
#include "sim/config/text_file.h"
#include "sim/io/demo_network.h"
#include "models/platform/compile_target.h"
#include "models/platform/platform.h"
#include "sim/config/vela_compile.h"

namespace npusim::sweep {
namespace {

namespace fs = std::filesystem;

constexpr double kExactIntMax = 9007199254740992.0;  // 2^53

const config::ConfigKey& configKey(const std::string& key, const std::string& file, const std::string& where) {
  const config::ConfigKey* k = config::findKey(key);
  if (k == nullptr) {
    throwForKey(file, where,
                "unknown config key '" + key + "'; did you mean '" + config::nearestKey(key, false) +
                    "'? (npusim config --list shows all keys)");
  }
  return *k;
}

// Range-checks `value` for `key` and gives it its canonical text and JSON form.
Param canonicalParam(const config::ConfigKey& key, const config::Value& value, const config::Origin& origin) {
  config::ConfigBuilder checker;
  checker.set(key, value, origin);
  Param p;
  p.key = std::string(key.path);
  if (const double* d = std::get_if<double>(&value)) {
    p.text = config::formatNumber(*d);
    p.value = *d == std::floor(*d) && std::fabs(*d) < kExactIntMax ? nlohmann::ordered_json(static_cast<int64_t>(*d))
                                                                   : nlohmann::ordered_json(*d);
  } else if (const bool* b = std::get_if<bool>(&value)) {
    p.text = *b ? "true" : "false";
    p.value = *b;
  } else {
    p.text = std::get<std::string>(value);
    p.value = p.text;
  }
  return p;
}

bool hasGlobChars(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

std::vector<std::string> globSorted(const std::string& pattern) {
  glob_t g{};
  std::vector<std::string> out;
  if (::glob(pattern.c_str(), 0, nullptr, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i) {
      out.emplace_back(g.gl_pathv[i]);
    }
  }
  ::globfree(&g);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> sortedSubdirs(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_directory(ec)) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Glob patterns of an optional filter member; empty means "everything".
std::vector<std::string> patterns(const JsonNode& entry, std::string_view name) {
  std::vector<std::string> out;
  if (entry.has(name)) {
    for (const JsonNode& p : entry.member(name).elements(true)) {
      out.push_back(p.string());
    }
  }
  return out;
}

bool matchesAny(const std::vector<std::string>& globs, const std::string& name) {
  return globs.empty() || std::any_of(globs.begin(), globs.end(), [&](const std::string& g) {
           return ::fnmatch(g.c_str(), name.c_str(), 0) == 0;
         });
}

fs::path resolvePath(const fs::path& base, const std::string& p) {
  return fs::path(p).is_absolute() ? fs::path(p) : base / p;
}

// 1. "path": a file or a glob; labels keep the spelling relative to the spec folder.
void addPathModels(const JsonNode& entry, const ModelRef& config, const fs::path& base, std::vector<ModelRef>& out) {
  const JsonNode pathNode = entry.member("path");
  const std::string pattern = pathNode.string();
  const fs::path resolved = resolvePath(base, pattern);
  const std::vector<std::string> matches =
      hasGlobChars(pattern) ? globSorted(resolved.string()) : std::vector<std::string>{resolved.string()};
  for (const std::string& match : matches) {
    std::error_code ec;
    if (!fs::is_regular_file(match, ec)) {
      pathNode.fail("no such file: " + match);
    }
    ModelRef m = config;
    m.label = fs::path(pattern).is_absolute() ? match : fs::path(match).lexically_relative(base).string();
    m.path = fs::absolute(match).lexically_normal().string();
    out.push_back(std::move(m));
  }
  if (matches.empty()) {
    pathNode.fail("the pattern matches no file");
  }
}

// 2. "fixtures": every <model>/<config folder>/<model>_vela.tflite of a Vela fixture tree.
void addFixtureModels(const JsonNode& entry, const ModelRef& config, const fs::path& base,
                      std::vector<ModelRef>& out) {
  const JsonNode rootNode = entry.member("fixtures");
  const fs::path root = resolvePath(base, rootNode.string());
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    rootNode.fail("no such directory: " + root.string());
  }
  const auto modelGlobs = patterns(entry, "models");
  const auto configGlobs = patterns(entry, "configs");
  const size_t before = out.size();
  for (const std::string& model : sortedSubdirs(root)) {
    if (!matchesAny(modelGlobs, model)) {
      continue;
    }
    for (const std::string& folder : sortedSubdirs(root / model)) {
      ModelRef m = config;
      const fs::path file = root / model / folder / (model + "_vela.tflite");
      const std::optional<config::SectionNames> named = config::sectionsInFolderName(folder);
      if (!matchesAny(configGlobs, folder) || !named || !fs::is_regular_file(file, ec)) {
        continue;
      }
      m.systemConfig = named->systemConfig;
      m.memoryMode = named->memoryMode;
      m.label = model + "/" + folder;
      m.path = fs::absolute(file).lexically_normal().string();
      out.push_back(std::move(m));
    }
  }
  if (out.size() == before) {
    entry.fail("no compiled model in " + root.string() + " matches the \"models\" and \"configs\" filters");
  }
}

config::ConfigRequest requestFor(const ModelRef& m) {
  config::ConfigRequest request;
  request.systemConfig = m.systemConfig;
  request.memoryMode = m.memoryMode;
  request.velaIni = m.velaIni;
  request.accelerator = m.accelerator;
  request.vela = m.vela;
  return request;
}

// Fills in the accelerator `m`'s model was compiled for ("" when it has no ethos-u operator), the
// Vela that compiled it and, where the entry names none, the sections `npusim run` takes (those
// of the compile, else Vela's default for the accelerator: platform::resolveForModel), checking
// that the configuration resolves for it.
void readCompileTarget(ModelRef& m) {
  const io::CompiledNetwork net = io::loadModelOrDemo(m.path);
  const arch::NpuConfig* hw = net.hardware();
  m.accelerator = hw != nullptr ? std::string(hw->name) : std::string();
  m.vela = platform::velaReadingFor(net);
  const config::SystemParams params = platform::resolveForModel(requestFor(m), net);
  m.systemConfig = params.systemConfig;
  m.memoryMode = params.memoryMode;
}

std::vector<ModelRef> parseModels(const JsonNode& models, const fs::path& base) {
  std::vector<ModelRef> out;
  for (const JsonNode& entry : models.elements(true)) {
    entry.allowOnly({"path", "fixtures", "demo", "system_config", "memory_mode", "vela_ini", "models", "configs"});
    const int kinds = int(entry.has("path")) + int(entry.has("fixtures")) + int(entry.has("demo"));
    if (kinds != 1) {
      entry.fail("give exactly one of \"path\", \"fixtures\" or \"demo\"");
    }
    const bool fixtures = entry.has("fixtures");
    for (const std::string_view name : {"models", "configs"}) {
      if (!fixtures && entry.has(name)) {
        entry.member(name).fail("only a \"fixtures\" entry takes this filter");
      }
    }
    ModelRef config;
    for (const std::string_view name : {"system_config", "memory_mode"}) {
      if (fixtures && entry.has(name)) {
        entry.member(name).fail("a fixture tree's folder names give the system config and memory mode");
      }
    }
    if (entry.has("system_config")) config.systemConfig = entry.member("system_config").string();
    if (entry.has("memory_mode")) config.memoryMode = entry.member("memory_mode").string();
    if (entry.has("vela_ini")) config.velaIni = fs::absolute(resolvePath(base, entry.member("vela_ini").string())).string();
    const size_t first = out.size();
    if (entry.has("demo")) {
      if (!entry.member("demo").boolean()) {
        entry.member("demo").fail("expected true (the built-in demo network)");
      }
      config.label = "<demo>";
      out.push_back(config);
    } else if (fixtures) {
      addFixtureModels(entry, config, base, out);
    } else {
      addPathModels(entry, config, base, out);
    }
    // Each model's accelerator and sections (a fixture folder's name gives its own).
    for (size_t i = first; i < out.size(); ++i) {
      ModelRef& m = out[i];
      try {
        readCompileTarget(m);
      } catch (const InputError& e) {
        entry.fail(e.what());
      }
    }
  }
  return out;
}

// One dimension of the parameter space: its settings (one param for a grid key, one param per
// key for a zip group).
using Dimension = std::vector<ParamSet>;

std::vector<ParamSet> cartesian(const std::vector<Dimension>& dimensions) {
  std::vector<ParamSet> sets{{}};
  for (const Dimension& d : dimensions) {
    std::vector<ParamSet> next;
    next.reserve(sets.size() * d.size());
    for (const ParamSet& s : sets) {
      for (const ParamSet& setting : d) {
        next.push_back(s);
        next.back().insert(next.back().end(), setting.begin(), setting.end());
      }
    }
    sets = std::move(next);
  }
  return sets;
}

// Where each swept key is swept from, so that a key in two places is refused.
class SweptKeys {
public:
  void add(const std::string& key, const JsonNode& node) {
    const auto [it, inserted] = where_.emplace(key, node.path());
    if (!inserted) {
      node.fail("this key is already swept by " + it->second + "; a key may be in one grid key or zip group only");
    }
  }

private:
  std::map<std::string, std::string> where_;
};

Dimension gridDimension(const std::string& key, const JsonNode& values) {
  configKey(key, values.file(), values.path());
  Dimension d;
  for (const JsonNode& v : values.elements(true)) d.push_back({paramFromJson(key, v.value(), v.file(), v.path())});
  return d;
}

Dimension zipDimension(const JsonNode& group) {
  Dimension d;
  std::string firstKey;
  for (const auto& [key, values] : group.members()) {
    configKey(key, values.file(), values.path());
    const std::vector<JsonNode> list = values.elements(true);
    if (firstKey.empty()) {
      firstKey = key;
      d.resize(list.size());
    } else if (list.size() != d.size()) {
      values.fail("has " + std::to_string(list.size()) + " values, but '" + firstKey + "' of the same group has " +
                  std::to_string(d.size()) + ": the keys of a zip group need equally many values");
    }
    for (size_t i = 0; i < list.size(); ++i) {
      d[i].push_back(paramFromJson(key, list[i].value(), list[i].file(), list[i].path()));
    }
  }
  if (firstKey.empty()) group.fail("a zip group needs at least one key");
  return d;
}

// The assignments of a parameter set as sorted "key=text" strings: equal for equal sets.
std::vector<std::string> sortedAssignments(const ParamSet& params) {
  std::vector<std::string> assignments;
  for (const Param& p : params) {
    assignments.push_back(p.key + "=" + p.text);
  }
  std::sort(assignments.begin(), assignments.end());
  return assignments;
}

std::vector<ParamSet> withoutDuplicates(std::vector<ParamSet> sets) {
  std::set<std::vector<std::string>> seen;
  std::vector<ParamSet> unique;
  for (ParamSet& s : sets) {
    if (seen.insert(sortedAssignments(s)).second) {
      unique.push_back(std::move(s));
    }
  }
  return unique;
}

ParamSet parseParamObject(const JsonNode& node) {
  ParamSet s;
  for (const auto& [key, value] : node.members()) {
    configKey(key, value.file(), value.path());
    s.push_back(paramFromJson(key, value.value(), value.file(), value.path()));
  }
  return s;
}

void parseParamSets(const JsonNode& spec, SweepSpec& out) {
  // 1. Dimensions: grid keys, then zip groups; each key swept from one place only.
  if (spec.has("zip") && spec.has("link")) spec.member("link").fail("give \"zip\" or its alias \"link\", not both");
  std::vector<Dimension> dimensions;
  SweptKeys swept;
  if (spec.has("grid")) {
    for (const auto& [key, values] : spec.member("grid").members()) {
      swept.add(key, values);
      dimensions.push_back(gridDimension(key, values));
    }
  }
  for (const char* name : {"zip", "link"}) {
    if (!spec.has(name)) continue;
    for (const JsonNode& group : spec.member(name).elements(true)) {
      for (const auto& [key, values] : group.members()) swept.add(key, values);
      dimensions.push_back(zipDimension(group));
    }
  }
  std::vector<ParamSet> sets;
  if (!dimensions.empty()) sets = cartesian(dimensions);
  // 2. Explicit points and the baseline.
  if (spec.has("points")) {
    for (const JsonNode& point : spec.member("points").elements(true)) sets.push_back(parseParamObject(point));
  }
  if (spec.has("baseline")) {
    out.hasBaseline = true;
    out.baseline = parseParamObject(spec.member("baseline"));
    sets.push_back(out.baseline);
  }
  if (sets.empty()) {
    sets.emplace_back();
  }
  out.paramSets = withoutDuplicates(std::move(sets));
  for (const ParamSet& s : out.paramSets) {
    for (const Param& p : s) {
      if (std::find(out.sweptKeys.begin(), out.sweptKeys.end(), p.key) == out.sweptKeys.end()) {
        out.sweptKeys.push_back(p.key);
      }
    }
  }
}

// Every swept key's value in the point's resolved configuration (the model's system config and
// memory mode with the point's overrides).
nlohmann::ordered_json effectiveValues(const Point& p, const std::vector<std::string>& keys) {
  config::ConfigRequest request = requestFor(p.model);
  for (const Param& param : p.params) request.overrides.push_back(param.key + "=" + param.text);
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  try {
    const config::SystemParams resolved = config::resolveConfig(request);
    for (const std::string& key : keys) values[key] = config::jsonValue(*config::findKey(key), resolved);
  } catch (const InputError&) {
    // A combination the configuration rules refuse: the point fails when run and says why.
    for (const Param& param : p.params) values[param.key] = param.value;
  }
  return values;
}

uint64_t fnv1a(uint64_t h, std::string_view s) {
  for (const char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  h ^= 0xffU;  // field separator
  return h * 1099511628211ULL;
}

} // namespace

Param paramFromJson(const std::string& key, const nlohmann::ordered_json& value, const std::string& file,
                    const std::string& where) {
  const config::ConfigKey& k = configKey(key, file, where);
  const config::Origin origin{file, where, ""};
  return canonicalParam(k, config::parseJson(k, value, origin), origin);
}

Param paramFromText(const std::string& key, const std::string& text, const std::string& file,
                    const std::string& where) {
  const config::ConfigKey& k = configKey(key, file, where);
  const config::Origin origin{file, where, ""};
  return canonicalParam(k, config::parseText(k, text, origin), origin);
}

std::string valueText(const nlohmann::ordered_json& value) {
  if (value.is_number()) {
    return config::formatNumber(value.get<double>());
  }
  if (value.is_string()) {
    return value.get<std::string>();
  }
  return value.dump();
}

std::string pointId(const ModelRef& model, const ParamSet& params) {
  uint64_t h = 14695981039346656037ULL;
  for (const std::string_view field : {std::string_view(model.label), std::string_view(model.systemConfig),
                                       std::string_view(model.memoryMode), std::string_view(model.velaIni)}) {
    h = fnv1a(h, field);
  }
  for (const std::string& a : sortedAssignments(params)) {
    h = fnv1a(h, a);
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

SweepSpec loadSpec(const std::string& path) {
  const nlohmann::ordered_json root = parseJsonText(config::readTextFile(path, "sweep spec"), path);
  const JsonNode spec(root, path);
  spec.allowOnly({"description", "models", "grid", "zip", "link", "points", "baseline"});
  if (spec.has("description")) {
    spec.member("description").string();
  }
  const fs::path base = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();

  SweepSpec out;
  out.file = path;
  out.models = parseModels(spec.member("models"), base);
  parseParamSets(spec, out);
  const std::vector<std::string> baseline = sortedAssignments(out.baseline);
  std::unordered_set<std::string> seen;
  for (const ModelRef& m : out.models) {
    for (const ParamSet& s : out.paramSets) {
      Point p{out.points.size(), pointId(m, s), m, s, false, nlohmann::ordered_json()};
      p.baseline = out.hasBaseline && sortedAssignments(s) == baseline;
      p.effective = effectiveValues(p, out.sweptKeys);
      if (seen.insert(p.id).second) {
        out.points.push_back(std::move(p));
      }
    }
  }
  return out;
}

Shard parseShard(const std::string& text) {
  Shard s;
  unsigned long long i = 0, n = 0;
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%llu/%llu%n", &i, &n, &consumed) != 2 || size_t(consumed) != text.size() || n == 0 ||
      i >= n) {
    InputError::Location loc;
    loc.file = "--shard";
    throw InputError(loc, "expected I/N with 0 <= I < N (e.g. 0/4), got '" + text + "'");
  }
  s.index = static_cast<size_t>(i);
  s.count = static_cast<size_t>(n);
  return s;
}

} // namespace npusim::sweep
