// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>

#include "harness/sweep/sweep_report.h"
#include "harness/cli/commands.h"
#include "harness/cli/output.h"
#include "sim/common/error.h"

namespace npusim::cli {

void addReport(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand("report", "Tabulate sweep results and the sensitivity of cycles to each parameter");
  // Options of `npusim report`.
  struct Options {
    std::vector<std::string> files;
    std::string csv, md;
    std::vector<std::string> baseline;
    size_t rows = 30;
  };
  auto opts = std::make_shared<Options>();
  sub->add_option("results", opts->files, "sweep results (JSONL; several files are joined like sweep-merge)")
      ->required();
  sub->add_option("--csv", opts->csv, "write every point as CSV (parameters, cycles, PMU counters, bytes per port)");
  sub->add_option("--md", opts->md, "write the sensitivity summary and every point as Markdown");
  sub->add_option("--baseline", opts->baseline,
                  "key=value: baseline value of a parameter (repeatable; default: the value at the model's first "
                  "point)")
      ->allow_extra_args(false);
  sub->add_option("--rows", opts->rows, "points shown in the printed table")->capture_default_str();
  sub->callback([opts, &registry] {
    registry.select([opts] {
      sweep::ReportOptions options;
      options.maxRows = opts->rows;
      for (const std::string& assignment : opts->baseline) {
        const size_t eq = assignment.find('=');
        if (eq == std::string::npos) {
          throwForKey("--baseline", assignment, "expected key=value");
        }
        options.baseline.push_back(
            sweep::paramFromText(assignment.substr(0, eq), assignment.substr(eq + 1), "--baseline", assignment.substr(0, eq)));
      }
      const sweep::MergedResults results = sweep::mergeResults(opts->files);
      std::string source = opts->files.front();
      if (opts->files.size() > 1) source += " (+" + std::to_string(opts->files.size() - 1) + " files)";
      // Nothing to tabulate: one line and exit 1 (as sweep exits 1 when points failed).
      const auto ok = std::find_if(results.records.begin(), results.records.end(),
                                   [](const sweep::ResultRecord& r) { return r.ok; });
      if (ok == results.records.end()) {
        std::cerr << "npusim: error: " << source << ": ";
        if (results.records.empty()) {
          std::cerr << "no points (an empty results file)\n";
        } else {
          const auto& line = results.records.front().json;
          const std::string error = line.contains(sweep::results_json::kError) && line[sweep::results_json::kError].is_string()
                                        ? line[sweep::results_json::kError].get<std::string>()
                                        : std::string();
          // The child's own line, without its "npusim: error: ".
          const std::string prefix = "npusim: error: ";
          const std::string why = error.rfind(prefix, 0) == 0 ? error.substr(prefix.size()) : error;
          std::cerr << "none of its " << results.records.size() << " points succeeded (point "
                    << results.records.front().index << ": " << (why.empty() ? "no error recorded" : why) << ")\n";
        }
        return 1;
      }
      sweep::writeReportText(std::cout, source, results, options);
      if (!opts->csv.empty()) {
        auto out = openOutput(opts->csv);
        sweep::writeReportCsv(out, results, options);
      }
      if (!opts->md.empty()) {
        auto out = openOutput(opts->md);
        sweep::writeReportMarkdown(out, source, results, options);
      }
      return 0;
    });
  });
}

} // namespace npusim::cli
