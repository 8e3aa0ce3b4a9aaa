// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cycles of a run split by layer type (conv, depthwise, pooling, elementwise, fully connected,
// CPU, other), for the stacked-bar comparison of configurations, and by what bound them.

#include <map>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace npusim::sweep {

// The layer type of each NPU kernel operation of a model, by (network operator, operation index).
using OperationTypes = std::map<std::pair<size_t, size_t>, std::string>;

// Loads and decodes the model (empty path: the built-in demo network) and classifies its kernel
// operations without their source operators (probe::operationType): a convolution over a 1x1
// input with a 1x1 kernel is a fully connected layer (Vela lowers FULLY_CONNECTED to that), and
// so is a U85 MatMul. Throws InputError for an unreadable model.
OperationTypes operationTypes(const std::string& modelPath);

// The run's total cycles as a partition: each kernel operation's cycles (from its start, or the
// end of the previous kernel when they overlap, to its end) go to its layer type, each CPU
// operator's to "cpu", the rest (driver, command fetch, DMA not hidden behind compute) to
// "other". The members sum to total_cycles. `run` is an `npusim run --json` document.
nlohmann::ordered_json cyclesByType(const nlohmann::ordered_json& run, const OperationTypes& types);

// The NPU operations' cycles (start to end) summed by what bound each ("compute", "sram", ...),
// bounds in name order.
nlohmann::ordered_json cyclesByBound(const nlohmann::ordered_json& run);

} // namespace npusim::sweep
