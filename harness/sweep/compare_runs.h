// SPDX-License-Identifier: Apache-2.0
#pragma once
// `npusim compare-runs`: two `npusim run --json` results side by side (e.g. the same network
// compiled for 128 and 256 MACs, or one model at two sweep settings): speed-up in total, per
// layer type and, when both ran the same command stream, per NPU operation, with the shifts of
// what bound each operation.

#include <ostream>
#include <string>

namespace npusim::compare_runs {

// Reads both files (InputError naming the file for unreadable or non-run JSON) and prints the
// comparison; `rows` bounds the per-operation table. Returns 0.
int compareRuns(const std::string& fileA, const std::string& fileB, size_t rows, std::ostream& out);

} // namespace npusim::compare_runs
