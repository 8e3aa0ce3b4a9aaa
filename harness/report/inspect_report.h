// SPDX-License-Identifier: Apache-2.0
#pragma once
// `npusim inspect` output: operators, decoded operations and register listings.

#include <ostream>

#include <nlohmann/json.hpp>

#include "harness/analytic/network_estimate.h"
#include "sim/io/decoded_network.h"

namespace npusim::report {

enum class InspectFormat { Text, Vela, Json };

// `withWeights` (text and JSON): each operation with weights also shows its weight streams (one
// per core or weight decoder, or one fast-format stream), each with its format, length, where in
// the constant region it comes from and its weights decoded: a summary in text (count, range,
// zeros), every weight in stream order in JSON. Throws InputError (file, byte offset) for a weight
// stream that does not decode.
// `listing` (Vela format only): whose register listing to write, Vela 3.10's or Vela 5.0's.
void writeInspect(std::ostream& os, const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                  InspectFormat format, bool withWeights = false,
                  config::VelaVersion listing = config::VelaVersion::V3_10);

// One decoded operation of a stream compiled for `hardware`.
nlohmann::ordered_json operationJson(const cmd::Operation& op, const arch::NpuConfig& hardware);

} // namespace npusim::report
