#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/bench_compare.py on made-up Google Benchmark runs: a slower machine alone fails
nothing once Calibrate/machine takes it out, slower code still fails, and without the
calibration (or with --raw) the times are compared as measured."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "bench_compare.py")


def run_file(machine=1.0, decode=1.0, cycles=1.0, rss=1.0, calibration=True):
    """A run on a machine `machine` times slower than the reference's, with the code's own
    slowdowns on top: Decode/a's time times `decode`, Simulate/b's cycles per second divided by
    `cycles`, its peak RSS times `rss`."""
    rows = [("Decode/a", 1.0 * machine * decode, "us", {}),
            ("Simulate/b", 100.0 * machine * cycles, "ms",
             {"sim_cycles_per_s": 1e7 / machine / cycles, "peak_rss_MiB": 20.0 * rss})]
    if calibration:
        rows.append(("Calibrate/machine", 30.0 * machine, "ms", {}))
    benchmarks = []
    for name, time, unit, counters in rows:
        for _ in range(3):
            benchmarks.append(dict(name=name, run_name=name, run_type="iteration", iterations=10,
                                   real_time=time, cpu_time=time, time_unit=unit, **counters))
    return {"context": {"host_name": "test", "num_cpus": 2}, "benchmarks": benchmarks}


class BenchCompare(unittest.TestCase):
    def compare(self, current, *options, reference=None):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for name, data in (("reference.json", reference or run_file()), ("current.json", current)):
                paths.append(os.path.join(tmp, name))
                with open(paths[-1], "w", encoding="utf-8") as f:
                    json.dump(data, f)
            p = subprocess.run([sys.executable, SCRIPT, *paths, *options], capture_output=True, text=True)
            return p.returncode, p.stdout + p.stderr

    def test_same_run_passes(self):
        status, out = self.compare(run_file())
        self.assertEqual(status, 0, out)
        self.assertIn("takes 1.00x the reference's time", out)

    def test_slower_machine_alone_passes(self):
        status, out = self.compare(run_file(machine=3.5))
        self.assertEqual(status, 0, out)
        self.assertIn("takes 3.50x the reference's time", out)
        self.assertIn("time geomean ratio 1.00x, the machine's 3.50x taken out", out)

    def test_slower_machine_fails_raw(self):
        status, out = self.compare(run_file(machine=3.5), "--raw")
        self.assertEqual(status, 1, out)
        self.assertIn("times compared as measured (--raw)", out)
        self.assertIn("Decode/a (real time)", out)

    def test_slower_code_on_a_slower_machine_fails(self):
        status, out = self.compare(run_file(machine=2.5, decode=4.0))
        self.assertEqual(status, 1, out)
        self.assertIn("FAIL: 1 of", out)
        self.assertIn("Decode/a (real time)", out)

    def test_fewer_cycles_per_second_than_the_machine_explains_fails(self):
        status, out = self.compare(run_file(machine=2.5, cycles=4.0))
        self.assertEqual(status, 1, out)
        self.assertIn("Simulate/b (cycles/s)", out)

    def test_memory_is_not_scaled_by_the_machine(self):
        status, out = self.compare(run_file(machine=0.25, rss=4.0))
        self.assertEqual(status, 1, out)
        self.assertIn("Simulate/b (peak rss)", out)

    def test_without_calibration_times_are_as_measured(self):
        status, out = self.compare(run_file(machine=3.5, calibration=False))
        self.assertEqual(status, 1, out)
        self.assertIn("no Calibrate/machine time in the current run: times compared as measured", out)
        status, out = self.compare(run_file(machine=2.0, calibration=False))
        self.assertEqual(status, 0, out)


if __name__ == "__main__":
    unittest.main()
