"""Receiver-side LEDBAT on the bed: the pure half of `netbed.rledbatbed` (no root, no
processes): the samplers' readers, rate series, the time a rate takes to cross a threshold
for good, the advertised window's right edge (RFC 7323 section 2.4: `ack + (win <<
wscale)` must never move back), the per-run metrics of issue targets (a)-(d) and their
median and range over repeats, and the Markdown table.

Targets checked (docs/tcp/README.md, "Receiver-side LEDBAT: downloads that yield"):
(a) alone, the rLEDBAT download's rate at least 95 % of the same download's without
`--rledbat` in the same cell, and the bottleneck's mean queue within 10 % of TARGET;
(b) its rate below 20 % of the link within 2 s of a competing plain download starting;
(c) back above 90 % of the link within 3 s after the competitor ends;
(d) no right-edge retreat in the receiver's ACKs.

With `--competitor rledbat` the second download is a receiver of our kind too (`is_pair`):
no target applies, and `pair_metrics` gives the two rates, Jain's index and the detection's
yields of each while both download; `pair_verdicts` lists the detection's verdicts while
both download (from the receivers' `last_test`, sampled every publication) with the other
receiver's phases just before each, and `verdicts_markdown_table` prints them;
`pair_probes` sums up each receiver's probes while yielding then (what the yield's end
waits for), `probes_markdown_table` prints that, and `probe_windows` gives each probe's
largest clamp and the largest window its receiver advertised meanwhile; `rstats_trace`
reads the receivers' publications those come from.
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import re
import statistics
import struct

from . import measure
from .summary import format_range, median_range
from .tcpinfo import connections

PORT_RL = 5001
PORT_PLAIN = 5002

TCP_FIN, TCP_SYN, TCP_RST = 0x01, 0x02, 0x04


def bytes_by_port(ss_text: str) -> dict[int, int]:
    """Local port -> bytes_received in `ss -tinH` output."""
    out: dict[int, int] = {}
    for words, info in connections(ss_text):
        if len(words) < 4:
            continue
        try:
            port = int(words[-2].rsplit(":", 1)[1])
        except (IndexError, ValueError):
            continue
        m = re.search(r"\bbytes_received:(\d+)", info)
        if m:
            out[port] = int(m.group(1))
    return out


def backlog_bytes(tc_json: str) -> int | None:
    """The first qdisc's backlog in `tc -s -j qdisc show` output."""
    try:
        return int(json.loads(tc_json)[0]["backlog"])
    except (ValueError, IndexError, KeyError, TypeError):
        return None


def _port(counts: dict, port: int) -> int | None:
    """A sample's byte count of `port` (its key an int, or a string after JSON)."""
    x = counts.get(port)
    return counts.get(str(port)) if x is None else x


def phase_summary(samples: list[dict], a: float, b: float, rate_bps: int) -> dict:
    """Rates (Mbit/s) of both downloads and the mean queue (ms) between times a and b."""
    inside = [s for s in samples if a <= s["t"] <= b]
    out: dict = {"from_s": a, "to_s": b, "samples": len(inside)}
    if len(inside) < 2:
        return out
    first, last = inside[0], inside[-1]
    dt = last["t"] - first["t"]
    for name, port in (("rledbat_mbps", PORT_RL), ("plain_mbps", PORT_PLAIN)):
        x0, x1 = _port(first["bytes"], port), _port(last["bytes"], port)
        out[name] = None if x0 is None or x1 is None or dt <= 0 else \
            round((x1 - x0) * 8 / dt / 1e6, 3)
    q = [s["backlog"] for s in inside if s["backlog"] is not None]
    out["queue_ms"] = round(sum(q) / len(q) * 8 / rate_bps * 1000, 1) if q else None
    return out


def rate_series(samples: list[dict], port: int, window_s: float) -> list[tuple[float, float]]:
    """(t, bit/s) of `port`'s download at every sample: the bytes received over the last
    `window_s` (from the latest sample at least that old; a sample without the port, the
    connection not yet open or closed, counts as no bytes since the previous one)."""
    pts: list[tuple[float, int]] = []
    last = 0
    for s in samples:
        x = _port(s["bytes"], port)
        if x is not None:
            last = max(last, x)
        pts.append((s["t"], last))
    out: list[tuple[float, float]] = []
    j = 0
    for i, (t, x) in enumerate(pts):
        back = t - window_s + 1e-9  # sample times are rounded to the ms
        while j + 1 < i and pts[j + 1][0] <= back:
            j += 1
        if i == 0 or pts[j][0] > back:
            continue  # not yet a full window behind this sample
        out.append((t, (x - pts[j][1]) * 8 / (t - pts[j][0])))
    return out


def time_to_stay(series: list[tuple[float, float]], start: float, end: float,
                 below: float | None = None, above: float | None = None) -> float | None:
    """Seconds from `start` until the series is below `below` (or above `above`) at every
    point up to `end`; 0 if it already is at the first point; None if it never settles (the
    last point in [start, end] fails) or has no point there."""
    pts = [(t, v) for t, v in series if start <= t <= end]
    if not pts:
        return None
    ok = (lambda v: v < below) if below is not None else (lambda v: v > above)
    settle = None
    for t, v in pts:
        if ok(v):
            if settle is None:
                settle = t
        else:
            settle = None
    return None if settle is None else round(settle - start, 3)


def parse_tcp(ip_packet: bytes) -> dict | None:
    """An IPv4 TCP header's fields: ports, flags, seq, ack, raw window and the window-scale
    option (None if absent); None for anything else or a truncated packet."""
    if len(ip_packet) < 20 or ip_packet[0] >> 4 != 4 or ip_packet[9] != 6:
        return None
    ihl = (ip_packet[0] & 0x0F) * 4
    tcp = ip_packet[ihl:]
    if len(tcp) < 20:
        return None
    sport, dport, seq, ack, off_flags, win = struct.unpack("!HHIIHH", tcp[:16])
    doff = (off_flags >> 12) * 4
    wscale = None
    opts = tcp[20:doff]
    i = 0
    while i < len(opts):
        kind = opts[i]
        if kind == 0:
            break
        if kind == 1:
            i += 1
            continue
        if i + 1 >= len(opts) or opts[i + 1] < 2:
            break
        if kind == 3 and opts[i + 1] == 3 and i + 2 < len(opts):
            wscale = opts[i + 2]
        i += opts[i + 1]
    return {"sport": sport, "dport": dport, "flags": off_flags & 0x3F, "seq": seq,
            "ack": ack, "win": win, "wscale": wscale}


def scaled_acks(acks: list[list]):
    """(t, ack, window in bytes) of each ACK of one connection, `acks` as
    `right_edge_check` takes them: the window shifted by the SYN-ACK's wscale (capped at
    14; none: 0); the SYN-ACK itself (its window unscaled) and RSTs left out."""
    shift = 0
    for t, flags, ack, win, ws in acks:
        if flags & TCP_SYN:
            shift = min(ws or 0, 14)
        elif not flags & TCP_RST:
            yield t, ack, win << shift


def right_edge_check(acks: list[list], limit: int = 20) -> dict:
    """The receiver's advertised right edge over its ACKs of one connection.

    `acks`: [t, flags, ack, win, wscale] in send order. The SYN-ACK gives the shift (its
    window is unscaled, so it is not itself checked; no wscale option: shift 0); RSTs
    are skipped. Returns the ACKs checked, the retreats (`ack + (win << shift)` below the
    largest edge before it, modulo 2^32; the first `limit` with their time and size) and
    the largest retreat in bytes."""
    best = None
    checked, n, worst, shown = 0, 0, 0, []
    for t, ack, window in scaled_acks(acks):
        edge = (ack + window) % 2**32
        checked += 1
        if best is not None:
            back = (best - edge) % 2**32
            if 0 < back < 2**31:
                n += 1
                worst = max(worst, back)
                if len(shown) < limit:
                    shown.append({"t": t, "retreat_bytes": back})
                continue
        best = edge
    return {"acks": checked, "retreats": n, "max_retreat_bytes": worst, "first": shown}


def run_metrics(res: dict, rate_bps: int, window_s: float = 0.6) -> dict:
    """One run's figures from its samples: the alone phase's rate and queue (second half of
    phase 1), the rates beside the competitor and alone again (second halves), the times of
    (b) and (c) on `window_s` rates, and the first time above 90 % after the competitor."""
    s, p = res["samples"], res["phase_s"]
    c0 = res.get("competitor_start_s", p)
    c1 = res.get("competitor_end_s") or 2 * p
    alone = phase_summary(s, p / 2, p, rate_bps)
    beside = phase_summary(s, c0 + p / 2, c0 + p, rate_bps)
    again = phase_summary(s, 2.5 * p, 3 * p, rate_bps)
    ser = rate_series(s, PORT_RL, window_s)
    out = {"alone_mbps": alone.get("rledbat_mbps"), "alone_queue_ms": alone.get("queue_ms"),
           "beside_mbps": beside.get("rledbat_mbps"),
           "beside_plain_mbps": beside.get("plain_mbps"), "beside_queue_ms":
           beside.get("queue_ms"), "again_mbps": again.get("rledbat_mbps"),
           "yield_s": time_to_stay(ser, c0, c1, below=0.2 * rate_bps),
           "recover_s": time_to_stay(ser, c1, 3 * p, above=0.9 * rate_bps),
           "reach_s": next((round(t - c1, 3) for t, v in ser
                            if c1 <= t <= 3 * p and v > 0.9 * rate_bps), None)}
    edge = res.get("right_edge")
    if edge is not None:
        out["edge_retreats"] = edge.get("retreats")
    return out


METRICS = ["alone_mbps", "alone_queue_ms", "beside_mbps", "yield_s", "recover_s", "reach_s",
           "again_mbps", "edge_retreats"]


def cell_key(res: dict) -> tuple:
    return (res["sender_cc"], res["fifo_ms"], res["rtt_ms"])


def summarise(runs: list[dict], rate_bps: int, target_ms: float = 60.0) -> list[dict]:
    """Per cell (sender cc, FIFO, base RTT; the runs beside a plain download): each
    metric's median and range over the rLEDBAT runs, the plain baseline's alone rate, and
    (a)'s ratio per repeat (the i-th rLEDBAT run against the i-th plain one) with its
    median and range; the targets met or not."""
    cells: dict[tuple, dict] = {}
    for r in runs:
        if is_pair(r):
            continue  # summarise_pairs'
        c = cells.setdefault(cell_key(r), {"rl": [], "plain": []})
        c["rl" if r["rledbat"] else "plain"].append(run_metrics(r, rate_bps))
    out = []
    for key in sorted(cells, key=lambda k: (k[0], k[1], k[2])):
        rl, plain = cells[key]["rl"], cells[key]["plain"]
        row: dict = {"sender_cc": key[0], "fifo_ms": key[1], "rtt_ms": key[2],
                     "runs": len(rl), "baseline_runs": len(plain)}
        for m in METRICS:
            row[m] = median_range([x.get(m) for x in rl], 3)
        row["baseline_alone_mbps"] = median_range([x["alone_mbps"] for x in plain], 3)
        ratios = [None if a["alone_mbps"] is None or not b["alone_mbps"] else
                  a["alone_mbps"] / b["alone_mbps"] for a, b in zip(rl, plain)]
        row["alone_ratio"] = median_range(ratios, 3)
        med = {m: row[m]["median"] for m in METRICS + ["alone_ratio"]}
        row["targets"] = {
            "a_rate": None if med["alone_ratio"] is None else med["alone_ratio"] >= 0.95,
            "a_queue": None if med["alone_queue_ms"] is None else
            abs(med["alone_queue_ms"] - target_ms) <= 0.1 * target_ms,
            "b": None if not rl else all(x["yield_s"] is not None and x["yield_s"] <= 2
                                         for x in rl),
            "c": None if not rl else all(x["recover_s"] is not None and x["recover_s"] <= 3
                                         for x in rl),
            "d": None if med["edge_retreats"] is None else row["edge_retreats"]["max"] == 0}
        out.append(row)
    return out


def markdown_table(rows: list[dict]) -> str:
    """The summary as a Markdown table: medians with [min..max] over repeats."""
    yes = {True: "yes", False: "**no**", None: "-"}
    mr = functools.partial(format_range, empty="-", missing="never")
    head = ("| sender | FIFO ms | base RTT ms | runs | alone Mbit/s (plain) | (a) ratio | "
            "queue ms | (b) yield s | (c) stay / reach s | (d) retreats | a/a/b/c/d met |")
    lines = [head, "|" + "---|" * 11]
    for r in rows:
        t = r["targets"]
        lines.append(
            f"| {r['sender_cc']} | {r['fifo_ms']:g} | {r['rtt_ms']:g} | {r['runs']} | "
            f"{mr(r['alone_mbps'])} ({mr(r['baseline_alone_mbps'])}) | "
            f"{mr(r['alone_ratio'], 3)} | {mr(r['alone_queue_ms'], 0)} | "
            f"{mr(r['yield_s'], 1)} | {mr(r['recover_s'], 1)} / "
            f"{mr(r['reach_s'], 1)} | "
            f"{mr(r['edge_retreats'], 0)} | "
            + "/".join(yes[t[k]] for k in ("a_rate", "a_queue", "b", "c", "d")) + " |")
    return "\n".join(lines) + "\n"


# Two of our kind: the competitor is a second rLEDBAT download (`--competitor rledbat`).

PAIR_METRICS = ["first_mbps", "second_mbps", "jain", "used", "queue_ms", "jain_whole",
                "first_detections", "second_detections"]


def jain(rates: list[float | None]) -> float | None:
    """`measure.jain` of `rates` to 4 decimals; None if one is missing or all are 0."""
    if not rates or any(x is None for x in rates):
        return None
    j = measure.jain(rates)
    return None if math.isnan(j) else round(j, 4)


def _detections(flows, port: int) -> int | None:
    """The detection count (`ledbat tcp rstats --json`'s `detections`) of the connection on
    local `port` in one snapshot; None if the snapshot failed or has no such connection."""
    if not isinstance(flows, list):
        return None
    for f in flows:
        if isinstance(f, dict) and str(f.get("local", "")).rsplit(":", 1)[-1] == str(port):
            return f.get("detections")
    return None


def _mbps_from_open(samples: list[dict], port: int, a: float, b: float) -> float | None:
    """`port`'s rate (Mbit/s) between the samples at times a and b, a sample without the
    port counting as none received yet (the connection opens after a) or as many as the
    last one that had it (it closed before b)."""
    inside = [x for x in samples if a <= x["t"] <= b]
    if len(inside) < 2 or inside[-1]["t"] <= inside[0]["t"]:
        return None
    got = [_port(x["bytes"], port) for x in inside]
    start = got[0] or 0
    end = max((g for g in got if g is not None), default=0)
    return round((end - start) * 8 / (inside[-1]["t"] - inside[0]["t"]) / 1e6, 3)


def pair_metrics(res: dict, rate_bps: int) -> dict:
    """One pair run's figures while both download (the second from `competitor_start_s`
    for `phase_s`): each download's rate, Jain's index of the two, the share of the link
    they use and the mean queue over the second half; Jain's index over the whole of it;
    and how often each receiver's competitor detection began to yield meanwhile (the first
    from the snapshot at the second's start to the one a second before its end, the second
    up to that one)."""
    s, p = res["samples"], res["phase_s"]
    c0 = res.get("competitor_start_s", p)
    half = phase_summary(s, c0 + p / 2, c0 + p, rate_bps)
    a, b = half.get("rledbat_mbps"), half.get("plain_mbps")
    snaps = res.get("rstats_end_of_phase") or [None]
    late = res.get("rstats_before_second_end")
    d0, d1 = _detections(snaps[0], PORT_RL), _detections(late, PORT_RL)
    return {"first_mbps": a, "second_mbps": b, "jain": jain([a, b]),
            "used": None if a is None or b is None else round((a + b) * 1e6 / rate_bps, 3),
            "queue_ms": half.get("queue_ms"),
            "jain_whole": jain([_mbps_from_open(s, PORT_RL, c0, c0 + p),
                                _mbps_from_open(s, PORT_PLAIN, c0, c0 + p)]),
            "first_detections": None if d0 is None or d1 is None else d1 - d0,
            "second_detections": _detections(late, PORT_PLAIN)}


def is_pair(res: dict) -> bool:
    return res.get("competitor", "plain") == "rledbat"


def summarise_pairs(runs: list[dict], rate_bps: int) -> list[dict]:
    """Per cell (sender cc, FIFO, base RTT, both receivers rLEDBAT or both plain): each
    pair metric's median and range over the repeats."""
    cells: dict[tuple, list] = {}
    for r in runs:
        cells.setdefault(cell_key(r) + (r["rledbat"],), []).append(pair_metrics(r, rate_bps))
    out = []
    for key in sorted(cells):
        ms = cells[key]
        row: dict = {"sender_cc": key[0], "fifo_ms": key[1], "rtt_ms": key[2],
                     "rledbat": key[3], "runs": len(ms)}
        for m in PAIR_METRICS:
            row[m] = median_range([x.get(m) for x in ms], 4 if m.startswith("jain") else 3)
        out.append(row)
    return out


def pair_markdown_table(rows: list[dict]) -> str:
    """The pair summary as a Markdown table: medians with [min..max] over repeats."""
    mr = functools.partial(format_range, empty="-", missing="missing")
    head = ("| sender | FIFO ms | base RTT ms | receivers | runs | first / second Mbit/s | "
            "Jain | link used | queue ms | Jain, whole phase | yields: first / second |")
    lines = [head, "|" + "---|" * 11]
    for r in rows:
        lines.append(
            f"| {r['sender_cc']} | {r['fifo_ms']:g} | {r['rtt_ms']:g} | "
            f"{'rLEDBAT' if r['rledbat'] else 'plain'} | {r['runs']} | "
            f"{mr(r['first_mbps'])} / {mr(r['second_mbps'])} | {mr(r['jain'], 3)} | "
            f"{mr(r['used'], 2)} | {mr(r['queue_ms'], 0)} | {mr(r['jain_whole'], 3)} | "
            f"{mr(r['first_detections'], 0)} / {mr(r['second_detections'], 0)} |")
    return "\n".join(lines) + "\n"


def _ms(ns: int | None) -> float | None:
    """ns as ms to two decimals (None stays None)."""
    return None if ns is None else round(ns / 1e6, 2)


def rstats_trace(path: str, t0: float) -> dict:
    """The receivers' state from `ledbat tcp rstats --json --watch` lines: `rstats_series`,
    one [t, port, phase, window, queue ms, tests, clamp] per publication; `verdicts`, the
    detection's verdicts as the receivers recorded them (`last_test`), and `probes`, its
    probes while yielding (`last_probe`), each once; times in seconds from `t0` (the
    kernel's `tcp_mstamp` and `time.monotonic` share CLOCK_MONOTONIC). `netbed.rledbatbed`
    runs the watcher beside each rLEDBAT run. An entry without a field this needs (a build
    that publishes less) is skipped and counted (`rstats_trace_skipped`), so that the run
    keeps its other results."""
    series: dict[tuple, list] = {}
    verdicts: dict[tuple, dict] = {}
    probes: dict[tuple, dict] = {}
    skipped = 0
    try:
        with open(path) as fh:
            lines = fh.readlines()
    except OSError as e:
        return {"rstats_trace_error": f"{path}: {e}"}
    for line in lines:
        try:
            flows = json.loads(line)
        except ValueError:
            continue  # the line cut by the watcher's end
        for f in flows if isinstance(flows, list) else []:
            try:
                _publication(f, t0, series, verdicts, probes)
            except (KeyError, TypeError, ValueError, AttributeError):
                skipped += 1  # an entry without a field this reader needs (another build)
    out = {"rstats_series": sorted(series.values()),
           "verdicts": sorted(verdicts.values(), key=lambda v: (v["t"], v["port"])),
           "probes": sorted(probes.values(), key=lambda v: (v["t"], v["port"]))}
    if skipped:
        out["rstats_trace_skipped"] = skipped
    return out


def thin_series(trace: dict, every_s: float = 0.1, before_s: float = 1.5,
                after_s: float = 0.3) -> list:
    """`trace["rstats_series"]` (from `rstats_trace`) with every row kept within `before_s`
    before and `after_s` after a verdict or a probe of either receiver (their times are
    when they ended), and elsewhere a port's row only `every_s` or more after the last kept
    of that port: a run whose receivers published at every segment keeps that detail where
    the detection acted and the size of the usual 100-ms series elsewhere."""
    marks = sorted(x["t"] for x in (trace.get("verdicts") or []) + (trace.get("probes") or []))
    last: dict[int, float] = {}
    out = []
    for row in trace.get("rstats_series") or []:
        t, port = row[0], row[1]
        i = bisect.bisect_left(marks, t - after_s)
        near = i < len(marks) and marks[i] <= t + before_s
        if near or port not in last or t - last[port] >= every_s - 1e-9:
            out.append(row)
            last[port] = t
    return out


def _publication(f: dict, t0: float, series: dict, verdicts: dict, probes: dict) -> None:
    """One receiver's entry of one `rstats --json` line into the three tables."""
    port = int(str(f.get("local", "")).rsplit(":", 1)[-1] or 0)
    series[(port, f["updated_ns"])] = [
        round(f["updated_ns"] / 1e9 - t0, 3), port, f["phase"], f["window"],
        round(f["qd_ns"] / 1e6, 1), f["tests"], f["clamp"]]
    lt = f.get("last_test")
    if lt:
        verdicts[(port, lt["at_ns"])] = {
            "t": round(lt["at_ns"] / 1e9 - t0, 3), "port": port, "kind": lt["kind"],
            "positive": lt["positive"], "q0_ms": _ms(lt["q0_ns"]),
            "q1_ms": _ms(lt["q1_ns"])}
    lp = f.get("last_probe")
    if lp:
        probes[(port, lp["at_ns"])] = {
            "t": round(lp["at_ns"] / 1e9 - t0, 3), "port": port,
            "from_ms": _ms(lp["from_ns"]), "peak_ms": _ms(lp["peak_ns"]),
            "after_ms": _ms(lp["after_ns"]), "falls": lp["falls"],
            **{k: lp[k] for k in ("in_range", "fell", "room", "resumed")}}


PHASES = ["slow-start", "avoidance", "slowdown", "restart", "yielding"]


def pair_verdicts(res: dict, before_s: float = 0.5) -> list[dict]:
    """The detection's verdicts in one pair run while both download (the second from
    `competitor_start_s` for `phase_s`), each with: `who` (first or second), the time from
    the second's start, its kind, verdict and the queue it measured (a push's fall: its
    start's queue less the others' lowest after; positive when under push_drop TARGET),
    and the other receiver's phases in its publications of the `before_s` before (a
    push's start is about four RTTs before its verdict) and its window at the last of
    them. Empty without a trace."""
    c0, p = res.get("competitor_start_s", res["phase_s"]), res["phase_s"]
    series = res.get("rstats_series") or []
    out = []
    for v in res.get("verdicts") or []:
        if not c0 <= v["t"] <= c0 + p or v["port"] not in (PORT_RL, PORT_PLAIN):
            continue
        other = PORT_PLAIN if v["port"] == PORT_RL else PORT_RL
        seen = [x for x in series if x[1] == other and v["t"] - before_s <= x[0] <= v["t"]]
        row = {"who": "first" if v["port"] == PORT_RL else "second",
               "t": round(v["t"] - c0, 2), "kind": v["kind"], "positive": v["positive"],
               "q0_ms": v["q0_ms"], "q1_ms": v["q1_ms"],
               "fall_ms": round(v["q0_ms"] - v["q1_ms"], 2) if v["kind"] == "push" else None,
               "other_phases": sorted({PHASES[x[2]] if x[2] < len(PHASES) else str(x[2])
                                       for x in seen}),
               "other_window": seen[-1][3] if seen else None}
        out.append(row)
    return out


def verdicts_markdown_table(runs: list[dict]) -> str:
    """Every pair run's verdicts while both download (`pair_verdicts`), one row each."""
    head = ("| sender | base RTT ms | repeat | receiver | s after the second's start | kind | "
            "verdict | queue at start ms | lowest after / least ms | fall ms | "
            "other's phases, 0.5 s before | other's window B |")
    lines = [head, "|" + "---|" * 12]
    for r in runs:
        for v in pair_verdicts(r):
            lines.append(
                _run_cells(r) + f"{v['who']} | {v['t']:.2f} | {v['kind']} | "
                f"{'positive' if v['positive'] else 'negative'} | "
                f"{v['q0_ms'] if v['kind'] == 'push' else '-'} | {v['q1_ms']} | "
                f"{'-' if v['fall_ms'] is None else v['fall_ms']} | "
                f"{', '.join(v['other_phases']) or '-'} | "
                f"{'-' if v['other_window'] is None else v['other_window']} |")
    return "\n".join(lines) + "\n"


def pair_probes(res: dict) -> list[dict]:
    """Each receiver's probes in one pair run while both download, summed up: how many
    ended, began in the judged range, were followed by a fall, found room, ended the yield,
    and the medians of the queue at their start, at their peak and after them (ms; None
    where none was measured) and, with `probe_windows`, of their largest clamp and largest
    advertised window (bytes). Receivers without a probe then are left out."""
    c0, p = res.get("competitor_start_s", res["phase_s"]), res["phase_s"]
    out = []
    for port, who in ((PORT_RL, "first"), (PORT_PLAIN, "second")):
        ps = [x for x in res.get("probes") or [] if x["port"] == port
              and c0 <= x["t"] <= c0 + p]
        if not ps:
            continue
        ws = [x for x in res.get("probe_windows") or [] if x["port"] == port
              and c0 <= x["t"] <= c0 + p]
        out.append({"who": who, "probes": len(ps),
                    **{k: sum(1 for x in ps if x[k])
                       for k in ("in_range", "fell", "room", "resumed")},
                    **{k: _median(ps, k, 1) for k in ("from_ms", "peak_ms", "after_ms")},
                    **{k: _median(ws, k, None) for k in ("clamp_max", "advertised_max")}})
    return out


def _median(rows: list[dict], key: str, digits: int | None):
    """The median of `key` over `rows` where it is not None (rounded to `digits`, or to a
    whole number for None); None when there is none."""
    v = [x[key] for x in rows if x[key] is not None]
    return None if not v else round(statistics.median(v), digits)


def _run_cells(r: dict) -> str:
    """A traced table's first cells: the run's sender, base RTT and repeat."""
    return f"| {r['sender_cc']} | {r['rtt_ms']:g} | {r.get('repeat', 0) + 1} | "


def probes_markdown_table(runs: list[dict]) -> str:
    """Every pair run's probes while both download (`pair_probes`), a row per receiver."""
    head = ("| sender | base RTT ms | repeat | receiver | probes | in range | fell after | "
            "room | resumed | queue at start ms | at peak ms | after ms | clamp B | "
            "advertised B |")
    lines = [head, "|" + "---|" * 14]
    for r in runs:
        for x in pair_probes(r):
            lines.append(
                _run_cells(r) + f"{x['who']} | {x['probes']} | {x['in_range']} | "
                f"{x['fell']} | {x['room']} | "
                f"{x['resumed']} | " + " | ".join(
                    "-" if x[k] is None else f"{x[k]:g}"
                    for k in ("from_ms", "peak_ms", "after_ms", "clamp_max",
                              "advertised_max")) + " |")
    return "\n".join(lines) + "\n"


def probe_windows(res: dict, acks: dict[int, list], span_s: float = 0.6) -> list[dict]:
    """Each probe of a run (`res["probes"]`, times from the run's start) with, over the
    `span_s` before it ended (it and its aftermath): the largest clamp its receiver
    published (`rstats_series`) and the largest window the receiver advertised in its ACKs
    (`acks`: port -> [t, flags, ack, win, wscale] as the capture gives them, `win` scaled
    by the SYN's wscale), and the bytes it acknowledged then. A probe's window can be
    clamped wide open while the advertised one, which the kernel opens as segments arrive,
    lags behind it."""
    scaled = {port: list(scaled_acks(a)) for port, a in acks.items()}
    out = []
    for p in res.get("probes") or []:
        a, b = p["t"] - span_s, p["t"]
        port_acks = scaled.get(p["port"], [])
        inside = port_acks[bisect.bisect_left(port_acks, (a,)):
                           bisect.bisect_right(port_acks, (b, math.inf))]
        wins = [w for _t, _ack, w in inside]
        acked = [ack for _t, ack, _w in inside]
        clamps = [x[6] for x in res.get("rstats_series") or []
                  if x[1] == p["port"] and a <= x[0] <= b]
        out.append({"t": p["t"], "port": p["port"], "in_range": p["in_range"],
                    "from_ms": p["from_ms"], "peak_ms": p["peak_ms"],
                    "after_ms": p["after_ms"],
                    "clamp_max": max(clamps, default=None),
                    "advertised_max": max(wins, default=None),
                    "acked_bytes": (acked[-1] - acked[0]) % 2**32 if acked else None})
    return out
