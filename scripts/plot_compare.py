#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Plots of `npusim compare --tree DIR --csv layers.csv`.

    scripts/plot_compare.py layers.csv OUT_DIR

Writes OUT_DIR/compare_layers.png (log-log scatter of simulated vs estimated cycles per layer,
coloured by what bound the layer in simulation) and OUT_DIR/compare_models.png (per model, the
ratio simulated / estimated network cycles for each configuration).
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def scatter(rows, out):
    by_bound = defaultdict(lambda: ([], []))
    for r in rows:
        sim, est = float(r["sim_cycles"]), float(r["estimate_cycles"])
        if sim > 0 and est > 0:
            xs, ys = by_bound[r["bound"] or "none"]
            xs.append(est)
            ys.append(sim)
    fig, ax = plt.subplots(figsize=(7, 6))
    for bound in sorted(by_bound):
        xs, ys = by_bound[bound]
        ax.scatter(xs, ys, s=6, alpha=0.6, label=f"{bound} ({len(xs)})")
    lo = min(min(v[0] + v[1]) for v in by_bound.values())
    hi = max(max(v[0] + v[1]) for v in by_bound.values())
    ax.plot([lo, hi], [lo, hi], color="black", linewidth=0.8, label="sim = estimate")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("Vela-style estimate (cycles per layer)")
    ax.set_ylabel("simulated (cycles per layer)")
    ax.set_title("npusim: simulated vs estimated cycles per layer")
    ax.legend(fontsize=8, markerscale=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def model_bars(rows, out):
    totals = defaultdict(lambda: [0.0, 0.0])
    for r in rows:
        key = (os.path.basename(r["model"]).replace("_vela.tflite", ""),
               f'{r["accelerator"].replace("ethos-", "")} {r["system_config"].replace("Ethos_U55_", "")} {r["memory_mode"]}')
        totals[key][0] += float(r["sim_cycles"])
        totals[key][1] += float(r["estimate_cycles"])
    models = sorted({m for m, _ in totals})
    configs = sorted({c for _, c in totals})
    fig, ax = plt.subplots(figsize=(max(8, len(models) * 1.4), 6))
    width = 0.8 / max(1, len(configs))
    for i, config in enumerate(configs):
        xs, ys = [], []
        for j, model in enumerate(models):
            sim, est = totals.get((model, config), (0, 0))
            if sim > 0 and est > 0:
                xs.append(j + i * width)
                ys.append(sim / est)
        ax.bar(xs, ys, width=width, label=config)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(models))])
    ax.set_xticklabels(models, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("simulated / estimated network cycles")
    ax.set_title("npusim vs Vela-style estimate per model and configuration")
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = read_rows(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    scatter(rows, os.path.join(sys.argv[2], "compare_layers.png"))
    model_bars(rows, os.path.join(sys.argv[2], "compare_models.png"))


if __name__ == "__main__":
    main()
