#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole test suite: installs what is missing, builds (Release, warnings as errors), checks
# cycle counts against results/baseline.json, compares benchmark speed with the reference run,
# runs every CTest label, then builds and runs the suite again under AddressSanitizer +
# UndefinedBehaviorSanitizer (leak detection on; any report fails the test) but the fidelity
# label. Fixtures come from $NPUSIM_FIXTURES (default
# ../shared/fixtures); tests and baseline entries that need absent fixtures are reported as
# skipped. After each CTest stage it prints how many tests passed, failed and were skipped,
# and each skipped test with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# Runs CTest in build directory $1 (further arguments go to CTest) and prints the stage summary
# titled $2 from CTest's JUnit file; returns CTest's status.
run_tests() {
  local junit status=0 dir=$1 stage=$2
  shift 2
  junit="$(pwd)/$dir/ctest-junit.xml"
  rm -f "$junit"
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --output-junit "$junit" "$@" || status=$?
  /usr/bin/python3 - "$junit" "$stage" <<'PY'
import re
import sys
import xml.etree.ElementTree as ET

path, stage = sys.argv[1], sys.argv[2]
try:
    cases = ET.parse(path).getroot().iter("testcase")
except (OSError, ET.ParseError) as e:
    print(f"== {stage}: no CTest summary ({e})")
    sys.exit(0)
passed, failed, skipped = [], [], []
for case in cases:
    status = case.get("status")
    name = case.get("name")
    if status == "run":
        passed.append(name)
    elif status == "notrun" and case.find("skipped") is not None:
        out = case.findtext("system-out") or ""
        reasons = re.findall(r"MESSAGE: skipped: (.*)", out)
        skipped.append((name, reasons[0] if reasons else "no reason printed"))
    else:
        failed.append(name)
print(f"== {stage}: {len(passed)} passed, {len(failed)} failed, {len(skipped)} skipped "
      f"(of {len(passed) + len(failed) + len(skipped)})")
for name in failed:
    print(f"  failed: {name}")
for name, reason in skipped:
    print(f"  skipped: {name}: {reason}")
PY
  return "$status"
}
scripts/install_deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DNPUSIM_WERROR=ON
cmake --build build -j "$jobs"

echo "== regression: cycle and PMU counts against results/baseline.json"
./build/npusim regress --baseline results/baseline.json

echo "== benchmarks against results/bench/reference.json (fails only beyond 3x slower, the machine's speed taken out)"
./build/harness/bench/npusim_bench --benchmark_repetitions=3 --benchmark_out=build/bench.json \
  --benchmark_out_format=json >/dev/null
/usr/bin/python3 scripts/bench_compare.py results/bench/reference.json build/bench.json

echo "== tests (Release)"
run_tests build "tests (Release)"

# The sanitizer build: -O1 with line tables (-g1) is enough for ASan's reports and compiles
# faster than RelWithDebInfo's -O2 -g (the tests' own code and the command line at -O0:
# tests/CMakeLists.txt, CMakeLists.txt). It is a unity build (CMake joins each target's sources
# into a few translation units, which parse the headers and instantiate their templates once):
# less than half the compile time; the Release build above compiles every file on its own.
# It has every label but fidelity: those run the code the system tests run, over every fixture
# tree, and check accuracy (the Release stage runs them); the system tests that run every
# compiled fixture model run a sample of them here (tests/support/fixtures.h, sanitizerSample).
echo "== tests under AddressSanitizer + UndefinedBehaviorSanitizer (labels unit, component, system)"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DNPUSIM_SANITIZE=ON -DNPUSIM_BUILD_BENCH=OFF \
  -DCMAKE_UNITY_BUILD=ON
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  run_tests build-asan "tests (ASan + UBSan)" -LE fidelity
