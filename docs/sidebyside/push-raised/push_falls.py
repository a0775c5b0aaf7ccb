"""How far the others' queue fell under our push tests, against the pushing flow's share of
the path's rate, in the simulator: beside bbr timed to our slowdown (every push from bbr's
start to our yield: a negative verdict there reads bbr as our kind) and two of ours with
the arrival spread (every push: a positive verdict there reads our kind as a competitor).
Tables for docs/sidebyside/push-raised.md.

    python3 docs/sidebyside/push-raised/push_falls.py [--ledbat-bin BIN] [--seeds 20]
        [--pair-seeds 50] [--json F] [--md F]

Beside bbr: `netbed.simtimed`'s arrivals 0 to 0.4 s before our slowdown, by 0.05 s (where
its slow arrivals are), at base RTTs 0, 10, 20, 40 and 60 ms; two of ours: `netbed.simbeside`'s
`two` case with `--phase-spread 8` at 0 to 100 ms. The preset, deterministic.
"""

import argparse
import concurrent.futures as cf
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "testbed"))
from netbed import simbeside as sb, simtimed as st  # noqa: E402
from netbed.paths import write_atomic  # noqa: E402

BBR_RTTS = [0, 10, 20, 40, 60]
PAIR_RTTS = [0, 10, 20, 40, 60, 100]
BEFORES = [round(0.05 * k, 2) for k in range(9)]
SHARES = [(0.0, 0.3), (0.3, 0.4), (0.4, 0.5), (0.5, 0.6), (0.6, 0.7), (0.7, 1.01)]


def pushes(tests, flows, t0, stop_at_yield):
    """(share, fall in TARGETs, verdict) of the push tests of `flows` from `t0` on, up to
    the first yield when `stop_at_yield`; collisions left out."""
    out = []
    for t in tests:
        if t["flow"] not in flows or float(t["t_s"]) < t0:
            continue
        if t["kind"] == "push" and t["verdict"] in ("negative", "positive"):
            out.append((float(t["share"]), float(t["drop"] or 0), t["verdict"]))
        if stop_at_yield and t["yielded"] == "1":
            break
    return out


def beside_bbr(binary, rtt, seed, slowdown_s, before):
    sets = sb.jobs_for("beside", rtt, ["bbr"])[0][2]
    with tempfile.TemporaryDirectory(prefix="pushfalls-") as tmp:
        res, off = st.run_arrival(binary, {}, sets, seed, slowdown_s, before,
                                  os.path.join(tmp, "run"))
    return {"case": "bbr", "rtt_ms": rtt, "seed": seed, "before_s": before,
            "pushes": pushes(res["tests"], {"scavenger"}, sb.CROSS_AT + off, True)}


def pair(binary, rtt, seed):
    scen = "scavenger-latecomer.toml"
    off = sb.phase_offset(seed, 8.0)
    sets = sb.jobs_for("two", rtt, [])[0][2] + sb.phase_sets(scen, off)
    with tempfile.TemporaryDirectory(prefix="pushfalls-") as tmp:
        res = sb.run_sim(binary, os.path.join(sb.SCEN, scen), seed, sets,
                         os.path.join(tmp, "run"))
    return {"case": "two", "rtt_ms": rtt, "seed": seed,
            "pushes": pushes(res["tests"], {"first", "latecomer"}, sb.LATE_AT + off, False)}


def quantiles(v):
    v = sorted(v)
    q = lambda p: v[min(len(v) - 1, int(p * len(v)))]  # noqa: E731
    return f"{len(v)} | {q(0.1):.2f} / {q(0.5):.2f} / {q(0.9):.2f}"


def markdown(rows):
    out = ["| case | base RTT | pusher's share | pushes | fall p10 / median / p90 (TARGET) "
           "| read as our kind (fall >= 0.15) |", "|---|---|---|---|---|---|"]
    for case, rtts in (("bbr", BBR_RTTS), ("two", PAIR_RTTS)):
        for rtt in rtts:
            ps = [p for r in rows if r["case"] == case and r["rtt_ms"] == rtt
                  for p in r["pushes"]]
            name = "beside bbr" if case == "bbr" else "two of ours"
            for lo, hi in SHARES:
                sel = [p for p in ps if lo <= p[0] < hi]
                if sel:
                    negatives = sum(p[2] == "negative" for p in sel)
                    out.append(f"| {name} | {rtt} ms | {lo:.1f}-{min(hi, 1):.1f} | "
                               f"{quantiles([p[1] for p in sel])} | {negatives} |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--pair-seeds", type=int, default=50)
    ap.add_argument("--json", default=None)
    ap.add_argument("--md", default=None)
    a = ap.parse_args()
    binary = sb.resolve_binary(a.ledbat_bin)
    with cf.ThreadPoolExecutor(2) as ex:
        refs = [(r, s) for r in BBR_RTTS for s in range(1, a.seeds + 1)]
        aims = list(ex.map(lambda w: st.reference(binary, ("scavenger", {}), *w), refs))
        work = [(r, s, sd, b) for (r, s), sd in zip(refs, aims) if sd is not None
                for b in BEFORES]
        rows = list(ex.map(lambda w: beside_bbr(binary, *w), work))
        rows += list(ex.map(lambda w: pair(binary, *w),
                            [(r, s) for r in PAIR_RTTS for s in range(1, a.pair_seeds + 1)]))
    md = markdown(rows)
    print(md)
    if a.json:
        write_atomic(a.json, "[\n" + ",\n".join(json.dumps(r) for r in rows) + "\n]\n")
    if a.md:
        write_atomic(a.md, md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
