// SPDX-License-Identifier: Apache-2.0
#pragma once
// `npusim run` output: human summary, JSON and per-operation CSV of a RunResult.

#include <ostream>

#include <nlohmann/json.hpp>

#include "sim/platform/run_result.h"

namespace npusim::report {

void writeRunSummary(std::ostream& os, const platform::RunResult& r, size_t slowest = 10);
nlohmann::ordered_json runJson(const platform::RunResult& r);
void writeRunCsv(std::ostream& os, const platform::RunResult& r);

} // namespace npusim::report
