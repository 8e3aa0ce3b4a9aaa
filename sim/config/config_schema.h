// SPDX-License-Identifier: Apache-2.0
#pragma once
// Schema layer: one table entry per configuration key (dotted path, type, unit, default,
// description, source of the default, range, vela.ini name) with typed access into
// SystemParams. Parsing, printing, `npusim config --list` and the vela.ini importer are generic
// over this table, so adding a key is one entry in config_schema.cpp.

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "sim/config/system_params.h"
#include "sim/config/vela_version.h"

namespace npusim::config {

enum class KeyType : uint8_t { Double, Int, Bool, Enum };
std::string_view keyTypeName(KeyType type);  // double, int, bool, enum

// The vela.ini section kind a key is read from.
enum class VelaSection : uint8_t { None, SystemConfig, MemoryMode };

// The SystemParams field behind a key; its alternative decides the key's type.
using FieldRef = std::variant<double*, uint32_t*, uint64_t*, bool*, MemoryKind*, arch::AreaId*, std::string*>;

// A parsed value before it is range-checked and stored (integers travel as doubles).
using Value = std::variant<double, bool, std::string>;

// Where an assignment comes from, for error messages. `file` is a path, "<builtin>" or
// "--set"; `key` is how the source spells the key (empty: the dotted path); `detail` is
// appended in parentheses (section, line, fallback note).
struct Origin {
  std::string file;
  std::string key;
  std::string detail;
};

// One configuration key. Table entries are built with key(...) and the chained && setters so
// that each reads as one expression. A per-port key (npu.<port>.*) names its NPU port and reaches
// its field through the port's PortParams; it applies while the bound accelerator has that port.
struct ConfigKey {
  using Accessor = FieldRef (*)(SystemParams&);
  using PortAccessor = FieldRef (*)(PortParams&);
  using DerivedDefault = std::function<std::string(const SystemParams&)>;

  std::string_view path;            // dotted key path, e.g. "system.sram.read_latency"
  std::string_view unit;            // "" when dimensionless
  std::string_view defaultText;     // default as text in the key's type (may be ""); for derived keys, the rule
  std::string_view description;     // one line
  std::string_view source;          // where the default comes from
  Accessor field = nullptr;         // null for per-port keys
  std::string_view port;            // per-port keys: the port's name ("axi0")
  PortAccessor portField = nullptr; // per-port keys: the field in that port's PortParams
  double min = 0;                   // numeric range (ints and doubles)
  double max = std::numeric_limits<double>::infinity();
  bool minExclusive = false;
  bool powerOfTwo = false;
  std::vector<std::string_view> choices;  // allowed values of std::string-backed enums
  VelaSection velaSection = VelaSection::None;
  std::string_view velaKey;               // vela.ini spelling (matched case-insensitively)
  // The value Vela gives the key when a named section lacks it, per Vela (vela_version.h):
  // Vela 3.10's Python front end and Vela 5.0's C++ back end differ for the memory latencies
  // and burst lengths.
  std::string_view vela310Fallback;
  std::string_view vela50Fallback;
  std::optional<MemoryKind> velaReadIf;   // Vela reads the key only if this memory is on a port
  DerivedDefault derived = nullptr;       // default computed from other keys when not set

  ConfigKey range(double lo, double hi) &&;
  ConfigKey above(double lo) &&;          // (lo, inf)
  ConfigKey rangeOpenLow(double lo, double hi) &&;  // (lo, hi]
  ConfigKey pow2(double lo, double hi) &&;           // power of two in [lo, hi]
  ConfigKey oneOf(std::vector<std::string_view> values) &&;
  // A vela.ini key with the same fallback in both Velas (.vela50 then sets Vela 5.0's apart).
  ConfigKey vela(VelaSection section, std::string_view name, std::string_view fallback,
                 std::optional<MemoryKind> readIf = std::nullopt) &&;
  ConfigKey vela50(std::string_view fallback) &&;
  // The fallback of the Vela `version` names.
  std::string_view velaFallback(VelaVersion version) const {
    return version == VelaVersion::V5_0 ? vela50Fallback : vela310Fallback;
  }
  ConfigKey derivedFrom(DerivedDefault rule) &&;
};

// The key table, in `npusim config --list` order.
const std::vector<ConfigKey>& schema();
// Exact, case-sensitive lookup; nullptr when unknown.
const ConfigKey* findKey(std::string_view path);
// Every proper prefix of a key path ("system", "system.sram", ...), sorted.
const std::vector<std::string>& keyGroups();
size_t keyIndex(const ConfigKey& key);

// The key naming the memory of a Vela area: system.axi0_port, system.axi1_port (vela.ini's
// axi0_port, axi1_port).
std::string areaKeyPath(arch::AreaId area);

// Whether `params`' accelerator has the key's port (always true for keys that are not per port).
bool keyApplies(const ConfigKey& key, const SystemParams& params);

KeyType keyType(const ConfigKey& key);
// Allowed values of an Enum key (empty for other types).
std::vector<std::string_view> enumChoices(const ConfigKey& key);

// Parsing. Throw InputError naming origin.file and the key for a wrong type.
Value parseText(const ConfigKey& key, std::string_view text, const Origin& origin);
Value parseJson(const ConfigKey& key, const nlohmann::json& value, const Origin& origin);
// Range/choice check, then store into `params`. Throws InputError for out-of-range values and
// for a port the accelerator does not have.
void storeValue(const ConfigKey& key, const Value& value, SystemParams& params, const Origin& origin);

// The values a key accepts, in words: a range, a power-of-two range, or the choices.
std::string allowedText(const ConfigKey& key);

// Reading back (contract: keyApplies).
std::string formatValue(const ConfigKey& key, const SystemParams& params);
nlohmann::ordered_json jsonValue(const ConfigKey& key, const SystemParams& params);
std::string formatNumber(double value);  // shortest text that reads back to the same double

// Schema defaults (derived defaults are applied by ConfigBuilder::finish).
SystemParams schemaDefaults();

// Nearest candidate by case-insensitive edit distance; empty when there are no candidates or
// the nearest is more than `maxDistance` edits away.
std::string nearestName(std::string_view word, const std::vector<std::string_view>& candidates,
                        size_t maxDistance = std::numeric_limits<size_t>::max());
// Nearest key path or group for an unknown dotted path.
std::string nearestKey(std::string_view path, bool includeGroups);

// Throw InputError for `origin` naming the key (origin.key, else `path`) with `message`.
[[noreturn]] void throwAt(const Origin& origin, std::string_view path, const std::string& message);

} // namespace npusim::config
