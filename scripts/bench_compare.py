#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare a Google Benchmark run with a reference run; fail only on a large slowdown.

Both files are Google Benchmark JSON (`--benchmark_out=FILE --benchmark_out_format=json`).
Benchmarks are matched by run name; with repetitions, the chosen statistic (default: median)
of the repetitions is compared, using the run's own aggregates when it has them. The script
prints the ratio current/reference for every benchmark and exits 1 only when some benchmark is
slower than the reference by more than --factor (default 3: timings on shared CI machines
easily vary by 2x, so only a gross slowdown fails). The `Simulate/*` benchmarks' counters are
tracked the same way: simulated NPU cycles per wall second (`sim_cycles_per_s`) fails when it
drops below the reference divided by the factor, peak RSS (`peak_rss_MiB`) when it grows past
the reference times the factor. Benchmarks missing on either side, or that reported an error,
are listed but do not fail the comparison. Standard library only.

The machine is taken out of the comparison where both runs have `Calibrate/machine` (a workload
of no npusim code, harness/bench): its time ratio (current / reference) is the machine's, and
every time ratio is divided by it, every cycles-per-second ratio multiplied by it, before the
factor is applied (peak RSS does not depend on the machine's speed). So a reference recorded on
a faster machine still catches code that got slower, and a slower machine alone fails nothing.
`--raw` compares the times as measured.

    python3 scripts/bench_compare.py results/bench/reference.json build/bench.json
    python3 scripts/bench_compare.py REF CUR --factor 2 --metric cpu_time --statistic min

Exit status: 0 no benchmark slower than the factor allows, 1 some are, 2 unreadable input.
"""

import argparse
import json
import math
import statistics
import sys

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
CALIBRATION = "Calibrate/machine"
# Tracked counters: name -> (column title, True when larger is better, unit formatter).
COUNTERS = {
    "sim_cycles_per_s": ("CYCLES/S", True, lambda v: f"{v / 1e6:.3g} M/s"),
    "peak_rss_MiB": ("PEAK RSS", False, lambda v: f"{v:.3g} MiB"),
}
STATISTICS = {"median": statistics.median, "mean": statistics.fmean, "min": min}


def die(message):
    print(f"bench_compare: error: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        benchmarks = data["benchmarks"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        die(f"{path}: not a Google Benchmark JSON file ({e})")
    return data.get("context", {}), benchmarks


def times(benchmarks, metric, statistic):
    """Run name -> time in ns, or the counter `metric` (None when the benchmark reported an error)."""
    iterations, aggregates, errors = {}, {}, set()
    for b in benchmarks:
        name = b.get("run_name", b.get("name"))
        if b.get("error_occurred"):
            errors.add(name)
            continue
        if metric not in b:
            continue  # e.g. BigO / RMS complexity rows, benchmarks without this counter
        scale = 1.0 if metric in COUNTERS else UNIT_NS.get(b.get("time_unit", "ns"), 1.0)
        value = float(b[metric]) * scale
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_unit", "time") == "time":
                aggregates.setdefault(name, {})[b.get("aggregate_name")] = value
        else:
            iterations.setdefault(name, []).append(value)
    result = {name: None for name in errors}
    for name, values in iterations.items():
        if name in errors:
            continue
        result[name] = aggregates.get(name, {}).get(statistic, STATISTICS[statistic](values))
    return result


def human(ns):
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def describe(context):
    cpus = context.get("num_cpus", "?")
    return f"{context.get('host_name', '?')}, {cpus} CPUs, {context.get('date', '?')}, " \
           f"{context.get('library_build_type', '?')} library"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("reference", help="reference run (e.g. results/bench/reference.json)")
    p.add_argument("current", help="run to check")
    p.add_argument("--factor", type=float, default=3.0,
                   help="fail when a benchmark is this many times worse than the reference (default: 3.0)")
    p.add_argument("--metric", choices=["real_time", "cpu_time"], default="real_time")
    p.add_argument("--statistic", choices=sorted(STATISTICS), default="median",
                   help="of the repetitions (default: median)")
    p.add_argument("--raw", action="store_true",
                   help=f"compare the times as measured, not divided by the machine's ratio ({CALIBRATION})")
    args = p.parse_args()
    if args.factor <= 1.0:
        die("--factor must be greater than 1")

    ref_context, ref_benchmarks = load(args.reference)
    cur_context, cur_benchmarks = load(args.current)
    print(f"reference: {args.reference} ({describe(ref_context)})")
    print(f"current:   {args.current} ({describe(cur_context)})")
    print(f"{args.statistic} of repetitions; fail when {args.factor:g}x worse than the reference")
    machine = machine_ratio(ref_benchmarks, cur_benchmarks, args)
    print()
    basis = "as measured" if machine is None else f"the machine's {machine:.2f}x taken out"
    speed = machine or 1.0  # the machine's time ratio that every ratio below is corrected by

    checks = [(args.metric.upper().replace("_", " "), args.metric, False, human)]
    checks += [(title, name, larger, fmt) for name, (title, larger, fmt) in COUNTERS.items()]
    worse, compared, geomean = [], 0, float("nan")
    for title, metric, larger_is_better, fmt in checks:
        ref = times(ref_benchmarks, metric, args.statistic)
        cur = times(cur_benchmarks, metric, args.statistic)
        if not ref and not cur:
            continue
        # The machine's ratio scales times (and so cycles per second), not memory.
        scale = {args.metric: 1.0 / speed, "sim_cycles_per_s": speed}.get(metric, 1.0)
        ratios, failed = compare_table(title, ref, cur, args.factor, larger_is_better, fmt, scale)
        worse += [f"{name} ({title.lower()})" for name in failed]
        compared += len(ratios)
        if metric == args.metric:
            finite = [x for x in ratios if 0 < x < math.inf]
            geomean = math.exp(sum(math.log(x) for x in finite) / len(finite)) if finite else float("nan")
    if worse:
        print(f"bench_compare: FAIL: {len(worse)} of {compared} comparisons worse than {args.factor:g}x "
              f"the reference (time geomean ratio {geomean:.2f}x, {basis}): {', '.join(worse)}")
        return 1
    print(f"bench_compare: OK: {compared} comparisons, none worse than {args.factor:g}x the reference "
          f"(time geomean ratio {geomean:.2f}x, {basis})")
    return 0


def machine_ratio(ref_benchmarks, cur_benchmarks, args):
    """The current machine's time ratio to the reference's (CALIBRATION), or None with a note."""
    if args.raw:
        print("times compared as measured (--raw)")
        return None
    ref = times(ref_benchmarks, args.metric, args.statistic).get(CALIBRATION)
    cur = times(cur_benchmarks, args.metric, args.statistic).get(CALIBRATION)
    missing = [side for side, value in (("the reference", ref), ("the current run", cur)) if not value]
    if missing:
        print(f"no {CALIBRATION} time in {' and '.join(missing)}: times compared as measured")
        return None
    print(f"machine: {CALIBRATION} takes {cur / ref:.2f}x the reference's time on the current machine; "
          f"the ratios below are divided by that (cycles per second multiplied)")
    return cur / ref


def compare_table(title, ref, cur, factor, larger_is_better, fmt, scale=1.0):
    """Prints one table current vs reference, each ratio times `scale` (the machine taken out);
    returns the ratios and the names that fail. The calibration itself never fails."""
    rows = [("BENCHMARK", f"REFERENCE {title}", f"CURRENT {title}", "RATIO", "")]
    ratios, failed = [], []
    show = lambda v: "-" if v is None else fmt(v)
    for name in list(ref) + [n for n in cur if n not in ref]:
        r, c = ref.get(name), cur.get(name)
        if name in cur and c is None:
            note, ratio = "error reported by the current run", None
        elif name not in cur:
            note, ratio = "missing in the current run", None
        elif name not in ref:
            note, ratio = "new (no reference)", None
        elif r is None:
            note, ratio = "error reported by the reference run", None
        else:
            if name == CALIBRATION:  # the machine's own ratio, as measured
                rows.append((name, show(r), show(c), f"{c / r:.2f}x" if r > 0 else "-", "the machine"))
                continue
            ratio = c / r * scale if r > 0 else math.inf
            ratios.append(ratio)
            bad = ratio < 1.0 / factor if larger_is_better else ratio > factor
            note = f"WORSE than {factor:g}x: FAIL" if bad else ""
            if bad:
                failed.append(name)
        rows.append((name, show(r), show(c), "-" if ratio is None else f"{ratio:.2f}x", note))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4])) + ("  " + row[4] if row[4] else ""))
    print()
    return ratios, failed

if __name__ == "__main__":
    sys.exit(main())
