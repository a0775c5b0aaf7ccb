#!/usr/bin/env python3
"""The competitor tests of a uTP pair's two seeders, from the bed's traces.

    python3 docs/sidebyside/app-limited/pair_tests.py OUT_DIR

OUT_DIR is a `testbed/sidebyside.py --out-dir` of runs with two of ours (`--two-ccs`); each
run's folder holds `utp1-sender-trace.jsonl` (the first seeder) and `utp2-sender-trace.jsonl`
(the latecomer), one line per 100 ms with the detection's test count and its last test's
verdict and figures (`competitor_tests`, `last_test`). Prints, per run and seeder, the tests
by kind and verdict, the seconds spent yielding, and every positive test with its time on
that seeder's own clock (seconds since its socket was bound; the latecomer's starts about
10 s after the first's).
"""
import collections
import glob
import json
import os
import sys


def seeder(path):
    rows = [json.loads(line) for line in open(path)]
    rows = [r for r in rows if "competitor_tests" in r]
    seen, kinds, positives = 0, collections.Counter(), []
    for r in rows:
        n = r["competitor_tests"]
        if n != seen and r.get("last_test"):
            test = r["last_test"]
            kinds[test.split(":")[0]] += 1
            if " positive" in test.split(":")[0]:
                positives.append((r["t"], test, n - seen - 1))
        seen = n
    yielding = 0.1 * sum(1 for r in rows if r["state"].startswith("yield"))
    return seen, kinds, yielding, positives


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    runs = sorted(glob.glob(os.path.join(sys.argv[1], "*-two-*")))
    if not runs:
        sys.exit(f"{sys.argv[1]}: no run of two of ours (a folder named *-two-*)")
    for run in runs:
        print(f"== {os.path.basename(run)}")
        for name in ("utp1", "utp2"):
            path = os.path.join(run, f"{name}-sender-trace.jsonl")
            if not os.path.exists(path):
                print(f"  {name}: no trace")
                continue
            n, kinds, yielding, positives = seeder(path)
            counts = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
            print(f"  {name}: {n} tests ({counts}); {yielding:.1f} s yielding")
            for t, test, unseen in positives:
                more = f" (+{unseen} unseen)" if unseen else ""
                print(f"    {t:6.1f} s  {test}{more}")


if __name__ == "__main__":
    main()
