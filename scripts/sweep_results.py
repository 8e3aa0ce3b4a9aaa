# SPDX-License-Identifier: Apache-2.0
"""Reading npusim sweep results (JSONL) and the per-model driver the plotting scripts share."""

import json
import os
import re
import sys


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
    """Every swept key -> value: the effective values, else (older results) the set params."""
    values = dict(record.get("params", {}))
    values.update(record.get("effective", {}))
    return values


def save_figure(plt, fig, key, out_dir, suffix):
    """Writes fig as <model>[_<system config>_<memory mode>]<suffix>.png in out_dir; returns the path."""
    model, system_config, memory_mode = key
    fig.tight_layout()
    label = model if system_config in model and memory_mode in model else f"{model}_{system_config}_{memory_mode}"
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_")
    path = os.path.join(out_dir, name + suffix + ".png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_each_model(name, args, plot_model, nothing_written):
    """Reads args.results, draws one figure per (model, system config, memory mode) with
    plot_model(plt, key, records, args) into args.out_dir and prints each file written."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit(f"{name}: error: needs matplotlib (Debian: apt-get install python3-matplotlib)")
    try:
        records = read_records(args.results)
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"{name}: error: {args.results}: {e}")
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
        print(f"{name}: {nothing_written}", file=sys.stderr)
    return 0
