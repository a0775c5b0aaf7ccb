#!/usr/bin/env python3
"""Markdown tables of the swarm sweeps committed under docs/swarm-sim/ (their means.csv files,
as `ledbat sweep` writes them). Usage: python3 docs/swarm-sim/tables.py docs/swarm > docs/swarm-sim/tables.md
"""

import csv
import math
import sys
from pathlib import Path

# One table per sweep directory: its title, then (header, parameter column or metric,
# decimals) per column; a parameter column is taken as text, a metric as `mean ± ci95`.
TABLES = [
    (
        "ch5",
        "Chapter 5, Figs. 5.2 and 5.3(a): populations x seed behaviours",
        [
            ("population", "case", None),
            ("seeds", "swarm.seed_behaviour", None),
            ("download s", "download_mean_s", 1),
            ("LEDBAT peers s", "ledbat.download_mean_s", 1),
            ("TCP peers s", "tcp.download_mean_s", 1),
            ("LEDBAT queue ms", "ledbat.queue_mean_ms", 0),
            ("TCP queue ms", "tcp.queue_mean_ms", 0),
            ("TCP P(Q > 100 pkts)", "tcp.queue_over_100_pkts", 2),
            ("LEDBAT req->block ms", "ledbat.block_latency_ms", 0),
            ("TCP req->block ms", "tcp.block_latency_ms", 0),
            ("TCP byte share", "tcp_byte_share", 2),
        ],
    ),
    (
        "buffer",
        "Fig. 5.3(b): the access buffer (50-50, random stay)",
        [
            ("B (packets)", "case", None),
            ("LEDBAT peers s", "ledbat.download_mean_s", 1),
            ("TCP peers s", "tcp.download_mean_s", 1),
            ("LEDBAT queue ms", "ledbat.queue_mean_ms", 0),
            ("TCP queue ms", "tcp.queue_mean_ms", 0),
        ],
    ),
    (
        "target",
        "Fig. 5.5: target heterogeneity in the swarm (T2 = 100 ms, random stay)",
        [
            ("T1", "swarm.class.0.utp_cc.target", None),
            ("T1 peers s", "t1.download_mean_s", 1),
            ("T2 peers s", "t2.download_mean_s", 1),
            ("T1 queue ms", "t1.queue_mean_ms", 0),
            ("T2 queue ms", "t2.queue_mean_ms", 0),
        ],
    ),
    (
        "flashcrowd",
        "Chapter 6 setup, Figs. 6.2-6.4: the flash crowd by disposition",
        [
            ("population", "case", None),
            ("download s", "download_mean_s", 1),
            ("TCP byte share", "tcp_byte_share", 2),
            ("queue ms", "swarm_queue_mean_ms", 0),
            ("13 peers s", "prefer-tcp.download_mean_s", 1),
            ("14 peers s", "prefer-utp.download_mean_s", 1),
            ("13 peers queue ms", "prefer-tcp.queue_mean_ms", 0),
            ("14 peers queue ms", "prefer-utp.queue_mean_ms", 0),
        ],
    ),
    (
        "sensitivity",
        "Sensitivity to the values section 5.1 leaves open (50-50, random stay)",
        [
            ("change", "case", None),
            ("download s", "download_mean_s", 1),
            ("LEDBAT peers s", "ledbat.download_mean_s", 1),
            ("TCP peers s", "tcp.download_mean_s", 1),
            ("LEDBAT queue ms", "ledbat.queue_mean_ms", 0),
            ("TCP queue ms", "tcp.queue_mean_ms", 0),
        ],
    ),
]


def cell(row, column, digits):
    """A parameter's text, or `mean ± ci95` of a metric ('-' where the sweep has none)."""
    if digits is None:
        return row[column]
    m = row.get(f"{column}.mean", "")
    h = row.get(f"{column}.ci95", "")
    if not m:
        return "-"
    m = float(m)
    if not h or math.isnan(float(h)):
        return f"{m:.{digits}f}"
    return f"{m:.{digits}f} ± {float(h):.{digits}f}"


def main(d):
    parts = []
    for sub, title, columns in TABLES:
        path = Path(d) / sub / "means.csv"
        if not path.exists():
            continue
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        out = [f"### {title}", "", "| " + " | ".join(c[0] for c in columns) + " |"]
        out.append("|" + "---|" * len(columns))
        out += ["| " + " | ".join(cell(r, c, n) for _, c, n in columns) + " |" for r in rows]
        parts.append("\n".join(out) + "\n")
    print("\n".join(parts), end="")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
