#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run an npusim sweep on a Dask distributed cluster, one task per shard.

Each task runs `npusim sweep SPEC --shard I/N -j JOBS` on a worker and returns the shard's
results; the client stores each shard as it completes under --work-dir (a rerun skips the shards
already there, so an interrupted run resumes) and joins them with `npusim sweep-merge`, which
reports missing and duplicate points. The spec, the models it names and the npusim binary must be
at the same paths on every worker (a shared file system, or identical images).

Needs Debian's python3-distributed (the client, scheduler and workers should run the same Python).

    dask-scheduler --host 10.0.0.1                       # one machine
    dask-worker tcp://10.0.0.1:8786 --nthreads 8         # every machine
    python3 scripts/sweep_dask.py sweep.json --scheduler tcp://10.0.0.1:8786 \\
        --npusim /opt/npusim/bin/npusim --out results.jsonl

Exit status: 0 every point succeeded, 1 some points failed or are missing (see sweep-merge's
report), 2 bad arguments, a bad spec or an unreachable cluster.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def die(message):
    print(f"sweep_dask: error: {message}", file=sys.stderr)
    sys.exit(2)


def run_shard(npusim, spec, index, count, jobs, timeout):
    """Runs one shard on a worker; returns (exit status, results text, stderr text)."""
    with tempfile.TemporaryDirectory(prefix="npusim-shard-") as tmp:
        out = os.path.join(tmp, "shard.jsonl")
        cmd = [npusim, "sweep", spec, "--shard", f"{index}/{count}", "-j", str(jobs), "--out", out]
        if timeout > 0:
            cmd += ["--timeout", str(timeout)]
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
        text = ""
        if os.path.exists(out):
            with open(out, encoding="utf-8") as f:
                text = f.read()
        return proc.returncode, text, proc.stderr


def shard_path(work_dir, index, count):
    return os.path.join(work_dir, f"shard-{index}-of-{count}.jsonl")


def write_atomically(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def resolve_npusim(name):
    if os.sep in name:
        return os.path.abspath(name)
    found = shutil.which(name)
    if found is None:
        die(f"{name} not found on PATH (pass --npusim)")
    return found


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("spec", help="sweep spec (JSON), as for npusim sweep")
    p.add_argument("--scheduler", required=True, help="Dask scheduler address, e.g. tcp://10.0.0.1:8786")
    p.add_argument("--npusim", default=os.environ.get("NPUSIM", "npusim"), help="npusim binary (default: $NPUSIM or npusim on PATH)")
    p.add_argument("--out", help="merged results file (default: <spec name>.jsonl)")
    p.add_argument("--work-dir", help="folder for shard files (default: <out>.shards)")
    p.add_argument("--shards", type=int, default=0,
                   help="number of shards (default: 4 x the cluster's worker threads; give it explicitly to resume)")
    p.add_argument("--jobs", type=int, default=1, help="simulation processes per shard task (default: 1)")
    p.add_argument("--timeout", type=float, default=0, help="seconds after which a point is killed and fails")
    p.add_argument("--wait-workers", type=int, default=1, help="wait until this many workers have joined")
    p.add_argument("--connect-timeout", type=float, default=60, help="seconds to wait for the scheduler and workers")
    return p.parse_args()


def main():
    args = parse_args()
    try:
        from distributed import Client, as_completed
    except ImportError:
        die("needs Dask distributed (Debian: apt-get install python3-distributed)")

    npusim = resolve_npusim(args.npusim)
    spec = os.path.abspath(args.spec)
    out = args.out or os.path.splitext(os.path.basename(spec))[0] + ".jsonl"
    work_dir = args.work_dir or out + ".shards"

    # 1. Check the spec locally first: a bad spec is one clear error, not N failed tasks.
    check = subprocess.run([npusim, "sweep", spec, "--dry-run"], stdout=subprocess.DEVNULL, check=False)
    if check.returncode != 0:
        return 2

    # 2. Connect and decide the shards.
    try:
        client = Client(args.scheduler, timeout=args.connect_timeout)
        client.wait_for_workers(args.wait_workers, timeout=args.connect_timeout)
    except (OSError, TimeoutError) as e:
        die(f"cannot use the cluster at {args.scheduler}: {e}")
    count = args.shards or 4 * max(1, sum(client.nthreads().values()))
    os.makedirs(work_dir, exist_ok=True)
    todo = [i for i in range(count) if not os.path.exists(shard_path(work_dir, i, count))]
    print(f"sweep_dask: {spec}: {count} shards, {count - len(todo)} already in {work_dir}, "
          f"{len(todo)} to run on {len(client.nthreads())} workers", file=sys.stderr, flush=True)

    # 3. Run the shards; store each as it completes.
    start = time.monotonic()
    futures = {client.submit(run_shard, npusim, spec, i, count, args.jobs, args.timeout, pure=False): i for i in todo}
    failed_points = False
    errors = []
    for done, future in enumerate(as_completed(futures), start=1):
        index = futures[future]
        status, text, err = future.result()
        if status not in (0, 1):
            errors.append(f"shard {index}/{count}: npusim sweep exited with {status}: {err.strip()}")
            continue
        failed_points = failed_points or status == 1
        write_atomically(shard_path(work_dir, index, count), text)
        print(f"sweep_dask: {done}/{len(todo)} shards done ({time.monotonic() - start:.1f} s)", file=sys.stderr, flush=True)
    client.close()
    for e in errors:
        print(f"sweep_dask: error: {e}", file=sys.stderr)
    if errors:
        return 2

    # 4. Join.
    shards = [shard_path(work_dir, i, count) for i in range(count)]
    merge = subprocess.run([npusim, "sweep-merge", *shards, "--out", out], check=False)
    print(f"sweep_dask: results in {out}", file=sys.stderr)
    return merge.returncode or (1 if failed_points else 0)


if __name__ == "__main__":
    sys.exit(main())
