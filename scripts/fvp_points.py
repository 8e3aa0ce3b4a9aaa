#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Every measured FVP point of fixtures/fvp/points.csv against npusim.

For each Ethos-U55/U65 point measured with the Corstone-300 timing adapters on (the `formal` rows
of the mps4 sweep and the himax rows), runs `npusim run` with `--system-config Corstone_300_FVP
--memory-mode <the compile's mode>` (himax's `My_Mem_Mode_Parent` is Shared_Sram: constants on
AXI1, arena on AXI0) and prints the NPU_ACTIVE error and every AXI beat-count error, then the
mean |error| and the worst point per NPU and per accelerator. With `--u85`, the Ethos-U85's
formal FVP rows instead, on `Corstone_320_FVP` (the SRAM and EXT beat counts where a run of the
same compile gives them; the MPS4 board's formal runs of the same files as a column of `--md`).
Optional columns: npusim on Vela's section for the compile (`--vela-section`), Vela 5.0.0's
estimate from the summary CSV beside the model, and the same platform run with another npusim
binary (`--before`, e.g. an older build, for before/after tables).

    scripts/fvp_points.py [--npusim build/npusim] [--before OLD/npusim] [--fixtures ../shared/fixtures]
                          [-j 2] [--u85] [--vela-section] [--mlek] [--md] [--brief] [--csv OUT.csv]
                          [--set key=value ...] [--pulse-starts 0,500,...]

With `--pulse-starts`, instead: each point's error over those values of npu.adapter_pulse_start
(where the timing adapters' pulse cycles stand when the run starts; the FVP's is not known), as
Markdown: per point the lowest, mean and highest error, then the mean |mean error| and the points
whose range reaches within 5%.
"""

import argparse
import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from fvp_options import add_pulse_starts_option, add_run_options, pulse_starts

# Per NPU family: the accelerators' prefixes, the platform preset they were measured on, and the
# beat counts of points.csv with their PMU events.
FAMILIES = {
    "u55": (("ethos-u55", "ethos-u65"), "Corstone_300_FVP",
            [("axi0_rd_beats", "AXI0_RD_DATA_BEAT_RECEIVED"), ("axi0_wr_beats", "AXI0_WR_DATA_BEAT_WRITTEN"),
             ("axi1_rd_beats", "AXI1_RD_DATA_BEAT_RECEIVED")]),
    "u85": (("ethos-u85",), "Corstone_320_FVP",
            [("sram_rd_beats", "SRAM_RD_DATA_BEAT_RECEIVED"), ("sram_wr_beats", "SRAM_WR_DATA_BEAT_WRITTEN"),
             ("ext_rd_beats", "EXT_RD_DATA_BEAT_RECEIVED"), ("ext_wr_beats", "EXT_WR_DATA_BEAT_WRITTEN")]),
}


def read_points(fixtures):
    with open(os.path.join(fixtures, "fvp", "points.csv"), newline="") as f:
        return [r for r in csv.DictReader(f) if r["timing_adapter"] == "ON"]


def points(fixtures, prefixes, beats):
    """The FVP rows of these accelerators measured with the timing adapters on, one per model and
    accelerator. Another FVP run of the same compile (a probe or qualification run, which repeats a
    formal row's cycles) adds the beat counts its formal row lacks."""
    rows, others = [], []
    for r in read_points(fixtures):
        if r["target"] != "FVP" or not r["accelerator"].startswith(prefixes):
            continue
        (others if r["source"] == "mps4" and not r["run"].startswith("formal") else rows).append(r)
    for o in others:
        for r in rows:
            if r["file"] == o["file"]:
                r.update({col: o[col] for col, _ in beats if not r[col] and o[col]})
    return rows


def board_runs(fixtures):
    """The MPS4 board's formal runs, NPU_ACTIVE per compiled file."""
    runs = {}
    for r in read_points(fixtures):
        if r["target"] == "board" and r["run"].startswith("formal") and r["npu_active"]:
            runs.setdefault(r["file"], []).append(int(r["npu_active"]))
    return runs


def mlek_points(fixtures):
    """The three published kit points of fixtures/mlek/README.md (ethos-u55-128, Shared_Sram), as rows."""
    text = open(os.path.join(fixtures, "mlek", "README.md")).read()
    num = lambda s: s.replace(",", "").strip()
    rows = []
    kws = re.search(r"compiled exactly as in\s+`compiled/([^`]+)/`", text)
    counts = dict(re.findall(r"^\| (NPU ACTIVE cycles|AXI[01] \w+ data beats) \| ([\d,]+) \|", text, re.M))
    if kws and counts:
        rows.append((kws.group(1), num(counts["NPU ACTIVE cycles"]), num(counts["AXI0 read data beats"]),
                     num(counts["AXI0 write data beats"]), num(counts["AXI1 read data beats"])))
    for m in re.finditer(r"^\| \w+ \(`([^`]+)`\) \|[^|]*\|[^|]*\| ([\d,]+) \|[^|]*\|[^|]*\| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|",
                         text, re.M):
        rows.append((m.group(1),) + tuple(num(g) for g in m.groups()[1:]))
    out = []
    for folder, active, r0, w0, r1 in rows:
        model = glob.glob(os.path.join(fixtures, "mlek", "compiled", folder, "*_vela.tflite"))
        out.append({"source": "mlek", "model": folder, "accelerator": "ethos-u55-128", "memory_mode": "Shared_Sram",
                    "system_config": "Ethos_U55_High_End_Embedded", "file": os.path.abspath(model[0]) if model else "",
                    "npu_active": active, "axi0_rd_beats": r0, "axi0_wr_beats": w0, "axi1_rd_beats": r1})
    return out


def memory_mode(row):
    mode = row["memory_mode"]
    return "Shared_Sram" if mode.startswith("My_Mem_Mode_Parent") else mode


def run(npusim, model, args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        p = subprocess.run([npusim, "run", model, "--json", out] + args, capture_output=True, text=True)
        if p.returncode != 0:
            return {"error": p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}"}
        return json.load(open(out))


def vela_estimate(model):
    csvs = glob.glob(os.path.join(os.path.dirname(model), "*_summary_*.csv"))
    if not csvs:
        return None
    with open(csvs[0], newline="") as f:
        row = next(csv.DictReader(f))
    return float(row["cycles_total"])


def pct(got, ref):
    return 100.0 * (got - ref) / ref


def mean_abs(errors):
    return sum(abs(e) for e in errors) / len(errors)


def group_key(group):
    """Groups in the order of the NPU, then its MAC count; the kit points last."""
    digits = re.findall(r"\d+$", group)
    return (group.startswith("kit"), group.rstrip("0123456789"), int(digits[0]) if digits else 0)


def family_label(group):
    return group[:9].replace("ethos-u", "Ethos-U")


def pulse_start_table(rows, results, starts):
    """Markdown: each point's NPU_ACTIVE error over the pulse starts, and their summary."""
    print(f"NPU_ACTIVE error over npu.adapter_pulse_start = {', '.join(map(str, starts))}:")
    print()
    print("| model | accelerator | FVP NPU_ACTIVE | lowest | mean | highest |")
    print("|---|---|--:|--:|--:|--:|")
    means, reach = [], 0
    for r, res in zip(rows, results):
        failed = [x["error"] for x in res["starts"] if "error" in x]
        if failed:
            print("ERROR", r["model"], r["accelerator"], failed[0], file=sys.stderr)
            return 1
        fvp = float(r["npu_active"])
        errs = [pct(x["pmu"]["NPU_ACTIVE"], fvp) for x in res["starts"]]
        mean = sum(errs) / len(errs)
        means.append(abs(mean))
        reach += min(errs) <= 5 and max(errs) >= -5
        print(f"| {r['model'][:40]} | {r['accelerator']} | {int(fvp):,} | {min(errs):+.1f}% | {mean:+.1f}% | "
              f"{max(errs):+.1f}% |")
    print()
    print(f"Mean |mean error| {sum(means) / len(means):.2f}% over {len(means)} points; {reach} points reach within "
          f"5% at some start, {sum(m <= 5 for m in means)} have their mean error within 5%.")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_run_options(ap, "another npusim binary (an older build): its platform run as a column")
    ap.add_argument("--u85", action="store_true", help="the Ethos-U85 points on Corstone_320_FVP instead of the "
                    "Ethos-U55/U65 ones on Corstone_300_FVP")
    ap.add_argument("--vela-section", action="store_true", help="also run on Vela's section of each compile")
    ap.add_argument("--csv", help="write the table as CSV")
    ap.add_argument("--set", action="append", default=[], help="extra --set key=value for every platform run")
    ap.add_argument("--mlek", action="store_true", help="also the three kit points of fixtures/mlek (kept apart in the means)")
    ap.add_argument("--md", action="store_true", help="a Markdown table (docs/validation.md): FVP, npusim on the "
                    "platform and on Vela's section, Vela's estimates, mean |error| and worst point per accelerator")
    ap.add_argument("--vela310", help="a directory of Vela 3.10 compiles of the same networks (a folder per compile whose "
                    "name holds the model and the accelerator, with Vela's summary CSV): adds Vela 3.10's estimate")
    ap.add_argument("--brief", action="store_true", help="one line: each point's NPU_ACTIVE error, then the means")
    ap.add_argument("--filter", default="", help="only models/accelerators containing this text")
    add_pulse_starts_option(ap, "each point's error over them (Markdown), instead of the tables above")
    opts = ap.parse_args()
    starts = pulse_starts(ap, opts, {"--md": opts.md, "--brief": opts.brief, "--csv": opts.csv, "--before": opts.before,
                                     "--vela-section": opts.vela_section, "--mlek": opts.mlek, "--vela310": opts.vela310})

    if opts.md:
        opts.vela_section = True
    if opts.u85 and (opts.mlek or opts.vela310):
        ap.error("--mlek and --vela310 are Ethos-U55 points and columns, not --u85 ones")
    prefixes, platform, beats = FAMILIES["u85" if opts.u85 else "u55"]
    rows = points(opts.fixtures, prefixes, beats) + (mlek_points(opts.fixtures) if opts.mlek else [])
    rows = [r for r in rows if opts.filter in r["model"] + " " + r["accelerator"]]
    board = board_runs(opts.fixtures) if opts.u85 else {}
    fvp_dir = os.path.join(opts.fixtures, "fvp")

    def job(r):
        model = os.path.join(fvp_dir, r["file"])  # an absolute `file` (mlek rows) stays as it is
        args = ["--system-config", platform, "--memory-mode", memory_mode(r)] + [a for s in opts.set for a in ("--set", s)]
        res = {"platform": run(opts.npusim, model, args)}
        if starts:
            res["starts"] = [run(opts.npusim, model, args + ["--set", f"npu.adapter_pulse_start={v}"]) for v in starts]
            return res
        if opts.before:
            res["before"] = run(opts.before, model, args)
        if opts.vela_section:
            if r["source"] == "himax":
                sec = ["--vela-ini", os.path.join(fvp_dir, "himax", "himax_vela.ini"), "--system-config", "My_Sys_Cfg",
                       "--memory-mode", "My_Mem_Mode_Parent"]
            else:
                sec = ["--system-config", r["system_config"], "--memory-mode", r["memory_mode"]]
            res["section"] = run(opts.npusim, model, sec)
        res["vela"] = vela_estimate(model)
        if opts.vela310:
            found = [d for d in glob.glob(os.path.join(opts.vela310, "*")) if r["model"] in d and d.endswith(r["accelerator"])]
            res["vela310"] = vela_estimate(os.path.join(found[0], "x")) if found else None
        return res

    with ThreadPoolExecutor(max_workers=opts.j) as pool:
        results = list(pool.map(job, rows))
    if starts:
        return pulse_start_table(rows, results, starts)

    # The columns of NPU_ACTIVE: (key of the result, short name, Markdown header).
    columns = [("platform", "npusim", f"npusim `{platform}`")]
    if opts.before:
        columns.append(("before", opts.before_label, f"npusim {opts.before_label}"))
    if opts.vela_section:
        columns.append(("section", "section", "npusim on Vela's section"))
    columns.append(("vela", "Vela est", "Vela's estimate (the compile's)"))
    if opts.vela310:
        columns.append(("vela310", "Vela 3.10", "Vela 3.10"))

    errors = []

    def active(res, key):
        v = res.get(key)
        if isinstance(v, dict):
            if "error" in v:
                errors.append(f"{key}: {v['error']}")
                return None
            return v["pmu"]["NPU_ACTIVE"]
        return v

    # Per point: the FVP's count, each column's count (None: none), the beat-count errors of the platform run.
    table = []
    for r, res in zip(rows, results):
        fvp = float(r["npu_active"])
        cells = [active(res, key) for key, _, _ in columns]
        beat_errors = []
        for col, event in beats:
            p = res["platform"]
            beat_errors.append(pct(p["pmu"][event], float(r[col])) if r.get(col) and "error" not in p else None)
        group = r["accelerator"] if r["source"] != "mlek" else "kit points (ethos-u55-128)"
        table.append((r, group, fvp, cells, beat_errors))
    for e in errors:
        print("ERROR", e, file=sys.stderr)

    # |error| per group and per NPU family (the kit points apart), and each family's worst point, per column.
    sums, fams, worst = {}, {}, {}
    for r, group, fvp, cells, _ in table:
        for i, v in enumerate(cells):
            if v is None:
                continue
            e = pct(v, fvp)
            sums.setdefault(group, [[] for _ in columns])[i].append(e)
            if not group.startswith("kit"):
                fam = family_label(group)
                fams.setdefault(fam, [[] for _ in columns])[i].append(e)
                w = worst.setdefault(fam, [None for _ in columns])
                if w[i] is None or abs(e) > abs(w[i][0]):
                    w[i] = (e, r["model"], r["accelerator"])
    worst_beat = max((abs(b) for *_, bs in table for b in bs if b is not None), default=0.0)

    def mean_cell(c, n, bold=False):
        if not c:
            return "–"
        text = f"{mean_abs(c):.1f}%"
        return (f"**{text}**" if bold else text) + (f" ({len(c)})" if len(c) != n else "")

    if opts.md:
        print("| model | accelerator | FVP NPU_ACTIVE | " + " | ".join(f"{h} | " for _, _, h in columns) + "|"
              + (" FPGA (B1, B2, B3) |" if opts.u85 else ""))
        print("|---|---|--:|" + "--:|--:|" * len(columns) + ("---|" if opts.u85 else ""))
        for r, group, fvp, cells, _ in table:
            line = f"| {r['model'][:40]} | {r['accelerator']} | {int(fvp):,} |"
            for v in cells:
                line += " – | |" if v is None else f" {int(v):,} | {pct(v, fvp):+.1f}% |"
            if opts.u85:
                line += " " + ", ".join(f"{v:,}" for v in board.get(r["file"], [])) + " |"
            print(line)
        print()
        print("| mean \\|error\\| | points | " + " | ".join(h for _, _, h in columns) + " |")
        print("|---|--:|" + "--:|" * len(columns))
        for group in sorted(sums, key=group_key):
            n = max(len(c) for c in sums[group])
            print(f"| {group} | {n} | " + " | ".join(mean_cell(c, n) for c in sums[group]) + " |")
        for fam, cols in sorted(fams.items()):
            n = max(len(c) for c in cols)
            print(f"| **{fam}** | {n} | " + " | ".join(mean_cell(c, n, bold=True) for c in cols) + " |")
        print()
        print("| worst point | " + " | ".join(h for _, _, h in columns) + " |")
        print("|---|" + "---|" * len(columns))
        for fam, ws in sorted(worst.items()):
            print(f"| {fam} | " + " | ".join(f"{w[1][:40]} {w[2].replace('ethos-', '')} {w[0]:+.1f}%" if w else "–"
                                            for w in ws) + " |")
        if any(b is not None for *_, bs in table for b in bs):
            print()
            print(f"Worst beat-count error (`{platform}`): {worst_beat:.2f}%")
        return 0
    if opts.brief:
        short = {"kws_micronet_m": "kws", "vww4_128_128_INT8": "vww4", "rnnoise_INT8": "rnn",
                 "person_int8_model_vela_mac64": "person", "yolo_fastest_256_pcqat": "yolof", "yolov8n_pose_192": "yolov8"}
        points_text = [f"{short.get(r['model'], r['model'][:8])}/{r['accelerator'].replace('ethos-', '')} "
                       + (f"{pct(cells[0], fvp):+.1f}" if cells[0] is not None else "ERROR")
                       for r, _, fvp, cells, _ in table]
        print("; ".join(points_text) + (" | ERRORS " + str(len(errors)) if errors else ""))
        for i, (_, name, _) in enumerate(columns[:2 if opts.before else 1]):
            means = [f"{g.replace('ethos-', '')} {mean_abs(sums[g][i]):.2f}" for g in sorted(sums, key=group_key)
                     if sums[g][i]]
            print(f"  mean |err| {name}: " + "; ".join(means) + (f" | worst beat {worst_beat:.2f}%" if i == 0 else ""))
        return 0

    header = ["model", "accelerator", "FVP active"]
    for _, name, _ in columns:
        header += [name, "err%"]
    header[5:5] = [b[1][:7] + " err%" for b in beats]
    lines = []
    for r, group, fvp, cells, beat_errors in table:
        line = [r["model"][:40], r["accelerator"], int(fvp)]
        for v in cells:
            line += [int(v), f"{pct(v, fvp):+.1f}"] if v is not None else ["", ""]
        line[5:5] = [f"{b:+.1f}" if b is not None else "" for b in beat_errors]
        lines.append(line)
    widths = [max(len(str(x)) for x in col) for col in zip(*([header] + lines))]
    for t in [header] + lines:
        print("  ".join(str(x).rjust(w) if i > 1 else str(x).ljust(w) for i, (x, w) in enumerate(zip(t, widths))))
    print()
    for i, (_, name, _) in enumerate(columns[:2 if opts.before else 1]):
        for group in sorted(sums, key=group_key):
            es = sums[group][i]
            if es:
                print(f"{name:9s} {group:14s} mean |err| {mean_abs(es):5.2f}%  worst {max(es, key=abs):+6.1f}%  ({len(es)} points)")
        for fam, cols in sorted(fams.items()):
            es = cols[i]
            if es:
                print(f"{name:9s} {fam:14s} mean |err| {mean_abs(es):5.2f}%  worst {max(es, key=abs):+6.1f}%  ({len(es)} points)")
    print(f"worst {platform} beat-count error {worst_beat:.2f}%")
    if opts.csv:
        with open(opts.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
