"""The swarm bed against the simulator: one table of E[T], E[Q] and the TCP byte share per
disposition scenario, the kernel's from the bed's `run.json` files (`testbed/swarm.py`,
our client) and the simulator's from the `means.csv` of
`ledbat sweep scenarios/testbed/swarm-bed.sweep.toml` (the same client protocol code,
ledbat-bt-proto, on simulated links). docs/swarm-sim/kernel.md holds the table and what
explains the differences.

    python3 -m netbed.simkernel SIM_SWEEP_DIR BED_DIR [--client ours] [--rep R] [--where KEY=VALUE]

With several repetitions on the bed (`testbed/swarm.py --repeat 3`), each kernel cell is the
median over them with the range beside it; `--rep R` reads one repetition only.

E[T]: mean completion time of the 23 leechers from their start. E[Q]: mean uplink queue
of all peers sampled at 10 Hz while the leechers download, as ms at the uplink rate. TCP
bytes: TCP's share of what the peers uploaded (the bed counts frames on the wire, headers
and acknowledgements included; the simulator counts block bytes).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import os
import sys

from . import swarmstats as st
from .summary import median_range

SCENARIOS = ["mixed", "utp", "tcp", "tcp25", "tcp50", "tcp75"]


def kernel_row(run: dict) -> dict:
    """E[T] (s), its standard deviation, E[Q] (ms) and the TCP byte share of one bed swarm."""
    rate = int(run["settings"]["rate_mbit"] * 1e6)
    c = st.class_summary(run["peers"], rate)
    return {"t": c["mean_t_s"], "t_sd": c["sd_t_s"], "q": c["mean_q_ms"],
            "tcp": st.byte_share(run["peers"])["tcp_share"],
            "completed": c["completed"], "leechers": c["leechers"]}


def combine(rows: list[dict]) -> dict:
    """Several repetitions of one scenario: the median of each quantity (`netbed.summary`),
    with its range (`<key>_range`, None for a single repetition) and the number of
    repetitions."""
    out: dict = {"reps": len(rows)}
    for k in ("t", "q", "tcp"):
        s = median_range([r.get(k) for r in rows])
        out[k] = s["median"]
        out[k + "_range"] = (s["min"], s["max"]) if s["n"] > 1 else None
    return out


def sim_rows(means_csv: str, where: dict[str, str] | None = None) -> dict[str, dict]:
    """Per sweep case: E[T] (s) with its 95 % half-width over the seeds, E[Q] (ms), the
    TCP byte share, the number of seeds and whether every run completed. `where` keeps
    the rows whose grid columns have these values (a sweep with a `[grid]` has several
    rows per case; without `where` the last one is kept)."""
    out = {}
    where = where or {}
    with open(means_csv, newline="") as f:
        for r in csv.DictReader(f):
            if any(r.get(k) != v for k, v in where.items()):
                continue
            num = lambda k: float(r[k]) if r.get(k) not in (None, "") else None  # noqa: E731
            out[r["case"]] = {"t": num("download_mean_s.mean"),
                              "t_ci": num("download_mean_s.ci95"),
                              "q": num("swarm_queue_mean_ms.mean"),
                              "tcp": num("tcp_byte_share.mean"),
                              "runs": int(r["runs"]), "complete": num("complete.mean")}
    return out


def _f(x: float | None, digits: int) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _cell(k: dict, key: str, digits: int, scale: float = 1.0, unit: str = "") -> str:
    """A kernel value, with its range over repetitions when there are several."""
    v = k.get(key)
    if v is None:
        return "-"
    text = f"{scale * v:.{digits}f}{unit}"
    r = k.get(key + "_range")
    if r:
        text += f" ({scale * r[0]:.{digits}f}-{scale * r[1]:.{digits}f})"
    return text


def table(sim: dict[str, dict], kernel: dict[str, dict]) -> str:
    """The markdown table, one row per scenario present on both sides; a kernel row from
    [`combine`] shows its median and range."""
    lines = ["| scenario | E[T] sim (s) | E[T] kernel (s) | sim / kernel | E[Q] sim (ms) | "
             "E[Q] kernel (ms) | TCP bytes sim | TCP bytes kernel |",
             "|---|---|---|---|---|---|---|---|"]
    for name in SCENARIOS:
        s, k = sim.get(name), kernel.get(name)
        if s is None or k is None:
            continue
        ratio = s["t"] / k["t"] if s["t"] and k["t"] else None
        lines.append(
            f"| {name} | {_f(s['t'], 1)} ± {_f(s['t_ci'], 1)} | {_cell(k, 't', 1)} | "
            f"{_f(ratio, 2)} | {_f(s['q'], 0)} | {_cell(k, 'q', 0)} | "
            f"{_f(None if s['tcp'] is None else 100 * s['tcp'], 0)} % | "
            f"{_cell(k, 'tcp', 0, 100.0, ' %')} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sim", help="output directory of the simulator's sweep (means.csv)")
    ap.add_argument("bed", help="output directory of testbed/swarm.py (<scenario>-<client>-<rep>/)")
    ap.add_argument("--client", default="ours")
    ap.add_argument("--rep", type=int, default=None,
                    help="one repetition only (default: every one found, median and range)")
    ap.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                    help="the simulator's rows with this grid value (repeatable), for a "
                         "sweep with a [grid] such as swarm-bed-transport.sweep.toml")
    a = ap.parse_args(argv)
    where = {}
    for w in a.where:
        k, sep, v = w.partition("=")
        if not sep:
            print(f"error: --where {w}: expected KEY=VALUE", file=sys.stderr)
            return 2
        where[k] = v
    means = os.path.join(a.sim, "means.csv")
    if not os.path.exists(means):
        print(f"error: no means.csv in {a.sim}", file=sys.stderr)
        return 2
    kernel = {}
    for name in SCENARIOS:
        rows = []
        for rep in [a.rep] if a.rep else itertools.count(1):
            p = os.path.join(a.bed, f"{name}-{a.client}-{rep}", "run.json")
            if not os.path.exists(p):
                break
            with open(p) as f:
                rows.append(kernel_row(json.load(f)))
        if rows:
            kernel[name] = combine(rows)
    if not kernel:
        what = a.rep if a.rep else "R"
        print(f"error: no <scenario>-{a.client}-{what}/run.json in {a.bed}", file=sys.stderr)
        return 2
    sim = sim_rows(means, where)
    if not sim:
        print(f"error: no row of {means} matches --where", file=sys.stderr)
        return 2
    print(table(sim, kernel), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
