#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Plot npusim sweep results: cycles against each swept parameter, one PNG per model.

For every model (at its system config and memory mode) and every parameter with more than one
value, a panel shows all points at each value (grey: the other parameters vary), their median
(line) and the one-at-a-time curve with every other parameter at its baseline value (the
model's lowest-index point, as `npusim report` uses).

    python3 scripts/plot_sweep.py results.jsonl --out-dir plots/

Needs matplotlib (Debian: python3-matplotlib).
"""

import argparse
import json
import math
import os
import re
import statistics
import sys


def read_records(path):
    """Complete result lines of a sweep results file (a partial last line is dropped)."""
    records = {}
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for line in text.split("\n")[:-1]:
        if line:
            record = json.loads(line)
            records.setdefault(record["id"], record)
    return sorted(records.values(), key=lambda r: (r["index"], r["id"]))


def sort_key(value):
    return (0, value, "") if isinstance(value, (int, float)) and not isinstance(value, bool) else (1, 0, str(value))


def groups(records):
    out = {}
    for r in records:
        out.setdefault((r["model"], r["system_config"], r["memory_mode"]), []).append(r)
    return out


def plot_group(plt, key, records, metric, out_dir):
    """One figure for one model; returns the PNG path or None when nothing varies."""
    params = []
    for r in records:
        params += [p for p in r["params"] if p not in params]
    baseline = {p: records[0]["params"].get(p) for p in params}
    varied = [p for p in params if len({json.dumps(r["params"].get(p)) for r in records}) > 1]
    ok = [r for r in records if r["status"] == "ok" and r.get(metric) is not None]
    if not varied or not ok:
        return None
    cols = min(3, len(varied))
    rows = math.ceil(len(varied) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.8 * rows), squeeze=False)
    for ax, param in zip(axes.flat, varied):
        values = sorted({json.dumps(r["params"].get(param)) for r in ok}, key=lambda v: sort_key(json.loads(v)))
        positions = {v: i for i, v in enumerate(values)}
        numeric = all(isinstance(json.loads(v), (int, float)) and not isinstance(json.loads(v), bool) for v in values)
        x_of = (lambda v: json.loads(v)) if numeric else (lambda v: positions[v])
        xs = [x_of(json.dumps(r["params"].get(param))) for r in ok]
        ax.scatter(xs, [r[metric] for r in ok], s=8, color="0.7", label="all points")
        medians = [statistics.median(r[metric] for r in ok if json.dumps(r["params"].get(param)) == v) for v in values]
        ax.plot([x_of(v) for v in values], medians, "o-", color="tab:blue", label="median")
        oat = [(x_of(json.dumps(r["params"].get(param))), r[metric]) for r in ok
               if all(r["params"].get(p) == baseline[p] for p in params if p != param)]
        if oat:
            oat.sort()
            ax.plot([x for x, _ in oat], [y for _, y in oat], "s--", color="tab:red", label="others at baseline")
        if numeric and min(xs) > 0 and max(xs) / min(xs) >= 16:
            ax.set_xscale("log", base=2)
        if not numeric:
            ax.set_xticks(range(len(values)), [str(json.loads(v)) for v in values], rotation=30)
        ax.set_xlabel(param)
        ax.set_ylabel(metric)
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(varied):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=8)
    model, system_config, memory_mode = key
    fig.suptitle(f"{model}\n{system_config}, {memory_mode}: {len(ok)} points", fontsize=10)
    fig.tight_layout()
    label = model if system_config in model and memory_mode in model else f"{model}_{system_config}_{memory_mode}"
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_")
    path = os.path.join(out_dir, name + ".png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", help="sweep results (JSONL) from npusim sweep or sweep-merge")
    p.add_argument("--out-dir", default=".", help="folder for the PNG files (default: current folder)")
    p.add_argument("--metric", default="total_cycles", choices=["total_cycles", "npu_active_cycles"])
    args = p.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_sweep: error: needs matplotlib (Debian: apt-get install python3-matplotlib)")
    os.makedirs(args.out_dir, exist_ok=True)
    written = 0
    for key, records in groups(read_records(args.results)).items():
        path = plot_group(plt, key, records, args.metric, args.out_dir)
        if path:
            print(path)
            written += 1
    if written == 0:
        print("plot_sweep: no model has a parameter with more than one value", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
