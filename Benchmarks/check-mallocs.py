"""Fails when a hot-path benchmark allocates more than malloc-limits.json allows.

Reads JMH-shaped results: ordo-one/benchmark's export (`--format jmh --path stdout`) and AppLikeBenchmarks'
(`--json FILE`), from the files named on the command line, or from standard input when none is; anything before
the JSON (the tools' notes) is skipped. Prints every gated case with its count and limit.
"""
import json
import pathlib
import sys


def cases(text):
    start = text.find("[{")
    if start < 0:
        return []
    return json.loads(text[start:])


texts = [pathlib.Path(name).read_text() for name in sys.argv[1:]] or [sys.stdin.read()]
results = {}
for text in texts:
    for case in cases(text):
        # "package.benchmark.<Target>.<Name with _ for spaces>"
        target, _, name = case["benchmark"].removeprefix("package.benchmark.").partition(".")
        mallocs = case["secondaryMetrics"].get("Malloc (total)")
        if mallocs is not None:
            results[(target, name)] = mallocs["scorePercentiles"]["50.0"]
if not results:
    sys.exit("check-mallocs: no benchmark results")

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
