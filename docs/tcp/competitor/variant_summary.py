"""One line per cross of a `netbed.simtimed` JSON, and one for a `netbed.simbeside --cases two`
JSON, by the targets: arrivals over 2 s from the other flow's queue to our flow below 20 % of
the link (loss-based crosses), over 5 s from bbr's start (bbr), and those that never got
there, with the median; then the pairs of ours below Jain 0.95, per base RTT.

    python3 docs/tcp/competitor/variant_summary.py TIMED.json PAIRS.json [--variant LABEL]

Rows of other variants than LABEL are left out when it is given.
"""
import argparse
import json
from collections import defaultdict

RTTS = [0.0, 10.0, 20.0, 40.0, 60.0, 100.0]
CROSSES = ["cubic", "cubic-hystart", "newreno", "bbr"]


def rows(path: str, variant: str | None) -> list[dict]:
    return [r for r in json.load(open(path)) if variant is None or r["variant"] == variant]


def timed(path: str, variant: str | None) -> None:
    cells = defaultdict(list)
    for r in rows(path, variant):
        key = "until20_s" if r["what"] == "bbr" else "until20_from_queue_s"
        cells[(r["what"], r["rtt_ms"])].append(r.get(key))
    print("| cross (target) | " + " | ".join(f"{r:g} ms" for r in RTTS) + " |")
    print("|---|" + "---|" * len(RTTS))
    for what in [w for w in CROSSES if any(k[0] == w for k in cells)]:
        limit = 5 if what == "bbr" else 2
        out = []
        for rtt in RTTS:
            v = cells.get((what, rtt), [])
            t = sorted(x for x in v if x is not None)
            never = len(v) - len(t)
            over = sum(x > limit for x in t)
            out.append(f"{over}" + (f" + {never} never" if never else "")
                       + (f"; {t[len(t) // 2]:.1f} s" if t else ""))
        print(f"| {what} (over {limit} s, of 420; median) | " + " | ".join(out) + " |")


def pairs(path: str, variant: str | None) -> None:
    below = defaultdict(int)
    seeds = defaultdict(int)
    for r in rows(path, variant):
        seeds[r["rtt_ms"]] += 1
        if r.get("jain") is not None and r["jain"] < 0.95:
            below[r["rtt_ms"]] += 1
    print("| two of ours below Jain 0.95 | "
          + " | ".join(f"{below[r]} of {seeds[r]}" for r in RTTS) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("timed")
    ap.add_argument("pairs")
    ap.add_argument("--variant", default=None)
    a = ap.parse_args()
    timed(a.timed, a.variant)
    pairs(a.pairs, a.variant)


if __name__ == "__main__":
    main()
