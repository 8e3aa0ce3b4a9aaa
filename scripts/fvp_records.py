#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The 15 Ethos-U85 cells of fixtures/fvp-perop record by record, as tests/fidelity/perop_test.cpp runs them.

For each cell of cells.csv (five networks x three U85 builds): `npusim probe write MODEL --irq
--out DIR --system-config Corstone_320_FVP --memory-mode <the cell's>` and `npusim probe compare
DIR/launches.csv segments.csv --where model=M --where config=C --quantum 1000 --json OUT` (the FVP
sees each interrupt at its 1,000-cycle scheduling quantum: fixtures/fvp-perop/README.md). Prints
Markdown:

* per cell, the record boundaries whose running sum is within 5% or 1,000 cycles of the FVP's
  (issue 30's target) and the whole run's error (the last boundary);
* per operation type over the cells, the cycles of the records whose kernel launches are all of
  that type (probe compare's `types`), FVP against npusim, and beside them Vela 5.0's per-layer
  estimate summed the same way: a layer (an `npusim estimate --json` row, which names its
  kernel operations by command-stream offset) counts for a type when every record that covers
  one of its launches is of that type. Vela's columns: on the compile's own section (Vela's
  estimate as its summary CSV gives it) and on `Corstone_320_FVP` (Vela's model on the
  platform's memory figures), over the cells `estimate` takes (the FVP's cycles of those cells
  beside them);
* the beat counts above 1,000 within 5% (issue 30's target).

`--before OLD/npusim` adds the same runs with another build as columns. `--pulse-starts 0,1000,...`
prints instead, per cell, the boundaries within 5% at each of those values of
npu.adapter_pulse_start (where the timing adapters' pulse cycles stand when the run starts; the
FVP's is not known).

    scripts/fvp_records.py [--npusim build/npusim] [--before OLD/npusim] [--fixtures ../shared/fixtures] [-j 2]
                           [--pulse-starts 0,1000,...]
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from fvp_options import add_pulse_starts_option, add_run_options, pulse_starts

BOUNDARY, QUANTUM, BEATS, BEAT_FLOOR = 0.05, 1000, 0.05, 1000  # issue 30's targets, as the test applies them
PLATFORM = "Corstone_320_FVP"


def npusim(binary, args, fail=True):
    """Runs npusim; on failure exits (`fail`) or returns its last stderr line."""
    p = subprocess.run([binary] + args, capture_output=True, text=True)
    if p.returncode == 0:
        return None
    message = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}"
    if fail:
        sys.exit(f"fvp_records.py: {binary} {' '.join(args)}: {message}")
    return message


def compare(binary, folder, cell, extra=()):
    """probe write --irq (with the `extra` options) and probe compare of one cell: (the comparison, the launch rows)."""
    with tempfile.TemporaryDirectory() as tmp:
        npusim(binary, ["probe", "write", os.path.join(folder, cell["file"]), "--irq", "--out", tmp,
                        "--system-config", PLATFORM, "--memory-mode", cell["memory_mode"]] + list(extra))
        out = os.path.join(tmp, "compare.json")
        npusim(binary, ["probe", "compare", os.path.join(tmp, "launches.csv"), os.path.join(folder, "segments.csv"),
                        "--where", "model=" + cell["model"], "--where", "config=" + cell["config"],
                        "--quantum", str(QUANTUM), "--json", out])
        with open(os.path.join(tmp, "launches.csv"), newline="") as f:
            return json.load(open(out)), list(csv.DictReader(f))


def estimate(binary, model, system_config):
    """Vela 5.0's per-layer rows, (op cycles, command offsets of its operations), or the error line."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "estimate.json")
        error = npusim(binary, ["estimate", model, "--json", out] + (["--system-config", system_config] if system_config
                                                                     else []), fail=False)
        if error:
            return error
        j = json.load(open(out))
    return [(layer["op_cycles"], set(layer.get("npu_op_offsets", []))) for s in j["subgraphs"] for layer in s["layers"]]


def vela_by_type(comparison, launches, layers):
    """Vela's cycles per record type: each layer to the type of the records covering its launches."""
    record_of = {}
    for r in comparison["records"]:
        for k in range(r["first_launch"], r["first_launch"] + r["launches"]):
            record_of[k] = r["type"]
    types = {}
    for cycles, offsets in layers:
        covering = {record_of[int(row["launch"])] for row in launches
                    if row["command_offset"] and int(row["command_offset"]) in offsets and int(row["launch"]) in record_of}
        if len(covering) == 1:
            t = covering.pop()
            types[t] = types.get(t, 0) + cycles
    return types


def within_boundaries(records):
    """The record boundaries whose running sum is within 5% or the quantum of the FVP's."""
    return sum(abs(r["simulated_running"] - r["measured_running"]) <= max(BOUNDARY * r["measured_running"], QUANTUM)
               for r in records)


def pulse_start_table(binary, folder, cells, starts, workers):
    """Markdown: per cell, the boundaries within 5% at each pulse start, and the totals."""
    def job(cell):
        """(the cell's records, the boundaries within 5% at each start)."""
        runs = [compare(binary, folder, cell, ["--set", f"npu.adapter_pulse_start={v}"])[0]["records"] for v in starts]
        return len(runs[0]), [within_boundaries(r) for r in runs]

    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(job, cells))
    records = [n for n, _ in results]
    counts = [row for _, row in results]
    print("Record boundaries within 5% (or 1,000 cycles) at npu.adapter_pulse_start = " + ", ".join(map(str, starts)))
    print()
    print("| model | build | records | " + " | ".join(str(v) for v in starts) + " |")
    print("|---|---|--:|" + "--:|" * len(starts))
    for cell, n, row in zip(cells, records, counts):
        print(f"| {cell['model']} | {cell['config']} | {n} | " + " | ".join(str(k) for k in row) + " |")
    print(f"| all | | {sum(records)} | " + " | ".join(str(sum(row[i] for row in counts)) for i in range(len(starts)))
          + " |")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_run_options(ap, "another npusim binary (an older build): the same runs as columns")
    add_pulse_starts_option(ap, "per cell the boundaries within 5% at each (Markdown), instead of the tables above")
    opts = ap.parse_args()
    starts = pulse_starts(ap, opts, {"--before": opts.before})

    folder = os.path.join(opts.fixtures, "fvp-perop")
    with open(os.path.join(folder, "cells.csv"), newline="") as f:
        cells = list(csv.DictReader(f))
    if starts:
        return pulse_start_table(opts.npusim, folder, cells, starts, opts.j)
    binaries = [opts.npusim] + ([opts.before] if opts.before else [])
    labels = ["npusim"] + ([opts.before_label] if opts.before else [])

    def job(cell):
        model = os.path.join(folder, cell["file"])
        runs = [compare(b, folder, cell) for b in binaries]
        layers = {"section": estimate(opts.npusim, model, None), "platform": estimate(opts.npusim, model, PLATFORM)}
        return runs, layers

    with ThreadPoolExecutor(max_workers=opts.j) as pool:
        results = list(pool.map(job, cells))

    # Per cell.
    print("| model | build | records | " + " | ".join(f"boundaries within 5% ({x})" for x in labels) + " | "
          + " | ".join(f"whole run ({x})" for x in labels) + " |")
    print("|---|---|--:|" + "--:|" * 2 * len(labels))
    within = [0] * len(labels)
    boundaries = 0
    beats = [[0, 0] for _ in labels]
    types = [{} for _ in labels]  # type -> [records, launches, measured, simulated]
    vela = {"section": {}, "platform": {}}
    vela_fvp = {}  # type -> the FVP's cycles over the cells with Vela's estimate
    no_estimate = []
    for cell, (runs, layers) in zip(cells, results):
        counts, totals = [], []
        for i, (comparison, launches) in enumerate(runs):
            records = comparison["records"]
            n = within_boundaries(records)
            within[i] += n
            counts.append(f"{n} of {len(records)}")
            last = records[-1]
            totals.append(f"{100 * (last['simulated_running'] - last['measured_running']) / last['measured_running']:+.1f}%")
            for r in records:
                for b in r["beats"].values():
                    if b["measured"] > BEAT_FLOOR:
                        beats[i][0] += 1
                        beats[i][1] += abs(b["simulated"] - b["measured"]) <= BEATS * b["measured"]
            for t in comparison["types"]:
                s = types[i].setdefault(t["type"], [0, 0, 0, 0])
                for k, key in enumerate(("records", "launches", "measured_cycles", "simulated_cycles")):
                    s[k] += t[key]
        boundaries += len(runs[0][0]["records"])
        failed = [layers[key] for key in vela if isinstance(layers[key], str)]
        if failed:
            no_estimate.append(f"{cell['model']} {cell['config']} ({failed[0]})")
        else:
            for key in vela:
                for t, c in vela_by_type(runs[0][0], runs[0][1], layers[key]).items():
                    vela[key][t] = vela[key].get(t, 0) + c
            for t in runs[0][0]["types"]:
                vela_fvp[t["type"]] = vela_fvp.get(t["type"], 0) + t["measured_cycles"]
        print(f"| {cell['model']} | {cell['config']} | {len(runs[0][0]['records'])} | " + " | ".join(counts) + " | "
              + " | ".join(totals) + " |")
    print(f"| all | | {boundaries} | " + " | ".join(str(w) for w in within) + " | " + " | ".join("" for _ in labels) + " |")
    print()

    # Per type, over the cells.
    def err(v, ref):
        return f"{100 * (v - ref) / ref:+.1f}%" if ref else "–"

    print("| type | records | launches | FVP | " + "".join(f"{x} | | " for x in labels)
          + "FVP, cells with Vela's estimate | Vela 5.0, the compile's section | | Vela 5.0's model on `Corstone_320_FVP` | |")
    print("|---|--:|--:|--:|" + "--:|--:|" * len(labels) + "--:|" + "--:|--:|" * 2)
    order = sorted(types[0], key=lambda t: (t in ("mixed", "other"), t))
    for t in order:
        records, launches, measured, _ = types[0][t]
        line = f"| {t} | {records} | {launches} | {measured:,} |"
        for i in range(len(labels)):
            s = types[i].get(t)
            line += f" {s[3]:,} | {err(s[3], s[2])} |" if s else " – | |"
        line += f" {vela_fvp.get(t, 0):,} |"
        for key in ("section", "platform"):
            v = vela[key].get(t)
            line += f" {v:,.0f} | {err(v, vela_fvp.get(t, 0))} |" if v is not None else " – | |"
        print(line)
    print()
    for cell in no_estimate:
        print(f"No Vela estimate: {cell}")
    for i, label in enumerate(labels):
        print(f"{label}: record boundaries within 5% or 1,000 cycles {within[i]} of {boundaries}; "
              f"beat counts above 1,000 within 5% {beats[i][1]} of {beats[i][0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
