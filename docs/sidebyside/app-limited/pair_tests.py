#!/usr/bin/env python3
"""The competitor tests of a uTP pair's two seeders, from the bed's traces.

    python3 docs/sidebyside/app-limited/pair_tests.py OUT_DIR JSON

OUT_DIR is a `testbed/sidebyside.py --out-dir` of runs with two of ours (`--two-ccs`), JSON
the `--json` file of the same invocation. Each run's folder holds `utp1-sender-trace.jsonl`
(the first seeder) and `utp2-sender-trace.jsonl` (the latecomer), one line per 100 ms with
the detection's test count and its last test's verdict and figures (`competitor_tests`,
`last_test`). Prints, per run and seeder, the tests by kind and verdict, the seconds spent
yielding, every positive test, and then every push test's verdict against what the other
seeder was doing in the 0.6 s before it (its states in its trace lines). Times are on the
bed's clock: the first seeder's trace clock, the latecomer's shifted so that its first
acknowledged data falls at the run's `second_data_s`.
"""
import collections
import json
import os
import sys

SLOWDOWN = ("slow-start", "slowdown", "slowdown-ramp")


def load(path):
    return [json.loads(line) for line in open(path)]


def tests(rows):
    """(time, test line, tests not seen between two lines) of each test a line shows."""
    seen, out = 0, []
    for r in rows:
        n = r.get("competitor_tests")
        if n is None:
            continue
        if n != seen and r.get("last_test"):
            out.append((r["t"], r["last_test"], n - seen - 1))
        seen = n
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    runs = json.load(open(sys.argv[2]))["two"]
    if not runs:
        sys.exit(f"{sys.argv[2]}: no run of two of ours")
    against = collections.Counter()
    for run in runs:
        # The bed's folder name (netbed/sidebyside.py): ':' of a variant's parameters as '_'.
        cc = run["cc"]
        name = (f"{run['fifo_ms']:.0f}ms-rtt{run['rtt_ms']:.0f}-two-{cc.replace(':', '_')}"
                f"-{run['repeat']}")
        folder = os.path.join(sys.argv[1], name)
        trace = {s: load(os.path.join(folder, f"{s}-sender-trace.jsonl")) for s in ("utp1", "utp2")}
        first2 = next(r["t"] for r in trace["utp2"] if r["bytes_acked"] > 0)
        shift = {"utp1": 0.0, "utp2": run["second_data_s"] - first2}
        print(f"== {name}: Jain {run['jain']}")
        for me, other in (("utp1", "utp2"), ("utp2", "utp1")):
            found = tests(trace[me])
            kinds = collections.Counter(line.split(":")[0] for _, line, _ in found)
            yielding = 0.1 * sum(1 for r in trace[me] if r["state"].startswith("yield"))
            counts = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
            print(f"  {me}: {len(found)} tests seen ({counts}); {yielding:.1f} s yielding")
            for t, line, unseen in found:
                at = t + shift[me]
                verdict = line.split(":")[0]
                if " positive" in verdict:
                    more = f" (+{unseen} unseen)" if unseen else ""
                    print(f"    {at:6.1f} s  {line}{more}")
                if verdict.startswith("push"):
                    states = [r["state"] for r in trace[other]
                              if at - 0.6 <= r["t"] + shift[other] <= at]
                    if any(s.startswith("yield") for s in states):
                        doing = "yielding"
                    elif any(s in SLOWDOWN for s in states):
                        doing = "in a slowdown, its ramp or a slow start"
                    else:
                        doing = "in congestion avoidance only"
                    against[(cc, verdict, doing)] += 1
    print("== push tests, by what the other seeder was doing in the 0.6 s before the verdict")
    for (cc, verdict, doing), n in sorted(against.items()):
        print(f"  {cc}: {verdict:<15} other {doing}: {n}")


if __name__ == "__main__":
    main()
