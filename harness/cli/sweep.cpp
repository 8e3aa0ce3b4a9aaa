// SPDX-License-Identifier: Apache-2.0
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "harness/process/process_pool.h"
#include "harness/sweep/sweep.h"
#include "harness/cli/commands.h"
#include "harness/cli/output.h"

namespace npusim::cli {

void addSweep(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand(
      "sweep", "Simulate every point of a sweep spec (models x configuration grid), one process per point");
  // Options of `npusim sweep` as given on the command line.
  struct Options {
    sweep::SweepOptions run;
    std::string shard;
    bool dryRun = false;
  };
  auto opts = std::make_shared<Options>();
  sub->add_option("spec", opts->run.spec, "sweep spec (JSON: models, grid, points)")->required();
  sub->add_option("-j,--jobs", opts->run.jobs, "parallel simulation processes (default: the number of cores)");
  sub->add_option("-o,--out", opts->run.out,
                  "results file, one JSON line per point (default: <spec name>.jsonl, or "
                  "<spec name>.shard-I-of-N.jsonl with --shard); replaced unless --resume");
  auto* resume =
      sub->add_flag("--resume", opts->run.resume, "keep the points already in the results file and run only the others");
  sub->add_flag("--retry-failed", opts->run.retryFailed,
                "with --resume: run the points the results file holds as failed again (their lines are replaced)")
      ->needs(resume);
  sub->add_option("--shard", opts->shard,
                  "I/N: run only the points whose index % N == I (0 <= I < N); join shard files with sweep-merge");
  sub->add_option("--timeout", opts->run.timeoutSeconds, "seconds after which a point is killed and fails (0 = none)");
  sub->add_flag("--dry-run", opts->dryRun, "print the number of points and the first few, run nothing");
  sub->footer(R"(Spec (JSON; relative paths are relative to the spec's folder):
  {"models": [{"path": "models/*_vela.tflite", "system_config": "Ethos_U55_High_End_Embedded",
               "memory_mode": "Shared_Sram"},
              {"fixtures": "../shared/fixtures/vela", "models": ["kws_*"], "configs": ["ethos-u55-128_*"]},
              {"demo": true}],
   "grid": {"system.sram.read_latency": [32, 16, 64], "npu.axi1.max_outstanding_reads": [2, 1, 4, 8]},
   "zip": [{"system.dram.read_latency": [250, 500], "system.dram.write_latency": [125, 250]}],
   "points": [{"system.off_chip_flash.clock_scale": 0.03125}],
   "baseline": {"system.sram.read_latency": 32, "npu.axi1.max_outstanding_reads": 2}}
Points: every model x (the cartesian product of the grid keys and zip groups -- a zip group's
keys vary together -- then the explicit points and the baseline); keys as in
`npusim config --list`. Results are written in point order; wall times go to <out>.timing.
Exit status: 0 every point succeeded, 1 some failed (they are in the results file with their
error), 2 bad spec or options.)");
  sub->callback([opts, &registry] {
    registry.select([opts] {
      if (!opts->shard.empty()) {
        opts->run.shard = sweep::parseShard(opts->shard);
      }
      if (opts->dryRun) {
        sweep::printDryRun(sweep::loadSpec(opts->run.spec), opts->run.shard, std::cout);
        return 0;
      }
      opts->run.executable = process::selfExecutable();
      opts->run.inProcess = [](const std::vector<std::string>& args) { return runCommandLine(args); };
      opts->run.terminal = ::isatty(STDERR_FILENO) != 0;
      return sweep::runSweep(opts->run, std::cerr);
    });
  });
}

void addSweepMerge(CLI::App& app, Registry& registry) {
  auto* sub = app.add_subcommand(
      "sweep-merge", "Join sweep results files (e.g. shards) into one, in point order; report missing and duplicate points");
  // Options of `npusim sweep-merge`.
  struct Options {
    std::vector<std::string> files;
    std::string out;
  };
  auto opts = std::make_shared<Options>();
  sub->add_option("files", opts->files, "results files (JSONL) to join")->required();
  sub->add_option("-o,--out", opts->out, "write the joined results here (default: standard output)");
  sub->footer("Exit status: 0 complete (duplicates with equal results are kept once), 1 points missing or "
              "duplicates with different results, 2 unreadable files.");
  sub->callback([opts, &registry] {
    registry.select([opts] {
      if (opts->out.empty()) {
        return sweep::mergeResultFiles(opts->files, std::cout, std::cerr);
      }
      std::ofstream out = openOutput(opts->out);
      return sweep::mergeResultFiles(opts->files, out, std::cerr);
    });
  });
}

} // namespace npusim::cli
