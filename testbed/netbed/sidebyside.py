"""Side by side on the bed: deployed BitTorrent seeders against ours, one run, one file.

    sudo python3 testbed/sidebyside.py [--quick] [--ledbat-bin PATH] [--json F] [--md F]
    python3 testbed/sidebyside.py --merge A.json B.json ... [--json F] [--md F]

For each FIFO, base RTT (0 = none; otherwise half of it each way through the bed's
user-space delay line), kind of cross traffic (kernel cubic or bbr through iperf3), seeder
(libtorrent 2.1.1, Transmission 3.00, and `ledbat torrent seed --cc C`) and repeat, one
scenario on a fresh bed:

    0 s         the leecher (libtorrent, receiver namespace) dials the seeder; data flows
    CROSS_AT    the cross traffic joins over the same FIFO for CROSS_FOR s
    + AFTER     the seeder alone again

and reports, from the bed's counters and qdisc samples:
- alone (from the first data + 5 s warm-up to the cross traffic's start): payload rate, link
  utilisation, queueing delay, tail drops (also from the start, slow start included), and
  for ours the slowdowns its trace shows;
- beside the cross traffic (last half of its run): both rates; time until uTP < 20 % of the
  link: from its start until the flow's 1 s-window rate falls below 2 Mbit/s and stays there
  (none = not within its run), and the same from when its queue appears (the FIFO first
  holds 66 ms, 1.1 x the scavenger's TARGET, as the simulator's sweep measures it);
- after it leaves: payload rate over the AFTER seconds, and from 3 s after it left.

Then, per controller, base RTT and repeat, two of our flows (`ledbat torrent seed` ->
`ledbat torrent get`) started 10 s apart: Jain's index of their rates over the last half of
the time both run.

The tables give each figure's median and spread over the repeats (`netbed.sbs_report`), and
the checks of docs/sidebyside/README.md for the default controller. Printed and written as JSON (`--json`,
default OUT/sidebyside.json) and Markdown (`--md`, default OUT/sidebyside.md). `--merge`
builds the same tables from several runs' JSON files. Exit 0 when every scenario ran, 1 when
some could not be measured (or, with --strict, when a check is missed), 2 when the bed
cannot run, 3 on the overall time limit.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass

from . import bittorrent, flows, install, measure, paths, proc, sbs_report, topo
from .bed import RunResult, run_scenario
from .guard import Deadline, arm, disarm
from .flows import Flow

OUR_CCS = ["scavenger", "ledbat", "ledbat-linear-min", "fledbat", "ledbat++"]
SEEDERS = ["libtorrent", "transmission"] + OUR_CCS
CROSSES = ["cubic", "bbr"]
LINK_SHARE = 0.20  # "time until the uTP flow is below 20 % of the link"
WARM_S = 5.0  # alone window starts this long after the first data
BACK_AFTER_S = 3.0  # "back at that rate within 3 s" of the cross traffic leaving
FIRST_DATA_BYTES = 200_000  # frames counted before a flow is said to have started


@dataclass
class Plan:
    """What one run measures, and its durations (seconds)."""

    cross_at: float
    cross_for: float
    after: float
    two_gap: float
    two_len: float
    fifos_ms: list[float]
    rtts_ms: list[float]
    seeders: list[str]
    crosses: list[str]
    two_ccs: list[str]
    repeats: int

    @property
    def single_len(self) -> float:
        """Length of a seeder scenario."""
        return self.cross_at + self.cross_for + self.after + 1

    def jobs(self) -> list[tuple]:
        """(kind, fifo, rtt, cross, who, repeat) of every scenario, repeats innermost so
        that a cut-short run still has some of every row."""
        out = []
        for fifo in self.fifos_ms:
            for rtt in self.rtts_ms:
                for rep in range(self.repeats):
                    out += [("single", fifo, rtt, x, s, rep) for x in self.crosses
                            for s in self.seeders]
                    out += [("two", fifo, rtt, None, c, rep) for c in self.two_ccs]
        return out


def plan_for(quick: bool) -> Plan:
    """The full run (docs/sidebyside/README.md), or the CI subset: one repeat, no delay
    line, cubic only, shorter phases."""
    if quick:
        return Plan(cross_at=24, cross_for=14, after=8, two_gap=10, two_len=40,
                    fifos_ms=[121], rtts_ms=[0], crosses=["cubic"], repeats=1,
                    seeders=["libtorrent", "transmission", "ledbat", "fledbat", "ledbat++",
                             "scavenger"],
                    two_ccs=["fledbat", "ledbat++", "scavenger",
                             "fledbat:slowdowns=true:slowdown_join=0.5"])
    return Plan(cross_at=30, cross_for=20, after=15, two_gap=10, two_len=60, fifos_ms=[121],
                rtts_ms=[0, 20, 40, 100], crosses=CROSSES, repeats=3,
                seeders=["libtorrent", "transmission", "scavenger"], two_ccs=["scavenger"])


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """`NAME[:KEY=VALUE...]` (one of ours with controller parameters) -> (NAME, params).

    `ledbat++:max_gain_divisor=1` runs `ledbat torrent seed --cc ledbat++ --cc-param
    max_gain_divisor=1`. Raises ValueError naming the bad part."""
    name, *kvs = spec.split(":")
    params = {}
    for kv in kvs:
        k, sep, v = kv.partition("=")
        if not sep or not k or not v:
            raise ValueError(f"controller spec `{spec}`: `{kv}` is not KEY=VALUE")
        params[k] = v
    return name, params


def is_ours(spec: str) -> bool:
    """Whether a seeder spec names one of our controllers."""
    return parse_spec(spec)[0] in OUR_CCS


def seeder_flow(seeder: str, length: float, packet_size: int | None = None) -> Flow:
    """The uTP flow of a seeder scenario (`packet_size`: our uTP packet size)."""
    if seeder == "libtorrent":
        return Flow("utp", "bt-lt", 0.0, length)
    if seeder == "transmission":
        return Flow("utp", "bt-tr", 0.0, length)
    cc, extra = parse_spec(seeder)
    return Flow("utp", "bt-ours", 0.0, length, cc=cc, params=_ours_params(packet_size, extra))


def _ours_params(packet_size: int | None, cc_params: dict[str, str] | None = None
                 ) -> dict[str, str]:
    out = {"packet_size": str(packet_size)} if packet_size else {}
    out.update({f"cc_param.{k}": v for k, v in (cc_params or {}).items()})
    return out


def _nan(x: float | None) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _r(x: float | None, nd: int = 2) -> float | None:
    return None if _nan(x) else round(x, nd)


def first_data(res: RunResult, name: str, after: float) -> float | None:
    """When the flow's counter first passed FIRST_DATA_BYTES frames after `after`."""
    c = measure.flow_frames(res.counters, name)
    base = c.at(after)
    for t, v in zip(c.times, c.values):
        if t >= after and v - base >= FIRST_DATA_BYTES:
            return t
    return None


def _failed(res: RunResult) -> str | None:
    why = res.errors + [f"{f.flow.name}: {f.error}" for f in res.flows if f.error]
    if not res.qdisc or not res.counters:
        why.append("no samples")
    return "; ".join(why) or None


def slowdowns(trace: str, t0: float, a: float, b: float) -> int | None:
    """Slowdowns our seeder started in [a, b] (monotonic seconds), from its `--trace`
    (state `slowdown` after any other state); `t0` is when the seeder was started, which
    its trace's `t` counts from. None without a trace."""
    try:
        with open(trace) as fh:
            lines = [json.loads(x) for x in fh if x.strip()]
    except (OSError, ValueError):
        return None
    n, prev = 0, None
    for x in lines:
        st, t = x.get("state"), t0 + x.get("t", -1e9)
        if st == "slowdown" and prev not in (None, "slowdown") and a <= t <= b:
            n += 1
        prev = st
    return n


def analyse_single(res: RunResult, rate_bps: int, flow: str = "utp",
                   overhead: int = bittorrent.UTP_OVERHEAD) -> dict:
    """Figures of a seeder scenario (see the module doc): the flow under test is `flow`
    (`overhead` header bytes per packet), the cross flow `cross`."""
    out: dict = {"error": _failed(res)}
    if out["error"]:
        return out
    utp, x = res.flow(flow), res.flow("cross")
    t_first = first_data(res, flow, utp.t_start)
    out["first_data_s"] = None if t_first is None else round(t_first - res.t0, 2)
    if t_first is None:
        out["error"] = "the seeder never sent data"
        return out
    trace = os.path.join(res.logdir, f"{flow}-sender-trace.jsonl")
    pay = measure.flow_payload(res.counters, flow, overhead)
    a, b = t_first + WARM_S, x.t_start
    if b - a >= 3.0:
        d = measure.queue_delay(res.qdisc, a, b, rate_bps)
        out["alone"] = {
            "window_s": round(b - a, 1),
            "payload_mbit": _r(pay.rate_bps(a, b) / 1e6),
            "link_util": _r(measure.qdisc_sent(res.qdisc).rate_bps(a, b) / rate_bps, 4),
            "queue_p50_ms": _r(d.p50_ms, 1), "queue_p95_ms": _r(d.p95_ms, 1),
            "queue_mean_ms": _r(d.mean_ms, 1), "drops": d.drops,
            "drops_from_start": measure.queue_delay(res.qdisc, utp.t_start, b,
                                                    rate_bps).drops,
            "slowdowns": slowdowns(trace, utp.t_start, a, b),
        }
    else:
        out["alone"] = None
        out["error"] = f"alone window too short ({b - a:.1f} s): data started late"
    te = min(x.t_stop or math.inf, x.t_start + x.flow.duration, res.t0 + res.length)
    half = x.t_start + (te - x.t_start) / 2
    u = measure.flow_frames(res.counters, flow)
    c = measure.flow_frames(res.counters, "cross")
    until = measure.time_until_below(u, x.t_start, te, LINK_SHARE * rate_bps)
    tq = measure.queue_reaches(res.qdisc, x.t_start, te, measure.QUEUE_APPEARS_MS,
                               rate_bps)
    d = measure.queue_delay(res.qdisc, half, te, rate_bps)
    out["beside"] = {
        "window_s": round(te - half, 1),
        "utp_mbit": _r(u.rate_bps(half, te) / 1e6),
        "cross_mbit": _r(c.rate_bps(half, te) / 1e6),
        "queue_mean_ms": _r(d.mean_ms, 1),
        "time_until_below_20pct_s": _r(until, 1),
        "queue_at_s": None if tq is None else _r(tq - x.t_start, 1),
        "time_until_below_20pct_from_queue_s":
            None if until is None or tq is None else _r(until - (tq - x.t_start), 1),
        "cross_s": round(te - x.t_start, 1),
    }
    end = min(utp.t_stop or math.inf, res.t0 + res.length)
    if end - te >= BACK_AFTER_S + 2.0:
        out["after"] = {
            "window_s": round(end - te, 1),
            "payload_mbit": _r(pay.rate_bps(te, end) / 1e6),
            "payload_from_3s_mbit": _r(pay.rate_bps(te + BACK_AFTER_S, end) / 1e6),
            "windows_mbit": [[round(s - te, 2), _r(r / 1e6)]
                             for s, r in pay.windowed(te, end, 1.0, 0.5)],
            "slowdowns": slowdowns(trace, utp.t_start, te, end),
        }
    return out


def analyse_two(res: RunResult, rate_bps: int, names: tuple[str, str] = ("utp1", "utp2")
                ) -> dict:
    """Jain's index of two of our flows (`names`, the second the latecomer) over the last
    half of the time both ran."""
    out: dict = {"error": _failed(res)}
    if out["error"]:
        return out
    f1, f2 = res.flow(names[0]), res.flow(names[1])
    end = min(f1.t_stop or math.inf, f2.t_stop or math.inf, res.t0 + res.length)
    t2 = first_data(res, names[1], f2.t_start) or f2.t_start
    half = t2 + (end - t2) / 2
    c1 = measure.flow_frames(res.counters, names[0])
    c2 = measure.flow_frames(res.counters, names[1])
    r1, r2 = c1.rate_bps(half, end), c2.rate_bps(half, end)
    d = measure.queue_delay(res.qdisc, half, end, rate_bps)
    out.update({
        "window_s": round(end - half, 1),
        "second_data_s": round(t2 - res.t0, 2),
        "flow1_mbit": _r(r1 / 1e6), "flow2_mbit": _r(r2 / 1e6),
        "jain": _r(measure.jain([r1, r2]), 3),
        "link_util": _r(measure.qdisc_sent(res.qdisc).rate_bps(half, end) / rate_bps, 4),
        "queue_p50_ms": _r(d.p50_ms, 1), "queue_p95_ms": _r(d.p95_ms, 1),
    })
    return out


# ---------------------------------------------------------------- main


def needs_of(seeders: list[str]) -> install.Needs:
    """The bed's tools, iperf3 (the cross traffic), libtorrent (the leecher and the
    torrent), and transmission-daemon when Transmission seeds."""
    tools = ["ip", "tc", "nft", "ethtool", "ping", "sysctl", "ss", "iperf3"]
    if "transmission" in seeders:
        tools.append("transmission-daemon")
    return install.Needs(tools, libtorrent=True)


def _floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",") if x]


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="CI subset: 121 ms FIFO, no delay line, cubic, one repeat; "
                         "libtorrent, Transmission and four of ours; shorter phases")
    ap.add_argument("--fifos-ms", default=None, help="FIFO sizes in ms (default 121)")
    ap.add_argument("--rtts-ms", default=None,
                    help="base RTTs in ms, half each way through the delay line; 0 = none "
                         "(default 0,20,40,100)")
    ap.add_argument("--crosses", default=None,
                    help=f"cross traffic, from {','.join(CROSSES)} (default both)")
    ap.add_argument("--repeats", type=int, default=None, help="runs of each row (default 3)")
    ap.add_argument("--seeders", default=None,
                    help=f"comma list from {','.join(SEEDERS)}; ours also as NAME:KEY=VALUE:... "
                         "with controller parameters (default libtorrent,transmission,scavenger)")
    ap.add_argument("--two-ccs", default=None,
                    help="controllers for two of ours 10 s apart, NAME[:KEY=VALUE...] "
                         "(default scavenger; '' none)")
    ap.add_argument("--cross-at", type=float, default=None, help="cross traffic joins at (s)")
    ap.add_argument("--cross-for", type=float, default=None, help="cross traffic runs for (s)")
    ap.add_argument("--after", type=float, default=None,
                    help="seconds measured after the cross traffic leaves")
    ap.add_argument("--our-packet-size", type=int, default=1472,
                    help="`ledbat torrent --packet-size` (uTP header included) of our seeders. "
                         "Default 1472: 1500-byte IP packets, the size libtorrent's uTP MTU "
                         "discovery reaches on this path, so that payload rates compare "
                         "like for like; 0 = ours' default (1400)")
    ap.add_argument("--rate-mbit", type=float, default=10.0)
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--out-dir", default=None, help="default $TMPDIR/ledbat-sidebyside/<time>")
    ap.add_argument("--json", default=None, help="write the results here (default OUT/sidebyside.json)")
    ap.add_argument("--md", default=None, help="write the tables here (default OUT/sidebyside.md)")
    ap.add_argument("--merge", nargs="+", metavar="JSON", default=None,
                    help="no run: build the tables from these runs' JSON files")
    ap.add_argument("--max-seconds", type=float, default=None,
                    help="overall time limit (default: the plan's estimate + 50 %%)")
    ap.add_argument("--no-install", action="store_true")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 also when one of the targets is missed")
    ap.add_argument("--list", action="store_true", help="print the plan and exit")
    return ap.parse_args(argv)


def _plan(a) -> Plan:
    p = plan_for(a.quick)
    if a.fifos_ms:
        p.fifos_ms = _floats(a.fifos_ms)
    if a.rtts_ms:
        p.rtts_ms = _floats(a.rtts_ms)
    if a.crosses:
        p.crosses = [x for x in a.crosses.split(",") if x]
    if a.repeats is not None:
        p.repeats = a.repeats
    if a.seeders is not None:
        p.seeders = [x for x in a.seeders.split(",") if x]
    if a.two_ccs is not None:
        p.two_ccs = [x for x in a.two_ccs.split(",") if x]
    for name in ("cross_at", "cross_for", "after"):
        if getattr(a, name) is not None:
            setattr(p, name, getattr(a, name))
    return p


def _problems(p: Plan) -> list[str]:
    bad = [f"unknown seeder `{s}`" for s in p.seeders if parse_spec(s)[0] not in SEEDERS]
    bad += [f"unknown controller `{c}`" for c in p.two_ccs if parse_spec(c)[0] not in OUR_CCS]
    bad += [f"unknown cross traffic `{x}` (known: {', '.join(CROSSES)})" for x in p.crosses
            if x not in CROSSES]
    bad += [f"base RTT {r} ms is negative" for r in p.rtts_ms if r < 0]
    if p.repeats < 1:
        bad.append("--repeats must be at least 1")
    return bad


def _estimate(p: Plan) -> float:
    return sum((p.single_len if k == "single" else p.two_len) + 10 for k, *_ in p.jobs())


def _write(doc: dict, header: str, json_path: str, md_path: str) -> None:
    md = header + sbs_report.markdown(doc)
    print("\n" + md)
    for path, text in ((json_path, json.dumps(doc, indent=1)), (md_path, md)):
        paths.write_atomic(path, text)


def merge(paths: list[str], json_path: str, md_path: str) -> int:
    """Concatenates the rows of several runs' JSON files into one document and table."""
    doc: dict = {"runs": [], "single": [], "two": []}
    for path in paths:
        try:
            with open(path) as fh:
                d = json.load(fh)
        except (OSError, ValueError) as e:
            print(f"error: {path}: {e}", file=sys.stderr)
            return 2
        if not isinstance(d, dict) or "single" not in d:
            print(f"error: {path}: not a side-by-side result", file=sys.stderr)
            return 2
        for r in d.pop("runs", [d]):
            doc["runs"].append({k: v for k, v in r.items() if k not in ("single", "two")})
        doc["single"] += d["single"]
        doc["two"] += d["two"]
    doc["checks"] = sbs_report.checks(doc)
    n = len(doc["runs"])
    header = (f"Side by side, {n} run(s) merged: "
              + "; ".join(f"`{r.get('command', '?')}` {r.get('date_utc', '?')} UTC "
                          f"({r.get('seconds', 0):.0f} s, load {r.get('load_before', ['?'])[0]})"
                          for r in doc["runs"]) + "\n\n")
    _write(doc, header, json_path, md_path)
    return 0


def main(argv=None) -> int:
    a = parse_args(argv)
    if a.merge:
        return merge(a.merge, a.json or "sidebyside.json", a.md or "sidebyside.md")
    try:
        p = _plan(a)
        bad = _problems(p)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if bad:
        print("error: " + "; ".join(bad), file=sys.stderr)
        return 2
    rate = int(a.rate_mbit * 1e6)
    jobs = p.jobs()
    est = _estimate(p)
    if a.list:
        for k, f, rtt, x, s, rep in jobs:
            print(f"{f:5.0f} ms FIFO  {rtt:5.0f} ms RTT  {k:6} {x or '':5} {s}  #{rep + 1}")
        print(f"{len(jobs)} scenarios, about {est:.0f} s")
        return 0
    uses_ours = any(k == "two" or is_ours(s) for k, _, _, _, s, _ in jobs)
    ledbat_bin = install.preflight("namespaces, qdiscs", a.ledbat_bin, need_bin=uses_ours)
    if ledbat_bin is None:
        return 2
    try:
        install.ensure(needs_of(p.seeders), install=not a.no_install,
                       log=lambda m: print(f"[sbs] {m}", flush=True))
    except (proc.CommandError, subprocess.TimeoutExpired) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for k in bittorrent.KINDS.values():
        flows.register(k)

    out_dir = os.path.abspath(a.out_dir or paths.default_out_dir("sidebyside"))
    work = os.path.join(out_dir, "work")
    os.makedirs(work, exist_ok=True)
    longest = max([p.single_len, p.two_len])
    data = os.path.join(work, "sidebyside.bin")
    size = int(rate / 8 * longest * 1.5) + 8 * bittorrent.PIECE_BYTES
    with open(data, "wb") as fh:  # sparse zeros: no disk; every piece hashes the same
        fh.truncate(size)
    info_hash = bittorrent.make_torrent(data, data + ".torrent")
    ctx = dict(workdir=work, ledbat_bin=ledbat_bin, send_file=data)
    doc: dict = {
        "command": paths.command_line(["testbed/sidebyside.py"],
                                      sys.argv[1:] if argv is None else argv),
        "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        **paths.provenance(ledbat_bin if uses_ours else None),
        "rate_mbit": a.rate_mbit, "our_packet_size": a.our_packet_size or 1400,
        "file_bytes": size, "info_hash": info_hash,
        "plan": p.__dict__ | {"single_len": p.single_len}, "leecher": "libtorrent 2.1.1 "
        "(two of ours: ledbat torrent get)", "load_before": os.getloadavg(),
        "single": [], "two": [], "checks": [],
    }
    max_s = a.max_seconds or est * 1.5 + 120
    arm(max_s)
    tag = f"s{os.getpid() % 10000}"
    status = 0
    started = time.monotonic()
    print(f"[sbs] {len(jobs)} scenarios, about {est:.0f} s; out {out_dir}", flush=True)
    try:
        for kind, fifo, rtt, cross, who, rep in jobs:
            b = topo.Bottleneck.from_fifo_ms(rate, fifo)
            t = time.monotonic()
            name = (f"{fifo:.0f}ms-rtt{rtt:.0f}-{kind}-{cross + '-' if cross else ''}"
                    f"{who.replace(':', '_')}-{rep + 1}")
            logdir = os.path.join(out_dir, name)
            key = {"fifo_ms": fifo, "rtt_ms": rtt, "repeat": rep + 1}
            if kind == "single":
                fl = [seeder_flow(who, p.single_len, a.our_packet_size),
                      Flow("cross", f"iperf3-{cross}", p.cross_at, p.cross_for)]
                res = run_scenario(name, fl, p.single_len, b, ctx, logdir, tag,
                                   delay_ms=rtt / 2)
                row = {**key, "cross": cross, "seeder": who, **analyse_single(res, rate)}
                doc["single"].append(row)
            else:
                cc, extra = parse_spec(who)
                pp = _ours_params(a.our_packet_size, extra)
                fl = [Flow("utp1", "bt-ours-ours", 0.0, p.two_len, cc=cc, params=pp),
                      Flow("utp2", "bt-ours-ours", p.two_gap, p.two_len - p.two_gap, cc=cc,
                           params=dict(pp))]
                res = run_scenario(name, fl, p.two_len, b, ctx, logdir, tag,
                                   delay_ms=rtt / 2)
                row = {**key, "cc": who, **analyse_two(res, rate)}
                doc["two"].append(row)
            row["idle_ping_rtt_ms"] = res.base_rtt_ms
            row["load"] = round(os.getloadavg()[0], 2)
            with open(os.path.join(logdir, "samples.json"), "w") as fh:
                json.dump({"t0": res.t0, "qdisc": res.qdisc, "counters": res.counters,
                           "flows": [{"name": fr.flow.name, "kind": fr.kind,
                                      "port": fr.flow.port, "t_start": fr.t_start,
                                      "t_stop": fr.t_stop, "sender": fr.sender_argv,
                                      "receiver": fr.receiver_argv, "error": fr.error}
                                     for fr in res.flows]}, fh)
            for d in os.listdir(work):  # leechers' downloads
                if d.startswith("leech-") or d.startswith("tr-config-"):
                    shutil.rmtree(os.path.join(work, d), ignore_errors=True)
            brief = {k: v for k, v in row.items() if k not in ("fifo_ms", "after")}
            print(f"[sbs] {name}: {json.dumps(brief)} ({time.monotonic() - t:.0f} s)",
                  flush=True)
    except Deadline:
        print(f"[sbs] overall time limit of {max_s:.0f} s hit", file=sys.stderr)
        status = 3
    except KeyboardInterrupt:
        print("[sbs] interrupted", file=sys.stderr)
        status = 3
    finally:
        disarm()
        topo.delete_tagged(tag)
        shutil.rmtree(work, ignore_errors=True)
    doc["checks"] = sbs_report.checks(doc)
    doc["seconds"] = round(time.monotonic() - started, 1)
    doc["complete"] = status == 0
    header = (f"Side by side: {a.rate_mbit:g} Mbit/s tbf bottleneck, same {size} B file, "
              f"leecher libtorrent 2.1.1; our uTP packets {a.our_packet_size or 1400} B; "
              f"cross traffic from {p.cross_at:g} s for {p.cross_for:g} s, then {p.after:g} s "
              f"alone; {doc['date_utc']} UTC, {doc['seconds']:.0f} s\n\n")
    _write(doc, header, a.json or os.path.join(out_dir, "sidebyside.json"),
           a.md or os.path.join(out_dir, "sidebyside.md"))
    if status:
        return status
    if any(r.get("error") for r in doc["single"] + doc["two"]):
        return 1
    return 1 if a.strict and any(c["verdict"] != "met" for c in doc["checks"]) else 0


if __name__ == "__main__":
    sys.exit(main())
