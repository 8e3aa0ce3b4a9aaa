// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Vela generations whose behaviour npusim reproduces: how each reads a vela.ini (the values
// it gives keys a section leaves out) and, in the estimator, its performance model.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace npusim::config {

// Vela 3.10 (the Python back end, also Vela 2.x-4.x and Vela 5's legacy core) or Vela 5.0
// (regor, the C++ back end Vela 5.x compiles with).
enum class VelaVersion : uint8_t { V3_10, V5_0 };

// "3.10", "5.0".
constexpr std::string_view velaVersionName(VelaVersion version) {
  switch (version) {
  case VelaVersion::V3_10: return "3.10";
  case VelaVersion::V5_0: return "5.0";
  }
  return "?";
}

// The version a word names, nullopt for any other word.
constexpr std::optional<VelaVersion> parseVelaVersion(std::string_view text) {
  if (text == "3.10") return VelaVersion::V3_10;
  if (text == "5.0") return VelaVersion::V5_0;
  return std::nullopt;
}

// Which Vela's reading of a vela.ini applies, and why (said in messages, e.g. "--vela 5.0").
struct VelaReading {
  VelaVersion version = VelaVersion::V3_10;
  std::string why;
};

} // namespace npusim::config
