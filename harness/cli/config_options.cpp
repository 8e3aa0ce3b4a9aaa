// SPDX-License-Identifier: Apache-2.0
#include "harness/cli/config_options.h"

#include <iostream>

#include "models/platform/compile_target.h"
#include "sim/common/error.h"

namespace npusim::cli {

void addConfigOptions(CLI::App* sub, config::ConfigRequest& request) {
  sub->add_option("--system-config", request.systemConfig,
                  "System_Config section: built-in Vela preset, or from --vela-ini; internal-default = Vela's "
                  "[default: Ethos_U55_High_End_Embedded for an Ethos-U55 model, Ethos_U65_Client_Server for a U65, Ethos_U85_SYS_DRAM_Mid for a U85]");
  sub->add_option("--memory-mode", request.memoryMode,
                  "Memory_Mode section: built-in Vela preset, or from --vela-ini; internal-default = Vela's "
                  "[default: Shared_Sram for an Ethos-U55 model, Dedicated_Sram for a U65, Dedicated_Sram_384KB for a U85]");
  sub->add_option("--vela-ini", request.velaIni, "read --system-config/--memory-mode from this vela.ini (Vela's meaning)");
  sub->add_option("--config", request.jsonFile, "npusim JSON config applied on top of the preset");
  sub->add_option("--set", request.overrides, "key=value override applied last (repeatable; see npusim config --list)")
      ->allow_extra_args(false)
      ->check(CLI::Validator(
          [](std::string& assignment) -> std::string {
            if (assignment.find('=') != std::string::npos) return std::string();
            return "expected key=value in one word, e.g. --set system.sram.read_latency=64; got '" + assignment + "'";
          },
          "KEY=VALUE"));
}

void addVelaOption(CLI::App* sub, std::string& vela) {
  sub->add_option("--vela", vela,
                  "Vela to follow, 3.10 or 5.0: the performance model an estimate reproduces and the values --vela-ini "
                  "keys a section leaves out take [default: the Vela that compiled the model, 5.0 when its C++ back "
                  "end did (command stream tensor \"ethos_u_command_stream\", no vela_version); without a model, "
                  "5.0 when the ini sets a key only Vela's C++ back end reads]")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            return config::parseVelaVersion(text) ? std::string() : "expected 3.10 or 5.0, got '" + text + "'";
          },
          "3.10|5.0"));
}

void applyVelaOption(const std::string& vela, config::ConfigRequest& request) {
  if (const std::optional<config::VelaVersion> version = config::parseVelaVersion(vela)) {
    request.vela = config::VelaReading{*version, "--vela " + vela};
  }
}

void printConfigWarnings(const config::SystemParams& params) {
  for (const std::string& w : params.warnings) std::cerr << "npusim: warning: " << w << '\n';
}

void checkCompileTarget(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                        const config::SystemParams& params, bool strict) {
  for (const std::string& mismatch : platform::configMismatches(platform::compileTarget(net, decoded), params)) {
    if (strict) {
      InputError::Location loc;
      loc.file = net.path;
      throw InputError(loc, mismatch + " (--strict)");
    }
    std::cerr << "npusim: warning: " << net.path << ": " << mismatch << '\n';
  }
}

config::VelaVersion chooseVela(const std::string& vela, const io::CompiledNetwork& net) {
  return vela.empty() ? platform::compiledBy(net) : *config::parseVelaVersion(vela);
}

} // namespace npusim::cli
