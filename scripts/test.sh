#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole test suite: installs what is missing, builds (Release, warnings as errors), checks
# cycle counts against results/baseline.json, compares benchmark speed with the reference run,
# runs every CTest label, then builds and runs the whole suite again under AddressSanitizer +
# UndefinedBehaviorSanitizer (leak detection on; any report fails the test). Fixtures come from $NPUSIM_FIXTURES (default
# ../shared/fixtures); tests and baseline entries that need absent fixtures are reported as
# skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
scripts/install_deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DNPUSIM_WERROR=ON
cmake --build build -j "$jobs"

echo "== regression: cycle and PMU counts against results/baseline.json"
./build/npusim regress --baseline results/baseline.json

echo "== benchmarks against results/bench/reference.json (fails only beyond 3x slower)"
./build/harness/bench/npusim_bench --benchmark_repetitions=3 --benchmark_out=build/bench.json \
  --benchmark_out_format=json >/dev/null
/usr/bin/python3 scripts/bench_compare.py results/bench/reference.json build/bench.json

echo "== tests (Release)"
ctest --test-dir build -j "$jobs" --output-on-failure

echo "== tests under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPUSIM_SANITIZE=ON \
  -DNPUSIM_BUILD_BENCH=OFF
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan -j "$jobs" --output-on-failure
