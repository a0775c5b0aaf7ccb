"""Seed 001's Fig. 7 on the bed: the ping delay while one uTP bulk upload runs.

    sudo python3 testbed/pingdelay.py --seeder ours --minutes 16 --json OUT.json
    python3 -m netbed.pingdelay report A.json B.json ... > docs/repro/bed-fig7.md

Seed 001 (section III, Fig. 7) ran libutp's test program over an Ethernet link shaped to
500 kbit/s and 50 ms with netem and saw the ping delay grow step-wise, as in its Fig. 1: a
LEDBAT sender whose queue never drains takes its own standing queue for the base delay
when the oldest minute of its base-delay history expires, and adds TARGET on top of it.

Here: the bed's `tbf` bottleneck at 500 kbit/s with a FIFO far larger than the growth can
fill (4 s by default; netem's default limit is 1000 packets), 25 ms each way through the
user-space delay line (a 50 ms base RTT), one BitTorrent upload over uTP from the sender
namespace to a libtorrent leecher, and `ping -i 1` from the sender to the receiver across
the same FIFO for the whole run. One run per seeder:

| seeder         | uTP stack                             | base-delay history     |
|----------------|---------------------------------------|------------------------|
| `ours`         | `ledbat torrent seed --cc ledbat`     | 10 one-minute buckets  |
| `transmission` | Transmission 3.00 (libutp inside)     | 13 one-minute slots    |
| `libtorrent`   | libtorrent 2.1.1                      | 20 one-minute slots    |
| `tcp`          | kernel TCP, `ledbat tcp load ledbat`  | 10 one-minute buckets  |

(`tcp`: seed 001's Fig. 1 with the RFC controller over Linux TCP, its one-way delay from
the timestamp option; iperf3 sends, the binary must have the `tcp` feature. The flow is
still called `utp` in the figures.)

(docs/utp.md, "Congestion control in the deployed clients".) Reported per minute: the mean
ping RTT and the mean queueing delay from the router's qdisc samples (backlog x 8 / rate).
The check, fixed before running: the ping delay *grows* when the mean of the run's last
two minutes exceeds the plateau (median of the per-minute means from minute 2 to the last
minute before the seeder's history can first expire) by at least half of TARGET (50 ms);
a run shorter than the seeder's history plus two minutes cannot show growth and says so.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time

from . import bittorrent, flows, install, ktcp, measure, paths, proc, topo
from .bed import run_scenario
from .guard import arm
from .flows import Context, Flow, FlowKind

TARGET_MS = 100.0
"""TARGET of all three stacks (libutp, libtorrent and our `ledbat`: 100 ms)."""
HISTORY_MIN = {"ours": 10, "transmission": 13, "libtorrent": 20, "tcp": 10}
"""Base-delay history of each stack, in one-minute slots (docs/utp.md)."""
SEEDER_KIND = {"ours": "bt-ours", "transmission": "bt-tr", "libtorrent": "bt-lt", "tcp": "ktcp"}
SEEDER_LABEL = {"ours": "ours (ledbat torrent seed --cc ledbat)",
                "transmission": "Transmission 3.00 (libutp)", "libtorrent": "libtorrent 2.1.1",
                "tcp": "ours over kernel TCP (ledbat tcp load ledbat: RFC 6817, one-way delay "
                       "from TCP timestamps)"}
PING_INTERVAL_S = 1.0
PING_RE = re.compile(r"icmp_seq=(\d+).*?time=([0-9.]+) ms")


# ---------------------------------------------------------------- the ping flow


def _hold(flow: Flow, ctx: Context) -> list[str]:
    """The ping flow's 'receiver': a bound UDP port, so the bed sees it listening."""
    return [sys.executable, "-m", "netbed.pingdelay", "hold", ctx.rcv_ip, str(flow.port)]


def _ping(flow: Flow, ctx: Context) -> list[str]:
    return ["ping", "-n", "-i", str(PING_INTERVAL_S), "-W", "10", ctx.rcv_ip]


PING_KIND = FlowKind("ping", _hold, _ping, ["ping"], False,
                     "ping -i 1 from the sender to the receiver across the FIFO")


def hold(ip: str, port: int, max_s: float = 7200.0) -> None:
    """Binds a UDP port and sleeps until killed (at most `max_s`)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((ip, port))
    time.sleep(max_s)


# ---------------------------------------------------------------- analysis


def parse_ping(text: str) -> list[tuple[int, float]]:
    """(icmp_seq, RTT ms) of every reply line of `ping -n` output."""
    return [(int(m.group(1)), float(m.group(2))) for m in PING_RE.finditer(text)]


def per_minute(points: list[tuple[float, float]], minutes: int) -> list[float | None]:
    """Mean of the values whose time (s from the start) falls in each whole minute."""
    out: list[float | None] = []
    for k in range(minutes):
        v = [y for t, y in points if 60 * k <= t < 60 * (k + 1)]
        out.append(statistics.fmean(v) if v else None)
    return out


def growth(minutes: list[float | None], history_min: int) -> dict:
    """The check of the module doc on per-minute means: plateau, last two minutes, growth,
    and whether the run is long enough to tell."""
    n = len(minutes)
    long_enough = n >= history_min + 2
    plateau_v = [m for m in minutes[2:history_min] if m is not None]
    last_v = [m for m in minutes[-2:] if m is not None]
    if not plateau_v or not last_v:
        return {"plateau_ms": None, "last2_ms": None, "growth_ms": None,
                "long_enough": long_enough, "grows": None}
    plateau, last = statistics.median(plateau_v), statistics.fmean(last_v)
    g = last - plateau
    return {"plateau_ms": round(plateau, 1), "last2_ms": round(last, 1),
            "growth_ms": round(g, 1), "long_enough": long_enough,
            "grows": g >= TARGET_MS / 2}


def analyse(res, seeder: str, minutes: int, rate_bps: int) -> dict:
    """Per-minute ping RTT and qdisc queueing delay of one run, and the growth check."""
    out: dict = {"seeder": seeder, "history_min": HISTORY_MIN[seeder], "minutes": minutes,
                 "base_rtt_ms": res.base_rtt_ms, "errors": list(res.errors)}
    for fr in res.flows:
        if fr.error:
            out["errors"].append(f"{fr.flow.name}: {fr.error}")
    ping = res.flow("ping")
    pts = [((seq - 1) * PING_INTERVAL_S, rtt) for seq, rtt in parse_ping(ping.sender_stdout)]
    off = (ping.t_start or res.t0) - res.t0
    pts = [(t + off, y) for t, y in pts]
    q = [(s["t"] - res.t0, s["backlog"] * 8 / rate_bps * 1000) for s in res.qdisc]
    out["ping_replies"] = len(pts)
    out["ping_ms_per_minute"] = [None if v is None else round(v, 1)
                                 for v in per_minute(pts, minutes)]
    out["queue_ms_per_minute"] = [None if v is None else round(v, 1)
                                  for v in per_minute(q, minutes)]
    out["ping"] = growth(out["ping_ms_per_minute"], HISTORY_MIN[seeder])
    drops = [s.get("drops", 0) for s in res.qdisc]
    out["fifo_drops"] = (max(drops) - min(drops)) if drops else None
    utp = measure.flow_frames(res.counters, "utp")
    out["utp_mbit"] = round(utp.rate_bps(res.t0 + 60, res.t0 + minutes * 60) / 1e6, 3) \
        if res.counters else None
    return out


# ---------------------------------------------------------------- report


def _f(x, nd=1) -> str:
    return "n/a" if x is None else f"{x:.{nd}f}"


def markdown(docs: list[dict]) -> str:
    """One table of per-minute ping RTTs (a column per run) and the checks."""
    n = max(d["minutes"] for d in docs)
    head = "| minute | " + " | ".join(f"{SEEDER_LABEL[d['seeder']]}: ping / queue ms"
                                      for d in docs) + " |"
    lines = [head, "|---|" + "---|" * len(docs)]
    for k in range(n):
        cells = []
        for d in docs:
            p = d["ping_ms_per_minute"][k] if k < d["minutes"] else None
            q = d["queue_ms_per_minute"][k] if k < d["minutes"] else None
            cells.append(f"{_f(p)} / {_f(q)}")
        lines.append(f"| {k}-{k + 1} | " + " | ".join(cells) + " |")
    lines.append("")
    for d in docs:
        g = d["ping"]
        verdict = ("grows" if g["grows"] else "no growth") if g["grows"] is not None \
            else "not measured"
        if g["grows"] is False and not g["long_enough"]:
            verdict = (f"no growth within {d['minutes']} min (the run is shorter than its "
                       f"{d['history_min']}-minute history + 2 minutes)")
        lines.append(
            f"- {SEEDER_LABEL[d['seeder']]} ({d['minutes']} min, base-delay history "
            f"{d['history_min']} min): idle ping {_f(d['base_rtt_ms'])} ms; plateau "
            f"(median of minutes 2 to {d['history_min'] - 1}) {_f(g['plateau_ms'])} ms, last "
            f"two minutes {_f(g['last2_ms'])} ms, growth {_f(g['growth_ms'])} ms: "
            f"**{verdict}**; uTP {_f(d['utp_mbit'], 3)} Mbit/s from minute 1; FIFO drops "
            f"{d['fifo_drops']}; {d['ping_replies']} ping replies"
            + (f"; errors: {'; '.join(d['errors'])}" if d["errors"] else ""))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- main


def needs_of(seeder: str) -> install.Needs:
    """The bed's tools, libtorrent (leecher, torrent) and Transmission when it seeds."""
    tools = ["ip", "tc", "nft", "ethtool", "ping", "sysctl", "ss"]
    if seeder == "transmission":
        tools.append("transmission-daemon")
    return install.Needs(tools, libtorrent=True)


def run(a, argv: list[str]) -> int:
    """One seeder's run (root); `argv` the command's arguments, for the record."""
    ledbat_bin = install.preflight("namespaces, qdiscs", a.ledbat_bin,
                                   need_bin=a.seeder in ("ours", "tcp"))
    if ledbat_bin is None:
        return 2
    try:
        install.ensure(needs_of(a.seeder), install=not a.no_install,
                       log=lambda m: print(f"[fig7] {m}", flush=True))
    except (proc.CommandError, subprocess.TimeoutExpired) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for k in bittorrent.KINDS.values():
        flows.register(k)
    flows.register(PING_KIND)
    ktcp.register_kind()
    ccs = ktcp.Controllers(ledbat_bin)
    rate = int(a.rate_kbit * 1000)
    length = a.minutes * 60.0
    out_dir = os.path.abspath(a.out_dir or paths.default_out_dir("fig7", f"-{a.seeder}"))
    work = os.path.join(out_dir, "work")
    os.makedirs(work, exist_ok=True)
    data = os.path.join(work, "fig7.bin")
    size = int(rate / 8 * length * 1.5) + 8 * bittorrent.PIECE_BYTES
    with open(data, "wb") as fh:  # sparse zeros
        fh.truncate(size)
    bittorrent.make_torrent(data, data + ".torrent")
    ctx = dict(workdir=work, ledbat_bin=ledbat_bin, send_file=data)
    b = topo.Bottleneck.from_fifo_ms(rate, a.fifo_ms)
    cc = {"ours": "ledbat", "tcp": None}.get(a.seeder)
    utp = Flow("utp", SEEDER_KIND[a.seeder], 0.0, length, cc=cc,
               params={"packet_size": "1472"} if a.seeder == "ours" else {})
    fl = [utp, Flow("ping", "ping", 0.0, length)]
    # The BitTorrent peers stop themselves after LEECH_MAX_S (a guard for the short
    # side-by-side runs); this run is longer.
    bittorrent.LEECH_MAX_S = int(length) + 300
    tag = f"f{os.getpid() % 10000}"
    arm(None)
    started = time.monotonic()
    print(f"[fig7] {a.seeder}: {a.minutes} min at {a.rate_kbit:g} kbit/s, FIFO "
          f"{b.fifo_frames} frames ({b.fifo_ms:.0f} ms), {a.delay_ms:g} ms each way; out "
          f"{out_dir}", flush=True)
    try:
        if a.seeder == "tcp":
            utp.cc = ccs.ensure("ledbat")
        res = run_scenario(f"fig7-{a.seeder}", fl, length, b, ctx, out_dir, tag,
                           delay_ms=a.delay_ms)
    except ktcp.LoadFailed as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        for problem in ccs.close():
            print(f"[fig7] {problem}", file=sys.stderr)
        topo.delete_tagged(tag)
        shutil.rmtree(work, ignore_errors=True)
    doc = analyse(res, a.seeder, a.minutes, rate)
    doc.update({
        "command": paths.command_line(["testbed/pingdelay.py"], argv),
        "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        **paths.provenance(ledbat_bin), "rate_kbit": a.rate_kbit,
        "delay_ms_each_way": a.delay_ms,
        "fifo_frames": b.fifo_frames, "fifo_ms": round(b.fifo_ms), "file_bytes": size,
        "seconds": round(time.monotonic() - started), "load": os.getloadavg(),
        "logdir": paths.portable_path(out_dir),
    })
    path = a.json or os.path.join(out_dir, f"fig7-{a.seeder}.json")
    paths.write_atomic(path, json.dumps(doc, indent=1))
    print(markdown([doc]), flush=True)
    return 1 if doc["errors"] else 0


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd")
    h = sub.add_parser("hold", help="bind a UDP port and sleep (the ping flow's receiver)")
    h.add_argument("ip")
    h.add_argument("port", type=int)
    r = sub.add_parser("report", help="Markdown of one or more runs' JSON files")
    r.add_argument("files", nargs="+")
    ap.add_argument("--seeder", choices=sorted(SEEDER_KIND), default="ours")
    ap.add_argument("--minutes", type=int, default=None,
                    help="run length (default: the seeder's history + 5 minutes)")
    ap.add_argument("--rate-kbit", type=float, default=500.0)
    ap.add_argument("--delay-ms", type=float, default=25.0, help="each way (default 25)")
    ap.add_argument("--fifo-ms", type=float, default=4000.0)
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--out-dir", default=None, help="default $TMPDIR/ledbat-fig7/<time>-<seeder>")
    ap.add_argument("--json", default=None, help="default OUT/fig7-<seeder>.json")
    ap.add_argument("--no-install", action="store_true")
    return ap.parse_args(argv)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    a = parse_args(argv)
    if a.cmd == "hold":
        hold(a.ip, a.port)
        return 0
    if a.cmd == "report":
        docs = []
        for f in a.files:
            with open(f) as fh:
                docs.append(json.load(fh))
        sys.stdout.write(markdown(docs))
        return 0
    if a.minutes is None:
        a.minutes = HISTORY_MIN[a.seeder] + 5
    if a.minutes < 3:
        print("error: --minutes must be at least 3", file=sys.stderr)
        return 2
    return run(a, argv)


if __name__ == "__main__":
    sys.exit(main())
