"""The loss-based rows of a `netbed.simtimed` JSON by the target beside them: of each
cell's arrivals, how many took over 2 s (and over 5 s) from the other flow's queue to our
flow's rate below 20 % of the link, with the median and the largest time.

    python3 docs/tcp/competitor/timed_from_queue.py docs/tcp/competitor/sim-timed-loss.json
"""
import json
import sys
from collections import defaultdict


def main(path: str) -> None:
    cells = defaultdict(list)
    for r in json.load(open(path)):
        cells[(r["what"], r["rtt_ms"])].append(r.get("until20_from_queue_s"))
    rtts = sorted({rtt for _, rtt in cells})
    print("| cross | " + " | ".join(f"{rtt:g} ms" for rtt in rtts) + " |")
    print("|---|" + "---|" * len(rtts))
    for what in sorted({w for w, _ in cells}):
        row = []
        for rtt in rtts:
            v = cells.get((what, rtt), [])
            t = sorted(x for x in v if x is not None)
            if not t:
                row.append("")
                continue
            over2 = sum(x > 2 for x in t)
            over5 = sum(x > 5 for x in t)
            never = len(v) - len(t)
            row.append(f"{over2} ({over5}) of {len(v)}; {t[len(t) // 2]:.1f} / {t[-1]:.1f} s"
                       + (f"; {never} never" if never else ""))
        print(f"| {what} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
