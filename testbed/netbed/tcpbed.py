"""Kernel TCP with our congestion controls on the bed's real bottleneck (`ledbat tcp`).

    sudo python3 testbed/tcpbed.py [--quick] [--experiments alone,cross,two,seed002]
        [--ccs scavenger,ledbat] [--rtts-ms 0,20,40,100] [--repeats 3] [--ledbat-bin B]
    python3 testbed/tcpbed.py --merge A.json B.json ... [--sim-json S.json] [--md F]

The ledbat binary must have the `tcp` feature (the default: `cargo build --release -p
ledbat-cli`). Every controller is registered for the run under a `tb_N` name and
unregistered at its end, whatever happens. Each scenario runs on a fresh bed (the 10 Mbit/s
`tbf` FIFO, the user-space delay line for half the base RTT each way), iperf3 selecting the
controller by name:

- `alone`: one flow for ALONE_S; from 10 s after its first data: link utilisation, payload
  rate, the queue (mean, p50, p95), tail drops after slow start and from the start;
- `cross`: ours from 0 s, kernel cubic or bbr (iperf3) from CROSS_AT (25 s, or
  `--cross-at`) for CROSS_FOR, then AFTER alone: the time until ours is below 20 % of the
  link counted from the cross traffic's start and from its queue appearing (the first 100 ms
  after that start whose queue exceeds ours' alone by 10 ms), both rates over the last half,
  ours' rate afterwards;
- `two`: two of ours 10 s apart: Jain's index over the last half of the time both run;
- `seed002`: seed 002's setups as the simulator's scenario files state them
  (scenarios/seed002/*.toml: rate, a 60-packet FIFO, one-way delays, 100 MB transfers 15 s
  apart, TARGET 25 ms, each decrease scheme; the receiver acknowledging every segment, as
  the paper's simulations did, except where the file has delayed ACKs): completion times,
  Jain's index from 30 s to the first completion, utilisation, and for Fig. 6 LEDBAT's share
  beside TCP. The report sets them beside the paper's and the simulator's values
  (`ledbat repro` of the same claims, `--sim-json`).

Results: JSON (`--json`, default OUT/tcpbed.json) with every figure, command, date, commit
and load, and Markdown tables (`--md`) with the median [min..max] over the repeats and the
target checks. Exit 0 when every scenario ran, 1 when some could not be measured, 2 when
the bed cannot run, 3 on the overall time limit.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import tomllib
from dataclasses import dataclass, field

from . import guard, install, ktcp, measure, paths, proc, sidebyside, topo
from .bed import RunResult, run_scenario
from .flows import Flow
from .paths import REPO
from .summary import format_range as _fmt
from .summary import median_range as _med

EXPERIMENTS = ["alone", "cross", "two", "seed002"]
CROSSES = ["cubic", "bbr"]
WARM_S = 10.0  # the alone window starts this long after the first data (slow start)
QUEUE_RISE_MS = 10.0  # "the cross traffic's queue appears": 10 ms above ours' alone
SEED002 = [  # (scenario file, receiver acknowledges every segment unless the file says so)
    "two-flows-linear", "two-flows-md-nf1", "two-flows-md-nf2", "two-flows-mdvar",
    "two-flows-mdvar-rtt20", "tcp-20mbps-linear", "tcp-20mbps-linear-min"]
# The claims of the simulator's catalog that read these scenarios, and how the bed measures
# the same quantity (see `seed002_claims`).
SEED002_CLAIMS = {
    "s002-linear-latecomer-finishes-first": ("two-flows-linear", "first_minus_latecomer_s"),
    "s002-md-nf1-first-finishes-first": ("two-flows-md-nf1", "latecomer_minus_first_s"),
    "s002-md-nf1-first-finish-time": ("two-flows-md-nf1", "first_completion_s"),
    "s002-md-nf2-first-finishes-first": ("two-flows-md-nf2", "latecomer_minus_first_s"),
    "s002-md-nf2-first-finish-time": ("two-flows-md-nf2", "first_completion_s"),
    "s002-mdvar-first-finishes-first": ("two-flows-mdvar", "first_completion_s"),
    "s002-md-nf1-fair": ("two-flows-md-nf1", "jain"),
    "s002-md-nf2-roughly-fair": ("two-flows-md-nf2", "jain"),
    "s002-mdvar-fair-rtt40": ("two-flows-mdvar", "jain"),
    "s002-mdvar-fair-rtt20": ("two-flows-mdvar-rtt20", "jain"),
    "s002-linear-does-not-yield-20mbps": ("tcp-20mbps-linear", "ledbat_share"),
    "s002-linear-min-yields-20mbps": ("tcp-20mbps-linear-min", "ledbat_share"),
}


@dataclass
class Plan:
    """What one run measures; durations in seconds."""

    experiments: list[str]
    ccs: list[str]
    two_ccs: list[str]
    rtts_ms: list[float]
    crosses: list[str]
    repeats: int
    fifo_ms: float = 121.0
    burst_bytes: int = topo.Bottleneck.burst_bytes
    """The tbf bucket of the bottleneck (not seed 002's setups)."""
    alone_len: float = 45.0
    cross_at: float = 25.0
    cross_for: float = 20.0
    after: float = 15.0
    two_gap: float = 10.0
    two_len: float = 60.0
    seed002: list[str] = field(default_factory=lambda: list(SEED002))
    seed002_bytes: int | None = None
    """None: the scenario files' sizes (100 MB); a smaller size for quick checks."""

    @property
    def cross_len(self) -> float:
        return self.cross_at + self.cross_for + self.after

    def jobs(self) -> list[tuple]:
        """(experiment, who, rtt, cross, repeat), repeats innermost."""
        out = []
        for exp in self.experiments:
            if exp == "seed002":
                out += [("seed002", s, None, None, r) for s in self.seed002
                        for r in range(self.repeats)]
                continue
            for rtt in self.rtts_ms:
                for rep in range(self.repeats):
                    if exp == "alone":
                        out += [("alone", c, rtt, None, rep) for c in self.ccs]
                    elif exp == "cross":
                        out += [("cross", c, rtt, x, rep) for c in self.ccs for x in self.crosses]
                    elif exp == "two":
                        out += [("two", c, rtt, None, rep) for c in self.two_ccs]
        return out


def plan_for(quick: bool) -> Plan:
    """The full plan (docs/tcp/measured.md), or CI's: no delay line, cubic, one repeat,
    shorter phases, no seed 002 (its 100 MB transfers take minutes each)."""
    if quick:
        return Plan(experiments=["alone", "cross", "two"], ccs=["scavenger"],
                    two_ccs=["scavenger"], rtts_ms=[0], crosses=["cubic"], repeats=1,
                    alone_len=25, cross_at=12, cross_for=12, after=6, two_gap=5, two_len=30)
    return Plan(experiments=list(EXPERIMENTS), ccs=["scavenger"],
                two_ccs=["scavenger", "ledbat"], rtts_ms=[0, 20, 40, 100], crosses=CROSSES,
                repeats=3)


# ---------------------------------------------------------------- seed 002's setups


@dataclass
class Setup:
    """One of seed 002's scenario files as the bed runs it."""

    name: str
    rate_bps: int
    fifo_frames: int
    owd_ms: float
    delayed_ack: bool
    flows: list[tuple[str, str, float, int | None, float | None]]
    """(name, spec or `reno`, start s, bytes or None, duration s or None)."""
    length: float


def _flatten(prefix: str, t: dict, out: list[str]) -> None:
    for k, v in t.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            _flatten(key + ".", v, out)
        elif isinstance(v, bool):
            out.append(f"{key}={'true' if v else 'false'}")
        else:
            out.append(f"{key}={v}")


def _secs(text: str) -> float:
    units = {"ms": 1e-3, "us": 1e-6, "s": 1.0}
    for u in ("ms", "us", "s"):
        if text.endswith(u):
            return float(text[: -len(u)]) * units[u]
    raise ValueError(f"not a duration: {text}")


def _rate(text: str) -> int:
    for u, f in (("Gbps", 1e9), ("Mbps", 1e6), ("kbps", 1e3), ("bps", 1)):
        if text.endswith(u):
            return int(float(text[: -len(u)]) * f)
    raise ValueError(f"not a rate: {text}")


def load_setup(name: str, scenario_dir: str | None = None) -> Setup:
    """Reads scenarios/seed002/NAME.toml: the bed runs what the simulator runs."""
    path = os.path.join(scenario_dir or os.path.join(REPO, "scenarios", "seed002"),
                        name + ".toml")
    with open(path, "rb") as fh:
        doc = tomllib.load(fh)
    t = doc["topology"]
    q = t["queue"]
    if q.get("kind") != "droptail" or "packets" not in q:
        raise ValueError(f"{path}: the bed has a FIFO of packets only")
    flows = []
    owd = None
    for f in doc["flow"]:
        o = _secs(t["delay"]) + _secs(f.get("access_delay", "0ms"))
        if owd is not None and abs(o - owd) > 1e-9:
            raise ValueError(f"{path}: flows with different delays need several paths")
        owd = o
        cc = dict(f["cc"])
        controller = cc.pop("name")
        if controller == "newreno":
            spec = "reno"
        else:
            params: list[str] = []
            _flatten("", cc, params)
            spec = ":".join([controller] + params)
        tr = f.get("traffic", {})
        nbytes = tr.get("bytes") if tr.get("kind") == "transfer" else None
        dur = None if nbytes else _secs(doc["duration"]) - _secs(f.get("start", "0s"))
        flows.append((f["name"], spec, _secs(f.get("start", "0s")), nbytes, dur))
    return Setup(name, _rate(t["rate"]), int(q["packets"]), 1000 * (owd or 0.0),
                 bool(doc.get("transport", {}).get("delayed_ack", doc.get("delayed_ack", False))),
                 flows, _secs(doc["duration"]))


def seed002_flows(s: Setup, names: dict[str, str], nbytes: int | None) -> list[Flow]:
    """The bed's flows of a seed 002 setup (`names`: spec -> kernel name)."""
    out = []
    for name, spec, start, fbytes, dur in s.flows:
        if spec == "reno":
            out.append(Flow(name, "iperf3-reno", start, dur or s.length - start))
            continue
        b = (nbytes or fbytes) if fbytes else None
        params = {"bytes": str(b)} if b else {}
        out.append(Flow(name, "ktcp", start, (dur or s.length - start), cc=names[spec],
                        params=params))
    return out


def completion(res: RunResult, name: str, nbytes: int) -> float | None:
    """Seconds from t0 until flow `name` delivered `nbytes` of payload (its counter)."""
    pay = measure.flow_payload(res.counters, name, ktcp.TCP_OVERHEAD)
    base = pay.at(res.t0)
    for t, v in zip(pay.times, pay.values):
        if v - base >= nbytes:
            return t - res.t0
    return None


def analyse_seed002(res: RunResult, s: Setup, nbytes: int | None) -> dict:
    """The figures seed 002's claims read (see SEED002_CLAIMS)."""
    out: dict = {"error": sidebyside._failed(res)}
    if out["error"]:
        return out
    names = [f[0] for f in s.flows]
    if s.name.startswith("tcp-20mbps"):
        led, tcp = names[0], names[1]
        a, b = res.t0 + 30.0, res.t0 + min(120.0, res.length)
        rl = measure.flow_frames(res.counters, led).rate_bps(a, b)
        rt = measure.flow_frames(res.counters, tcp).rate_bps(a, b)
        out["ledbat_share"] = round(rl / (rl + rt), 4) if rl + rt > 0 else None
        out["ledbat_mbit"], out["tcp_mbit"] = round(rl / 1e6, 3), round(rt / 1e6, 3)
        return out
    first, late = names[0], names[1]
    size = nbytes or s.flows[0][3]
    c1, c2 = completion(res, first, size), completion(res, late, size)
    out["first_completion_s"] = None if c1 is None else round(c1, 2)
    out["latecomer_completion_s"] = None if c2 is None else round(c2, 2)
    if c1 is None or c2 is None:
        out["error"] = "a transfer did not complete within the run"
        return out
    out["first_minus_latecomer_s"] = round(c1 - c2, 2)
    out["latecomer_minus_first_s"] = round(c2 - c1, 2)
    a, b = res.t0 + 30.0, res.t0 + min(c1, c2)
    if b - a > 5:
        r1 = measure.flow_frames(res.counters, first).rate_bps(a, b)
        r2 = measure.flow_frames(res.counters, late).rate_bps(a, b)
        out["jain"] = round(measure.jain([r1, r2]), 4)
    out["utilisation"] = round(2 * size * 8 / max(c1, c2) / s.rate_bps, 4)
    return out


# ---------------------------------------------------------------- analysis of the others


def queue_appears(res: RunResult, t_cross: float, alone_ms: float | None, rate_bps: int,
                  end: float) -> float | None:
    """The first 100 ms window after `t_cross` whose mean queue exceeds ours' alone by
    QUEUE_RISE_MS (None if it never does)."""
    level = (alone_ms or 0.0) + QUEUE_RISE_MS
    t = t_cross
    while t + 0.1 <= end:
        if measure.queue_delay(res.qdisc, t, t + 0.1, rate_bps).mean_ms > level:
            return t
        t += 0.1
    return None


def analyse_alone(res: RunResult, rate_bps: int, stats: list[ktcp.StatRow]) -> dict:
    out: dict = {"error": sidebyside._failed(res)}
    if out["error"]:
        return out
    f = res.flow("ours")
    t_first = sidebyside.first_data(res, "ours", f.t_start)
    if t_first is None:
        return {"error": "the flow never sent data"}
    a, b = t_first + WARM_S, min(f.t_stop or math.inf, res.t0 + res.length)
    if b - a < 5:
        return {"error": f"window too short ({b - a:.1f} s)"}
    d = measure.queue_delay(res.qdisc, a, b, rate_bps)
    pay = measure.flow_payload(res.counters, "ours", ktcp.TCP_OVERHEAD)
    rows = ktcp.sender_rows(stats, f.flow.port)
    qd = ktcp.mean_of(rows, "queuing_ns", a, b)
    out.update({
        "window_s": round(b - a, 1),
        "payload_mbit": round(pay.rate_bps(a, b) / 1e6, 3),
        "link_util": round(measure.qdisc_sent(res.qdisc).rate_bps(a, b) / rate_bps, 4),
        "queue_mean_ms": round(d.mean_ms, 1), "queue_p50_ms": round(d.p50_ms, 1),
        "queue_p95_ms": round(d.p95_ms, 1), "drops": d.drops,
        "drops_from_start": measure.queue_delay(res.qdisc, f.t_start, b, rate_bps).drops,
        "slowdowns": ktcp.slowdowns_between(rows, a, b),
        "estimate_ms": None if qd is None else round(qd / 1e6, 1),
    })
    return out


def analyse_cross(res: RunResult, rate_bps: int, stats: list[ktcp.StatRow]) -> dict:
    out = sidebyside.analyse_single(res, rate_bps, flow="ours", overhead=ktcp.TCP_OVERHEAD)
    if out.get("error"):
        return out
    x = res.flow("cross")
    alone = out.get("alone") or {}
    te = min(x.t_stop or math.inf, x.t_start + x.flow.duration, res.t0 + res.length)
    tq = queue_appears(res, x.t_start, alone.get("queue_mean_ms"), rate_bps, te)
    u = measure.flow_frames(res.counters, "ours")
    until = None
    if tq is not None:
        until = measure.time_until_below(u, tq, te, sidebyside.LINK_SHARE * rate_bps)
    out["beside"]["queue_appears_s"] = None if tq is None else round(tq - x.t_start, 2)
    out["beside"]["below_20pct_after_queue_s"] = None if until is None else round(until, 1)
    rows = ktcp.sender_rows(stats, res.flow("ours").flow.port)
    if out.get("alone"):
        out["alone"]["slowdowns"] = ktcp.slowdowns_between(
            rows, x.t_start - out["alone"]["window_s"], x.t_start)
    # where our flow's slowdown cycle stood when the cross traffic came
    # (docs/sidebyside/arrival-phase.md)
    arr = ktcp.arrival_phase(rows, x.t_start)
    out["beside"]["phase_at_cross"] = arr["phase"]
    out["beside"]["since_slowdown_s"] = arr["since_slowdown_s"]
    out["beside"]["next_slowdown_s"] = arr["next_slowdown_s"]
    return out


# ---------------------------------------------------------------- report


def _group(rows: list[dict], key) -> dict:
    g: dict = {}
    for r in rows:
        g.setdefault(key(r), []).append(r)
    return g


def checks(doc: dict) -> list[dict]:
    """The targets for `scavenger` over kernel TCP (docs/tcp/measured.md), per base RTT (medians
    of the repeats)."""
    out = []
    def add(where, what, value, ok, target):
        out.append({"where": where, "check": what, "value": value, "target": target,
                    "verdict": "n/a" if value is None else ("met" if ok(value) else "missed")})
    alone = _group([r for r in doc["alone"] if r["cc"] == "scavenger" and not r.get("error")],
                   lambda r: r["rtt_ms"])
    for rtt, rs in sorted(alone.items()):
        w = f"alone, base RTT {rtt:g} ms"
        u = _med([r["link_util"] for r in rs])
        add(w, "link utilisation", u["median"], lambda v: v >= 0.97, ">= 0.97")
        q = _med([r["queue_mean_ms"] for r in rs])
        add(w, "queue mean (ms)", q["median"], lambda v: 54 <= v <= 66,
            "within 10 % of TARGET 60 ms")
        d = _med([r["drops"] for r in rs])
        add(w, "tail drops after slow start", d["max"], lambda v: v == 0, "0")
        cubic = [r["payload_mbit"] for r in doc["alone"]
                 if r["cc"] == "cubic" and r["rtt_ms"] == rtt and not r.get("error")]
        if cubic:
            ratio = _med([r["payload_mbit"] for r in rs])["median"] / _med(cubic)["median"]
            add(w, "payload rate / kernel cubic's (medians)", round(ratio, 3),
                lambda v: v >= 1.0, ">= 1")
    cross = _group([r for r in doc["cross"] if r["cc"] == "scavenger" and r["cross"] == "cubic"
                    and not r.get("error")], lambda r: r["rtt_ms"])
    for rtt, rs in sorted(cross.items()):
        t = _med([r["beside"].get("below_20pct_after_queue_s") for r in rs])
        add(f"beside cubic, base RTT {rtt:g} ms", "s below 20 % after cubic's queue appears",
            t["median"], lambda v: v <= 2.0, "<= 2 s")
    two = _group([r for r in doc["two"] if r["cc"] == "scavenger" and not r.get("error")],
                 lambda r: r["rtt_ms"])
    for rtt, rs in sorted(two.items()):
        j = _med([r["jain"] for r in rs])
        add(f"two 10 s apart, base RTT {rtt:g} ms", "Jain's index", j["median"],
            lambda v: v >= 0.95, ">= 0.95")
    return out


def band_ok(band: dict, v: float) -> bool | None:
    """Whether `v` is inside a catalog tolerance band (`ledbat repro --json`)."""
    k = band.get("kind")
    if k == "at-least":
        return v >= band["bound"]
    if k == "at-most":
        return v <= band["bound"]
    if k == "between":
        return band["lo"] <= v <= band["hi"]
    if k == "near":
        return abs(v - band["value"]) <= band["tol"]
    return None


def seed002_table(doc: dict, sim: dict | None) -> str:
    """Paper, simulator and kernel, claim by claim."""
    by_claim = {c["id"]: c for c in (sim or {}).get("claims", [])}
    rows = _group([r for r in doc["seed002"] if not r.get("error")], lambda r: r["setup"])
    lines = ["| claim | paper | simulator (mean, seeds) | kernel (median [min..max], runs) | "
             "kernel in the paper's band |", "|---|---|---|---|---|"]
    for cid, (setup, key) in SEED002_CLAIMS.items():
        c = by_claim.get(cid, {})
        s = c.get("summary") or {}
        simv = (f"{s['mean']:.3g} ({s['n']}; {c.get('verdict', '?')})" if s.get("mean") is not None
                else "n/a")
        k = _med([r.get(key) for r in rows.get(setup, [])])
        inside = (band_ok(c["tolerance"], k["median"])
                  if k["median"] is not None and c.get("tolerance") else None)
        lines.append(f"| `{cid}` | {c.get('paper_value', '?')} | {simv} | {_fmt(k, 3)} | "
                     f"{'n/a' if inside is None else ('yes' if inside else 'no')} |")
    return "\n".join(lines)


def markdown(doc: dict, sim: dict | None = None) -> str:
    parts = []
    if doc["alone"]:
        parts.append("### Alone\n\n| controller | base RTT ms | link utilisation | payload Mbit/s "
                     "| queue mean ms | queue p95 ms | sender's estimate ms | drops after "
                     "slow start | slowdowns |\n|---|---|---|---|---|---|---|---|---|")
        for (cc, rtt), rs in sorted(_group([r for r in doc["alone"] if not r.get("error")],
                                           lambda r: (r["cc"], r["rtt_ms"])).items()):
            m = lambda k: _med([r.get(k) for r in rs])  # noqa: E731
            parts.append(f"| {cc} | {rtt:g} | {_fmt(m('link_util'), 3)} | {_fmt(m('payload_mbit'))} "
                         f"| {_fmt(m('queue_mean_ms'), 1)} | {_fmt(m('queue_p95_ms'), 1)} | "
                         f"{_fmt(m('estimate_ms'), 1)} | {_fmt(m('drops'), 0)} | "
                         f"{_fmt(m('slowdowns'), 0)} |")
    if doc["cross"]:
        parts.append("\n### Beside kernel TCP\n\n| controller | cross | base RTT ms | s below 20 % "
                     "from its start | s below 20 % after its queue appears | ours Mbit/s "
                     "beside | cross Mbit/s beside | ours Mbit/s after |\n|---|---|---|---|---|"
                     "---|---|---|")
        for (cc, x, rtt), rs in sorted(_group([r for r in doc["cross"] if not r.get("error")],
                                              lambda r: (r["cc"], r["cross"], r["rtt_ms"])).items()):
            b = lambda k: _med([(r.get("beside") or {}).get(k) for r in rs])  # noqa: E731
            af = _med([(r.get("after") or {}).get("payload_from_3s_mbit") for r in rs])
            parts.append(f"| {cc} | {x} | {rtt:g} | {_fmt(b('time_until_below_20pct_s'), 1)} | "
                         f"{_fmt(b('below_20pct_after_queue_s'), 1)} | {_fmt(b('utp_mbit'))} | "
                         f"{_fmt(b('cross_mbit'))} | {_fmt(af)} |")
    if doc["two"]:
        parts.append("\n### Two flows 10 s apart\n\n| controller | base RTT ms | Jain | first "
                     "Mbit/s | latecomer Mbit/s | queue p50 ms |\n|---|---|---|---|---|---|")
        for (cc, rtt), rs in sorted(_group([r for r in doc["two"] if not r.get("error")],
                                           lambda r: (r["cc"], r["rtt_ms"])).items()):
            m = lambda k: _med([r.get(k) for r in rs])  # noqa: E731
            parts.append(f"| {cc} | {rtt:g} | {_fmt(m('jain'), 3)} | {_fmt(m('flow1_mbit'))} | "
                         f"{_fmt(m('flow2_mbit'))} | {_fmt(m('queue_p50_ms'), 1)} |")
    if doc["seed002"]:
        parts.append("\n### Seed 002 on the kernel\n\n" + seed002_table(doc, sim))
        parts.append("\n| setup | first done s | latecomer done s | Jain 30 s..first done | "
                     "utilisation | LEDBAT share |\n|---|---|---|---|---|---|")
        for setup, rs in sorted(_group([r for r in doc["seed002"] if not r.get("error")],
                                       lambda r: r["setup"]).items()):
            m = lambda k: _med([r.get(k) for r in rs])  # noqa: E731
            parts.append(f"| {setup} | {_fmt(m('first_completion_s'), 1)} | "
                         f"{_fmt(m('latecomer_completion_s'), 1)} | {_fmt(m('jain'), 3)} | "
                         f"{_fmt(m('utilisation'), 3)} | {_fmt(m('ledbat_share'), 3)} |")
    kc = [c for k in EXPERIMENTS for r in doc[k] for c in r.get("kernel_check", [])]
    if kc:
        bad = [c for c in kc if c.get("error") or c.get("mismatches")]
        parts.append(
            f"\nKernel events replayed through ledbat-core (`ledbat tcp check`): "
            f"{sum(c.get('events', 0) for c in kc)} events of "
            f"{sum(c.get('connections', 0) for c in kc)} connections, "
            f"{sum(c.get('mismatches', 0) for c in kc)} mismatches, largest window "
            f"difference {max((c.get('max_diff_bytes', 0) for c in kc), default=0):.1e} bytes"
            + (f"; problems: {bad}" if bad else "") + ".")
    errs = [r for k in ("alone", "cross", "two", "seed002") for r in doc[k] if r.get("error")]
    if errs:
        parts.append("\nNot measured: " + "; ".join(f"{r.get('name')}: {r['error']}"
                                                      for r in errs))
    cs = checks(doc)
    if cs:
        parts.append("\n### Checks (scavenger)\n\n| where | check | value | target | verdict |\n"
                     "|---|---|---|---|---|")
        for c in cs:
            v = c["value"]
            parts.append(f"| {c['where']} | {c['check']} | "
                         f"{'n/a' if v is None else round(v, 3)} | {c['target']} | "
                         f"{c['verdict']} |")
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------- main


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="CI subset (about 2 minutes)")
    ap.add_argument("--experiments", default=None,
                    help=f"comma list from {','.join(EXPERIMENTS)}")
    ap.add_argument("--ccs", default=None,
                    help="controllers for alone and cross, NAME[:KEY=VALUE...] (default "
                         "scavenger); cubic, reno and bbr are the kernel's own, for comparison")
    ap.add_argument("--two-ccs", default=None, help="controllers for two (default scavenger,ledbat)")
    ap.add_argument("--rtts-ms", default=None, help="base RTTs (default 0,20,40,100)")
    ap.add_argument("--crosses", default=None, help="cubic,bbr (default both)")
    ap.add_argument("--seed002", default=None, help=f"setups (default {','.join(SEED002)})")
    ap.add_argument("--seed002-mb", type=float, default=None,
                    help="transfer size instead of the scenario files' 100 MB")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--json", default=None)
    ap.add_argument("--md", default=None)
    ap.add_argument("--sim-json", default=None,
                    help="`ledbat repro --json` of the seed 002 claims, for the table")
    ap.add_argument("--merge", nargs="+", default=None, metavar="JSON")
    ap.add_argument("--max-seconds", type=float, default=None)
    ap.add_argument("--no-install", action="store_true")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a check is missed")
    ap.add_argument("--trace", action="store_true",
                    help="record every kernel event of our controllers and replay it through "
                         "ledbat-core (`ledbat tcp trace` and `check`); a mismatch exits 1")
    ap.add_argument("--keep-traces", action="store_true",
                    help="keep the trace files (tens of MB per flow and minute)")
    ap.add_argument("--tbf-burst", type=int, default=None, metavar="BYTES",
                    help=f"the bottleneck's tbf bucket (default {topo.Bottleneck.burst_bytes}; "
                         f"at least one {topo.FULL_FRAME}-byte frame): a link idle for a "
                         "while passes that much at line rate")
    ap.add_argument("--cross-at", type=float, default=None, metavar="S",
                    help="start the cross traffic S seconds after ours (default: the plan's, "
                         f"25; {WARM_S + 5:g} to 120): to meet our flow at another point of "
                         "its slowdown cycle")
    ap.add_argument("--list", action="store_true")
    return ap.parse_args(argv)


def _plan(a) -> Plan:
    p = plan_for(a.quick)
    split = lambda t: [x for x in t.split(",") if x]  # noqa: E731
    if a.experiments:
        p.experiments = split(a.experiments)
    if a.ccs:
        p.ccs = split(a.ccs)
    if a.two_ccs is not None:
        p.two_ccs = split(a.two_ccs)
    if a.rtts_ms:
        p.rtts_ms = [float(x) for x in split(a.rtts_ms)]
    if a.crosses:
        p.crosses = split(a.crosses)
    if a.seed002:
        p.seed002 = split(a.seed002)
    if a.seed002_mb:
        p.seed002_bytes = int(a.seed002_mb * 1e6)
    if a.repeats is not None:
        p.repeats = a.repeats
    if a.cross_at is not None:
        if not WARM_S + 5 <= a.cross_at <= 120:
            raise ValueError(f"--cross-at {a.cross_at:g}: must be {WARM_S + 5:g} to 120 s "
                             f"(the alone window is the time before it, from {WARM_S:g} s on)")
        p.cross_at = a.cross_at
    if a.tbf_burst is not None:
        if a.tbf_burst < topo.FULL_FRAME:
            raise ValueError(f"--tbf-burst {a.tbf_burst}: less than one frame "
                             f"({topo.FULL_FRAME} bytes)")
        p.burst_bytes = a.tbf_burst
    bad = [e for e in p.experiments if e not in EXPERIMENTS]
    bad += [x for x in p.crosses if x not in CROSSES]
    bad += [s for s in p.seed002 if s not in SEED002]
    if bad or p.repeats < 1:
        raise ValueError(f"unknown: {', '.join(bad) or 'repeats < 1'}")
    for spec in p.ccs + p.two_ccs:
        ktcp.spec_parts(spec)
    return p


def _write(doc: dict, md: str, json_path: str, md_path: str) -> None:
    print("\n" + md)
    for path, text in ((json_path, json.dumps(doc, indent=1)), (md_path, md)):
        paths.write_atomic(path, text)


def _load_sim(path: str | None) -> dict | None:
    if not path:
        return None
    with open(path) as fh:
        return json.load(fh)


def merge(paths_: list[str], a) -> int:
    doc: dict = {"runs": [], "alone": [], "cross": [], "two": [], "seed002": []}
    for p in paths_:
        with open(p) as fh:
            d = json.load(fh)
        doc["runs"].append({k: v for k, v in d.items() if k not in EXPERIMENTS + ["runs"]})
        for k in EXPERIMENTS:
            doc[k] += d.get(k, [])
    doc["checks"] = checks(doc)
    head = "Kernel TCP on the bed, runs merged: " + "; ".join(
        f"`{r.get('command')}` {r.get('date_utc')} UTC (load {r.get('load_before', ['?'])[0]})"
        for r in doc["runs"]) + "\n\n"
    _write(doc, head + markdown(doc, _load_sim(a.sim_json)), a.json or "tcpbed.json",
           a.md or "tcpbed.md")
    return 0


def main(argv=None) -> int:
    a = parse_args(argv)
    if a.merge:
        return merge(a.merge, a)
    try:
        p = _plan(a)
        setups = {s: load_setup(s) for s in p.seed002} if "seed002" in p.experiments else {}
    except (ValueError, OSError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    jobs = p.jobs()
    lengths = {"alone": p.alone_len, "cross": p.cross_len, "two": p.two_len}
    est = sum(lengths.get(j[0]) or setups[j[1]].length * 0.7 for j in jobs) + 12 * len(jobs)
    if a.list:
        for j in jobs:
            print(" ".join(str(x) for x in j if x is not None))
        print(f"{len(jobs)} scenarios, about {est:.0f} s")
        return 0
    ledbat_bin = install.preflight("namespaces, qdiscs, BPF", a.ledbat_bin)
    if ledbat_bin is None:
        return 2
    try:
        install.ensure(install.Needs(["ip", "tc", "nft", "ethtool", "ping", "sysctl", "ss",
                                      "iperf3"]), install=not a.no_install,
                       log=lambda m: print(f"[tcp] {m}", flush=True))
    except proc.CommandError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    ktcp.register_kind()
    out_dir = os.path.abspath(a.out_dir or paths.default_out_dir("tcpbed"))
    work = os.path.join(out_dir, "work")
    os.makedirs(work, exist_ok=True)
    doc: dict = {
        "command": paths.command_line(["testbed/tcpbed.py"],
                                      sys.argv[1:] if argv is None else argv),
        "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        **paths.provenance(ledbat_bin),
        "kernel": os.uname().release, "plan": p.__dict__,
        "load_before": os.getloadavg(), "alone": [], "cross": [], "two": [], "seed002": [],
    }
    ccs = ktcp.Controllers(ledbat_bin)
    max_s = a.max_seconds or est * 1.5 + 120
    guard.arm(max_s)
    tag = f"k{os.getpid() % 10000}"
    status = 0
    started = time.monotonic()
    ctx = dict(workdir=work, ledbat_bin=ledbat_bin, send_file="/dev/null")
    print(f"[tcp] {len(jobs)} scenarios, about {est:.0f} s; out {out_dir}", flush=True)
    try:
        for exp, who, rtt, cross, rep in jobs:
            began = time.monotonic()
            label = who.replace(":", "_").replace("=", "-")
            name = f"{exp}-{label}-rtt{rtt:g}-{cross or ''}-{rep + 1}" if rtt is not None \
                else f"{exp}-{label}-{rep + 1}"
            logdir = os.path.join(out_dir, name)
            stats_path = os.path.join(logdir, "ktcp-stats.out")
            extra = [ktcp.stats_sampler(ledbat_bin)]
            row: dict = {"name": name, "repeat": rep + 1}
            specs = ([spec for _, spec, *_ in setups[who].flows if spec != "reno"]
                     if exp == "seed002" else [who])
            traces = []
            for spec in dict.fromkeys(specs):
                kn = ccs.ensure(spec)
                if a.trace and spec not in ktcp.KERNEL_CCS:
                    os.makedirs(logdir, exist_ok=True)
                    traces.append(os.path.join(logdir, f"{kn}.trace"))
                    extra.append(ktcp.trace_sampler(ledbat_bin, kn, traces[-1]))
            if exp == "seed002":
                s = setups[who]
                names = {spec: ccs.ensure(spec) for _, spec, *_ in s.flows if spec != "reno"}
                fl = seed002_flows(s, names, p.seed002_bytes)
                b = topo.Bottleneck(rate_bps=s.rate_bps, fifo_frames=s.fifo_frames)
                length = s.length if not p.seed002_bytes else max(
                    f[2] for f in s.flows) + p.seed002_bytes * 8 / s.rate_bps * 2 + 30
                res = run_scenario(name, fl, length, b, ctx, logdir, tag,
                                   delay_ms=s.owd_ms,
                                   route_opts=() if s.delayed_ack else ("quickack", "1"),
                                   extra=extra)
                row.update({"setup": who, "owd_ms": s.owd_ms, "delayed_ack": s.delayed_ack,
                            **analyse_seed002(res, s, p.seed002_bytes)})
            else:
                kname = ccs.ensure(who)
                b = topo.Bottleneck.from_fifo_ms(10_000_000, p.fifo_ms)
                b.burst_bytes = p.burst_bytes
                row.update({"cc": who, "rtt_ms": rtt})
                if exp == "alone":
                    fl = [Flow("ours", "ktcp", 0.0, p.alone_len, cc=kname)]
                    res = run_scenario(name, fl, p.alone_len, b, ctx, logdir, tag,
                                       delay_ms=rtt / 2, extra=extra)
                    row.update(analyse_alone(res, b.rate_bps, ktcp.read_stats(stats_path)))
                elif exp == "cross":
                    fl = [Flow("ours", "ktcp", 0.0, p.cross_len, cc=kname),
                          Flow("cross", f"iperf3-{cross}", p.cross_at, p.cross_for)]
                    res = run_scenario(name, fl, p.cross_len, b, ctx, logdir, tag,
                                       delay_ms=rtt / 2, extra=extra)
                    row.update({"cross": cross,
                                **analyse_cross(res, b.rate_bps, ktcp.read_stats(stats_path))})
                else:
                    fl = [Flow("first", "ktcp", 0.0, p.two_len, cc=kname),
                          Flow("latecomer", "ktcp", p.two_gap, p.two_len - p.two_gap, cc=kname)]
                    res = run_scenario(name, fl, p.two_len, b, ctx, logdir, tag,
                                       delay_ms=rtt / 2, extra=extra)
                    row.update(sidebyside.analyse_two(res, b.rate_bps, ("first", "latecomer")))
            if traces:
                row["kernel_check"] = [ktcp.check_trace(ledbat_bin, t) for t in traces]
                if not a.keep_traces:
                    for path in traces:
                        if os.path.exists(path):
                            os.remove(path)
            row["idle_ping_rtt_ms"] = res.base_rtt_ms
            row["load"] = round(os.getloadavg()[0], 2)
            doc[exp].append(row)
            print(f"[tcp] {name}: {json.dumps(row)} ({time.monotonic() - began:.0f} s)", flush=True)
    except guard.Deadline:
        print(f"[tcp] overall time limit of {max_s:.0f} s hit", file=sys.stderr)
        status = 3
    except KeyboardInterrupt:
        print("[tcp] interrupted", file=sys.stderr)
        status = 3
    except (ktcp.LoadFailed, proc.CommandError) as e:
        print(f"error: {e}", file=sys.stderr)
        status = 2
    finally:
        guard.disarm()
        for problem in ccs.close():
            print(f"[tcp] {problem}", file=sys.stderr)
        topo.delete_tagged(tag)
    doc["checks"] = checks(doc)
    doc["seconds"] = round(time.monotonic() - started, 1)
    doc["load_after"] = os.getloadavg()
    head = (f"Kernel TCP on the bed ({doc['kernel']}): 10 Mbit/s tbf, {doc['date_utc']} UTC, "
            f"{doc['seconds']:.0f} s, load {doc['load_before'][0]:.2f} before\n\n")
    _write(doc, head + markdown(doc, _load_sim(a.sim_json)),
           a.json or os.path.join(out_dir, "tcpbed.json"),
           a.md or os.path.join(out_dir, "tcpbed.md"))
    if status:
        return status
    if any(r.get("error") for k in EXPERIMENTS for r in doc[k]):
        return 1
    if any(c.get("error") or c.get("mismatches") for k in EXPERIMENTS for r in doc[k]
           for c in r.get("kernel_check", [])):
        return 1
    return 1 if a.strict and any(c["verdict"] == "missed" for c in doc["checks"]) else 0


if __name__ == "__main__":
    sys.exit(main())
