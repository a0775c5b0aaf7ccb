"""The swarm bed's uplinks against the simulator's, seed and leechers apart: what
docs/swarm-sim/kernel.md uses to explain why the all-TCP swarm is slower in the simulator.

    python3 -m netbed.uplinks BED_DIR SCENARIO [--sim LABEL=DIR ...] [--client ours]
    python3 -m netbed.uplinks BED_DIR SCENARIO --utp-base [--client ours]

BED_DIR holds the bed's swarms (`<scenario>-<client>-<rep>/run.json`, testbed/swarm.py);
every repetition of SCENARIO found is one row. Each `--sim LABEL=DIR` is one row too:
DIR holds one subdirectory per seed, each the `--out` of `ledbat sim` (its `peers.csv`),
and the row is the mean over those seeds.

Columns, for the seed (the initial seed) and the mean leecher: E[Q], the mean sampled
uplink queue in ms at the uplink rate; empty, the fraction of the 10 Hz samples with
nothing queued on the uplink (the bed's `tc` backlog 0, the simulator's uplink neither
queuing nor serialising); drops, packets the uplink's FIFO dropped. For the simulator also
the retransmission timeouts of the peers' upload flows per leecher, the share of first
timeouts that fired with the oldest unacknowledged packet already delivered (spurious by
the simulator's own count) and the share of timeouts undone (`transport.spurious_rto`).
E[T]: the leechers' mean completion time. The bed has no TCP counters: its timeouts are
not known.

`--utp-base` reads instead the peers' own reports (`p<k>.out`, `ledbat torrent`'s JSON,
which testbed/swarm.py keeps beside `run.json`; the repository keeps only `run.json`): per
repetition, for the seed's uplink and the leechers', the share of the bytes sent over uTP
that went on connections whose LEDBAT base delay (the smallest one-way delay the
connection saw) exceeds 10 ms, and the byte-weighted mean base delay. A base delay above
the path's (about 0.1 ms on the bed) means the connection never saw its uplink's queue
empty: LEDBAT then aims at TARGET above the queue it took for empty. Base delays at or
above 2^31 us are a few microseconds below zero, wrapped (the two ends' clock readings);
they count apart and stay out of the mean.

In `--sim LABEL=DIR` the label ends at the last `=`.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import os
import re
import statistics
import sys

#: A base delay above this, ms, is taken as including queueing.
BASE_QUEUED_MS = 10.0
#: Base delays at or above this, ms (2^31 us), wrapped below zero.
BASE_WRAPPED_MS = 2**31 / 1000


def _mean(xs: list[float]) -> float | None:
    return statistics.fmean(xs) if xs else None


def bed_row(run: dict) -> dict:
    """One bed swarm: E[T] (s); for the seed and the leechers (means over peers) E[Q]
    (ms), the empty-queue fraction and the drops per uplink."""
    rate = run["settings"]["rate_mbit"] * 1e6
    out: dict = {"t": _mean([p["completion_s"] for p in run["peers"]
                             if not p["seed"] and p["completion_s"] is not None])}
    for role, want in (("seed", True), ("leech", False)):
        ps = [p for p in run["peers"] if p["seed"] == want]
        out[role] = {
            "q_ms": _mean([_mean(p["queue_bytes"]) * 8 / rate * 1000
                           for p in ps if p["queue_bytes"]]),
            "empty": _mean([sum(1 for b in p["queue_bytes"] if b == 0) / len(p["queue_bytes"])
                            for p in ps if p["queue_bytes"]]),
            "drops": _mean([p["drops"] for p in ps if p.get("drops") is not None]),
        }
    return out


def _num(r: dict, k: str) -> float:
    return float(r[k]) if r.get(k) not in (None, "") else 0.0


def sim_peers_row(rows: list[dict]) -> dict:
    """One simulator run (the rows of its `peers.csv`), in the shape of [`bed_row`], with
    the leechers' timeouts per leecher and the shares of them spurious and undone."""
    out: dict = {"t": _mean([_num(r, "download_s") for r in rows
                             if r["initial_seed"] == "0" and r.get("download_s")])}
    for role, want in (("seed", "1"), ("leech", "0")):
        ps = [r for r in rows if r["initial_seed"] == want and _num(r, "queue_samples") > 0]
        idle = ("idle_no_data", "idle_awaiting_ack", "idle_awaiting_rto")
        out[role] = {
            "q_ms": _mean([_num(r, "uplink_queue_ms") for r in ps]),
            "empty": _mean([sum(_num(r, k) for k in idle) / _num(r, "queue_samples")
                            for r in ps]),
            "drops": _mean([_num(r, "uplink_drops") for r in ps]),
            "rtos": _mean([_num(r, "upload_rtos") for r in ps]),
            "head_delivered": sum(_num(r, "upload_rtos_head_delivered") for r in ps),
            "undone": sum(_num(r, "upload_rtos_undone") for r in ps),
            "rtos_total": sum(_num(r, "upload_rtos") for r in ps),
        }
    return out


def combine(rows: list[dict]) -> dict:
    """The mean of several runs' rows (the timeout shares from the summed counts)."""
    out: dict = {"t": _mean([r["t"] for r in rows if r["t"] is not None]), "n": len(rows)}
    for role in ("seed", "leech"):
        keys = rows[0][role].keys()
        out[role] = {k: _mean([r[role][k] for r in rows if r[role][k] is not None])
                     for k in keys}
    return out


def _f(x: float | None, digits: int, scale: float = 1.0) -> str:
    return "-" if x is None else f"{scale * x:.{digits}f}"


def _share(part: float | None, whole: float | None) -> str:
    return "-" if part is None or not whole else f"{100 * part / whole:.0f} %"


def table(rows: list[tuple[str, dict]]) -> str:
    """The markdown table, one row per (label, row)."""
    lines = ["| run | E[T] (s) | seed E[Q] (ms) | seed empty | seed drops | "
             "leecher E[Q] (ms) | leecher empty | leecher drops | leecher RTOs | "
             "head delivered | undone |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for label, r in rows:
        s, le = r["seed"], r["leech"]
        lines.append(
            f"| {label} | {_f(r['t'], 1)} | {_f(s['q_ms'], 0)} | {_f(s['empty'], 0, 100)} % | "
            f"{_f(s['drops'], 0)} | {_f(le['q_ms'], 0)} | {_f(le['empty'], 0, 100)} % | "
            f"{_f(le['drops'], 0)} | {_f(le.get('rtos'), 0)} | "
            f"{_share(le.get('head_delivered'), le.get('rtos_total'))} | "
            f"{_share(le.get('undone'), le.get('rtos_total'))} |")
    return "\n".join(lines) + "\n"


def duration_ms(text: str) -> float:
    """A duration as the client prints it (`"102.838ms"`, `"40us"`, `"0s"`), in ms."""
    m = re.fullmatch(r"([0-9.]+)(ns|us|ms|s)", text.strip())
    if not m:
        raise ValueError(f"not a duration: {text!r}")
    return float(m.group(1)) * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[m.group(2)]


def utp_base(reports: list[tuple[bool, dict]]) -> dict:
    """The uTP base delays of the peers' reports `(is_seed, report)`: for the seed and the
    leechers, the bytes sent over uTP, the share of them on connections whose base delay
    exceeds [`BASE_QUEUED_MS`], the share on wrapped ones, and the byte-weighted mean base
    delay (ms) of the others."""
    out = {}
    for role, want in (("seed", True), ("leech", False)):
        total = queued = wrapped = 0
        weighted = 0.0
        for is_seed, rep in reports:
            if is_seed != want:
                continue
            for c in rep.get("peers", []):
                u = c.get("utp") or {}
                base = (u.get("metrics") or {}).get("base_delay")
                sent = u.get("bytes_sent", 0)
                if base is None or not sent:
                    continue
                ms = duration_ms(base)
                total += sent
                if ms >= BASE_WRAPPED_MS:
                    wrapped += sent
                    continue
                queued += sent if ms > BASE_QUEUED_MS else 0
                weighted += ms * sent
        kept = total - wrapped
        out[role] = {"bytes": total,
                     "queued": queued / total if total else None,
                     "wrapped": wrapped / total if total else None,
                     "mean_ms": weighted / kept if kept else None}
    return out


def read_reports(swarm_dir: str, run: dict) -> tuple[list[tuple[bool, dict]], int]:
    """The peers' reports of one bed swarm, with whether each is the seed's, and the
    number of peers whose report is missing or unreadable."""
    out, missing = [], 0
    for p in run["peers"]:
        try:
            with open(os.path.join(swarm_dir, f"p{p['k']}.out")) as f:
                out.append((p["seed"], json.load(f)))
        except (OSError, ValueError):
            missing += 1
    return out, missing


def base_table(rows: list[tuple[str, dict, int]]) -> str:
    """The markdown table of [`utp_base`] rows `(label, row, reports missing)`."""
    lines = ["| run | seed: uTP bytes on queued-base connections | seed: mean base (ms) | "
             "leechers: uTP bytes on queued-base connections | leechers: mean base (ms) | "
             "leechers: wrapped | reports missing |",
             "|---|---|---|---|---|---|---|"]
    for label, r, missing in rows:
        s, le = r["seed"], r["leech"]
        lines.append(f"| {label} | {_f(s['queued'], 0, 100)} % | {_f(s['mean_ms'], 1)} | "
                     f"{_f(le['queued'], 0, 100)} % | {_f(le['mean_ms'], 1)} | "
                     f"{_f(le['wrapped'], 0, 100)} % | {missing} |")
    return "\n".join(lines) + "\n"


def read_sim_dir(d: str) -> list[dict]:
    """The per-seed rows of a directory of `ledbat sim --out` outputs."""
    rows = []
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name, "peers.csv")
        if os.path.exists(p):
            with open(p, newline="") as f:
                rows.append(sim_peers_row(list(csv.DictReader(f))))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bed", help="output directory of testbed/swarm.py")
    ap.add_argument("scenario", help="the bed's scenario name (tcp, utp, ...)")
    ap.add_argument("--client", default="ours")
    ap.add_argument("--sim", action="append", default=[], metavar="LABEL=DIR",
                    help="simulator runs: DIR/<any>/peers.csv, one subdirectory per seed")
    ap.add_argument("--utp-base", action="store_true",
                    help="the uTP connections' base delays from the peers' reports instead")
    a = ap.parse_args(argv)
    out: list[tuple[str, dict]] = []
    bases: list[tuple[str, dict, int]] = []
    for rep in itertools.count(1):
        d = os.path.join(a.bed, f"{a.scenario}-{a.client}-{rep}")
        p = os.path.join(d, "run.json")
        if not os.path.exists(p):
            break
        with open(p) as f:
            run = json.load(f)
        out.append((f"kernel, repetition {rep}", bed_row(run)))
        if a.utp_base:
            reports, missing = read_reports(d, run)
            bases.append((f"kernel, repetition {rep}", utp_base(reports), missing))
    if a.utp_base:
        if not any(r["seed"]["bytes"] or r["leech"]["bytes"] for _, r, _ in bases):
            print(f"error: no uTP connection in the peers' reports (p<k>.out) of "
                  f"{a.scenario} in {a.bed}", file=sys.stderr)
            return 2
        print(base_table(bases), end="")
        return 0
    for spec in a.sim:
        label, _, d = spec.rpartition("=")
        rows = read_sim_dir(d)
        if not rows:
            print(f"error: no */peers.csv in {d}", file=sys.stderr)
            return 2
        out.append((f"{label} ({len(rows)} seeds)", combine(rows)))
    if not out:
        print("error: nothing to show", file=sys.stderr)
        return 2
    print(table(out), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
