"""Scenario definitions and what each one measures and asserts.

Each scenario is a list of flows on a schedule plus an analysis turning the raw samples into
`Metric`s. A metric may carry a *floor* (asserted: the run fails below it) and a *goal*
(reported only). Windows are taken from the actual start times of the senders.

| scenario        | flows                                              | asserts (floor)                       |
|-----------------|----------------------------------------------------|---------------------------------------|
| bed-fifo        | iperf3 UDP at 1.2 x link rate                      | max backlog within 2 frames of the FIFO; link >= 97 % |
| bed-cubic       | iperf3 TCP cubic alone                             | link >= 90 %; counters agree with iperf3 within 3 % |
| alone           | one sender under test                              | link >= 90 %; mean queue delay within 25 % of TARGET |
| vs-tcp          | sender under test, then cubic over the same FIFO   | cubic keeps >= 80 % of the link       |
| two-<cc>        | two senders under test, 10 s apart, for each cc    | none (Jain index reported)            |

`bed-*` check the bed itself (rates, counters, FIFO size) with kernel traffic only.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import Callable

from . import measure
from .bed import RunResult
from .flows import KINDS, Flow
from .topo import Bottleneck


@dataclass
class Settings:
    """One run of the bed."""

    quick: bool = True
    sut: str = "ledbat"
    """Flow kind of the sender under test."""
    sut_cc: str | None = None
    """Controller of the sender under test in `alone` and `vs-tcp` (None = its default)."""
    two_flow_ccs: list[str] = field(default_factory=lambda: ["ledbat", "fledbat", "ledbat++"])
    target_ms: float = 60.0
    """TARGET the delay check compares with: the sender's controller's (`bedrun` reads it
    from `ledbat controllers --json`); 60 ms is that of the transfer commands' default,
    `scavenger` (LEDBAT++'s)."""
    pass_target: bool = False
    """Pass `--target-ms` to the sender (only when the user set it)."""
    competitor: str = "iperf3-cubic"
    bottleneck: Bottleneck = field(default_factory=Bottleneck)
    delay_ms: float = 0.0
    """One-way propagation delay each way (user-space delay line); 0 = none."""

    def dur(self, quick: float, full: float) -> float:
        """A duration by mode."""
        return quick if self.quick else full

    def sut_params(self) -> dict[str, str]:
        """Per-flow parameters of the sender under test."""
        return {"target_ms": str(int(self.target_ms))} if self.pass_target else {}


@dataclass
class Metric:
    """One figure of one scenario."""

    scenario: str
    name: str
    value: float | None
    unit: str
    floor: str = ""
    goal: str = ""
    passed: bool | None = None
    """None: not asserted; False also when the figure could not be measured."""
    goal_met: bool | None = None
    note: str = ""

    def fmt_value(self) -> str:
        """The value as printed in the table."""
        if self.value is None or (isinstance(self.value, float) and math.isnan(self.value)):
            return "n/a"
        if self.unit == "%":
            return f"{self.value * 100:.1f} %"
        if self.unit == "":
            return f"{self.value:.3f}"
        return f"{self.value:.2f} {self.unit}"


def _at_least(x: float | None, lo: float) -> bool | None:
    return None if x is None or math.isnan(x) else x >= lo


def _within(x: float | None, ref: float, frac: float) -> bool | None:
    return None if x is None or math.isnan(x) else abs(x - ref) <= frac * ref


@dataclass
class Scenario:
    """A named schedule of flows and its analysis."""

    name: str
    description: str
    flows: Callable[[Settings], list[Flow]]
    length: Callable[[Settings], float]
    analyse: Callable[[RunResult, Settings], list[Metric]]


# ---------------------------------------------------------------- helpers


def _fail_all(res: RunResult, names: list[tuple[str, str, str]]) -> list[Metric]:
    """Metrics that could not be measured because a flow or the bed failed."""
    why = "; ".join(res.errors + [f"{f.flow.name}: {f.error}" for f in res.flows if f.error])
    # A scenario that did not run fails even where it asserts nothing: the run is incomplete.
    return [Metric(res.name, n, None, u, floor=fl or "measured", passed=False, note=why)
            for n, u, fl in names]


def _broken(res: RunResult) -> bool:
    return bool(res.errors) or any(f.error for f in res.flows) or not res.qdisc \
        or not res.counters


def _window_end(fr, res: RunResult) -> float:
    """Where a flow's measurement window ends: its scheduled stop, its actual end, or the
    scenario's end, whichever comes first."""
    ends = [fr.t_start + fr.flow.duration, res.t0 + res.length]
    if fr.t_stop is not None:
        ends.append(fr.t_stop)
    return min(ends)


def _payload_rate(res: RunResult, fr, a: float, b: float) -> float | None:
    ov = KINDS[fr.kind].overhead
    if ov is None:
        return None
    return measure.flow_payload(res.counters, fr.flow.name, ov).rate_bps(a, b)


def _rate(res: RunResult, name: str, a: float, b: float) -> float:
    return measure.flow_frames(res.counters, name).rate_bps(a, b)


def _iperf_goodput(fr) -> float | None:
    """Receiver-side goodput iperf3 reported (-J), in bit/s."""
    try:
        doc = json.loads(fr.sender_stdout)
        return float(doc["end"]["sum_received"]["bits_per_second"])
    except (ValueError, KeyError, TypeError):
        return None


# ---------------------------------------------------------------- bed self-checks


def _bed_fifo_flows(s: Settings) -> list[Flow]:
    rate = int(s.bottleneck.rate_bps * 1.2)
    return [Flow("udp", "iperf3-udp", 0.0, s.dur(8, 15), params={"rate": str(rate)})]


def _bed_fifo(res: RunResult, s: Settings) -> list[Metric]:
    names = [("max backlog", "B", "within 2 frames of limit"), ("link utilisation", "%", ">= 97 %")]
    if _broken(res):
        return _fail_all(res, names)
    b = s.bottleneck
    fr = res.flow("udp")
    a, e = fr.t_start + 3.0, _window_end(fr, res)
    d = measure.queue_delay(res.qdisc, a, e, b.rate_bps)
    util = measure.qdisc_sent(res.qdisc).rate_bps(a, e) / b.rate_bps
    ok_q = b.limit_bytes - 2 * 1514 <= d.max_backlog <= b.limit_bytes
    return [
        Metric(res.name, "max backlog", d.max_backlog, "B",
               floor=f"{b.limit_bytes - 2 * 1514}..{b.limit_bytes} B", passed=ok_q,
               note=f"FIFO limit {b.limit_bytes} B = {b.fifo_ms:.0f} ms"),
        Metric(res.name, "queue delay p50", d.p50_ms, "ms", note=f"{d.n} samples"),
        Metric(res.name, "drops", d.drops, "pkt"),
        Metric(res.name, "link utilisation", util, "%", floor=">= 97 %",
               passed=_at_least(util, 0.97)),
    ]


def _bed_cubic_flows(s: Settings) -> list[Flow]:
    return [Flow("tcp", s.competitor, 0.0, s.dur(12, 30))]


def _bed_cubic(res: RunResult, s: Settings) -> list[Metric]:
    names = [("link utilisation", "%", ">= 90 %"), ("counter vs iperf3 goodput", "%", "<= 3 %")]
    if _broken(res):
        return _fail_all(res, names)
    b = s.bottleneck
    fr = res.flow("tcp")
    a, e = fr.t_start + 2.0, _window_end(fr, res)
    util = measure.qdisc_sent(res.qdisc).rate_bps(a, e) / b.rate_bps
    d = measure.queue_delay(res.qdisc, a, e, b.rate_bps)
    out = [
        Metric(res.name, "link utilisation", util, "%", floor=">= 90 %",
               passed=_at_least(util, 0.90)),
        Metric(res.name, "flow rate (frames)", _rate(res, "tcp", a, e) / 1e6, "Mbit/s"),
        Metric(res.name, "queue delay mean", d.mean_ms, "ms",
               note=f"p50 {d.p50_ms:.0f}, p95 {d.p95_ms:.0f}, max {d.max_ms:.0f} ms"),
        Metric(res.name, "drops", d.drops, "pkt"),
    ]
    ip = _iperf_goodput(fr)
    ours = _payload_rate(res, fr, a, e)
    if not ip or ours is None:
        out.append(Metric(res.name, "counter vs iperf3 goodput", None, "%", floor="<= 3 %",
                          passed=False, note="no iperf3 goodput"))
    else:
        # Both are steady-state goodputs measured independently: ours from the receiver's
        # kernel counters after the ramp-up, iperf3's from its server's reads over its whole
        # test (which misses the data still queued when the test ends).
        diff = abs(ours - ip) / ip
        out.append(Metric(res.name, "counter vs iperf3 goodput", diff, "%", floor="<= 3 %",
                          passed=diff <= 0.03,
                          note=f"counters {ours / 1e6:.3f}, iperf3 {ip / 1e6:.3f} Mbit/s"))
    return out


# ---------------------------------------------------------------- the sender under test


def _alone_flows(s: Settings) -> list[Flow]:
    return [Flow("utp", s.sut, 0.0, s.dur(25, 60), cc=s.sut_cc, params=s.sut_params())]


def _alone(res: RunResult, s: Settings) -> list[Metric]:
    tol = f"{s.target_ms * 0.75:.0f}..{s.target_ms * 1.25:.0f} ms"
    names = [("link utilisation", "%", ">= 90 %"), ("queue delay mean", "ms", tol)]
    if _broken(res):
        return _fail_all(res, names)
    b = s.bottleneck
    fr = res.flow("utp")
    warm = s.dur(5, 10)
    a, e = fr.t_start + warm, _window_end(fr, res)
    util = measure.qdisc_sent(res.qdisc).rate_bps(a, e) / b.rate_bps
    d = measure.queue_delay(res.qdisc, a, e, b.rate_bps)
    d_all = measure.queue_delay(res.qdisc, fr.t_start, e, b.rate_bps)
    pay = _payload_rate(res, fr, a, e)
    return [
        Metric(res.name, "link utilisation", util, "%", floor=">= 90 %", goal="> 97 %",
               passed=_at_least(util, 0.90), goal_met=_at_least(util, 0.97),
               note=f"after {warm:.0f} s warm-up"),
        Metric(res.name, "payload rate", None if pay is None else pay / 1e6, "Mbit/s"),
        Metric(res.name, "queue delay mean", d.mean_ms, "ms", floor=tol,
               goal=f"{s.target_ms * 0.9:.0f}..{s.target_ms * 1.1:.0f} ms",
               passed=_within(d.mean_ms, s.target_ms, 0.25),
               goal_met=_within(d.mean_ms, s.target_ms, 0.10),
               note=f"TARGET {s.target_ms:.0f} ms, {d.n} samples after warm-up"),
        Metric(res.name, "queue delay p50", d.p50_ms, "ms"),
        Metric(res.name, "queue delay p95", d.p95_ms, "ms"),
        Metric(res.name, "queue delay max (whole run)", d_all.max_ms, "ms",
               note="includes slow start"),
        Metric(res.name, "drops (whole run)", d_all.drops, "pkt"),
    ] + _trace_metrics(res, fr, a, e, d)


def _trace_metrics(res: RunResult, fr, a: float, e: float, d) -> list[Metric]:
    """The sender's own view from `ledbat send --trace`, over the same window: its
    queuing-delay estimate against the queue the bed measured, and its window."""
    if fr.kind != "ledbat":
        return []
    tr = measure.trace_means(os.path.join(res.logdir, f"{fr.flow.name}-trace.jsonl"),
                             a - fr.t_start, e - fr.t_start, ["queuing_delay_ms", "cwnd",
                                                              "srtt_ms"])
    if tr is None:
        return [Metric(res.name, "sender's queuing-delay estimate", None, "ms",
                       note="no --trace lines")]
    return [
        Metric(res.name, "sender's queuing-delay estimate", tr["queuing_delay_ms"], "ms",
               note=f"mean of {tr['n']} trace lines; bed measured {d.mean_ms:.1f} ms"),
        Metric(res.name, "sender's cwnd", tr["cwnd"] / 1000, "kB",
               note=f"mean; srtt mean {tr['srtt_ms']:.1f} ms"),
    ]


def _vs_tcp_times(s: Settings) -> tuple[float, float]:
    return s.dur(5, 10), s.dur(25, 40)  # cubic starts at, runs for


def _vs_tcp_flows(s: Settings) -> list[Flow]:
    ts, dt = _vs_tcp_times(s)
    return [Flow("utp", s.sut, 0.0, ts + dt + 1, cc=s.sut_cc, params=s.sut_params()),
            Flow("tcp", s.competitor, ts, dt)]


def _vs_tcp(res: RunResult, s: Settings) -> list[Metric]:
    names = [("tcp share", "%", ">= 80 %")]
    if _broken(res):
        return _fail_all(res, names)
    b = s.bottleneck
    tcp = res.flow("tcp")
    ts, te = tcp.t_start, _window_end(tcp, res)
    a = ts + 2.0  # cubic's own ramp-up
    half = ts + (te - ts) / 2
    share = _rate(res, "tcp", a, te) / b.rate_bps
    utp_share = _rate(res, "utp", a, te) / b.rate_bps
    tcp_last = _rate(res, "tcp", half, te)
    utp_last = _rate(res, "utp", half, te)
    until = measure.time_until_below(measure.flow_frames(res.counters, "utp"), ts, te,
                                     0.2 * b.rate_bps)
    d = measure.queue_delay(res.qdisc, a, te, b.rate_bps)
    return [
        Metric(res.name, "tcp share", share, "%", floor=">= 80 %", goal=">= 95 %",
               passed=_at_least(share, 0.80), goal_met=_at_least(share, 0.95),
               note=f"of {b.rate_bps / 1e6:g} Mbit/s, from cubic start + 2 s to its end"),
        Metric(res.name, "utp share", utp_share, "%", note="same window"),
        Metric(res.name, "tcp rate, last half", tcp_last / 1e6, "Mbit/s"),
        Metric(res.name, "utp rate, last half", utp_last / 1e6, "Mbit/s"),
        Metric(res.name, "time until utp < 20 % of link", until, "s",
               note="1 s windows, from cubic start; n/a = not within the run"),
        Metric(res.name, "queue delay mean", d.mean_ms, "ms",
               note=f"p50 {d.p50_ms:.0f}, p95 {d.p95_ms:.0f} ms"),
    ]


def _two_times(s: Settings) -> tuple[float, float]:
    return 10.0, s.dur(40, 70)  # second flow starts at, scenario length


def _two_flows(cc: str) -> Callable[[Settings], list[Flow]]:
    def f(s: Settings) -> list[Flow]:
        gap, length = _two_times(s)
        return [Flow("utp1", s.sut, 0.0, length, cc=cc, params=s.sut_params()),
                Flow("utp2", s.sut, gap, length - gap, cc=cc, params=s.sut_params())]
    return f


def _two(res: RunResult, s: Settings) -> list[Metric]:
    names = [("jain index, last half", "", "")]
    if _broken(res):
        return _fail_all(res, names)
    b = s.bottleneck
    f1, f2 = res.flow("utp1"), res.flow("utp2")
    a, e = f2.t_start, min(_window_end(f1, res), _window_end(f2, res))
    half = a + (e - a) / 2
    r1, r2 = _rate(res, "utp1", half, e), _rate(res, "utp2", half, e)
    util = measure.qdisc_sent(res.qdisc).rate_bps(half, e) / b.rate_bps
    d = measure.queue_delay(res.qdisc, half, e, b.rate_bps)
    return [
        Metric(res.name, "jain index, last half", measure.jain([r1, r2]), "",
               note=f"of the {e - a:.0f} s both run"),
        Metric(res.name, "flow 1 rate, last half", r1 / 1e6, "Mbit/s"),
        Metric(res.name, "flow 2 rate, last half", r2 / 1e6, "Mbit/s"),
        Metric(res.name, "link utilisation, last half", util, "%"),
        Metric(res.name, "queue delay mean, last half", d.mean_ms, "ms",
               note=f"p95 {d.p95_ms:.0f} ms"),
    ]


def _len(flows: Callable[[Settings], list[Flow]]) -> Callable[[Settings], float]:
    return lambda s: max(f.stop for f in flows(s))


def all_scenarios(s: Settings) -> list[Scenario]:
    """Every scenario, in run order."""
    out = [
        Scenario("bed-fifo", "bed check: UDP overload fills the FIFO to its limit",
                 _bed_fifo_flows, _len(_bed_fifo_flows), _bed_fifo),
        Scenario("bed-cubic", "bed check: kernel cubic alone fills the link",
                 _bed_cubic_flows, _len(_bed_cubic_flows), _bed_cubic),
        Scenario("alone", "one transfer alone", _alone_flows, _len(_alone_flows), _alone),
        Scenario("vs-tcp", "one transfer, kernel cubic joins over the same FIFO",
                 _vs_tcp_flows, _len(_vs_tcp_flows), _vs_tcp),
    ]
    for cc in s.two_flow_ccs:
        fl = _two_flows(cc)
        out.append(Scenario(f"two-{cc}", f"two transfers with {cc}, 10 s apart", fl, _len(fl),
                            _two))
    return out
