#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Every row of fixtures/fvp-perop/sweeps.csv against npusim, as tests/fidelity/sweeps_test.cpp runs it.

Each row is one whole inference on the FVP with timing-adapter registers changed from the kit's
profile. The row is simulated on the platform it was measured on (`Corstone_300_FVP` for the
Ethos-U55/U65, `Corstone_320_FVP` for the U85) with the compile's memory mode and each changed
register set on every port of its group: `SRAM_*` on the SRAM group's ports (the U55/U65's
`axi0`, the U85's `sram*`), `EXT_*` on the external group's (`axi1`, `ext*`), as
`--set npu.<port>.ta.<maxr|maxw|maxrw|rlatency|wlatency|pulse_on|pulse_off|bwcap>=V`; `EXT_MAXR=64`
is written as 0 (a 6-bit field: unlimited, fvp-perop/README.md). The count compared is
NPU_ACTIVE where the row gives it, else NPU_TOTAL (ACTIVE + IDLE), which the FVP quantises to
about 1,000 cycles. A row's change is from the row of the same compile and memory mode that the
study marks as its base (that group's, else another group's).

Prints Markdown: every Ethos-U55/U65 row (FVP, simulated, error, change from the base row: FVP
and simulated); per group and Ethos-U85 accelerator the mean |error|, the rows within 5% (plus
the quantum) and the changes within 15% (or 1% of the base count, plus the quanta), as the test
bounds them; and per latency sweep of the U85 (rows of one compile that differ only in EXT read
and write latency, along a line: read latency varied at a fixed write latency, write at a fixed
read, or read = 2 x write) the slope of NPU_TOTAL in cycles per latency cycle, least squares
over the sweep's rows, FVP and simulated.

    scripts/fvp_sweeps.py [--npusim build/npusim] [--fixtures ../shared/fixtures] [-j 2] [--filter TEXT]
"""

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from fvp_options import add_run_options

QUANTUM = 1000          # the FVP's NPU_TOTAL scheduling quantum (fvp-perop/README.md)
LEVEL, CHANGE, SMALL_CHANGE = 0.05, 0.15, 0.01  # issue 32's bounds, as the test applies them
REGISTER = re.compile(r"^\s*(SRAM|EXT)_(MAXR|MAXW|MAXRW|RLATENCY|WLATENCY|PULSE_ON|PULSE_OFF|BWCAP)=(\d+)")


def registers(changes):
    """(group, register, value) of each register a row's `changes` sets."""
    out = []
    for token in changes.split(";"):
        m = REGISTER.match(token)
        if m:
            value = "0" if m.group(2) == "MAXR" and m.group(3) == "64" else m.group(3)
            out.append((m.group(1), m.group(2).lower(), value))
    return out


def group_of(port):
    return "SRAM" if port == "axi0" or port.startswith("sram") else "EXT"


def platform(row):
    return "Corstone_320_FVP" if row["accelerator"].startswith("ethos-u85") else "Corstone_300_FVP"


def run(npusim, model, args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        p = subprocess.run([npusim, "run", model, "--json", out] + args, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"fvp_sweeps.py: {model} {' '.join(args)}: " + (p.stderr.strip() or f"exit {p.returncode}"))
        return json.load(open(out))


def is_base(row):
    return "base" in row["condition"].lower() or row["changes"] == "TA = base profile"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_run_options(ap)
    ap.add_argument("--filter", default="", help="only rows whose accelerator or model contains this text")
    opts = ap.parse_args()

    folder = os.path.join(opts.fixtures, "fvp-perop")
    with open(os.path.join(folder, "sweeps.csv"), newline="") as f:
        rows = [r for r in csv.DictReader(f) if opts.filter in r["accelerator"] + " " + r["model"]]

    def base_args(r):
        return ["--system-config", platform(r), "--memory-mode", r["memory_mode"]]

    with ThreadPoolExecutor(max_workers=opts.j) as pool:
        compiles = sorted({(r["file"], tuple(base_args(r))) for r in rows})
        runs = pool.map(lambda c: run(opts.npusim, os.path.join(folder, c[0]), list(c[1])), compiles)
        ports = {c: [p["name"] for p in j["ports"]] for c, j in zip(compiles, runs)}

        def simulate(r):
            args = base_args(r)
            for group, name, value in registers(r["changes"]):
                for port in ports[(r["file"], tuple(args[:4]))]:
                    if group_of(port) == group:
                        args += ["--set", f"npu.{port}.ta.{name}={value}"]
            j = run(opts.npusim, os.path.join(folder, r["file"]), args)
            return j["npu_active_cycles"], j["npu_active_cycles"] + j["npu_idle_cycles"]

        sims = list(pool.map(simulate, rows))

    def counts(i):
        """The FVP's count of row i, the simulated one, its quantum and its name."""
        if rows[i]["npu_active"]:
            return float(rows[i]["npu_active"]), sims[i][0], 0, "ACTIVE"
        return float(rows[i]["npu_total"]), sims[i][1], QUANTUM, "TOTAL"

    def base_of(i):
        r, best = rows[i], None
        if is_base(r):
            return None
        for k, b in enumerate(rows):
            if b["file"] != r["file"] or b["memory_mode"] != r["memory_mode"] or not is_base(b):
                continue
            if best is None or (b["group"] == r["group"] and rows[best]["group"] != r["group"]):
                best = k
        return best

    # Per row: level error and the change from its base row.
    results = []
    for i, r in enumerate(rows):
        fvp, sim, quantum, name = counts(i)
        level_ok = abs(sim - fvp) <= LEVEL * fvp + quantum
        change = None
        b = base_of(i)
        if b is not None:
            fvp_b, sim_b, quantum_b, _ = counts(b)
            fvp_c, sim_c = fvp - fvp_b, sim - sim_b
            ok = abs(sim_c - fvp_c) <= max(CHANGE * abs(fvp_c), SMALL_CHANGE * fvp_b) + quantum + quantum_b
            change = (fvp_c, sim_c, ok)
        results.append((r, name, fvp, sim, 100 * (sim - fvp) / fvp, level_ok, change))

    def signed(v):
        return f"{v:+,.0f}"

    small = [x for x in results if not x[0]["accelerator"].startswith("ethos-u85")]
    if small:
        print("| group | accelerator | model | memory mode | changes | count | FVP | npusim | error "
              "| change from base: FVP | npusim |")
        print("|---|---|---|---|---|---|--:|--:|--:|--:|--:|")
        for r, name, fvp, sim, err, _, change in small:
            cells = [r["group"], r["accelerator"], r["model"], r["memory_mode"], r["changes"].replace("|", "/"), name,
                     f"{fvp:,.0f}", f"{sim:,.0f}", f"{err:+.1f}%"]
            cells += [signed(change[0]), signed(change[1])] if change else ["base" if is_base(r) else "–", ""]
            print("| " + " | ".join(cells) + " |")
        errs = [abs(x[4]) for x in small]
        changes = [x[6] for x in small if x[6]]
        print()
        print(f"Ethos-U55/U65: {len(small)} rows, mean |error| {sum(errs) / len(errs):.1f}%, "
              f"{sum(x[5] for x in small)} within 5%; {sum(c[2] for c in changes)} of {len(changes)} changes "
              "within 15%.")
        print()

    big = [x for x in results if x[0]["accelerator"].startswith("ethos-u85")]
    if not big:
        return 0
    print("| group | accelerator | rows | mean \\|error\\| | worst | within 5% | changes within 15% |")
    print("|---|---|--:|--:|--:|--:|--:|")
    groups = {}
    for x in big:
        groups.setdefault((x[0]["group"], x[0]["accelerator"]), []).append(x)
    macs = lambda key: (key[0], int(key[1].rsplit("-", 1)[1]))
    for key in sorted(groups, key=macs):
        xs = groups[key]
        changes = [x[6] for x in xs if x[6]]
        worst = max(xs, key=lambda x: abs(x[4]))
        print(f"| {key[0]} | {key[1]} | {len(xs)} | {sum(abs(x[4]) for x in xs) / len(xs):.1f}% | {worst[4]:+.1f}% "
              f"| {sum(x[5] for x in xs)} | " + (f"{sum(c[2] for c in changes)} of {len(changes)}" if changes else "–")
              + " |")
    errs = [abs(x[4]) for x in big]
    changes = [x[6] for x in big if x[6]]
    print(f"| all | Ethos-U85 | {len(big)} | {sum(errs) / len(errs):.1f}% | "
          f"{max((x[4] for x in big), key=abs):+.1f}% | {sum(x[5] for x in big)} | "
          f"{sum(c[2] for c in changes)} of {len(changes)} |")
    print()

    # Latency sweeps: rows of one group and compile that set only EXT_RLATENCY and EXT_WLATENCY.
    lines = {}
    for i, r in enumerate(rows):
        if not r["accelerator"].startswith("ethos-u85"):
            continue
        regs = {name: int(v) for g, name, v in registers(r["changes"]) if g == "EXT"}
        if set(regs) != {"rlatency", "wlatency"} or len(registers(r["changes"])) != 2:
            continue
        key = (r["group"], r["accelerator"], r["model"], r["memory_mode"])
        rl, wl = regs["rlatency"], regs["wlatency"]
        point = (rows[i]["npu_total"], sims[i][1], rl, wl)
        lines.setdefault(key + (f"read latency, write {wl}", ), []).append((rl,) + point)
        lines.setdefault(key + (f"write latency, read {rl}", ), []).append((wl,) + point)
        if abs(wl - rl / 2) <= 1:
            lines.setdefault(key + ("read latency, write = read / 2", ), []).append((rl,) + point)

    def slope(xs, ys):
        n = len(xs)
        mx, my = sum(xs) / n, sum(ys) / n
        return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)

    print("| group | accelerator | model | sweep | points (read/write latency) | FVP cycles per latency cycle "
          "| npusim | npusim / FVP |")
    print("|---|---|---|---|---|--:|--:|--:|")
    for key in sorted(lines, key=lambda k: (k[0], int(k[1].rsplit("-", 1)[1]), k[2], k[4])):
        pts = sorted(set(lines[key]))
        if len({p[0] for p in pts}) < 3:
            continue
        xs = [p[0] for p in pts]
        f, s = slope(xs, [float(p[1]) for p in pts]), slope(xs, [p[2] for p in pts])
        label = ", ".join(f"{p[3]}/{p[4]}" for p in pts)
        print(f"| {key[0]} | {key[1]} | {key[2]} | {key[4]} | {label} | {f:.1f} | {s:.1f} | {s / f:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
