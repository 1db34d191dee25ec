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
# With the plugin's own flags (it passes `--disable-sandbox` on to swiftc), this build reuses every module the runner's
# build just made and compiles only the driver: 2 s instead of 70-95 s for a second release build on 2 cores.
swift build --disable-sandbox -c release --product AppLikeBenchmarks >"$applike" 2>&1 \
    || { cat "$applike"; exit 1; }  # quiet unless it fails
REPOSE_BENCHMARK_SMOKE=1 .build/release/AppLikeBenchmarks --json "$applike" >/dev/null
echo "benchmarks smoke run (AppLikeBenchmarks, main thread): all cases ran"
python3 check-mallocs.py "$results" "$applike"
