"""The competitor timed to our slowdown, in the simulator: the `beside` case of
`netbed.simbeside` with the other flow started at fixed times before our flow's periodic
slowdown, the stretch of the cycle where the yield is slowest (docs/sidebyside/arrival-phase.md).

    python3 -m netbed.simtimed [--ledbat-bin BIN] [--seeds 20] [--rtts-ms 10,20,40,60]
        [--crosses bbr] [--variant LABEL[:KEY=VALUE,...]] ... [--before 0,1,0.05]
        [--json F] [--md F] [--jobs 2]

For each variant, base RTT and seed: one run without the competitor gives the time of our
flow's first slowdown at least 1 s after the competitor's usual start (30 s), read from
`states.csv` (a sample every 100 ms: the slowdown is put half a sample before the first
sample that shows it, so `before_s` is good to +-0.05 s); then one run per `before_s` in
`--before FROM,TO,STEP` (default 0 to 1 s by 0.05) with the competitor from that long before
it, measured as `simbeside` measures `beside` (s until our 1 s-window rate is below 20 % of
the link for good; every window moves with the arrival). A seed whose run shows no such
slowdown by 120 s is left out and counted. The seeds differ in every flow's start (up to 100 ms),
so each is a repeat; our flow runs the same until the competitor starts whatever its start.
Needs only the binary.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import csv
import json
import os
import sys
import tempfile

from . import simbeside as sb
from .paths import write_atomic

SAMPLE_S = 0.1
# How long the run without the competitor looks for the slowdown (a slowdown comes every 9
# of its lengths, more after one that found the base where it was: some 20 s at 20 ms).
REF_LEN = 120.0
SCENARIO = "scavenger-beside.toml"


def first_slowdown(rows: list[dict], t_min: float, t_max: float) -> float | None:
    """When our flow's first slowdown at or after `t_min` began, from `states.csv` rows
    (`t_s`, `scavenger.state`): half a sample before the first sample in [t_min, t_max]
    whose state is `slowdown` after one that was not. None when there is none."""
    prev = None
    for r in rows:
        t, s = float(r["t_s"]), r["scavenger.state"]
        if t_min <= t <= t_max and s == "slowdown" and prev not in (None, "slowdown"):
            return round(t - SAMPLE_S / 2, 3)
        prev = s
    return None


def befores(spec: str) -> list[float]:
    """`FROM,TO,STEP` (seconds) -> the times before the slowdown, both ends included."""
    parts = spec.split(",")
    if len(parts) != 3:
        raise ValueError(f"--before {spec}: expected FROM,TO,STEP")
    lo, hi, step = (float(x) for x in parts)
    if not (0 <= lo <= hi <= 10 and step > 0):
        raise ValueError(f"--before {spec}: need 0 <= FROM <= TO <= 10 and STEP > 0")
    n = int(round((hi - lo) / step))
    return [round(lo + k * step, 3) for k in range(n + 1)]


def arrival_offset(slowdown_s: float, before_s: float) -> float:
    """The `simbeside` phase offset that starts the competitor `before_s` before a slowdown
    at `slowdown_s`, to the ms."""
    return round(slowdown_s - before_s - sb.CROSS_AT, 3)


def reference(binary: str, variant: tuple[str, dict], rtt: float, seed: int) -> float | None:
    """Our flow's slowdown to aim at: the run without the competitor (it starts after the
    run's end)."""
    _, params = variant
    sets = sb.jobs_for("beside", rtt, ["bbr"])[0][2] + [
        f"duration={REF_LEN:g}s", f"flow.1.start={REF_LEN + 10:g}s",
        f"flow.1.stop={REF_LEN + 20:g}s"] + sb.our_sets(SCENARIO, params)
    with tempfile.TemporaryDirectory(prefix="simtimed-") as tmp:
        out = os.path.join(tmp, "ref")
        sb.run_sim(binary, os.path.join(sb.SCEN, SCENARIO), seed, sets, out)
        with open(os.path.join(out, "states.csv"), newline="") as fh:
            rows = list(csv.DictReader(fh))
    return first_slowdown(rows, sb.CROSS_AT + 1.0, REF_LEN)


def run_arrival(binary: str, params: dict, sets: list[str], seed: int, slowdown_s: float,
                before_s: float, out: str) -> tuple[dict, float]:
    """One run of `SCENARIO` with `sets` and our controller's `params`, the competitor
    starting `before_s` before our slowdown at `slowdown_s`, written to `out`: what
    `simbeside.run_sim` returns, and the arrival's phase offset."""
    off = arrival_offset(slowdown_s, before_s)
    res = sb.run_sim(binary, os.path.join(sb.SCEN, SCENARIO), seed,
                     sets + sb.phase_sets(SCENARIO, off) + sb.our_sets(SCENARIO, params), out)
    return res, off


def one(binary: str, variant: tuple[str, dict], rtt: float, label: str, sets: list[str],
        seed: int, slowdown_s: float, before_s: float) -> dict:
    name, params = variant
    with tempfile.TemporaryDirectory(prefix="simtimed-") as tmp:
        res, off = run_arrival(binary, params, sets, seed, slowdown_s, before_s,
                               os.path.join(tmp, "run"))
    fig = {k: round(v, 3) if isinstance(v, float) else v
           for k, v in sb.analyse_beside(res, off).items()}
    t0 = sb.CROSS_AT + off
    tests = [f"{float(t['t_s']) - t0:.2f} {t['kind']} {t['verdict']}"
             for t in res["tests"] if t["flow"] == "scavenger" and float(t["t_s"]) >= t0][:6]
    return {"variant": name, "rtt_ms": rtt, "what": label, "seed": seed,
            "slowdown_s": slowdown_s, "before_s": before_s, **fig, "tests": tests}


def slow(r: dict, limit: float = 5.0) -> bool:
    return r["until20_s"] is None or r["until20_s"] > limit


def markdown(rows: list[dict], skipped: dict) -> str:
    head = ("| cross | base RTT | variant | arrivals | over 5 s | never | over 5 s by s before "
            "our slowdown |")
    out = [head, "|---|---|---|---|---|---|---|"]
    keys = sorted({(r["what"], r["rtt_ms"], r["variant"]) for r in rows}
                  | set(skipped), key=lambda k: (k[0], k[1], k[2]))
    for what, rtt, var in keys:
        g = [r for r in rows if (r["what"], r["rtt_ms"], r["variant"]) == (what, rtt, var)]
        by: dict[float, int] = {}
        for r in g:
            if slow(r):
                by[r["before_s"]] = by.get(r["before_s"], 0) + 1
        where = ", ".join(f"{b:g}: {n}" for b, n in sorted(by.items())) or "-"
        left = skipped.get((what, rtt, var), 0)
        seeds = f" ({left} seeds without a slowdown left out)" if left else ""
        out.append(f"| {what} | {rtt:g} ms | {var} | {len(g)}{seeds} | "
                   f"{sum(slow(r) for r in g)} | {sum(r['until20_s'] is None for r in g)} | "
                   f"{where} |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m netbed.simtimed", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--rtts-ms", default="10,20,40,60")
    ap.add_argument("--crosses", default="bbr")
    ap.add_argument("--variant", action="append", default=None,
                    help="LABEL[:KEY=VALUE,...] as in simbeside (repeatable)")
    ap.add_argument("--before", default="0,1,0.05", metavar="FROM,TO,STEP")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", default=None)
    ap.add_argument("--md", default=None)
    a = ap.parse_args(argv)
    try:
        variants = [sb.parse_variant(v) for v in (a.variant or ["scavenger"])]
        rtts = [float(x) for x in a.rtts_ms.split(",") if x]
        crosses = [x for x in a.crosses.split(",") if x]
        bad = [x for x in crosses if x not in sb.CROSSES]
        if bad:
            raise ValueError(f"unknown cross traffic: {', '.join(bad)}")
        ds = befores(a.before)
        if a.seeds < 1:
            raise ValueError(f"--seeds {a.seeds}: must be at least 1")
        binary = sb.resolve_binary(a.ledbat_bin)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    refs = [(v, rtt, seed) for v in variants for rtt in rtts for seed in range(1, a.seeds + 1)]
    rows, skipped = [], {}
    try:
        with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            aims = list(ex.map(lambda w: reference(binary, *w), refs))
            work = []
            for (v, rtt, seed), sd in zip(refs, aims):
                for label, _, sets in sb.jobs_for("beside", rtt, crosses):
                    if sd is None:
                        key = (label, rtt, v[0])
                        skipped[key] = skipped.get(key, 0) + 1
                        continue
                    work += [(v, rtt, label, sets, seed, sd, d) for d in ds]
            rows = list(ex.map(lambda w: one(binary, *w), work))
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    md = (f"The competitor from {ds[0]:g} to {ds[-1]:g} s before our first slowdown after "
          f"{sb.CROSS_AT + 1:g} s, {len(ds)} arrivals per seed (`before_s` in the JSON).\n\n"
          + markdown(rows, skipped))
    print(md)
    # one row a line: 5,000 rows of a full grid stay a few MB and diff line by line
    rows_json = "[\n" + ",\n".join(json.dumps(r) for r in rows) + "\n]\n"
    for path, text in ((a.json, rows_json), (a.md, md)):
        if path:
            write_atomic(path, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
