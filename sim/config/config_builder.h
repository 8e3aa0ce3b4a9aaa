// SPDX-License-Identifier: Apache-2.0
#pragma once
// Resolution of configuration layers into SystemParams.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/config_schema.h"
#include "sim/config/system_params.h"

namespace npusim::config {

// Applies configuration layers in order (preset or vela.ini sections, JSON file, --set) on top
// of the schema defaults, remembering which keys were set and where; finish() then fills the
// derived defaults of keys nobody set and checks the rules that involve several keys.
class ConfigBuilder {
public:
  ConfigBuilder();

  // Type- and range-checked assignment; throws InputError naming origin and key.
  void set(const ConfigKey& key, const Value& value, const Origin& origin);
  // Assignment by dotted path and text value (the --set form). An unknown path throws
  // InputError suggesting the nearest key.
  void setText(std::string_view path, std::string_view text, const Origin& origin);
  bool isSet(const ConfigKey& key) const { return assigned_[keyIndex(key)].has_value(); }
  const SystemParams& params() const { return params_; }

  // Contract: call once, after the last layer. Throws InputError for an impossible config,
  // naming the most recently assigned key involved and where it was assigned.
  SystemParams finish(const std::string& systemConfig, const std::string& memoryMode);
  // The later-assigned of two keys (the one to blame for a conflict) and its origin.
  const ConfigKey& blame(std::string_view pathA, std::string_view pathB, Origin& origin) const;

private:
  struct Assignment {
    Origin origin;
    uint32_t sequence = 0;
  };
  void checkMemoryAreas() const;
  void checkTimingAdapters() const;
  void checkAxiLimits() const;
  void checkBurstTimes() const;

  SystemParams params_;
  std::vector<std::optional<Assignment>> assigned_;  // indexed by keyIndex()
  uint32_t sequence_ = 0;
};

} // namespace npusim::config
