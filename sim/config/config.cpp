// SPDX-License-Identifier: Apache-2.0
#include "sim/config/config.h"

#include "sim/common/error.h"

namespace npusim::config {

SystemParams builtinPreset(const std::string& systemConfig, const std::string& memoryMode) {
  SystemParams p;
  p.systemConfig = systemConfig;
  p.memoryMode = memoryMode;
  // Memory timings shared by both U55 system configs in Vela's vela.ini.
  p.memories[static_cast<size_t>(MemoryKind::Sram)] = {1.0, 32, 32, 32};
  p.axi[0].memory = MemoryKind::Sram;
  p.axi[1].memory = MemoryKind::OffChipFlash;
  if (systemConfig == "Ethos_U55_High_End_Embedded") {
    p.coreClockHz = 500e6;
    p.memories[static_cast<size_t>(MemoryKind::OffChipFlash)] = {0.125, 128, 64, 64};
  } else if (systemConfig == "Ethos_U55_Deep_Embedded") {
    p.coreClockHz = 200e6;
    p.memories[static_cast<size_t>(MemoryKind::OffChipFlash)] = {0.0625, 128, 64, 64};
  } else {
    throwForKey("<builtin>", "system_config", "unknown system config '" + systemConfig +
                                                  "' (built in: Ethos_U55_High_End_Embedded, Ethos_U55_Deep_Embedded)");
  }
  if (memoryMode == "Shared_Sram") {
    p.mode = {AxiPort::Axi1, AxiPort::Axi0, AxiPort::Axi0, 0};
  } else if (memoryMode == "Sram_Only") {
    p.mode = {AxiPort::Axi0, AxiPort::Axi0, AxiPort::Axi0, 0};
    p.commandStreamPort = AxiPort::Axi0;
  } else {
    throwForKey("<builtin>", "memory_mode", "unknown memory mode '" + memoryMode + "' (built in: Shared_Sram, Sram_Only)");
  }
  return p;
}

SystemParams resolveConfig(const ConfigRequest& request) {
  return builtinPreset(request.systemConfig, request.memoryMode);
}

} // namespace npusim::config
