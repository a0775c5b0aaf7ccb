"""The swarm bed's figures, from the raw samples of one run (pure functions, no root).

Seed 003, section 6.2.2 reports per swarm: the CDF of the torrent completion time T of
the leechers, the CCDF of every peer's uplink buffer occupancy Q (sampled after each
dequeue in the thesis; here every 100 ms from `tc`, over the time the leechers download),
E[T] and sigma[T], E[Q] in KB and ms, and the byte share X/Y carried by TCP/LEDBAT. Queue
delay = backlog bytes x 8 / C. The byte share is counted on the wire, in the modem, per
uplink and protocol (UDP = uTP): headers and acknowledgements included, independent of
what the clients say about themselves.
"""

from __future__ import annotations

import os
import statistics

from .measure import percentile


def mean(xs: list[float]) -> float | None:
    """Arithmetic mean, None when empty."""
    return statistics.fmean(xs) if xs else None


def stdev(xs: list[float]) -> float | None:
    """Population standard deviation, None when empty."""
    return statistics.pstdev(xs) if xs else None


def quantile(xs: list[float], q: float) -> float | None:
    """The q-quantile (q in hundredths) by linear interpolation between order statistics,
    None when empty."""
    return percentile(xs, q * 100) if xs else None


def cdf(xs: list[float]) -> list[tuple[float, float]]:
    """Points (x, P[X <= x]) of the empirical CDF, one per sample, ascending."""
    s = sorted(xs)
    n = len(s)
    return [(x, (i + 1) / n) for i, x in enumerate(s)]


def ccdf(xs: list[float], points: int = 200) -> list[tuple[float, float]]:
    """Points (x, P[X > x]) of the empirical CCDF, at most `points` of them."""
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return []
    step = max(1, n // points)
    out = [(s[i], 1 - (i + 1) / n) for i in range(0, n, step)]
    if out[-1][0] != s[-1]:
        out.append((s[-1], 0.0))
    return out


def queue_samples(qdisc: list[dict], dev: str, t_from: float, t_to: float) -> list[int]:
    """Backlog bytes of `dev` in the `qdiscs` samples taken in [t_from, t_to]."""
    out = []
    for rec in qdisc:
        if t_from <= rec.get("t", -1) <= t_to:
            q = rec.get("q", {}).get(dev)
            if q:
                out.append(q[0])
    return out


def drops(qdisc: list[dict], dev: str) -> int | None:
    """Packets `dev`'s qdisc dropped between the first and the last sample."""
    vals = [rec["q"][dev][2] for rec in qdisc if dev in rec.get("q", {})]
    return vals[-1] - vals[0] if len(vals) >= 2 else None


def wire_bytes(counters: list[dict], k: int) -> dict[str, int]:
    """IP bytes peer k uploaded by protocol, from the last `nft` sample."""
    if not counters:
        return {"udp": 0, "tcp": 0}
    c = counters[-1].get("c", {})
    return {p: c.get(f"up{k}_{p}", [0, 0])[1] for p in ("udp", "tcp")}


def cpu_busy(stat_before: list[int], stat_after: list[int]) -> float | None:
    """Busy fraction of all CPUs between two `/proc/stat` "cpu" lines (user, nice, system,
    idle, iowait, irq, softirq, steal)."""
    if not stat_before or not stat_after:
        return None
    d = [b - a for a, b in zip(stat_before, stat_after)]
    total = sum(d)
    idle = d[3] + (d[4] if len(d) > 4 else 0)
    return (total - idle) / total if total > 0 else None


def process_cpu_s(pid: int) -> float | None:
    """CPU seconds (user + system) process `pid` used so far, from /proc/PID/stat."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def read_proc_stat() -> list[int]:
    """The aggregate "cpu" line of /proc/stat as integers."""
    try:
        with open("/proc/stat") as f:
            for line in f:
                if line.startswith("cpu "):
                    return [int(x) for x in line.split()[1:9]]
    except OSError:
        pass
    return []


def class_summary(peers: list[dict], rate_bps: int) -> dict:
    """E[T], sigma[T], quantiles of T over the leechers of `peers`, and E[Q] (KB, ms) and
    the fraction of samples with a non-empty queue over their uplinks."""
    times = [p["completion_s"] for p in peers if not p["seed"] and p["completion_s"] is not None]
    q = [b for p in peers for b in p["queue_bytes"]]
    eq = mean(q)
    return {
        "peers": len(peers),
        "completed": len(times),
        "leechers": sum(1 for p in peers if not p["seed"]),
        "mean_t_s": mean(times),
        "sd_t_s": stdev(times),
        "p50_t_s": quantile(times, 0.5),
        "max_t_s": max(times) if times else None,
        "mean_q_kb": eq / 1000 if eq is not None else None,
        "mean_q_ms": eq * 8 / rate_bps * 1000 if eq is not None else None,
        "p95_q_ms": (quantile(q, 0.95) or 0) * 8 / rate_bps * 1000 if q else None,
        "nonempty": sum(1 for b in q if b > 0) / len(q) if q else None,
    }


def byte_share(peers: list[dict]) -> dict:
    """TCP and uTP (UDP) bytes uploaded on the wire by `peers`, and TCP's share."""
    tcp = sum(p["wire"]["tcp"] for p in peers)
    udp = sum(p["wire"]["udp"] for p in peers)
    return {"tcp_bytes": tcp, "utp_bytes": udp,
            "tcp_share": tcp / (tcp + udp) if tcp + udp else None}


def linear_fit(pts: list[tuple[float, float]]) -> tuple[float, float] | None:
    """Least-squares (intercept, slope) of y on x; None with fewer than two distinct x."""
    if len({x for x, _ in pts}) < 2:
        return None
    slope, intercept = statistics.linear_regression([x for x, _ in pts], [y for _, y in pts])
    return intercept, slope
