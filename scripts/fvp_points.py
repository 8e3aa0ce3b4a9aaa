#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Every measured Ethos-U55/U65 FVP point of fixtures/fvp/points.csv against npusim.

For each point measured with the Corstone-300 timing adapters on (the `formal` rows of the
mps4 sweep and the himax rows), runs `npusim run` with `--system-config Corstone_300_FVP
--memory-mode <the compile's mode>` (himax's `My_Mem_Mode_Parent` is Shared_Sram: constants on
AXI1, arena on AXI0) and prints the NPU_ACTIVE error and every AXI beat-count error, then the
mean |error| per NPU and per accelerator. Optional columns: npusim on Vela's section for the
compile (`--vela-section`) and Vela 5.0.0's estimate from the summary CSV beside the model.

    scripts/fvp_points.py [--npusim build/npusim] [--fixtures ../shared/fixtures] [-j 2]
                          [--vela-section] [--mlek] [--csv OUT.csv] [--set key=value ...]
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

BEATS = [("axi0_rd_beats", "AXI0_RD_DATA_BEAT_RECEIVED"), ("axi0_wr_beats", "AXI0_WR_DATA_BEAT_WRITTEN"),
         ("axi1_rd_beats", "AXI1_RD_DATA_BEAT_RECEIVED")]


def points(fixtures):
    """The U55/U65 rows measured with the timing adapters on, one per model and accelerator."""
    path = os.path.join(fixtures, "fvp", "points.csv")
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["timing_adapter"] != "ON" or not r["accelerator"].startswith(("ethos-u55", "ethos-u65")):
                continue
            if r["source"] == "mps4" and not r["run"].startswith("formal"):
                continue  # probes repeat a formal row
            rows.append(r)
    return rows


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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--npusim", default="build/npusim")
    ap.add_argument("--fixtures", default=os.environ.get("NPUSIM_FIXTURES", "../shared/fixtures"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--vela-section", action="store_true", help="also run on Vela's section of each compile")
    ap.add_argument("--csv", help="write the table as CSV")
    ap.add_argument("--set", action="append", default=[], help="extra --set key=value for every platform run")
    ap.add_argument("--mlek", action="store_true", help="also the three kit points of fixtures/mlek (kept apart in the means)")
    ap.add_argument("--md", action="store_true", help="a Markdown table (docs/validation.md): FVP, npusim on the "
                    "platform and on Vela's section, Vela's estimates, mean |error| per accelerator")
    ap.add_argument("--vela310", help="a directory of Vela 3.10 compiles of the same networks (a folder per compile whose "
                    "name holds the model and the accelerator, with Vela's summary CSV): adds Vela 3.10's estimate")
    ap.add_argument("--brief", action="store_true", help="one line: each point's NPU_ACTIVE error, then the means")
    ap.add_argument("--filter", default="", help="only models/accelerators containing this text")
    opts = ap.parse_args()

    if opts.md:
        opts.vela_section = True
    rows = points(opts.fixtures) + (mlek_points(opts.fixtures) if opts.mlek else [])
    rows = [r for r in rows if opts.filter in r["model"] + " " + r["accelerator"]]
    fvp_dir = os.path.join(opts.fixtures, "fvp")

    def job(r):
        model = os.path.join(fvp_dir, r["file"])  # an absolute `file` (mlek rows) stays as it is
        extra = [a for s in opts.set for a in ("--set", s)]
        res = {"platform": run(opts.npusim, model, ["--system-config", "Corstone_300_FVP", "--memory-mode",
                                                   memory_mode(r)] + extra)}
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

    header = ["model", "accelerator", "FVP active", "npusim", "err%"] + [b[1][:7] + " err%" for b in BEATS]
    if opts.vela_section:
        header += ["section", "err%"]
    header += ["Vela est", "err%"]
    table = []
    errors = []
    errs = {}
    worst_beat = 0.0
    for r, res in zip(rows, results):
        fvp = float(r["npu_active"])
        line = [r["model"][:40], r["accelerator"], int(fvp)]
        p = res["platform"]
        if "error" in p:
            errors.append(f"{r['model']} {r['accelerator']}: {p['error']}")
            continue
        got = p["pmu"]["NPU_ACTIVE"]
        e = pct(got, fvp)
        errs.setdefault(r["accelerator"] if r["source"] != "mlek" else "mlek", []).append(e)
        line += [got, f"{e:+.1f}"]
        for col, event in BEATS:
            if r[col]:
                be = pct(p["pmu"][event], float(r[col]))
                worst_beat = max(worst_beat, abs(be))
                line.append(f"{be:+.1f}")
            else:
                line.append("")
        if opts.vela_section:
            s = res["section"]
            if "error" in s:
                line += ["ERROR", s["error"][:40]]
            else:
                line += [s["pmu"]["NPU_ACTIVE"], f"{pct(s['pmu']['NPU_ACTIVE'], fvp):+.1f}"]
        v = res["vela"]
        line += [int(v), f"{pct(v, fvp):+.1f}"] if v else ["", ""]
        table.append(line)

    if opts.md:
        print("| model | accelerator | FVP NPU_ACTIVE | npusim `Corstone_300_FVP` | | npusim on Vela's section | | "
              "Vela's estimate (the compile's) | |" + (" Vela 3.10 | |" if opts.vela310 else ""))
        print("|---|---|--:|--:|--:|--:|--:|--:|--:|" + ("--:|--:|" if opts.vela310 else ""))
        sums = {}
        for r, res in zip(rows, results):
            fvp = float(r["npu_active"])
            cells = []
            for key in ("platform", "section"):
                v = res[key]["pmu"]["NPU_ACTIVE"] if "error" not in res[key] else None
                cells.append(v)
            cells.append(res["vela"])
            if opts.vela310:
                cells.append(res.get("vela310"))
            group = r["accelerator"] if r["source"] != "mlek" else "kit points (ethos-u55-128)"
            line = f"| {r['model'][:40]} | {r['accelerator']} | {int(fvp):,} |"
            for i, v in enumerate(cells):
                if v is None:
                    line += " – | |"
                    continue
                e = pct(v, fvp)
                sums.setdefault(group, [[] for _ in cells])[i].append(abs(e))
                line += f" {int(v):,} | {e:+.1f}% |"
            print(line)
        print()
        print("| mean \\|error\\| | points | npusim `Corstone_300_FVP` | npusim on Vela's section | Vela's estimate |"
              + (" Vela 3.10 |" if opts.vela310 else ""))
        print("|---|--:|--:|--:|--:|" + ("--:|" if opts.vela310 else ""))
        fam = {}
        for group, cols in sorted(sums.items()):
            n = len(cols[0])
            print(f"| {group} | {n} | " + " | ".join((f"{sum(c) / len(c):.1f}%" + (f" ({len(c)})" if len(c) != n else ""))
                                                    if c else "–" for c in cols) + " |")
            if not group.startswith("kit"):
                for i, c in enumerate(cols):
                    fam.setdefault(group[:9], [[] for _ in cols])[i].extend(c)
        for group, cols in sorted(fam.items()):
            n = len(cols[0])
            print(f"| **{group.replace('ethos-', 'Ethos-').upper().replace('ETHOS', 'Ethos')}** | {n} | "
                  + " | ".join((f"**{sum(c) / len(c):.1f}%**" + (f" ({len(c)})" if len(c) != n else "")) if c else "–"
                               for c in cols) + " |")
        return 0
    if opts.brief:
        short = {"kws_micronet_m": "kws", "vww4_128_128_INT8": "vww4", "rnnoise_INT8": "rnn",
                 "person_int8_model_vela_mac64": "person", "yolo_fastest_256_pcqat": "yolof", "yolov8n_pose_192": "yolov8"}
        cells = [f"{short.get(t[0], t[0][:8])}/{t[1].replace('ethos-', '')} {t[4]}" for t in table]
        means = [f"{acc.replace('ethos-', '')} {sum(abs(x) for x in es) / len(es):.2f}" for acc, es in sorted(errs.items())]
        print("; ".join(cells) + (" | ERRORS " + str(len(errors)) if errors else ""))
        print("  mean |err|: " + "; ".join(means) + f" | worst beat {worst_beat:.2f}%")
        return 0
    widths = [max(len(str(x)) for x in col) for col in zip(*([header] + table))]
    for t in [header] + table:
        print("  ".join(str(x).rjust(w) if i > 1 else str(x).ljust(w) for i, (x, w) in enumerate(zip(t, widths))))
    for e in errors:
        print("ERROR", e)
    print()
    by_npu = {}
    for acc, es in sorted(errs.items()):
        print(f"{acc:14s} mean |err| {sum(abs(x) for x in es) / len(es):5.2f}%  worst {max(es, key=abs):+6.1f}%  ({len(es)} points)")
        if acc != "mlek":
            by_npu.setdefault(acc[:9], []).extend(es)
    for npu, es in sorted(by_npu.items()):
        print(f"{npu:14s} mean |err| {sum(abs(x) for x in es) / len(es):5.2f}%  worst {max(es, key=abs):+6.1f}%  ({len(es)} points)")
    print(f"worst AXI beat-count error {worst_beat:.2f}%")
    if opts.csv:
        with open(opts.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
