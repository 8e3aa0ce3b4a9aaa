#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare a Google Benchmark run with a reference run; fail only on a large slowdown.

Both files are Google Benchmark JSON (`--benchmark_out=FILE --benchmark_out_format=json`).
Benchmarks are matched by run name; with repetitions, the chosen statistic (default: median)
of the repetitions is compared, using the run's own aggregates when it has them. The script
prints the ratio current/reference for every benchmark and exits 1 only when some benchmark is
slower than the reference by more than --factor (default 3: timings on shared CI machines
easily vary by 2x, so only a gross slowdown fails). Benchmarks missing on either side, or that
reported an error, are listed but do not fail the comparison. Standard library only.

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
    """Run name -> time in ns (None when the benchmark reported an error)."""
    iterations, aggregates, errors = {}, {}, set()
    for b in benchmarks:
        name = b.get("run_name", b.get("name"))
        if b.get("error_occurred"):
            errors.add(name)
            continue
        if metric not in b:
            continue  # e.g. BigO / RMS complexity rows
        value = float(b[metric]) * UNIT_NS.get(b.get("time_unit", "ns"), 1.0)
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
                   help="fail when current/reference exceeds this (default: 3.0)")
    p.add_argument("--metric", choices=["real_time", "cpu_time"], default="real_time")
    p.add_argument("--statistic", choices=sorted(STATISTICS), default="median",
                   help="of the repetitions (default: median)")
    args = p.parse_args()
    if args.factor <= 1.0:
        die("--factor must be greater than 1")

    ref_context, ref_benchmarks = load(args.reference)
    cur_context, cur_benchmarks = load(args.current)
    ref = times(ref_benchmarks, args.metric, args.statistic)
    cur = times(cur_benchmarks, args.metric, args.statistic)
    print(f"reference: {args.reference} ({describe(ref_context)})")
    print(f"current:   {args.current} ({describe(cur_context)})")
    print(f"metric: {args.metric}, {args.statistic} of repetitions; fail above {args.factor:g}x the reference\n")

    rows = [("BENCHMARK", "REFERENCE", "CURRENT", "RATIO", "")]
    ratios, slower = [], []
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
            ratio = c / r if r > 0 else math.inf
            ratios.append(ratio)
            note = f"SLOWER than {args.factor:g}x: FAIL" if ratio > args.factor else ""
            if ratio > args.factor:
                slower.append(name)
        rows.append((name, human(r), human(c), "-" if ratio is None else f"{ratio:.2f}x", note))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4])) + ("  " + row[4] if row[4] else ""))

    finite = [x for x in ratios if 0 < x < math.inf]
    geomean = math.exp(sum(math.log(x) for x in finite) / len(finite)) if finite else float("nan")
    if slower:
        print(f"\nbench_compare: FAIL: {len(slower)} of {len(ratios)} benchmarks slower than {args.factor:g}x "
              f"the reference (geomean ratio {geomean:.2f}x): {', '.join(slower)}")
        return 1
    print(f"\nbench_compare: OK: {len(ratios)} benchmarks compared, none slower than {args.factor:g}x the reference "
          f"(geomean ratio {geomean:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
