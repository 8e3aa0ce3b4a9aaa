// SPDX-License-Identifier: Apache-2.0
#include "sim/config/vela_ini.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "sim/common/error.h"
#include "sim/config/text_file.h"

namespace npusim::config {

namespace {

constexpr std::string_view kInherit = "inherit";
// Longest `inherit=` chain followed: real files use one or two levels, and a bound keeps a
// crafted chain of thousands of sections from recursing that deep.
constexpr size_t kMaxInheritDepth = 64;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) {
    s.remove_prefix(1);
  }
  while (!s.empty() && isSpace(s.back())) {
    s.remove_suffix(1);
  }
  return s;
}

[[noreturn]] void parseError(const std::string& file, uint32_t line, const std::string& message) {
  InputError::Location loc;
  loc.file = file;
  throw InputError(loc, "line " + std::to_string(line) + ": " + message);
}

std::string sectionKind(VelaSection section) {
  switch (section) {
  case VelaSection::None: return "";
  case VelaSection::SystemConfig: return "System_Config";
  case VelaSection::MemoryMode: return "Memory_Mode";
  }
  return "";
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) {
    text += (text.empty() ? "" : ", ") + n;
  }
  return text.empty() ? "none" : text;
}

std::string lineSuffix(const VelaIni::Entry& entry) {
  return entry.line == 0 ? std::string() : " (line " + std::to_string(entry.line) + ")";
}

// A key's value as Vela sees it after inheritance, and the section it was written in.
struct Resolved {
  const VelaIni::Entry* entry = nullptr;
  const VelaIni::Section* section = nullptr;
};
using ResolvedKeys = std::map<std::string, Resolved>;  // by lower-cased key

// Reads a section for one kind: checks its keys, recurses into `inherit` first, then lets the
// section's own keys (and [DEFAULT] keys valid for this kind) win, as Vela's _read_config does.
class SectionReader {
public:
  SectionReader(const VelaIni& ini, VelaSection kind) : ini_(ini), kind_(kind) {
    for (const auto& key : schema()) {
      if (key.velaSection == kind_) {
        validKeys_.push_back(key.velaKey);
      }
    }
    validKeys_.push_back(kInherit);
  }

  ResolvedKeys read(const std::string& fullName) {
    const VelaIni::Section* section = ini_.find(fullName);
    if (section == nullptr) {
      const std::string kind = sectionKind(kind_);
      const auto names = ini_.names(kind);
      // Suggest only sections an Ethos-U55 model (the only kind npusim runs) is meant for: not
      // the ones Vela's ini names after the Ethos-U65.
      std::vector<std::string_view> candidates;
      for (const std::string& name : names) {
        if (lower(name).find("u65") == std::string::npos) candidates.push_back(name);
      }
      const std::string given = fullName.substr(std::min(fullName.size(), kind.size() + 1));
      std::string nearest = nearestName(given, candidates, std::max<size_t>(2, given.size() / 3));
      for (size_t i = 0; nearest.empty() && !given.empty() && i < candidates.size(); ++i) {
        if (lower(candidates[i].substr(0, given.size())) == lower(given)) {
          nearest = std::string(candidates[i]);  // an abbreviation, e.g. Ethos_U55_High_End
        }
      }
      InputError::Location loc;
      loc.file = ini_.file();
      throw InputError(loc, "section [" + fullName + "] not found; available " + kind + " sections: " + joined(names) +
                                (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)"));
    }
    return readSection(*section);
  }

private:
  ResolvedKeys readSection(const VelaIni::Section& section) {
    if (chain_.size() >= kMaxInheritDepth) {
      throwForKey(ini_.file(), "[" + section.name + "]",
                  "inheritance chain from [" + chain_.front() + "] is longer than " +
                      std::to_string(kMaxInheritDepth) + " sections");
    }
    chain_.push_back(section.name);
    checkKeys(section);
    ResolvedKeys result;
    // 1. Parent first.
    Resolved inherit = own(section, kInherit);
    if (inherit.entry != nullptr) {
      const std::string& parent = inherit.entry->value;
      const std::string where = "[" + section.name + "] " + inherit.entry->key;
      if (parent == section.name) {
        throwForKey(ini_.file(), where, "section inherits itself" + lineSuffix(*inherit.entry));
      }
      if (std::find(chain_.begin(), chain_.end(), parent) != chain_.end()) {
        std::string cycle;
        for (const auto& name : chain_) {
          cycle += name + " -> ";
        }
        throwForKey(ini_.file(), where, "inheritance cycle " + cycle + parent + lineSuffix(*inherit.entry));
      }
      const VelaIni::Section* parentSection = ini_.find(parent);
      if (parentSection == nullptr) {
        throwForKey(ini_.file(), where, "inherited section [" + parent + "] not found" + lineSuffix(*inherit.entry));
      }
      result = readSection(*parentSection);
    }
    // 2. The section's own keys win.
    for (const auto& valid : validKeys_) {
      const Resolved mine = own(section, valid);
      if (mine.entry != nullptr && valid != kInherit) {
        result[lower(valid)] = mine;
      }
    }
    chain_.pop_back();
    return result;
  }

  // ConfigParser's has_option/get: the section's own entry, else [DEFAULT]'s.
  Resolved own(const VelaIni::Section& section, std::string_view key) const {
    if (const auto* e = section.find(key)) {
      return {e, &section};
    }
    if (const auto* e = ini_.defaults().find(key)) {
      return {e, &ini_.defaults()};
    }
    return {};
  }

  void checkKeys(const VelaIni::Section& section) const {
    for (const auto& entry : section.entries) {
      const bool known = std::any_of(validKeys_.begin(), validKeys_.end(),
                                     [&](std::string_view v) { return lower(v) == lower(entry.key); });
      if (!known) {
        throwForKey(ini_.file(), "[" + section.name + "] " + entry.key,
                    "unknown key in a " + sectionKind(kind_) + " section" + lineSuffix(entry) + "; did you mean '" +
                        nearestName(entry.key, validKeys_) + "'?");
      }
    }
    // [DEFAULT] is shared by both kinds: its keys must be valid for one of them.
    for (const auto& entry : ini_.defaults().entries) {
      const bool known = lower(entry.key) == kInherit ||
                         std::any_of(schema().begin(), schema().end(),
                                     [&](const ConfigKey& k) { return !k.velaKey.empty() && lower(k.velaKey) == lower(entry.key); });
      if (!known) {
        std::vector<std::string_view> all{kInherit};
        for (const auto& k : schema()) {
          if (!k.velaKey.empty()) {
            all.push_back(k.velaKey);
          }
        }
        throwForKey(ini_.file(), "[DEFAULT] " + entry.key,
                    "unknown key" + lineSuffix(entry) + "; did you mean '" + nearestName(entry.key, all) + "'?");
      }
    }
  }

  const VelaIni& ini_;
  VelaSection kind_;
  std::vector<std::string_view> validKeys_;
  std::vector<std::string> chain_;
};

bool onAPort(const SystemParams& p, MemoryKind memory) {
  return std::any_of(arch::kAreas.begin(), arch::kAreas.end(), [&](arch::AreaId a) { return p.memoryIn(a) == memory; });
}

void applySection(const VelaIni& ini, VelaSection kind, const std::string& name, ConfigBuilder& builder,
                  const VelaReading& reading, std::vector<std::string>* warnings) {
  const std::string fullName = sectionKind(kind) + "." + name;
  SectionReader reader(ini, kind);
  const ResolvedKeys keys = reader.read(fullName);
  const std::string vela = "Vela " + std::string(velaVersionName(reading.version));
  // The keys left out that the two Velas read differently, as "key=value".
  std::string differing;
  // Pass 1 sets the ports, pass 2 the memory timings, which Vela reads only for memories on a port.
  for (const bool memoryPass : {false, true}) {
    for (const auto& key : schema()) {
      if (key.velaSection != kind || key.velaReadIf.has_value() != memoryPass) {
        continue;
      }
      const auto found = keys.find(lower(key.velaKey));
      if (found != keys.end()) {
        const Resolved& r = found->second;
        const std::string line = r.entry->line == 0 ? "" : "line " + std::to_string(r.entry->line) + "; ";
        const Origin origin{ini.file(), "[" + r.section->name + "] " + r.entry->key,
                            line + "npusim key " + std::string(key.path)};
        builder.set(key, parseText(key, r.entry->value, origin), origin);
        continue;
      }
      if (key.velaReadIf && !onAPort(builder.params(), *key.velaReadIf)) {
        continue;
      }
      const std::string_view fallback = key.velaFallback(reading.version);
      const Origin origin{ini.file(), "[" + fullName + "] " + std::string(key.velaKey),
                          "missing, " + vela + "'s value " + std::string(fallback) + "; npusim key " +
                              std::string(key.path)};
      builder.set(key, parseText(key, fallback, origin), origin);
      if (key.vela310Fallback != key.vela50Fallback) {
        differing += (differing.empty() ? "" : ", ") + std::string(key.velaKey) + "=" + std::string(fallback);
      }
    }
  }
  if (warnings != nullptr && !differing.empty()) {
    const std::string other(velaVersionName(reading.version == VelaVersion::V5_0 ? VelaVersion::V3_10 : VelaVersion::V5_0));
    warnings->push_back(ini.file() + ": [" + fullName + "] leaves out keys Vela 3.10 and Vela 5.0 read differently; read as " +
                        vela + " does (" + reading.why + "; --vela " + other + " for Vela " + other + "'s values): " +
                        differing);
  }
}

} // namespace

const VelaIni::Entry* VelaIni::Section::find(std::string_view key) const {
  const std::string wanted = lower(key);
  for (const auto& e : entries) {
    if (lower(e.key) == wanted) {
      return &e;
    }
  }
  return nullptr;
}

VelaIni VelaIni::parse(std::string_view text, const std::string& file) {
  VelaIni ini;
  ini.file_ = file;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") {
    text.remove_prefix(3);
  }
  Section* current = nullptr;
  // Lower-cased keys -> line of the current section and of [DEFAULT], for duplicate checks
  // that stay linear in the file size.
  std::map<std::string, uint32_t> sectionKeys, defaultKeys;
  std::map<std::string, uint32_t>* currentKeys = nullptr;
  Entry* last = nullptr;       // entry that an indented line continues
  size_t lastIndent = 0;
  uint32_t lineNo = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++lineNo;
    const std::string_view stripped = trim(line);
    if (stripped.empty()) {
      last = nullptr;
      continue;
    }
    if (stripped.front() == ';' || stripped.front() == '#') {
      continue;
    }
    const size_t indent = line.find_first_not_of(" \t");
    // 1. Continuation of the previous value.
    if (last != nullptr && indent > lastIndent) {
      last->value += "\n" + std::string(stripped);
      continue;
    }
    last = nullptr;
    // 2. Section header: the name runs from the first '[' to the last ']'.
    const size_t close = stripped.rfind(']');
    if (stripped.front() == '[' && close != std::string_view::npos && close > 1) {
      const std::string name(stripped.substr(1, close - 1));
      if (name == "DEFAULT") {
        current = &ini.defaults_;
        currentKeys = &defaultKeys;
        continue;
      }
      if (const Section* previous = ini.find(name)) {
        parseError(file, lineNo,
                   "section [" + name + "] already defined on line " + std::to_string(previous->line));
      }
      ini.index_.emplace(name, ini.sections_.size());
      ini.sections_.push_back(Section{name, lineNo, {}});
      current = &ini.sections_.back();
      sectionKeys.clear();
      currentKeys = &sectionKeys;
      continue;
    }
    // 3. key=value or key: value.
    if (current == nullptr) {
      parseError(file, lineNo, "'" + std::string(stripped) + "' before any [section] header");
    }
    const size_t sep = stripped.find_first_of("=:");
    const std::string_view key = sep == std::string_view::npos ? std::string_view() : trim(stripped.substr(0, sep));
    if (key.empty()) {
      parseError(file, lineNo, "expected key=value, got '" + std::string(stripped) + "'");
    }
    const auto [previous, added] = currentKeys->emplace(lower(key), lineNo);
    if (!added) {
      parseError(file, lineNo,
                 "key '" + std::string(key) + "' already set in [" + current->name + "] on line " +
                     std::to_string(previous->second));
    }
    current->entries.push_back(Entry{std::string(key), std::string(trim(stripped.substr(sep + 1))), lineNo});
    last = &current->entries.back();
    lastIndent = indent;
  }
  return ini;
}

VelaIni VelaIni::read(const std::string& path) { return parse(readTextFile(path, "vela.ini file"), path); }

VelaIni VelaIni::fromSections(std::string file, std::vector<Section> sections) {
  VelaIni ini;
  ini.file_ = std::move(file);
  ini.sections_ = std::move(sections);
  for (size_t i = 0; i < ini.sections_.size(); ++i) {
    ini.index_.emplace(ini.sections_[i].name, i);
  }
  return ini;
}

const VelaIni::Section* VelaIni::find(std::string_view name) const {
  const auto it = index_.find(name);
  return it == index_.end() ? nullptr : &sections_[it->second];
}

std::vector<std::string> VelaIni::names(std::string_view kind) const {
  const std::string prefix = std::string(kind) + ".";
  std::vector<std::string> out;
  for (const auto& s : sections_) {
    if (s.name.compare(0, prefix.size(), prefix) == 0) {
      out.push_back(s.name.substr(prefix.size()));
    }
  }
  return out;
}

VelaReading velaOfFile(const VelaIni& ini) {
  for (const VelaIni::Section& section : ini.sections()) {
    for (const VelaIni::Entry& entry : section.entries) {
      const std::string key = lower(entry.key);
      for (std::string_view suffix : {"_ports_used", "_max_reads", "_max_writes"}) {
        if (key.size() > suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0) {
          return {VelaVersion::V5_0, "[" + section.name + "] sets " + entry.key + ", a key only Vela's C++ back end reads"};
        }
      }
    }
  }
  return {VelaVersion::V3_10, "it sets no key only Vela's C++ back end reads"};
}

void applySystemConfig(const VelaIni& ini, const std::string& name, ConfigBuilder& builder, const VelaReading& reading,
                       std::vector<std::string>* warnings) {
  applySection(ini, VelaSection::SystemConfig, name, builder, reading, warnings);
}

void applyMemoryMode(const VelaIni& ini, const std::string& name, ConfigBuilder& builder, const VelaReading& reading,
                     std::vector<std::string>* warnings) {
  applySection(ini, VelaSection::MemoryMode, name, builder, reading, warnings);
}

} // namespace npusim::config
