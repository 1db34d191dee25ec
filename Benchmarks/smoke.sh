#!/usr/bin/env bash
# A short benchmark pass for CI: builds the benchmarks in release mode, runs every case for a moment, and fails when
# a hot path allocates more than Benchmarks/malloc-limits.json allows (check-mallocs.py). Allocation counts are
# stable on a shared machine, so they are gated; times are too noisy and are only reported by full runs
# (Docs/Performance.md). Extra arguments go to `swift package benchmark` (e.g. `--target ResourceBenchmarks`).
set -euo pipefail
cd "$(dirname "$0")"
results=$(mktemp)
trap 'rm -f "$results"' EXIT
REPOSE_BENCHMARK_SMOKE=1 swift package --disable-sandbox benchmark --no-progress --format jmh --path stdout \
    "$@" >"$results"
echo "benchmarks smoke run: all cases ran"
python3 check-mallocs.py <"$results"
