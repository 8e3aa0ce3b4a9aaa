// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: an npusim JSON config applied on top of the default preset, then the
// cross-key checks of ConfigBuilder::finish; a config that resolves must print and read back
// to the same values.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "sim/config/config.h"
#include "sim/config/json_config.h"
#include "sim/config/vela_ini.h"
#include "sim/config/presets.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

npusim::config::ConfigBuilder presetBuilder() {
  npusim::config::ConfigBuilder builder;
  npusim::config::applySystemConfig(npusim::config::builtinPresets(), "Ethos_U55_High_End_Embedded", builder);
  npusim::config::applyMemoryMode(npusim::config::builtinPresets(), "Shared_Sram", builder);
  return builder;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string file = "fuzz.json";
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  npusim::fuzz::acceptOnlyInputError(file, [&] {
    npusim::config::ConfigBuilder builder = presetBuilder();
    npusim::config::applyJsonText(text, file, builder);
    const npusim::config::SystemParams params = builder.finish("fuzz", "fuzz");
    // Round trip: every key printed and read back gives the same resolved parameters.
    npusim::config::ConfigBuilder again = presetBuilder();
    npusim::config::applyJsonText(npusim::config::toJson(params).dump(), "roundtrip.json", again);
    const npusim::config::SystemParams back = again.finish("fuzz", "fuzz");
    if (npusim::config::toJson(back) != npusim::config::toJson(params)) {
      std::fprintf(stderr, "config does not round-trip through toJson\n");
      std::abort();
    }
  });
  return 0;
}
