// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: a vela.ini parsed, then every System_Config x Memory_Mode pair it
// defines (plus the built-in names) resolved with Vela's meaning and the cross-key checks.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/config_builder.h"
#include "sim/config/vela_ini.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string file = "fuzz.ini";
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  npusim::config::VelaIni ini;
  bool parsed = false;
  npusim::fuzz::acceptOnlyInputError(file, [&] {
    ini = npusim::config::VelaIni::parse(text, file);
    parsed = true;
  });
  if (!parsed) {
    return 0;
  }
  std::vector<std::string> systems = ini.names("System_Config"), modes = ini.names("Memory_Mode");
  systems.push_back("Ethos_U55_High_End_Embedded");
  modes.push_back("Shared_Sram");
  // Bounded so that an input with many sections does not turn into a quadratic slow unit.
  constexpr size_t kMaxPairs = 16;
  size_t pairs = 0;
  for (const std::string& system : systems) {
    for (const std::string& mode : modes) {
      if (++pairs > kMaxPairs) {
        return 0;
      }
      npusim::fuzz::acceptOnlyInputError(file, [&] {
        npusim::config::ConfigBuilder builder;
        npusim::config::applySystemConfig(ini, system, builder);
        npusim::config::applyMemoryMode(ini, mode, builder);
        builder.finish(system, mode);
      });
    }
  }
  return 0;
}
