"""Fails when a hot-path benchmark allocates more than malloc-limits.json allows.

Reads ordo-one/benchmark's JMH export (`--format jmh --path stdout`) on standard input; anything before the JSON
(the tool's notes) is skipped. Prints every gated case with its count and limit.
"""
import json
import pathlib
import sys

text = sys.stdin.read()
start = text.find("[{")
if start < 0:
    sys.exit("check-mallocs: no benchmark results on standard input")
results = {}
for case in json.loads(text[start:]):
    # "package.benchmark.<Target>.<Name with _ for spaces>"
    target, _, name = case["benchmark"].removeprefix("package.benchmark.").partition(".")
    mallocs = case["secondaryMetrics"].get("Malloc (total)")
    if mallocs is not None:
        results[(target, name)] = mallocs["scorePercentiles"]["50.0"]

limits = json.loads((pathlib.Path(__file__).parent / "malloc-limits.json").read_text())
failures = 0
for key, limit in limits.items():
    if key.startswith("_"):
        continue
    target, _, name = key.partition(":")
    count = results.get((target, name.replace(" ", "_")))
    if count is None:
        print(f"MISSING  {key}: no result (did the case run, or was it renamed?)")
        failures += 1
    elif count > limit:
        print(f"FAIL     {key}: {count:g} mallocs per sample, limit {limit}")
        failures += 1
    else:
        print(f"ok       {key}: {count:g} mallocs per sample, limit {limit}")
if failures:
    sys.exit(f"check-mallocs: {failures} allocation regression(s)")
print("check-mallocs: every hot path within its allocation limit")
