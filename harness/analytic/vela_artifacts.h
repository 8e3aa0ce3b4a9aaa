// SPDX-License-Identifier: Apache-2.0
#pragma once
// What Vela leaves beside a compiled model that the estimator and the reports read: its debug
// database (`<model>_debug.xml`) and the source model that database numbers its operators in.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/analytic/vela_debug_db.h"
#include "harness/analytic/vela_names.h"

namespace npusim::analytic {

// The source model Vela compiled, matched against the debug database's source table.
struct VelaSourceModel {
  std::string path;
  // By debug-database source id (Vela numbers operators depth first from the outputs).
  std::map<int, SourceOperator> operators;
  std::map<int, std::vector<int>> inputs, outputs;   // tensor indices (-1 = absent optional input)
  // Name of each optimised operator (debug-database id), as Vela's per-layer CSV prints it.
  std::map<int, std::string> optimisedNames;
};

// The debug database and source model of one compiled model (each absent when not found).
struct VelaArtifacts {
  std::string debugDbPath;                  // empty when there is none
  std::optional<VelaDebugDb> db;
  std::optional<VelaSourceModel> source;    // set only with a Vela 3.x `db` (Vela 5.x's names its rows)
  // Why the source model is not there (not found, or not the model the database describes);
  // empty when it is, or when there is no database. Worth a warning only if the database
  // describes the compiled model.
  std::string sourceWarning;
};

// Finds the debug database beside `modelPath` (or beside the file a symlink points to), or
// reads `debugDbPath` when given, and, for a Vela 3.x database, the source model it names. A
// Vela 3.x database records the source and compiled model paths relative to the directory
// Vela ran in; that directory is recovered from the database's location whatever directory
// the caller runs in. Throws
// InputError for a malformed database (or a missing `debugDbPath` that was asked for).
VelaArtifacts findVelaArtifacts(const std::string& modelPath, const std::string& debugDbPath);

// Matches a loaded source model against the database: every source operator's type and the
// names of all optimised operators. Returns nullopt (and the reason in `why`) on a mismatch.
std::optional<VelaSourceModel> matchSourceModel(const std::string& path, const VelaDebugDb& db, std::string* why);

} // namespace npusim::analytic
