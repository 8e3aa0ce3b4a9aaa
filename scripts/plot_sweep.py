#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Plot npusim sweep results: time (or % change vs the baseline) against a swept parameter.

One PNG per model (at its system config and memory mode). The x axis is a swept parameter
(keys that were swept together, e.g. a "zip" group, form one axis labelled "a = b"); one line
per value of a second parameter (--group KEY); every other parameter stays at its baseline
value (the spec's "baseline" point, else the model's first point). Values are the effective
ones the results record, so explicit points plot like grid points.

    python3 scripts/plot_sweep.py results.jsonl plots/
    python3 scripts/plot_sweep.py results.jsonl plots/ --y percent --group system.off_chip_flash.clock_scale

Needs matplotlib (Debian: python3-matplotlib).
"""

import argparse
import json
import sys
import textwrap

from sweep_results import plot_each_model, save_figure, values_of


def sort_key(value):
    return (0, value, "") if isinstance(value, (int, float)) and not isinstance(value, bool) else (1, 0, str(value))


def axes_of(records, keys):
    """The varied keys merged into axes: keys whose values move one-to-one form one axis."""
    varied = [k for k in keys if len({json.dumps(values_of(r).get(k)) for r in records}) > 1]
    axes = []
    for k in varied:
        for axis in axes:
            pairs = {(json.dumps(values_of(r).get(axis[0])), json.dumps(values_of(r).get(k))) for r in records}
            if len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs}):
                axis.append(k)
                break
        else:
            axes.append([k])
    return axes


def plot_model(plt, key, records, args):
    """One figure for one model; returns the PNG path or None when nothing varies."""
    keys = []
    for r in records:
        keys += [k for k in values_of(r) if k not in keys]
    ok = [r for r in records if r["status"] == "ok" and r.get("total_cycles") is not None]
    axes = axes_of(ok, keys)
    if not axes:
        return None
    group_axis = next((a for a in axes if args.group in a), None) if args.group else None
    if args.group and group_axis is None:
        sys.exit(f"plot_sweep: error: --group {args.group}: not a varied key of {key[0]}; varied: "
                 + ", ".join(k for a in axes for k in a))
    if group_axis is None and len(axes) == 2:
        group_axis = min(axes, key=lambda a: len({json.dumps(values_of(r)[a[0]]) for r in ok}))
    x_axes = [a for a in axes if a is not group_axis]
    base = next((r for r in ok if r.get("baseline")), ok[0])
    base_values = values_of(base)

    fig, panels = plt.subplots(1, len(x_axes), figsize=(max(8.5, 6 * len(x_axes)), 5), squeeze=False)
    for ax, x_axis in zip(panels.flat, x_axes):
        fixed = [k for a in axes if a is not x_axis and a is not group_axis for k in a]
        chosen = [r for r in ok if all(values_of(r).get(k) == base_values.get(k) for k in fixed)]
        group_values = sorted({json.dumps(values_of(r)[group_axis[0]]) for r in chosen},
                              key=lambda v: sort_key(json.loads(v))) if group_axis else ["null"]
        for g in group_values:
            line = [r for r in chosen if not group_axis or json.dumps(values_of(r)[group_axis[0]]) == g]
            line.sort(key=lambda r: sort_key(values_of(r)[x_axis[0]]))
            xs = [values_of(r)[x_axis[0]] for r in line]
            if args.y == "percent":
                ys = [100.0 * (r["total_cycles"] / base["total_cycles"] - 1.0) for r in line]
            else:
                ys = [1000.0 * r["time_s"] for r in line]
            label = f"{' = '.join(group_axis)} = {json.loads(g)}" if group_axis else None
            ax.plot(xs, ys, "o-", label=label)
            for x, y in zip(xs, ys):
                ax.annotate(f"{y:+.1f}%" if args.y == "percent" else f"{y:.2f}", (x, y), fontsize=8,
                            textcoords="offset points", xytext=(0, 6), ha="center")
        numeric = all(isinstance(values_of(r)[x_axis[0]], (int, float)) for r in chosen)
        if numeric:
            ticks = sorted({values_of(r)[x_axis[0]] for r in chosen})
            if min(ticks) > 0 and max(ticks) / min(ticks) >= 4:
                ax.set_xscale("log", base=2)
            ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax.set_xlabel(" = ".join(x_axis))
        ax.set_ylabel("change of total cycles vs baseline (%)" if args.y == "percent"
                      else "inference time (ms at the configured clock)")
        if args.y == "percent":
            ax.axhline(0, color="0.5", linewidth=0.8)
        ax.grid(True, alpha=0.3)
        if group_axis:
            ax.legend(fontsize=8)
    model, system_config, memory_mode = key
    base_text = textwrap.fill("baseline: " + ", ".join(f"{k}={v}" for k, v in base_values.items()), 110)
    fig.suptitle(f"{model}\n{system_config}, {memory_mode}\n{base_text}", fontsize=8)
    return save_figure(plt, fig, key, args.out_dir, "")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results", help="sweep results (JSONL) from npusim sweep or sweep-merge")
    p.add_argument("out_dir_pos", nargs="?", metavar="OUTDIR", help="folder for the PNG files (or --out-dir)")
    p.add_argument("--out-dir", default=None, help="folder for the PNG files (default: current folder)")
    p.add_argument("--y", default="ms", choices=["ms", "percent"],
                   help="inference time in ms at the configured clock, or %% change of cycles vs the baseline")
    p.add_argument("--group", default=None, help="swept key drawn as one line per value (default: with two "
                   "swept axes, the one with fewer values)")
    args = p.parse_args()
    args.out_dir = args.out_dir or args.out_dir_pos or "."
    return plot_each_model("plot_sweep", args, plot_model, "no model has a parameter with more than one value")


if __name__ == "__main__":
    sys.exit(main())
