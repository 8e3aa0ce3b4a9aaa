// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vela's configuration file (vela.ini) reader and the Vela meaning of its sections.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/config_builder.h"
#include "sim/config/vela_version.h"

namespace npusim::config {

// A vela.ini file as Python's ConfigParser reads it for Vela: case-sensitive section names,
// case-insensitive keys, whole-line ';'/'#' comments, `key=value` or `key: value`, indented
// continuation lines, duplicate sections or keys are errors, [DEFAULT] keys visible in every
// section. No interpolation (Vela's files do not use it).
class VelaIni {
public:
  struct Entry {
    std::string key;     // as written in the file
    std::string value;   // stripped
    uint32_t line = 0;   // 1-based; 0 for built-in data
  };
  struct Section {
    std::string name;    // full name, e.g. "System_Config.Ethos_U55_High_End_Embedded"
    uint32_t line = 0;
    std::vector<Entry> entries;
    const Entry* find(std::string_view key) const;  // case-insensitive
  };

  // Throws InputError naming `file` and the line for malformed text.
  static VelaIni parse(std::string_view text, const std::string& file);
  static VelaIni read(const std::string& path);
  // Built-in data in the same shape (file is "<builtin>").
  static VelaIni fromSections(std::string file, std::vector<Section> sections);

  const std::string& file() const { return file_; }
  const std::vector<Section>& sections() const { return sections_; }
  const Section& defaults() const { return defaults_; }
  const Section* find(std::string_view name) const;
  // Names after "<kind>." of the sections of one kind ("System_Config", "Memory_Mode").
  std::vector<std::string> names(std::string_view kind) const;

private:
  std::string file_;
  std::vector<Section> sections_;
  std::map<std::string, size_t, std::less<>> index_;  // section name -> position in sections_
  Section defaults_{"DEFAULT", 0, {}};
};

// Vela's reserved name for its built-in values (timing doc 2.1).
constexpr std::string_view kVelaInternalDefault = "internal-default";

// The Vela a file is for when nothing else says: Vela 5.0 when a section has a key only Vela's
// C++ back end reads (<Mem>_ports_used, <Mem>_max_reads, <Mem>_max_writes: Vela 4.x's for the
// Ethos-U85, Vela 5.x's for every NPU), else Vela 3.10.
VelaReading velaOfFile(const VelaIni& ini);

// Apply [System_Config.<name>] / [Memory_Mode.<name>] with Vela's semantics (timing doc 2.1):
// `inherit=` recursion (parent first, child wins; self-inheritance and cycles are errors),
// keys missing from the named section take the fallback of the Vela `reading` names (Vela 3.10:
// 1 or the equivalent, latencies 0; Vela 5.0: its C++ back end's latency 1 and burst 64), memory
// timings are read only for memories on a port. Unknown keys are errors naming file, section,
// key and the nearest valid key; an unknown section name is an error listing the available
// ones. When `warnings` is given, adds one sentence naming the keys left out that the two
// Velas read differently, and the values they took.
void applySystemConfig(const VelaIni& ini, const std::string& name, ConfigBuilder& builder,
                       const VelaReading& reading = {}, std::vector<std::string>* warnings = nullptr);
void applyMemoryMode(const VelaIni& ini, const std::string& name, ConfigBuilder& builder,
                     const VelaReading& reading = {}, std::vector<std::string>* warnings = nullptr);

} // namespace npusim::config
