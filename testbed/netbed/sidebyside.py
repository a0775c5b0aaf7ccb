"""Side by side on the bed: deployed BitTorrent seeders against ours, one run, one file.

    sudo python3 testbed/sidebyside.py [--quick] [--ledbat-bin PATH] [--json F] [--md F]

For each FIFO (default 121 ms and 303 ms at 10 Mbit/s: 100 and 250 full frames) and each
seeder (libtorrent 2.1.1, Transmission 3.00, and `ledbat torrent seed` with each of
`ledbat`, `ledbat-linear-min`, `fledbat`, `ledbat++`), one scenario on a fresh bed:

    0 s         the leecher (libtorrent, receiver namespace) dials the seeder; data flows
    CUBIC_AT    kernel cubic (iperf3 -C cubic) joins over the same FIFO for CUBIC_FOR s

and reports, from the bed's counters and qdisc samples:
- alone (from the first data + 5 s warm-up to cubic's start): payload rate, link
  utilisation, queueing delay p50 / p95;
- beside cubic (last half of cubic's run): uTP and TCP rates;
- time until uTP < 20 % of the link: from cubic's start until the flow's 1 s-window rate
  falls below 2 Mbit/s and stays there (none = not within cubic's run).

Then, per controller, two of our flows (`ledbat torrent seed` -> `ledbat torrent get`)
started 10 s apart: Jain's index of their rates over the last half of the time both run.

The table is printed and written as JSON (`--json`, default OUT/sidebyside.json) and
Markdown (`--md`, default OUT/sidebyside.md). Exit 0 when every scenario ran, 1 when some
could not be measured (or, with --strict, when a check of the issue is missed), 2 when the
bed cannot run, 3 on the overall time limit.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from . import bittorrent, flows, install, measure, proc, topo
from .bed import RunResult, run_scenario
from .flows import Flow
from .paths import REPO, default_ledbat_bin

OUR_CCS = ["ledbat", "ledbat-linear-min", "fledbat", "ledbat++"]
# LEDBAT++ with our three extensions (crates/ledbat-core/src/ledbat_pp.rs): gain 1 whatever
# the base delay, a slowdown's ramp that always returns to the window held before it, and
# joining other flows' slowdowns so that the shared queue empties and a latecomer measures
# the true base delay.
LEDBAT_PP_EXT = "ledbat++:max_gain_divisor=1:ramp_delay_exit=false:slowdown_join=0.5"
# fLEDBAT with LEDBAT++'s periodic slowdowns and the join rule (crates/ledbat-core/src/fledbat.rs).
FLEDBAT_EXT = "fledbat:slowdowns=true:slowdown_join=0.5"
SEEDERS = ["libtorrent", "transmission"] + OUR_CCS
LINK_SHARE = 0.20  # "time until the uTP flow is below 20 % of the link"
WARM_S = 5.0  # alone window starts this long after the first data
FIRST_DATA_BYTES = 200_000  # frames counted before a flow is said to have started


@dataclass
class Plan:
    """Durations of one run (seconds)."""

    cubic_at: float
    cubic_for: float
    two_gap: float
    two_len: float
    fifos_ms: list[float]
    seeders: list[str]
    two_ccs: list[str]
    two_fifos_ms: list[float]

    @property
    def single_len(self) -> float:
        """Length of a seeder scenario."""
        return self.cubic_at + self.cubic_for + 1


def plan_for(quick: bool) -> Plan:
    """The full run, or the CI subset (121 ms only, fewer seeders, shorter phases)."""
    if quick:
        return Plan(cubic_at=22, cubic_for=20, two_gap=10, two_len=40, fifos_ms=[121],
                    seeders=["libtorrent", "transmission", "ledbat", "fledbat", "ledbat++",
                             LEDBAT_PP_EXT],
                    two_ccs=["fledbat", "ledbat++", LEDBAT_PP_EXT, FLEDBAT_EXT],
                    two_fifos_ms=[121])
    return Plan(cubic_at=30, cubic_for=30, two_gap=10, two_len=60, fifos_ms=[121, 303],
                seeders=SEEDERS + [LEDBAT_PP_EXT, FLEDBAT_EXT],
                two_ccs=OUR_CCS + [LEDBAT_PP_EXT, FLEDBAT_EXT],
                two_fifos_ms=[121, 303])


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


def analyse_single(res: RunResult, rate_bps: int) -> dict:
    """Figures of a seeder scenario (see the module doc)."""
    out: dict = {"error": _failed(res)}
    if out["error"]:
        return out
    utp, tcp = res.flow("utp"), res.flow("tcp")
    t_first = first_data(res, "utp", utp.t_start)
    out["first_data_s"] = None if t_first is None else round(t_first - res.t0, 2)
    if t_first is None:
        out["error"] = "the seeder never sent data"
        return out
    a, b = t_first + WARM_S, tcp.t_start
    if b - a >= 3.0:
        pay = measure.flow_payload(res.counters, "utp", bittorrent.UTP_OVERHEAD)
        d = measure.queue_delay(res.qdisc, a, b, rate_bps)
        out["alone"] = {
            "window_s": round(b - a, 1),
            "payload_mbit": _r(pay.rate_bps(a, b) / 1e6),
            "link_util": _r(measure.qdisc_sent(res.qdisc).rate_bps(a, b) / rate_bps, 4),
            "queue_p50_ms": _r(d.p50_ms, 1), "queue_p95_ms": _r(d.p95_ms, 1),
            "queue_mean_ms": _r(d.mean_ms, 1), "drops": d.drops,
        }
    else:
        out["alone"] = None
        out["error"] = f"alone window too short ({b - a:.1f} s): data started late"
    te = min(tcp.t_stop or math.inf, tcp.t_start + tcp.flow.duration, res.t0 + res.length)
    half = tcp.t_start + (te - tcp.t_start) / 2
    u = measure.flow_frames(res.counters, "utp")
    t = measure.flow_frames(res.counters, "tcp")
    until = measure.time_until_below(u, tcp.t_start, te, LINK_SHARE * rate_bps)
    d = measure.queue_delay(res.qdisc, half, te, rate_bps)
    out["beside_cubic"] = {
        "window_s": round(te - half, 1),
        "utp_mbit": _r(u.rate_bps(half, te) / 1e6),
        "tcp_mbit": _r(t.rate_bps(half, te) / 1e6),
        "utp_last7_mbit": _r(u.rate_bps(te - 7, te) / 1e6),
        "tcp_last7_mbit": _r(t.rate_bps(te - 7, te) / 1e6),
        "queue_mean_ms": _r(d.mean_ms, 1),
        "time_until_below_20pct_s": _r(until, 1),
        "cubic_s": round(te - tcp.t_start, 1),
    }
    return out


def analyse_two(res: RunResult, rate_bps: int) -> dict:
    """Jain's index of two of our flows over the last half of the time both ran."""
    out: dict = {"error": _failed(res)}
    if out["error"]:
        return out
    f1, f2 = res.flow("utp1"), res.flow("utp2")
    end = min(f1.t_stop or math.inf, f2.t_stop or math.inf, res.t0 + res.length)
    t2 = first_data(res, "utp2", f2.t_start) or f2.t_start
    half = t2 + (end - t2) / 2
    c1 = measure.flow_frames(res.counters, "utp1")
    c2 = measure.flow_frames(res.counters, "utp2")
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


# ---------------------------------------------------------------- report


def _f(x, nd=2, unit="") -> str:
    if _nan(x):
        return "n/a"
    return f"{x:.{nd}f}{unit}"


def seeder_label(s: str) -> str:
    """The row label of a seeder."""
    return {"libtorrent": "libtorrent 2.1.1", "transmission": "Transmission 3.00"}.get(
        s, "ours " + cc_label(s))


def cc_label(spec: str) -> str:
    """`--cc NAME --cc-param K=V ...` of a controller spec."""
    name, params = parse_spec(spec)
    return " ".join([f"--cc {name}"] + [f"--cc-param {k}={v}" for k, v in params.items()])


def markdown(doc: dict) -> str:
    """The two tables (seeders; two of ours) and the checks, as Markdown."""
    lines = ["| FIFO | seeder | alone: payload Mbit/s | link % | queue p50 / p95 ms | "
             "beside cubic: uTP / TCP Mbit/s | time until uTP < 20 % | note |",
             "|---|---|---|---|---|---|---|---|"]
    for r in doc["single"]:
        al, bc = r.get("alone") or {}, r.get("beside_cubic") or {}
        until = bc.get("time_until_below_20pct_s")
        until_s = (f"{until:.1f} s" if until is not None else
                   (f"not within {bc['cubic_s']:.0f} s" if bc else "n/a"))
        note = r.get("error") or (f"data from {r['first_data_s']:.1f} s"
                                  if r.get("first_data_s") is not None else "")
        lines.append(
            f"| {r['fifo_ms']:.0f} ms | {seeder_label(r['seeder'])} | "
            f"{_f(al.get('payload_mbit'))} | {_f(_pct(al.get('link_util')), 1)} | "
            f"{_f(al.get('queue_p50_ms'), 1)} / {_f(al.get('queue_p95_ms'), 1)} | "
            f"{_f(bc.get('utp_mbit'))} / {_f(bc.get('tcp_mbit'))} | {until_s} | {note} |")
    lines += ["", "| FIFO | two of ours, 10 s apart | flow 1 / flow 2 Mbit/s (last half) | "
              "Jain | link % | queue p50 / p95 ms | note |", "|---|---|---|---|---|---|---|"]
    for r in doc["two"]:
        lines.append(
            f"| {r['fifo_ms']:.0f} ms | {cc_label(r['cc'])} | {_f(r.get('flow1_mbit'))} / "
            f"{_f(r.get('flow2_mbit'))} | {_f(r.get('jain'), 3)} | "
            f"{_f(_pct(r.get('link_util')), 1)} | {_f(r.get('queue_p50_ms'), 1)} / "
            f"{_f(r.get('queue_p95_ms'), 1)} | {r.get('error') or ''} |")
    lines.append("")
    for c in doc["checks"]:
        lines.append(f"- {c['name']}: **{c['verdict']}**: {c['detail']}")
    return "\n".join(lines) + "\n"


def _pct(x):
    return None if _nan(x) else x * 100


def checks(doc: dict) -> list[dict]:
    """The issue's acceptance checks, evaluated on this run's figures."""
    out = []
    single = [r for r in doc["single"] if r["fifo_ms"] == 121]
    lt = next((r for r in single if r["seeder"] == "libtorrent"), None)
    lt_rate = ((lt or {}).get("alone") or {}).get("payload_mbit")
    good, detail = [], []
    for r in single:
        if not is_ours(r["seeder"]):
            continue
        until = (r.get("beside_cubic") or {}).get("time_until_below_20pct_s")
        rate = (r.get("alone") or {}).get("payload_mbit")
        ok = until is not None and until < 5.0 and rate is not None and lt_rate is not None \
            and rate >= lt_rate
        detail.append(f"{r['seeder']} {_f(until, 1, ' s')} / {_f(rate, 2, ' Mbit/s')}")
        if ok:
            good.append(r["seeder"])
    out.append({"name": "121 ms FIFO: one of ours below 20 % of the link beside cubic in "
                        "< 5 s and alone at least libtorrent's rate (rates compared at the "
                        "table's 0.01 Mbit/s)",
                "verdict": "met" if good else "missed",
                "detail": f"libtorrent alone {_f(lt_rate, 2, ' Mbit/s')}; ours (time until "
                          f"< 20 % / alone rate): {', '.join(detail) or 'none measured'}"
                          + (f"; met by {', '.join(good)}" if good else "")})
    two = [r for r in doc["two"] if parse_spec(r["cc"])[0] in ("fledbat", "ledbat++")]
    best = [r for r in two if (r.get("jain") or 0) >= 0.9]
    out.append({"name": "two of ours 10 s apart: fledbat or ledbat++ Jain >= 0.9 over the "
                        "last half",
                "verdict": "met" if best else "missed",
                "detail": ", ".join(f"{r['cc']} at {r['fifo_ms']:.0f} ms: "
                                    f"{_f(r.get('jain'), 3)}" for r in two) or "none measured"})
    return out


# ---------------------------------------------------------------- main


class Deadline(BaseException):
    """The overall time limit passed."""


def _on_alarm(_sig, _frame):
    raise Deadline()


def _on_term(_sig, _frame):
    raise KeyboardInterrupt()


def needs_of(seeders: list[str]) -> install.Needs:
    """The bed's tools, iperf3 (the cubic competitor), libtorrent (the leecher and the
    torrent), and transmission-daemon when Transmission seeds."""
    tools = ["ip", "tc", "nft", "ethtool", "ping", "sysctl", "ss", "iperf3"]
    if "transmission" in seeders:
        tools.append("transmission-daemon")
    return install.Needs(tools, libtorrent=True)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="CI subset: 121 ms FIFO; libtorrent, Transmission, ours with ledbat, "
                         "fledbat, ledbat++; two fledbat, two ledbat++ flows; shorter phases")
    ap.add_argument("--fifos-ms", default=None, help="FIFO sizes in ms (default 121,303)")
    ap.add_argument("--seeders", default=None,
                    help=f"comma list from {','.join(SEEDERS)}; ours also as NAME:KEY=VALUE:... "
                         "with controller parameters (default all, plus {LEDBAT_PP_EXT} and {FLEDBAT_EXT})")
    ap.add_argument("--two-ccs", default=None,
                    help="controllers for two of ours 10 s apart, NAME[:KEY=VALUE...] (default "
                         "our four and the extended ledbat++ and fledbat; '' none)")
    ap.add_argument("--two-fifos-ms", default=None,
                    help="FIFOs for the two-flow runs (default: every FIFO)")
    ap.add_argument("--cubic-at", type=float, default=None, help="cubic joins at (s)")
    ap.add_argument("--cubic-for", type=float, default=None, help="cubic runs for (s)")
    ap.add_argument("--our-packet-size", type=int, default=1472,
                    help="`ledbat torrent --packet-size` (uTP header included) of our seeders. "
                         "Default 1472: 1500-byte IP packets, the size libtorrent's uTP MTU "
                         "discovery reaches on this path, so that payload rates compare "
                         "like for like; 0 = ours' default (1400)")
    ap.add_argument("--rate-mbit", type=float, default=10.0)
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--out-dir", default=None, help="default /tmp/ledbat-sidebyside/<time>")
    ap.add_argument("--json", default=None, help="write the results here (default OUT/sidebyside.json)")
    ap.add_argument("--md", default=None, help="write the tables here (default OUT/sidebyside.md)")
    ap.add_argument("--max-seconds", type=float, default=None,
                    help="overall time limit (default 720 quick, 2400 full)")
    ap.add_argument("--no-install", action="store_true")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 also when one of the issue's checks is missed")
    ap.add_argument("--list", action="store_true", help="print the plan and exit")
    return ap.parse_args(argv)


def main(argv=None) -> int:
    a = parse_args(argv)
    p = plan_for(a.quick)
    if a.fifos_ms:
        p.fifos_ms = [float(x) for x in a.fifos_ms.split(",") if x]
        p.two_fifos_ms = list(p.fifos_ms)
    if a.two_fifos_ms is not None:
        p.two_fifos_ms = [float(x) for x in a.two_fifos_ms.split(",") if x]
    if a.seeders is not None:
        p.seeders = [x for x in a.seeders.split(",") if x]
    if a.two_ccs is not None:
        p.two_ccs = [x for x in a.two_ccs.split(",") if x]
    if a.cubic_at is not None:
        p.cubic_at = a.cubic_at
    if a.cubic_for is not None:
        p.cubic_for = a.cubic_for
    try:
        bad = [s for s in p.seeders if parse_spec(s)[0] not in SEEDERS] + \
            [c for c in p.two_ccs if parse_spec(c)[0] not in OUR_CCS]
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if bad:
        print(f"error: unknown seeder(s) or controller(s) {bad} (known: {SEEDERS}; "
              "ours take parameters as NAME:KEY=VALUE)", file=sys.stderr)
        return 2
    rate = int(a.rate_mbit * 1e6)
    jobs = [("single", f, s) for f in p.fifos_ms for s in p.seeders] + \
           [("two", f, c) for f in p.two_fifos_ms for c in p.two_ccs]
    est = sum((p.single_len if k == "single" else p.two_len) + 8 for k, _, _ in jobs)
    if a.list:
        for k, f, s in jobs:
            print(f"{f:5.0f} ms  {k:6} {s}")
        print(f"about {est:.0f} s")
        return 0
    if os.geteuid() != 0:
        print("error: needs root (namespaces, qdiscs)", file=sys.stderr)
        return 2
    problem = install.check_installed()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    ledbat_bin = os.path.abspath(a.ledbat_bin or default_ledbat_bin())
    uses_ours = any(k == "two" or is_ours(s) for k, _, s in jobs)
    if uses_ours and not os.access(ledbat_bin, os.X_OK):
        print(f"error: no ledbat binary at {ledbat_bin} (--ledbat-bin)", file=sys.stderr)
        return 2
    try:
        install.ensure(needs_of(p.seeders), install=not a.no_install,
                       log=lambda m: print(f"[sbs] {m}", flush=True))
    except (proc.CommandError, subprocess.TimeoutExpired) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for k in bittorrent.KINDS.values():
        flows.register(k)

    stamp = time.strftime("%Y%m%d-%H%M%S")
    out_dir = os.path.abspath(a.out_dir or f"/tmp/ledbat-sidebyside/{stamp}")
    work = os.path.join(out_dir, "work")
    os.makedirs(work, exist_ok=True)
    longest = max([p.single_len, p.two_len])
    data = os.path.join(work, "sidebyside.bin")
    size = int(rate / 8 * longest * 1.5) + 8 * bittorrent.PIECE_BYTES
    with open(data, "wb") as fh:  # sparse zeros: no disk; every piece hashes the same
        fh.truncate(size)
    info_hash = bittorrent.make_torrent(data, data + ".torrent")
    ctx = dict(workdir=work, ledbat_bin=ledbat_bin, send_file=data)
    version = subprocess.run([ledbat_bin, "--version"], capture_output=True, text=True,
                             timeout=10).stdout.strip() if uses_ours else None
    commit = subprocess.run(["git", "-C", REPO,
                             "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            timeout=10).stdout.strip()
    doc: dict = {
        "command": " ".join(["python3", "testbed/sidebyside.py", *(argv or sys.argv[1:])]),
        "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        "git_head": commit, "ledbat_bin": ledbat_bin, "ledbat_version": version,
        "rate_mbit": a.rate_mbit, "our_packet_size": a.our_packet_size or 1400, "file_bytes": size, "info_hash": info_hash,
        "plan": p.__dict__ | {"single_len": p.single_len}, "leecher": "libtorrent 2.1.1 "
        "(two of ours: ledbat torrent get)", "load_before": os.getloadavg(),
        "single": [], "two": [], "checks": [],
    }
    max_s = a.max_seconds or (720 if a.quick else 2400)
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.signal(signal.SIGTERM, _on_term)
    signal.alarm(int(math.ceil(max_s)))
    tag = f"s{os.getpid() % 10000}"
    status = 0
    started = time.monotonic()
    print(f"[sbs] {len(jobs)} scenarios, about {est:.0f} s; out {out_dir}", flush=True)
    try:
        for kind, fifo, who in jobs:
            b = topo.Bottleneck.from_fifo_ms(rate, fifo)
            t = time.monotonic()
            name = f"{fifo:.0f}ms-{kind}-{who.replace(':', '_')}"
            logdir = os.path.join(out_dir, name)
            if kind == "single":
                fl = [seeder_flow(who, p.single_len, a.our_packet_size),
                      Flow("tcp", "iperf3-cubic", p.cubic_at, p.cubic_for)]
                res = run_scenario(name, fl, p.single_len, b, ctx, logdir, tag)
                row = {"fifo_ms": fifo, "seeder": who, **analyse_single(res, rate)}
                doc["single"].append(row)
            else:
                cc, extra = parse_spec(who)
                pp = _ours_params(a.our_packet_size, extra)
                fl = [Flow("utp1", "bt-ours-ours", 0.0, p.two_len, cc=cc, params=pp),
                      Flow("utp2", "bt-ours-ours", p.two_gap, p.two_len - p.two_gap, cc=cc,
                           params=dict(pp))]
                res = run_scenario(name, fl, p.two_len, b, ctx, logdir, tag)
                row = {"fifo_ms": fifo, "cc": who, **analyse_two(res, rate)}
                doc["two"].append(row)
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
            print(f"[sbs] {name}: {json.dumps({k: v for k, v in row.items() if k not in ('fifo_ms',)})}"
                  f" ({time.monotonic() - t:.0f} s)", flush=True)
    except Deadline:
        print(f"[sbs] overall time limit of {max_s:.0f} s hit", file=sys.stderr)
        status = 3
    except KeyboardInterrupt:
        print("[sbs] interrupted", file=sys.stderr)
        status = 3
    finally:
        signal.alarm(0)
        for ns in topo.list_ns():
            if ns.startswith(f"{topo.NS_PREFIX}{tag}-"):
                topo.delete_ns(ns)
        shutil.rmtree(work, ignore_errors=True)
    doc["checks"] = checks(doc)
    doc["seconds"] = round(time.monotonic() - started, 1)
    doc["complete"] = status == 0
    md = markdown(doc)
    header = (f"Side by side: {a.rate_mbit:g} Mbit/s tbf bottleneck, same {size} B file, "
              f"leecher libtorrent 2.1.1; our uTP packets {a.our_packet_size or 1400} B; "
              f"cubic joins at {p.cubic_at:g} s for "
              f"{p.cubic_for:g} s; {doc['date_utc']} UTC, {doc['seconds']:.0f} s\n\n")
    print("\n" + header + md)
    with open(a.json or os.path.join(out_dir, "sidebyside.json"), "w") as fh:
        json.dump(doc, fh, indent=1)
    with open(a.md or os.path.join(out_dir, "sidebyside.md"), "w") as fh:
        fh.write(header + md)
    if status:
        return status
    if any(r.get("error") for r in doc["single"] + doc["two"]):
        return 1
    return 1 if a.strict and any(c["verdict"] != "met" for c in doc["checks"]) else 0


if __name__ == "__main__":
    sys.exit(main())
