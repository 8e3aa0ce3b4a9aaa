#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one libFuzzer target for a while:  scripts/fuzz.sh TARGET SECONDS [extra libFuzzer flags]
# TARGET: tflite_loader | cmdstream | json_config | vela_ini | weight_stream | fast_weight_stream
# (the fuzz_ prefix is optional).
# Installs clang and libFuzzer when missing, builds build-fuzz with clang (-DNPUSIM_FUZZ=ON),
# writes the seed corpus from the built-in demo network, the builder, configs/ and the fixtures
# ($NPUSIM_FUZZ_FIXTURES, else $NPUSIM_FIXTURES, default ../shared/fixtures, when present) into
# build-fuzz/fuzz/seeds.TARGET, and fuzzes in one process (one job; libFuzzer's -jobs/-workers
# would fork it and send its output to a log in the current directory). New inputs go to
# build-fuzz/fuzz/corpus/TARGET; crashes, leaks, timeouts and out-of-memory inputs to
# build-fuzz/fuzz/artifacts/TARGET. Seeds and corpora stay under build-fuzz, never in the
# repository.
set -euo pipefail
cd "$(dirname "$0")/.."

if (($# < 2)); then
  echo "usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer flags]" >&2
  exit 2
fi
target=${1#fuzz_}
seconds=$2
shift 2
case $target in
  tflite_loader) max_len=65536 ;;
  cmdstream) max_len=16384 ;;
  json_config) max_len=4096 ;;
  vela_ini) max_len=8192 ;;
  weight_stream) max_len=4096 ;;
  fast_weight_stream) max_len=4096 ;;
  *) echo "unknown fuzz target '$target' (tflite_loader, cmdstream, json_config, vela_ini, weight_stream," \
          "fast_weight_stream)" >&2
     exit 2 ;;
esac

scripts/install_deps.sh fuzz
build=build-fuzz
if [[ ! -f $build/CMakeCache.txt ]]; then
  CC=clang CXX=clang++ cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPUSIM_FUZZ=ON \
    -DNPUSIM_BUILD_TESTS=OFF -DNPUSIM_BUILD_BENCH=OFF
fi
# Two runs may start at once (one per core): their builds of the shared library take turns.
flock "$build/.build.lock" ninja -C $build -j1 "fuzz_$target" npusim_make_seeds

work=$build/fuzz
fixtures=${NPUSIM_FUZZ_FIXTURES:-${NPUSIM_FIXTURES:-../shared/fixtures}}
seeds=$work/seeds.$target  # one folder per target: runs of two targets at once do not race
rm -rf "$seeds"
if [[ -d $fixtures/vela ]]; then
  "$build/tests/fuzz/npusim_make_seeds" "$seeds" "$fixtures"
else
  echo "fuzz.sh: no fixtures at $fixtures/vela; seeding from the demo network and builder only"
  "$build/tests/fuzz/npusim_make_seeds" "$seeds"
fi
mkdir -p "$work/corpus/$target" "$work/artifacts/$target"
dict=()
if [[ -f $seeds/$target.dict ]]; then
  dict=(-dict="$seeds/$target.dict")
fi

# SystemC is not instrumented and the targets never run it; detect_leaks stays on.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
exec "$build/tests/fuzz/fuzz_$target" "$work/corpus/$target" "$seeds/$target" \
  -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/$target/" "${dict[@]}" "$@"
