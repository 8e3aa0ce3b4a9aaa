// SPDX-License-Identifier: Apache-2.0
#pragma once
// `npusim compare-runs`: two runs side by side — `npusim run --json` results or points of a
// sweep results file ("results.jsonl@INDEX") — e.g. the same network compiled for 128 and 256
// MACs, or one model at two settings: speed-up in total and per layer type, cycles by what bound
// the NPU operations and, when both are run results of the same command stream, per operation
// with the shifts of what bound each.

#include <ostream>
#include <string>

namespace npusim::compare_runs {

// Reads both (InputError naming the file for unreadable or non-run JSON, an unknown or failed
// point) and prints the comparison; `rows` bounds the per-operation table. Returns 0.
int compareRuns(const std::string& fileA, const std::string& fileB, size_t rows, std::ostream& out);

} // namespace npusim::compare_runs
