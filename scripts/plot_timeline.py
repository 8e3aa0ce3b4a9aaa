#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Gantt chart of an `npusim run --trace` file, with AXI port bandwidth below it.

    scripts/plot_timeline.py TRACE OUT.png [--from C] [--to C] [--layer NAME]

TRACE is the .json or .json.gz that `npusim run --trace` wrote. --from/--to select NPU cycles;
--layer NAME shows the span of the kernel operations of that layer (the `layer` arg of their
slices). Every thread of the trace with a slice in the range gets one row, coloured by track
(numbered threads of one track share its colour). The lower panel plots the per-port read and write B/cycle counters.
"""
import argparse
import gzip
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--from", dest="start", type=float, help="first NPU cycle shown")
    ap.add_argument("--to", dest="end", type=float, help="last NPU cycle shown")
    ap.add_argument("--layer", help="show the kernel operations of this layer")
    args = ap.parse_args(argv)

    trace = load(args.trace)
    clock = float(trace["otherData"]["npu_clock_hz"])
    cycles = clock / 1e6  # ts is in microseconds of simulated time
    events = trace["traceEvents"]
    process, thread = {}, {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "process_name":
            process[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            thread[(e["pid"], e["tid"])] = e["args"]["name"]
    slices = [e for e in events if e["ph"] == "X"]
    end_all = max((e["ts"] + e["dur"]) * cycles for e in slices) if slices else 1.0
    start, end = args.start if args.start is not None else 0.0, args.end if args.end is not None else end_all
    if args.layer:
        mine = [e for e in slices if e["pid"] == 3 and e["args"].get("layer") == args.layer]
        if not mine:
            sys.exit(f"plot_timeline.py: no kernel operation of layer '{args.layer}' in {args.trace}")
        lo = min(e["ts"] for e in mine) * cycles
        hi = max(e["ts"] + e["dur"] for e in mine) * cycles
        margin = 0.05 * (hi - lo)
        start, end = (lo - margin if args.start is None else start), (hi + margin if args.end is None else end)
    if end <= start:
        sys.exit("plot_timeline.py: --to must be after --from")

    rows = {}
    for e in slices:
        a, z = e["ts"] * cycles, (e["ts"] + e["dur"]) * cycles
        if z < start or a > end:
            continue
        rows.setdefault((e["pid"], e["tid"]), []).append((a, z - a))
    keys = sorted(rows)
    colours = plt.get_cmap("tab10")
    fig, (gantt, bw) = plt.subplots(2, 1, figsize=(12, 1.2 + 0.32 * len(keys) + 2.4), sharex=True,
                                    gridspec_kw={"height_ratios": [max(len(keys), 1) * 0.32, 2.4]})
    tracks = sorted({thread.get(k, str(k[1])).split(" (")[0] for k in keys})
    for i, key in enumerate(keys):
        colour = colours(tracks.index(thread.get(key, str(key[1])).split(" (")[0]) % 10)
        gantt.broken_barh(rows[key], (i - 0.4, 0.8), facecolors=colour, linewidth=0)
    gantt.set_yticks(range(len(keys)))
    gantt.set_yticklabels([f"{process.get(k[0], k[0])}: {thread.get(k, k[1])}" for k in keys], fontsize=7)
    gantt.invert_yaxis()
    gantt.set_title(f"{os.path.basename(trace['otherData'].get('model', ''))} ({trace['otherData'].get('accelerator', '')}, "
                    f"{clock / 1e6:.0f} MHz)" + (f", layer {args.layer}" if args.layer else ""), fontsize=9)

    series = {}
    for e in events:
        if e["ph"] == "C" and "B/cycle" in e["name"]:
            series.setdefault(e["name"], []).append((e["ts"] * cycles, next(iter(e["args"].values()))))
    for name in sorted(series):
        pts = sorted(series[name])
        xs = [p[0] for p in pts] + [end_all]
        ys = [p[1] for p in pts] + [pts[-1][1]]
        bw.step(xs, ys, where="post", label=name, linewidth=0.9)
    bw.set_ylabel("bytes / cycle")
    bw.set_xlabel("NPU cycle")
    if series:
        bw.legend(fontsize=7, loc="upper right")
    bw.set_xlim(start, end)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
