#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs npusim's build and test dependencies from Debian's archive (apt-get only).
# Idempotent: does nothing when every package is already installed.
#   scripts/install_deps.sh          build, tests, benchmarks, plots
#   scripts/install_deps.sh fuzz     also clang and libFuzzer (scripts/fuzz.sh)
set -euo pipefail

PACKAGES=(
  cmake ninja-build g++ pkg-config
  libsystemc-dev                             # SystemC 2.3.4 + TLM-2.0: the simulation kernel
  libflatbuffers-dev flatbuffers-compiler    # reading .tflite files (schema compiled by flatc)
  nlohmann-json3-dev                         # JSON configs and reports
  libcli11-dev                               # command line
  libmd-dev                                  # SHA-256 of model files (regression baselines)
  zlib1g-dev                                 # gzip-compressed timeline traces (run --trace F.json.gz)
  doctest-dev                                # tests
  libbenchmark-dev                           # benchmarks
  python3 python3-matplotlib python3-distributed  # plots and the Dask sweep driver
)
if [[ ${1:-} == fuzz ]]; then
  PACKAGES+=(clang libclang-rt-14-dev)      # libFuzzer targets (clang 14, Debian 12)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
echo "installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
