// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a Vela-compiled network says about the system it was compiled for (MAC configuration,
// SHRAM size, arena sizes, where its constants were meant to live), and the ways a simulated
// configuration contradicts it so that the command stream no longer means what Vela intended.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/config/system_params.h"
#include "sim/config/vela_compile.h"
#include "sim/config/vela_version.h"
#include "sim/io/decoded_network.h"

namespace npusim::platform {

// The compile target as far as the file tells. The .tflite records neither the system config nor
// the memory mode: Vela's summary CSV beside it (or its folder's name) names them, and the
// placement of the constants is inferred from the stream.
struct CompileTarget {
  const arch::NpuConfig* hardware = nullptr; // COP1 header of the first ethos-u operator
  uint64_t flashBytes = 0;           // region 0 tensor (constants), largest over ethos-u operators
  uint64_t scratchBytes = 0;         // region 1 tensor (the arena)
  uint64_t scratchFastBytes = 0;     // region 2 tensor (the fast-storage arena)
  uint64_t offlinePlanBytes = 0;     // end of the highest tensor in the offline memory plan; 0: no plan
  // The stream copies weights or scales from region 0 into the arena by DMA and reads them there:
  // Vela does that only when the constants sit in a memory slower than the arena (e.g. flash in
  // Shared_Sram), never when they share the arena's memory (Sram_Only).
  bool weightsBufferedInArena = false;
  bool weightsBufferedInCache = false; // ... into region 2 (Vela's fast scratch: the SRAM cache in Dedicated_Sram)
  std::optional<config::CompileSections> sections;  // config::compileSections of the model's path
};

CompileTarget compileTarget(const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded);

// The Vela that compiled `net`, as far as the file tells: Vela's C++ back end (regor, which
// compiles the Ethos-U55/U65 from Vela 5.0) names an `ethos-u` operator's command-stream input
// "ethos_u_command_stream" and writes no `vela_version` metadata; the Python back end (Vela
// 2.x to 4.x, and 5.x's legacy core) names it "<subgraph>_split_<n>_command_stream" (and from
// 3.3 or so writes the version). The description is no signal: regor and Python Vela up to 3.2
// both write "Vela Optimised". Anything else is taken for Vela 3.10.
config::VelaVersion compiledBy(const io::CompiledNetwork& net);

// How a vela.ini the model was compiled with is read: as the Vela that compiled it
// (compiledBy), with the reason said in messages.
config::VelaReading velaReadingFor(const io::CompiledNetwork& net);

// One line: "ethos-u55-128 (SHRAM 24 KiB); arena 22080 B, fast arena 22080 B, offline plan 22080 B;
// constants 36832 B, in a memory slower than the arena (weights buffered into the arena by DMA)".
std::string describe(const CompileTarget& target);

// The contradictions between the target and `params`, one sentence each naming both sides: a
// system config or memory mode other than the compile's (SystemParams::*From says where the
// simulated one came from), else a memory mode that puts the constants in the memory the stream
// copies them into; and an arena larger than the memory mode gives it.
std::vector<std::string> configMismatches(const CompileTarget& target, const config::SystemParams& params);

// `request` with the compile's system config and memory mode (config::compileSections) where it
// names none, and where each came from. A section the compile names that is neither built in for
// the model's NPU nor in request.velaIni is left to the default (configMismatches then names
// both). The compile files' warnings (a summary CSV of another compile) go to `warnings`.
config::ConfigRequest requestForCompile(config::ConfigRequest request, const io::CompiledNetwork& net,
                                        std::vector<std::string>& warnings);

} // namespace npusim::platform
