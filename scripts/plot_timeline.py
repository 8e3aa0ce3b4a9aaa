#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Gantt chart of an `npusim run --trace` file, with AXI port bandwidth below it.

    scripts/plot_timeline.py TRACE OUT.png [--from C] [--to C] [--layer NAME]

TRACE is the .json or .json.gz that `npusim run --trace` wrote. --from/--to select NPU cycles;
--layer NAME shows the span of the kernel operations of that layer (the `layer` arg of their
slices). Every thread of the trace with a slice in the range gets one row, coloured by its track
(TRACK_COLOURS; numbered threads of one track share its colour), so a track has the same colour
in every plot whatever else is in range. The lower panel plots the per-port read (solid) and
write (dashed) B/cycle counters, one colour per port.
"""
import argparse
import gzip
import json
import os
import re
import sys
import zlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


# The tab20 index of each track the trace writes (docs/outputs.md), kept apart by unit; a track
# not listed gets one from a hash of its name.
TRACK_COLOURS = {
    "network operators": 0, "waits": 2, "operations": 4, "IFM fetch": 6, "weights": 8, "MAC": 10,
    "output unit": 12, "OFM write": 14, "transfers": 16, "read bursts": 18, "write bursts": 19,
}
FIRST_PORT_PID = 5  # the trace's port processes follow host, command processor, kernel unit, DMA


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def track_of(thread_name):
    """The track a thread belongs to: its name without the number of an overflow thread, "MAC (2)"."""
    return re.sub(r" \(\d+\)$", "", thread_name)


def track_colour(thread_name):
    """The tab20 index of a thread's track: fixed, whatever other threads a plot shows."""
    track = track_of(thread_name)
    return TRACK_COLOURS.get(track, zlib.crc32(track.encode("utf-8")) % 20)


def port_colour(pid):
    """The tab10 index of a port's bandwidth lines: by its place in the port list."""
    return (pid - FIRST_PORT_PID) % 10


def names(events):
    """Process names by pid and thread names by (pid, tid), from the trace's metadata events."""
    process, thread = {}, {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "process_name":
            process[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            thread[(e["pid"], e["tid"])] = e["args"]["name"]
    return process, thread


def gantt_rows(trace, start, end):
    """(label, tab20 colour index, [(first cycle, cycles)]) of each thread with a slice in
    [start, end] NPU cycles, in process and thread order."""
    cycles = float(trace["otherData"]["npu_clock_hz"]) / 1e6  # ts is in microseconds of simulated time
    process, thread = names(trace["traceEvents"])
    rows = {}
    for e in trace["traceEvents"]:
        if e["ph"] != "X":
            continue
        a, z = e["ts"] * cycles, (e["ts"] + e["dur"]) * cycles
        if z < start or a > end:
            continue
        rows.setdefault((e["pid"], e["tid"]), []).append((a, z - a))
    return [(f"{process.get(k[0], k[0])}: {thread.get(k, k[1])}", track_colour(thread.get(k, str(k[1]))), rows[k])
            for k in sorted(rows)]


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

    rows = gantt_rows(trace, start, end)
    colours = plt.get_cmap("tab20")
    fig, (gantt, bw) = plt.subplots(2, 1, figsize=(12, 1.2 + 0.32 * len(rows) + 2.4), sharex=True,
                                    gridspec_kw={"height_ratios": [max(len(rows), 1) * 0.32, 2.4]})
    for i, (_, colour, spans) in enumerate(rows):
        gantt.broken_barh(spans, (i - 0.4, 0.8), facecolors=colours(colour), linewidth=0)
    gantt.set_yticks(range(len(rows)))
    gantt.set_yticklabels([label for label, _, _ in rows], fontsize=7)
    gantt.invert_yaxis()
    gantt.set_title(f"{os.path.basename(trace['otherData'].get('model', ''))} ({trace['otherData'].get('accelerator', '')}, "
                    f"{clock / 1e6:.0f} MHz)" + (f", layer {args.layer}" if args.layer else ""), fontsize=9)

    series = {}
    for e in events:
        if e["ph"] == "C" and "B/cycle" in e["name"]:
            series.setdefault((e["pid"], e["name"]), []).append((e["ts"] * cycles, next(iter(e["args"].values()))))
    port_colours = plt.get_cmap("tab10")
    for pid, name in sorted(series):
        pts = sorted(series[(pid, name)])
        xs = [p[0] for p in pts] + [end_all]
        ys = [p[1] for p in pts] + [pts[-1][1]]
        bw.step(xs, ys, where="post", label=name, linewidth=0.9, color=port_colours(port_colour(pid)),
                linestyle="--" if "write" in name else "-")
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
