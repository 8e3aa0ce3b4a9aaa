// SPDX-License-Identifier: Apache-2.0
#pragma once
// `npusim report`: a table of a sweep's points and, per model, the sensitivity of total cycles
// to each swept parameter, as text, CSV or Markdown.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/sweep/results_file.h"
#include "harness/sweep/sweep_spec.h"

namespace npusim::sweep {

// How total cycles respond to one value of one parameter.
struct ValueEffect {
  std::string value;                   // canonical text; "" when the parameter was not set
  bool baseline = false;
  std::optional<int64_t> cycles;       // at this value with every other parameter at its baseline
  std::optional<double> relative;      // cycles / baseline cycles
  size_t pairs = 0;                    // points at this value whose baseline-value partner exists
  double geomean = 0, min = 0, max = 0;  // their ratio to that partner (1 = no effect)
};

// How total cycles respond to each value of one parameter.
struct ParameterEffect {
  std::string key;                     // the key, or keys swept together joined by " = "
  std::string baselineValue;
  std::vector<ValueEffect> values;     // ascending (numerically when all are numbers)
};

// One model at one system configuration.
struct ModelSensitivity {
  std::string model, systemConfig, memoryMode;
  size_t points = 0, failed = 0;
  std::vector<std::pair<std::string, std::string>> baseline;  // parameter -> value
  std::optional<int64_t> baselineCycles;
  std::string baselineId;
  std::vector<ParameterEffect> parameters;  // those with more than one value
};

// The baseline of each model is the point whose parameters equal `baseline` where given and,
// for the other parameters, the values of the model's lowest-index point (list the baseline
// value first in the spec's grid).
struct ReportOptions {
  std::vector<Param> baseline;
  size_t maxRows = 30;                 // rows of the text table
};

std::vector<ModelSensitivity> sensitivity(const MergedResults& results, const ReportOptions& options);

void writeReportText(std::ostream& os, const std::string& source, const MergedResults& results,
                     const ReportOptions& options);
void writeReportCsv(std::ostream& os, const MergedResults& results, const ReportOptions& options);
void writeReportMarkdown(std::ostream& os, const std::string& source, const MergedResults& results,
                         const ReportOptions& options);

} // namespace npusim::sweep
