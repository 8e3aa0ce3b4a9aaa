// SPDX-License-Identifier: Apache-2.0
#pragma once
// `npusim inspect` output: operators, decoded operations and register listings.

#include <ostream>

#include <nlohmann/json.hpp>

#include "sim/io/decoded_network.h"

namespace npusim::report {

enum class InspectFormat { Text, Vela, Json };

void writeInspect(std::ostream& os, const io::CompiledNetwork& net, const std::vector<io::DecodedNpuOp>& decoded,
                  InspectFormat format);

nlohmann::ordered_json operationJson(const cmd::Operation& op);

} // namespace npusim::report
