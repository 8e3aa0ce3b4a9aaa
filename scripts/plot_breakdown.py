#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Stacked bars of a sweep: inference cycles per configuration, segmented by layer type.

One bar per point of each model (labelled with the swept values that differ between points),
split into conv, depthwise, pooling, elementwise, fully connected, CPU and other (driver,
command fetch, DMA not hidden behind compute), from the "cycles_by_type" member that
`npusim sweep` records. One PNG per model.

    python3 scripts/plot_breakdown.py results.jsonl plots/ [--y ms|cycles]

Needs matplotlib (Debian: python3-matplotlib).
"""

import argparse
import json
import os
import re
import sys

TYPES = [("conv", "conv"), ("depthwise", "depthwise"), ("pooling", "pooling"), ("elementwise", "elementwise"),
         ("fully_connected", "fully connected"), ("cpu", "CPU"), ("other", "other (driver, fetch, DMA)")]


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


def values_of(record):
    values = dict(record.get("params", {}))
    values.update(record.get("effective", {}))
    return values


def short(key):
    """The last two dotted parts of a key: system.sram.read_latency -> sram.read_latency."""
    return ".".join(key.split(".")[-2:])


def plot_model(plt, key, records, args):
    ok = [r for r in records if r["status"] == "ok" and "cycles_by_type" in r]
    if not ok:
        return None
    keys = []
    for r in ok:
        keys += [k for k in values_of(r) if k not in keys]
    varied = [k for k in keys if len({json.dumps(values_of(r).get(k)) for r in ok}) > 1]
    labels = ["\n".join(f"{short(k)}={values_of(r).get(k)}" for k in varied) + ("\n(baseline)" if r.get("baseline") else "")
              for r in ok]
    scale = [1000.0 * r["time_s"] / r["total_cycles"] if args.y == "ms" else 1.0 for r in ok]
    fig, ax = plt.subplots(figsize=(max(7.0, 2.3 * len(ok) + 3), 5.5))
    bottoms = [0.0] * len(ok)
    for member, name in TYPES:
        heights = [r["cycles_by_type"].get(member, 0) * s for r, s in zip(ok, scale)]
        if not any(heights):
            continue
        ax.bar(range(len(ok)), heights, bottom=bottoms, label=name, width=0.65)
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    for i, total in enumerate(bottoms):
        ax.annotate(f"{total:.2f}" if args.y == "ms" else f"{total:.3g}", (i, total), ha="center",
                    textcoords="offset points", xytext=(0, 3), fontsize=8)
    ax.set_xticks(range(len(ok)), labels, fontsize=7)
    ax.set_ylabel("inference time (ms at the configured clock)" if args.y == "ms" else "cycles")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(True, axis="y", alpha=0.3)
    model, system_config, memory_mode = key
    fig.suptitle(f"{model}\n{system_config}, {memory_mode}: time per layer type", fontsize=9)
    fig.tight_layout()
    label = model if system_config in model and memory_mode in model else f"{model}_{system_config}_{memory_mode}"
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_")
    path = os.path.join(args.out_dir, name + "_breakdown.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", help="sweep results (JSONL) from npusim sweep or sweep-merge")
    p.add_argument("out_dir", nargs="?", default=".", metavar="OUTDIR", help="folder for the PNG files")
    p.add_argument("--y", default="ms", choices=["ms", "cycles"], help="bar height unit")
    args = p.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_breakdown: error: needs matplotlib (Debian: apt-get install python3-matplotlib)")
    try:
        records = read_records(args.results)
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"plot_breakdown: error: {args.results}: {e}")
    os.makedirs(args.out_dir, exist_ok=True)
    models = {}
    for r in records:
        models.setdefault((r["model"], r["system_config"], r["memory_mode"]), []).append(r)
    written = 0
    for key, group in models.items():
        path = plot_model(plt, key, group, args)
        if path:
            print(path)
            written += 1
    if written == 0:
        print("plot_breakdown: no successful point with cycles_by_type (results of an older npusim?)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
