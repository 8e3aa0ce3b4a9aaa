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
import sys

from sweep_results import plot_each_model, save_figure, values_of

TYPES = [("conv", "conv"), ("depthwise", "depthwise"), ("pooling", "pooling"), ("elementwise", "elementwise"),
         ("fully_connected", "fully connected"), ("cpu", "CPU"), ("other", "other (driver, fetch, DMA)")]


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
    return save_figure(plt, fig, key, args.out_dir, "_breakdown")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", help="sweep results (JSONL) from npusim sweep or sweep-merge")
    p.add_argument("out_dir", nargs="?", default=".", metavar="OUTDIR", help="folder for the PNG files")
    p.add_argument("--y", default="ms", choices=["ms", "cycles"], help="bar height unit")
    args = p.parse_args()
    return plot_each_model("plot_breakdown", args, plot_model, "no successful point with cycles_by_type (results of an older npusim?)")


if __name__ == "__main__":
    sys.exit(main())
