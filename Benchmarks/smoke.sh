#!/usr/bin/env bash
# A short benchmark pass for CI: builds the benchmarks in release mode and runs every case for a moment, so a broken
# benchmark or a crash shows up. It checks that the cases run, not their figures (shared CI machines are too noisy
# for budgets); the full run and the budgets are described in Docs/Performance.md.
set -euo pipefail
cd "$(dirname "$0")"
REPOSE_BENCHMARK_SMOKE=1 swift package --disable-sandbox benchmark --no-progress --format markdown --path stdout \
    "$@" >/dev/null
echo "benchmarks smoke run: all cases ran"
