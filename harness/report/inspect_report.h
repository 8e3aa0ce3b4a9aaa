// SPDX-License-Identifier: Apache-2.0
#pragma once
// `npusim inspect` output: operators, decoded operations and register listings.

#include <ostream>

#include <nlohmann/json.hpp>

#include "harness/analytic/network_estimate.h"
#include "sim/io/decoded_network.h"

namespace npusim::report {

enum class InspectFormat { Text, Vela, Json };

// `withWeights` (JSON only): each operation with a weight stream in the constant region also
// lists its decoded weights in stream order. Throws InputError (file, byte offset) for a weight
// stream that does not decode.
// `listing` (Vela format only): whose register listing to write, Vela 3.10's or Vela 5.0's.
void writeInspect(std::ostream& os, const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                  InspectFormat format, bool withWeights = false,
                  config::VelaVersion listing = config::VelaVersion::V3_10);

nlohmann::ordered_json operationJson(const cmd::Operation& op);

} // namespace npusim::report
