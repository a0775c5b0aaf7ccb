"""Measurements from sampled counters: rates over windows, queueing delay, fairness.

Inputs are the sampler's records (see `sampler.py`), all stamped with CLOCK_MONOTONIC seconds.

- Per-flow bytes come from nftables counters in the receiver's input hook, so they count
  what crossed the bottleneck (drops excluded). nft counts IP bytes; a flow's *frame* bytes,
  which is what `tbf` meters, are `ip_bytes + 14 * packets`.
- A cumulative counter sampled at times t_i is read at any time t by linear interpolation
  between the samples around t; the rate over [a, b] is (C(b) - C(a)) * 8 / (b - a).
- Queueing delay of a backlog sample = backlog bytes * 8 / link rate (the FIFO drains at
  exactly the link rate; docs/real-peers.md). Mean and percentiles are over the samples in a
  window, which the sampler takes at a fixed period.
- Jain's fairness index of rates x_1..x_n: (sum x)^2 / (n * sum x^2) (Jain, Chiu and Hawe,
  DEC-TR-301, 1984): 1 when equal, 1/n when one flow has everything.
"""

from __future__ import annotations

import bisect
import math
import statistics
from dataclasses import dataclass

from .topo import ETH_HEADER


@dataclass
class Cumulative:
    """A cumulative counter (bytes) sampled over time; times ascending."""

    times: list[float]
    values: list[float]

    def at(self, t: float) -> float:
        """The counter at time `t`, interpolated; clamped to the first/last sample."""
        ts = self.times
        if not ts:
            return 0.0
        if t <= ts[0]:
            return self.values[0]
        if t >= ts[-1]:
            return self.values[-1]
        i = bisect.bisect_right(ts, t)
        t0, t1 = ts[i - 1], ts[i]
        v0, v1 = self.values[i - 1], self.values[i]
        if t1 == t0:
            return v1
        return v0 + (v1 - v0) * (t - t0) / (t1 - t0)

    def covers(self, a: float, b: float) -> bool:
        """Whether samples exist on both sides of [a, b] (no extrapolation needed)."""
        return bool(self.times) and self.times[0] <= a and self.times[-1] >= b

    def rate_bps(self, a: float, b: float) -> float:
        """Mean rate in bit/s over [a, b]."""
        if b <= a:
            raise ValueError(f"empty window [{a}, {b}]")
        return (self.at(b) - self.at(a)) * 8 / (b - a)

    def windowed(self, a: float, b: float, width: float, step: float) -> list[tuple[float, float]]:
        """Rates over the windows [s, s + width] for s = a, a + step, ... while s + width <= b.

        Returns (window start, rate in bit/s) pairs."""
        out = []
        k = 0
        while True:
            s = a + k * step
            if s + width > b + 1e-9:
                break
            out.append((s, self.rate_bps(s, s + width)))
            k += 1
        return out


def counter_name(flow_name: str) -> str:
    """The nft counter of a flow (prefixed: nft keywords like `tcp` are not valid names)."""
    return "c_" + "".join(ch if ch.isalnum() else "_" for ch in flow_name)


def flow_frames(counter_samples: list[dict], name: str) -> Cumulative:
    """Frame bytes (IP bytes + 14 per packet) of nft counter `name` over time."""
    name = counter_name(name)
    times, values = [], []
    for rec in counter_samples:
        c = rec["c"].get(name)
        if c is None:
            continue
        packets, nbytes = c
        times.append(rec["t"])
        values.append(nbytes + ETH_HEADER * packets)
    return Cumulative(times, values)


def flow_payload(counter_samples: list[dict], name: str, overhead: int) -> Cumulative:
    """Payload bytes of nft counter `name`: IP bytes minus `overhead` header bytes a packet.

    Approximate for flows whose packets are not all data (acks, control) in that direction;
    exact for a one-way bulk flow."""
    name = counter_name(name)
    times, values = [], []
    for rec in counter_samples:
        c = rec["c"].get(name)
        if c is None:
            continue
        packets, nbytes = c
        times.append(rec["t"])
        values.append(nbytes - overhead * packets)
    return Cumulative(times, values)


def qdisc_sent(qdisc_samples: list[dict]) -> Cumulative:
    """Bytes the bottleneck qdisc has sent (frames, as tbf meters them) over time."""
    return Cumulative([r["t"] for r in qdisc_samples], [r["bytes"] for r in qdisc_samples])


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (a whole number 0..100) by linear interpolation between closest
    ranks (`statistics.quantiles`, inclusive method); NaN when empty."""
    if not values:
        return math.nan
    if len(values) == 1 or p <= 0:
        return float(min(values))
    if p >= 100:
        return float(max(values))
    return statistics.quantiles(values, n=100, method="inclusive")[round(p) - 1]


@dataclass
class DelayStats:
    """Queueing delay at the bottleneck over a window, from backlog samples."""

    n: int
    mean_ms: float
    p50_ms: float
    p95_ms: float
    max_ms: float
    max_backlog: int
    drops: int


def queue_delay(qdisc_samples: list[dict], a: float, b: float, rate_bps: int) -> DelayStats:
    """Queueing-delay statistics of the samples taken in [a, b]."""
    inside = [r for r in qdisc_samples if a <= r["t"] <= b]
    ms = [r["backlog"] * 8 / rate_bps * 1000 for r in inside]
    drops = (inside[-1]["drops"] - inside[0]["drops"]) if len(inside) >= 2 else 0
    return DelayStats(
        n=len(ms),
        mean_ms=statistics.fmean(ms) if ms else math.nan,
        p50_ms=percentile(ms, 50),
        p95_ms=percentile(ms, 95),
        max_ms=max(ms) if ms else math.nan,
        max_backlog=max((r["backlog"] for r in inside), default=0),
        drops=drops,
    )


# A competitor's queue has appeared when the FIFO holds 1.1 x the scavenger's TARGET (60 ms):
# the side-by-side plan's "within 2 s of its queue appearing", on the bed and in the simulator.
QUEUE_APPEARS_MS = 66.0


def queue_reaches(qdisc_samples: list[dict], a: float, b: float, ms: float,
                  rate_bps: int) -> float | None:
    """Time of the first sample in [a, b] whose backlog holds `ms` or more at the link's
    rate (None when none does): when a competitor's queue appears above a flow's own."""
    for r in qdisc_samples:
        if a <= r["t"] <= b and r["backlog"] * 8 / rate_bps * 1000 >= ms:
            return r["t"]
    return None


def jain(rates: list[float]) -> float:
    """Jain's fairness index of `rates` (nan if all are zero)."""
    s = sum(rates)
    sq = sum(x * x for x in rates)
    if sq == 0:
        return math.nan
    return s * s / (len(rates) * sq)


def time_until_below(series: Cumulative, t0: float, end: float, threshold_bps: float,
                     width: float = 1.0, step: float = 0.1) -> float | None:
    """Seconds from `t0` until the flow's rate, over `width`-second windows, falls below
    `threshold_bps` for good (every later window up to `end` stays below).

    The answer is the end of the first window of that final run of low windows, minus t0
    (so at least `width`); None when the last window is not low."""
    wins = series.windowed(t0, end, width, step)
    if not wins:
        return None
    last_high = None
    for k, (_, r) in enumerate(wins):
        if r >= threshold_bps:
            last_high = k
    if last_high is None:
        return wins[0][0] + width - t0
    if last_high == len(wins) - 1:
        return None
    s_next = wins[last_high + 1][0]
    return s_next + width - t0


def series_rows(qdisc_samples: list[dict], counter_samples: list[dict], flow_names: list[str],
                rate_bps: int, a: float, b: float, width: float = 1.0,
                step: float = 0.5) -> list[dict]:
    """A time series for plots: per window [s, s + width] from `a` to `b`, each flow's frame
    rate (Mbit/s), the link utilisation and the mean queueing delay (ms).

    Each row: {"t": s - a, "<flow>": Mbit/s ..., "link": fraction, "queue_ms": ms}."""
    flows = {n: flow_frames(counter_samples, n) for n in flow_names}
    sent = qdisc_sent(qdisc_samples)
    rows = []
    k = 0
    while a + k * step + width <= b + 1e-9:
        s = a + k * step
        row = {"t": round(s - a, 3)}
        for n, c in flows.items():
            row[n] = round(c.rate_bps(s, s + width) / 1e6, 4)
        row["link"] = round(sent.rate_bps(s, s + width) / rate_bps, 4)
        row["queue_ms"] = round(queue_delay(qdisc_samples, s, s + width, rate_bps).mean_ms, 2)
        rows.append(row)
        k += 1
    return rows


def trace_means(path: str, a: float, b: float, fields: list[str]) -> dict[str, float] | None:
    """Means of `fields` over the lines of a `ledbat send --trace` file with `t` (seconds
    since the sender bound its socket) in [a, b]; None when the file is missing or empty.
    Lines where a field is null do not count for that field."""
    import json
    try:
        with open(path) as fh:
            lines = [json.loads(x) for x in fh if x.strip()]
    except (OSError, ValueError):
        return None
    out = {}
    for f in fields:
        vals = [x[f] for x in lines if a <= x.get("t", -1) <= b and x.get(f) is not None]
        out[f] = statistics.fmean(vals) if vals else math.nan
    out["n"] = sum(1 for x in lines if a <= x.get("t", -1) <= b)
    return out if out["n"] else None
