#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole test suite: installs what is missing, builds (Release), runs every CTest label.
# Fixtures come from $NPUSIM_FIXTURES (default ../shared/fixtures); tests that need them skip
# with a message when they are absent.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DNPUSIM_WERROR=ON
cmake --build build -j "$(nproc)"
ctest --test-dir build -j "$(nproc)" --output-on-failure
