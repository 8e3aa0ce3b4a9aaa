// SPDX-License-Identifier: Apache-2.0
#pragma once
// npusim's own JSON configuration format: nested objects mirroring the dotted key paths,
// e.g. {"system": {"sram": {"read_latency": 64}}}.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "sim/config/config_builder.h"

namespace npusim::config {

// Apply every leaf of a JSON config. Throws InputError naming `file` and the byte offset for
// malformed JSON, or the full key path for unknown keys (with the nearest valid key), wrong
// types and out-of-range values.
void applyJsonText(std::string_view text, const std::string& file, ConfigBuilder& builder);
void applyJsonFile(const std::string& path, ConfigBuilder& builder);

// Every key of `params`, nested, in schema order; applyJsonText reads it back unchanged.
nlohmann::ordered_json toJson(const SystemParams& params);

} // namespace npusim::config
