#!/usr/bin/env bash
# A short benchmark pass for CI: builds the benchmarks in release mode, runs every case for a moment in both modes
# (ordo-one's runner, inside its task, and AppLikeBenchmarks, on the main thread outside any task, as apps run),
# and fails when a hot path allocates more than Benchmarks/malloc-limits.json allows (check-mallocs.py).
# Allocation counts are stable on a shared machine, so they are gated; times are too noisy and are only reported by
# full runs (Docs/Performance.md). Extra arguments go to `swift package benchmark` (e.g. `--target
# ResourceBenchmarks`).
set -euo pipefail
cd "$(dirname "$0")"
results=$(mktemp)
applike=$(mktemp)
trap 'rm -f "$results" "$applike"' EXIT
REPOSE_BENCHMARK_SMOKE=1 swift package --disable-sandbox benchmark --no-progress --format jmh --path stdout \
    "$@" >"$results"
echo "benchmarks smoke run (ordo-one runner): all cases ran"
# A scratch folder of its own: the runner's plugin builds the same modules with other settings, so sharing .build would
# rebuild Repose in release mode twice on every smoke run (25-60 s each on a 2-core machine).
swift build -c release --product AppLikeBenchmarks --scratch-path .build/applike >"$applike" 2>&1 \
    || { cat "$applike"; exit 1; }  # quiet unless it fails
REPOSE_BENCHMARK_SMOKE=1 .build/applike/release/AppLikeBenchmarks --json "$applike" >/dev/null
echo "benchmarks smoke run (AppLikeBenchmarks, main thread): all cases ran"
python3 check-mallocs.py "$results" "$applike"
