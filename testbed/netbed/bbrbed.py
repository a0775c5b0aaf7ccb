"""Kernel bbr on the bed against the simulator's `bbr` (crates/ledbat-core/src/bbr.rs): the
same cases on the bed's real bottleneck (kernel TCP through iperf3) and in `ledbat sim`,
read by one analysis (docs/controllers-notes.md, "bbr", holds the table).

    sudo python3 testbed/bbrbed.py [--rtts-ms 0,20,40,100] [--buffers 17,275] [--repeats 3]
        [--sim-seeds 3] [--ledbat-bin B] [--out-dir D] [--no-install]
    sudo python3 testbed/bbrbed.py --quick      # CI: alone at 40 ms and beside cubic in
                                                # half a BDP, once each (about 2.5 minutes)
    python3 testbed/bbrbed.py --report OUT/bbrbed.json      # the tables again

Cases (10 Mbit/s `tbf`, the user-space delay line for half the base RTT each way):
- `alone`: bbr for ALONE_S in the bed's 121-ms FIFO (100 frames), at each base RTT: its
  payload rate and the link's use from WARM_S, the queue (mean and p95 of the backlog
  sampled every 50 ms), and its ProbeRTT dips: 100-ms windows in which it delivers less
  than half the link, adjacent ones merged; their number and the mean time between them.
  (At a base RTT near zero ProbeRTT's four packets still fill the link: no dip shows.)
- `cubic`: bbr and cubic started together for BESIDE_S at a base RTT of 40 ms (a BDP of
  34 frames), a FIFO of half a BDP and of 8 BDP (`--buffers`, frames): bbr's share of what
  the two deliver over the last two thirds. Kernel cubic has HyStart on (Linux's default);
  the simulator's cubic runs with `hystart = "linux"` to match.

The simulator runs the same cases (`scenarios/testbed/bbr-alone.toml`,
`bbr-beside-cubic.toml`) for seeds 1..`--sim-seeds`; its series are read as the bed's
counters (`simseries.delivered`), its queue from the bottleneck's samples. Needs root for
the bed (namespaces, qdiscs); `--sim-only` runs the simulator alone. Exit 0 when every case
ran, 1 when one failed, 2 when the bed cannot run, 3 on the overall time limit.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

from . import install, measure, paths, simseries, topo
from .bed import run_scenario
from .flows import Flow
from .guard import Deadline, arm, disarm
from .paths import REPO
from .summary import format_range, median_range

RATE_BPS = 10_000_000
ALONE_S = 40.0
BESIDE_S = 60.0
WARM_S = 5.0
BED_FIFO_FRAMES = 100  # the bed's 121 ms FIFO (docs/sidebyside/README.md)
BESIDE_RTT_MS = 40.0
DIP_WINDOW_S = 0.1
TCP_OVERHEAD = 20 + 32  # IPv4 + TCP with timestamps: payload = IP bytes - this per packet
SIM_PACKET = 1500  # the simulator's packets (mss = 1500 in both files)
ALONE_TOML = os.path.join(REPO, "scenarios", "testbed", "bbr-alone.toml")
BESIDE_TOML = os.path.join(REPO, "scenarios", "testbed", "bbr-beside-cubic.toml")


def dips(series: measure.Cumulative, a: float, b: float, rate_bps: float) -> list[float]:
    """Start times of the flow's ProbeRTT-like dips in [a, b]: DIP_WINDOW_S windows whose
    rate is below half of `rate_bps`, adjacent windows merged into one dip."""
    out: list[float] = []
    prev_low = False
    for s, r in series.windowed(a, b, DIP_WINDOW_S, DIP_WINDOW_S):
        low = r < rate_bps / 2
        if low and not prev_low:
            out.append(s)
        prev_low = low
    return out


def _spacing(starts: list[float]) -> float | None:
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    return statistics.fmean(gaps) if gaps else None


def alone_figures(flow: measure.Cumulative, sent: measure.Cumulative | None,
                  queue_ms: list[float], a: float, b: float) -> dict:
    """The `alone` figures over [a, b]: payload rate, link use (from `sent`, the link's
    frame bytes, when known), queue mean and p95 (ms), the dips and their spacing."""
    d = dips(flow, a, b, RATE_BPS)
    return {
        "rate_mbit": flow.rate_bps(a, b) / 1e6,
        "link_use": None if sent is None else sent.rate_bps(a, b) / RATE_BPS,
        "queue_mean_ms": statistics.fmean(queue_ms) if queue_ms else math.nan,
        "queue_p95_ms": measure.percentile(queue_ms, 95),
        "dips": len(d),
        "dip_spacing_s": _spacing(d),
    }


def beside_figures(bbr: measure.Cumulative, cubic: measure.Cumulative, a: float,
                   b: float) -> dict:
    """bbr's and cubic's rates over [a, b] and bbr's share of their sum."""
    x, y = bbr.rate_bps(a, b), cubic.rate_bps(a, b)
    return {"bbr_mbit": x / 1e6, "cubic_mbit": y / 1e6,
            "bbr_share": x / (x + y) if x + y > 0 else math.nan}


# ----- the bed

def bed_case(case: str, rtt_ms: float, frames: int, logdir: str, tag: str) -> dict:
    """One case on the bed: the figures, the idle ping RTT and the load at the start."""
    load = os.getloadavg()[0]
    b = topo.Bottleneck(rate_bps=RATE_BPS, fifo_frames=frames)
    if case == "alone":
        fl = [Flow("bbr", "iperf3-bbr", 0.0, ALONE_S)]
        length = ALONE_S
    else:
        fl = [Flow("bbr", "iperf3-bbr", 0.0, BESIDE_S), Flow("cubic", "iperf3-cubic", 0.0,
                                                             BESIDE_S)]
        length = BESIDE_S
    ctx = dict(workdir=logdir, ledbat_bin="", send_file="")
    res = run_scenario(f"bbr-{case}", fl, length, b, ctx, logdir, tag, delay_ms=rtt_ms / 2)
    errors = [f"{r.flow.name}: {r.error}" for r in res.flows if r.error] + res.errors
    row = {"case": case, "rtt_ms": rtt_ms, "fifo_frames": frames, "side": "kernel",
           "idle_ping_rtt_ms": res.base_rtt_ms, "load": round(load, 2)}
    if errors:
        return row | {"error": "; ".join(errors)}
    start = res.flow("bbr").t_start
    if start is None:
        return row | {"error": "bbr did not start"}
    flow = measure.flow_payload(res.counters, "bbr", TCP_OVERHEAD)
    if case == "alone":
        a, z = start + WARM_S, start + ALONE_S - 0.5
        q = [r["backlog"] * 8 / RATE_BPS * 1000 for r in res.qdisc if a <= r["t"] <= z]
        return row | alone_figures(flow, measure.qdisc_sent(res.qdisc), q, a, z)
    cubic = measure.flow_payload(res.counters, "cubic", TCP_OVERHEAD)
    return row | beside_figures(flow, cubic, start + BESIDE_S / 3, start + BESIDE_S - 0.5)


# ----- the simulator

def sim_sets(case: str, rtt_ms: float, frames: int) -> list[str]:
    """`--set`s putting the scenario file on the case's base RTT and FIFO."""
    one_way = f"{rtt_ms / 2:g}ms" if rtt_ms > 0 else "30us"
    sets = [f"topology.delay={one_way}",
            f"topology.queue={{ kind = \"droptail\", packets = {frames} }}"]
    if case == "cubic":
        sets.append('flow.1.cc={ name = "cubic", hystart = "linux" }')
    return sets


def sim_case(binary: str, case: str, rtt_ms: float, frames: int, seed: int) -> dict:
    """One case in the simulator (seed `seed`), measured as the bed measures it."""
    row = {"case": case, "rtt_ms": rtt_ms, "fifo_frames": frames, "side": "sim", "seed": seed}
    toml = ALONE_TOML if case == "alone" else BESIDE_TOML
    with tempfile.TemporaryDirectory(prefix="bbrbed-") as d:
        out = os.path.join(d, "out")
        argv = [binary, "sim", toml, "--seed", str(seed), "--out", out]
        for s in sim_sets(case, rtt_ms, frames):
            argv += ["--set", s]
        r = subprocess.run(argv, capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            return row | {"error": r.stderr.strip()}
        cols = simseries.read_columns(os.path.join(out, "series.csv"))
    flow = simseries.delivered(cols, "bbr")
    if case == "alone":
        a, z = WARM_S, ALONE_S
        q = [x * SIM_PACKET * 8 / RATE_BPS * 1000 for t, x in
             zip(cols["t_s"], cols["bottleneck.queue_pkts"]) if a <= t <= z]
        return row | alone_figures(flow, None, q, a, z)
    cubic = simseries.delivered(cols, "cubic")
    return row | beside_figures(flow, cubic, BESIDE_S / 3, BESIDE_S)


# ----- the report

def _spread(vals: list) -> str:
    """`median [min..max]` over the repeats (`netbed.summary`), whole numbers for counts, "-"
    when none measured the figure."""
    counts = all(isinstance(x, int) or x is None or x != x for x in vals)  # x != x: NaN
    return format_range(median_range(vals), 0 if counts else 2, empty="-")


def _groups(ok: list[dict], case: str):
    """The rows of `case` grouped by (base RTT, FIFO, side), kernel before simulator, as
    (rtt, frames, side, rows)."""
    keys = sorted({(r["rtt_ms"], r["fifo_frames"]) for r in ok if r["case"] == case})
    for rtt, fr in keys:
        for side in ("kernel", "sim"):
            g = [r for r in ok if (r["case"], r["rtt_ms"], r["fifo_frames"], r["side"]) ==
                 (case, rtt, fr, side)]
            if g:
                yield rtt, fr, side, g


def markdown(rows: list[dict]) -> str:
    """Two tables, kernel beside simulator: median [min..max] over repeats (bed) or seeds
    (simulator)."""
    ok = [r for r in rows if not r.get("error")]
    out = ["bbr alone, 121 ms FIFO: median [min..max]", "",
           "| base RTT | side | runs | payload Mbit/s | link use | queue mean / p95 ms | "
           "ProbeRTT dips | their spacing s |", "|---|---|---|---|---|---|---|---|"]
    for rtt, _, side, g in _groups(ok, "alone"):
        out.append(f"| {rtt:.0f} ms | {side} | {len(g)} | "
                   f"{_spread([r['rate_mbit'] for r in g])} | "
                   f"{_spread([r['link_use'] for r in g])} | "
                   f"{_spread([r['queue_mean_ms'] for r in g])} / "
                   f"{_spread([r['queue_p95_ms'] for r in g])} | "
                   f"{_spread([r['dips'] for r in g])} | "
                   f"{_spread([r['dip_spacing_s'] for r in g])} |")
    out += ["", f"bbr and cubic started together, base RTT {BESIDE_RTT_MS:.0f} ms, over the last "
            "two thirds: median [min..max]", "",
            "| FIFO frames | side | runs | bbr Mbit/s | cubic Mbit/s | bbr share |",
            "|---|---|---|---|---|---|"]
    for _, fr, side, g in _groups(ok, "cubic"):
        out.append(f"| {fr} | {side} | {len(g)} | {_spread([r['bbr_mbit'] for r in g])} | "
                   f"{_spread([r['cubic_mbit'] for r in g])} | "
                   f"{_spread([r['bbr_share'] for r in g])} |")
    bad = [r for r in rows if r.get("error")]
    if bad:
        out += [""] + [f"- failed: {r['side']} {r['case']} {r['rtt_ms']:.0f} ms "
                       f"{r['fifo_frames']} frames: {r['error']}" for r in bad]
    return "\n".join(out) + "\n"


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rtts-ms", default="0,20,40,100")
    ap.add_argument("--buffers", default="17,275",
                    help="FIFO sizes in frames for bbr beside cubic (half a BDP, 8 BDP)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sim-seeds", type=int, default=3)
    ap.add_argument("--sim-only", action="store_true")
    ap.add_argument("--quick", action="store_true",
                    help="--rtts-ms 40 --buffers 17 --repeats 1 --sim-seeds 1")
    ap.add_argument("--no-install", action="store_true",
                    help="do not apt-get install what is missing (iperf3, nft, ...)")
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--report", default=None, metavar="JSON",
                    help="print the tables of an earlier run")
    return ap.parse_args(argv)


def _floats(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"not a list of numbers: {text!r}") from None


def main(argv=None) -> int:
    a = parse_args(argv)
    if a.report:
        try:
            with open(a.report) as fh:
                doc = json.load(fh)
            print(markdown(doc["rows"]), end="")
        except (OSError, ValueError, KeyError) as e:
            print(f"error: {a.report}: {e}", file=sys.stderr)
            return 2
        return 0
    if a.quick:
        a.rtts_ms, a.buffers, a.repeats, a.sim_seeds = "40", "17", 1, 1
    try:
        rtts = _floats(a.rtts_ms)
        buffers = [int(x) for x in _floats(a.buffers)]
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.repeats < 1 or a.sim_seeds < 1 or not rtts or not buffers:
        print("error: --repeats and --sim-seeds must be at least 1, --rtts-ms and --buffers "
              "not empty", file=sys.stderr)
        return 2
    cases = [("alone", r, BED_FIFO_FRAMES) for r in rtts] + \
            [("cubic", BESIDE_RTT_MS, f) for f in buffers]
    if a.sim_only:
        binary = os.path.abspath(a.ledbat_bin or paths.default_ledbat_bin())
        if not os.access(binary, os.X_OK):
            print(f"error: no ledbat binary at {binary}", file=sys.stderr)
            return 2
    else:
        binary = install.prepare("namespaces, qdiscs", a.ledbat_bin,
                                 install.Needs(["ip", "tc", "nft", "ping", "sysctl", "iperf3"]),
                                 install=not a.no_install,
                                 log=lambda m: print(f"[bbrbed] {m}", flush=True))
        if binary is None:
            return 2
    out_dir = os.path.abspath(a.out_dir or paths.default_out_dir("bbrbed"))
    os.makedirs(out_dir, exist_ok=True)
    doc = {"command": paths.command_line(["testbed/bbrbed.py"],
                                         sys.argv[1:] if argv is None else argv),
           "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
           **paths.provenance(binary),
           "kernel": os.uname().release, "load_before": os.getloadavg(), "rows": []}
    status = 0
    started = time.monotonic()
    tag = f"b{os.getpid() % 10000}"
    if not a.sim_only:
        arm(len(cases) * a.repeats * (BESIDE_S + 30) + 120)
        try:
            for rep in range(1, a.repeats + 1):
                for case, rtt, fr in cases:
                    logdir = os.path.join(out_dir, f"{case}-rtt{rtt:.0f}-{fr}f-{rep}")
                    row = bed_case(case, rtt, fr, logdir, tag) | {"repeat": rep}
                    doc["rows"].append(row)
                    print(f"[bbrbed] {json.dumps(row)}", flush=True)
        except Deadline:
            print("[bbrbed] overall time limit hit", file=sys.stderr)
            status = 3
        except KeyboardInterrupt:
            print("[bbrbed] interrupted", file=sys.stderr)
            status = 3
        finally:
            disarm()
            topo.delete_tagged(tag)
    for seed in range(1, a.sim_seeds + 1):
        for case, rtt, fr in cases:
            doc["rows"].append(sim_case(binary, case, rtt, fr, seed))
    doc["seconds"] = round(time.monotonic() - started, 1)
    md = markdown(doc["rows"])
    paths.write_atomic(os.path.join(out_dir, "bbrbed.json"), json.dumps(doc, indent=1))
    paths.write_atomic(os.path.join(out_dir, "bbrbed.md"), md)
    print(md, end="")
    if status:
        return status
    return 1 if any(r.get("error") for r in doc["rows"]) else 0


if __name__ == "__main__":
    sys.exit(main())
