#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Installs npusim to a scratch prefix, builds examples/own_platform against the installed
package only, runs it on the built-in demo network with an NPU_OP_IRQ after every launch
(`npusim probe write --irq`) and on one Ethos-U55-128, one U65-256 and one U85-256 fixture, and
compares each with `npusim run MODEL` on the same model (the default system configuration both use):

* NPU_ACTIVE, as the example reads it from the NPU's PMU registers, within 2% of npusim's;
* the AXI data beats the example's router counted equal to npusim's PMU beats, per port, or per
  port group where the NPU has group events (the U85's SRAM and EXT ports: which port of a group
  takes a transfer follows the order the units issue them in, which timing changes);
* the beats the example read from the PMU's registers equal its router's.

Exit 0 when all hold, 1 when one does not (or a step fails or takes over 300 s).

usage: own_platform_check.py BUILD_DIR SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

FIXTURES = [
    ("ethos-u55-128", "vela/kws_ref_model/ethos-u55-128_Ethos_U55_High_End_Embedded_Shared_Sram/kws_ref_model_vela.tflite"),
    ("ethos-u65-256", "vela-u65/kws_ref_model/ethos-u65-256_Ethos_U65_Client_Server_Dedicated_Sram/kws_ref_model_vela.tflite"),
    ("ethos-u85-256",
     "vela-u85/kws_ref_model/ethos-u85-256_Ethos_U85_SYS_DRAM_Mid_Dedicated_Sram_384KB/kws_ref_model_vela.tflite"),
]
TOLERANCE = 0.02


def run(args, **kwargs):
    try:
        result = subprocess.run(args, capture_output=True, text=True, timeout=300, **kwargs)
    except subprocess.TimeoutExpired:
        sys.exit(f"own_platform_check: {' '.join(map(str, args))} did not finish in 300 s")
    if result.returncode != 0:
        sys.exit(f"own_platform_check: {' '.join(map(str, args))} failed ({result.returncode}):\n"
                 f"{result.stdout}{result.stderr}")
    return result.stdout


def group_of(event, pmu):
    """The port group's event ("SRAM_RD_DATA_BEAT_RECEIVED" for "SRAM1_...") if npusim counts one."""
    port, _, rest = event.partition("_")
    group = port.rstrip("0123456789") + "_" + rest
    return group if group != event and group in pmu else event


def main():
    build, source = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    fixtures = Path(os.environ.get("NPUSIM_FIXTURES", source.parent / "shared" / "fixtures"))
    work = build / "own-platform"
    prefix = work / "prefix"
    run(["cmake", "--install", str(build), "--prefix", str(prefix)])
    run(["cmake", "-S", str(source / "examples" / "own_platform"), "-B", str(work / "build"), "-G", "Ninja",
         "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_PREFIX_PATH={prefix}"])
    run(["cmake", "--build", str(work / "build")])
    example = work / "build" / "own_platform"
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")

    # The built-in demo network with an NPU_OP_IRQ after every launch (no fixture needed): the
    # driver takes each interrupt before the stream's end and waits on.
    irq_dir = work / "irq"
    run([str(build / "npusim"), "probe", "write", "--irq", "--out", str(irq_dir)])
    models = [("demo with an NPU_OP_IRQ after each launch", irq_dir / "demo.irq.tflite")]
    models += [(name, fixtures / relative) for name, relative in FIXTURES]

    failures = []
    for name, model in models:
        if not model.exists():
            print(f"MESSAGE: skipped: {name}: fixture {model} absent")
            continue
        out = run([str(example), str(model)], env=env)
        active = int(re.search(r"^NPU_ACTIVE = (\d+)$", out, re.M).group(1))
        router = {k: int(v) for k, v in re.findall(r"^router: (\S+) = (\d+)$", out, re.M)}
        registers = {k: int(v) for k, v in re.findall(r"^pmu: (\S+) = (\d+)$", out, re.M)}
        with tempfile.TemporaryDirectory() as tmp:
            report = Path(tmp) / "run.json"
            run([str(build / "npusim"), "run", str(model), "--json", str(report)])
            npusim = json.loads(report.read_text())
        pmu, reference = npusim["pmu"], npusim["npu_active_cycles"]
        change = (active - reference) / reference
        line = f"{name}: NPU_ACTIVE {active} vs npusim run {reference} ({change:+.2%})"
        if abs(change) > TOLERANCE:
            failures.append(f"{line}: beyond {TOLERANCE:.0%}")
        beats = {}
        for event, value in router.items():
            key = group_of(event, pmu)
            beats[key] = beats.get(key, 0) + value
        for event, value in sorted(beats.items()):
            if pmu.get(event) != value:
                failures.append(f"{name}: {event}: the router counted {value}, npusim's PMU {pmu.get(event)}")
        for event, value in sorted(registers.items()):
            if router.get(event) != value:
                failures.append(f"{name}: {event}: the PMU registers read {value}, the router counted {router.get(event)}")
        print(f"{line}; {len(beats)} beat counts equal npusim's, {len(registers)} PMU registers equal the router's")
    for f in failures:
        print(f"FAILED: {f}")
    if failures:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
