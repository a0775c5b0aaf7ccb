"""What the slow arrivals of a `netbed.simtimed` grid are: each arrival over 5 s (or never)
to below 20 % of the link is run again with its states, and split by base RTT into those
whose last 1-s window at or above 20 % overlaps bbr's ProbeRTT (from 1.5 s before the
window's start to 1 s after it: our flow took the link bbr left while it drained) and the
others; with the first time our rate was below 20 % at all, and the share of windows from 5
s after bbr's start to its end that are above 20 %. Used in docs/sidebyside/arrival-phase.md.

    python3 docs/tcp/competitor/slow_arrivals.py TIMED.json [--variant LABEL[:KEY=VALUE,...]]
        [--ledbat-bin BIN] [--md F]

`--variant` as the grid's (default `scavenger`): its label picks the rows, its parameters
run them again.

Deterministic; needs only the binary the grid was made with.
"""

import argparse
import concurrent.futures as cf
import csv
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "testbed"))
from netbed import simbeside as sb, simtimed as st  # noqa: E402
from netbed.paths import write_atomic  # noqa: E402
from netbed.simseries import delivered  # noqa: E402

LOW_BPS = 0.2 * sb.LINK_BPS


def again(binary, params, r):
    """One slow arrival run again: its figures."""
    sets = sb.jobs_for("beside", r["rtt_ms"], ["bbr"])[0][2]
    with tempfile.TemporaryDirectory(prefix="slowarr-") as tmp:
        out = os.path.join(tmp, "run")
        res, off = st.run_arrival(binary, params, sets, r["seed"], r["slowdown_s"], r["before_s"],
                                  out)
        with open(os.path.join(out, "states.csv"), newline="") as fh:
            states = list(csv.DictReader(fh))
    t0 = sb.CROSS_AT + off
    t1 = t0 + sb.CROSS_FOR
    wins = delivered(res["cols"], "scavenger").windowed(t0, t1, 1.0, 0.1)
    high = [s for s, v in wins if v >= LOW_BPS]
    probe_rtt = [float(x["t_s"]) for x in states
                 if x["cross.state"] == "probe-rtt" and t0 <= float(x["t_s"]) <= t1]
    last = high[-1] if high else None
    later = [v for s, v in wins if s >= t0 + 5]
    return {
        "rtt_ms": r["rtt_ms"],
        "first_low_s": next((round(s + 1 - t0, 1) for s, v in wins if v < LOW_BPS), None),
        "probe_rtt": last is not None and any(last - 1.5 <= p <= last + 1.0 for p in probe_rtt),
        "high_after5": sum(v >= LOW_BPS for v in later) / max(1, len(later)),
    }


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else None


def markdown(out, arrivals):
    lines = ["| base RTT | arrivals | over 5 s | of them, last high window at bbr's ProbeRTT "
             "| first below 20 %, s: median [max] (never) | windows above 20 % from 5 s: median |",
             "|---|---|---|---|---|---|"]
    for rtt in sorted(arrivals):
        v = [o for o in out if o["rtt_ms"] == rtt]
        fl = [o["first_low_s"] for o in v if o["first_low_s"] is not None]
        never = sum(o["first_low_s"] is None for o in v)
        first = f"{median(fl):.1f} [{max(fl):.1f}] ({never})" if fl else f"- ({never})"
        share = f"{median([o['high_after5'] for o in v]):.2f}" if v else "-"
        lines.append(f"| {rtt:g} ms | {arrivals[rtt]} | {len(v)} | "
                     f"{sum(o['probe_rtt'] for o in v)} | {first} | {share} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("timed_json")
    ap.add_argument("--variant", default="scavenger")
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--md", default=None)
    a = ap.parse_args()
    try:
        label, params = sb.parse_variant(a.variant)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    binary = sb.resolve_binary(a.ledbat_bin)
    with open(a.timed_json) as fh:
        rows = [r for r in json.load(fh) if r["variant"] == label and r["what"] == "bbr"]
    if not rows:
        print(f"error: {a.timed_json}: no bbr rows of variant {label}", file=sys.stderr)
        return 2
    arrivals = {}
    for r in rows:
        arrivals[r["rtt_ms"]] = arrivals.get(r["rtt_ms"], 0) + 1
    slow = [r for r in rows if st.slow(r)]
    with cf.ThreadPoolExecutor(2) as ex:
        out = list(ex.map(lambda r: again(binary, params, r), slow))
    md = markdown(out, arrivals)
    print(md)
    if a.md:
        write_atomic(a.md, md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
