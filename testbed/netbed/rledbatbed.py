"""Receiver-side LEDBAT on the bed: a download whose receiver runs under `ledbat tcp run
--rledbat` (its receive window clamped by the sock_ops program), from an unmodified kernel
sender (`--sender-cc cubic|bbr`), through the bed's 10 Mbit/s tbf FIFO with the delay line,
in three phases: alone, beside a competing plain download (the same sender cc, a receiver
outside the cgroup), alone again.

    python3 -m netbed.rledbatbed --ledbat-bin B [--sender-cc cubic,bbr] [--fifo-ms 121,300]
        [--rtt-ms 0,10,20,40,60,100 | --delay-ms 20] [--repeats 3] [--phase-s 30]
        [--sample-s 0.2] [--signal owd|rtt] [--rledbat-param KEY=VALUE ...]
        [--competitor plain|rledbat] [--no-baseline] [--plain] [--no-capture]
        [--sender-trace] [--publish-ms MS] [--json out.json] [--md out.md]
    python3 -m netbed.rledbatbed --table-from out.json [--md out.md]    # no root

Every cell of the grid (sender cc x FIFO x base RTT; `--delay-ms` is one way, `--rtt-ms`
the base RTT, twice it) runs `--repeats` times with `--rledbat` and as many times without
(the plain baseline, alone in the same cell, so (a) is a ratio measured there), the order
alternating. Sampled every `--sample-s`: each receiver's `bytes_received` (`ss -ti` in the
receiver's namespace) and the bottleneck's backlog (`tc -s qdisc`); the receiver's ACKs on
both ports are captured (`netbed.ackcap`) for the right-edge check. The metrics, their
median and range and the table are `netbed.rledbatstats`'. The JSON (runs with their
samples, and the summary) is rewritten after every run, so a stopped grid keeps what ran.
The bed is removed and the run's cgroup with it on every exit; every wait is bounded.
`--rledbat-param KEY=VALUE` (repeatable) is handed to `ledbat tcp run` after `signal`
(e.g. `empty_queue_restart=true`) and recorded in each run as `rledbat_params`.

`--competitor rledbat` makes the second download a receiver of our kind too, under its own
`ledbat tcp run --rledbat` with the same signal and parameters (in the baseline runs both
receivers are plain): two rLEDBAT downloads, the second starting a phase after the first.
Their table (`rledbatstats.pair_markdown_table`) gives the two rates, Jain's index and how
often each receiver's competitor detection began to yield (`ledbat tcp rstats`'
`detections`, snapshots at the second's start and a second before its end). Each rLEDBAT
run also keeps the receivers' published state every 100 ms (`ledbat tcp rstats --watch`:
`rstats_series`), the detection's verdicts (`verdicts`) and its probes while yielding
(`probes`), and, from the ACK capture, the windows each probe opened (`probe_windows`); a
pair's verdicts while both download, with the other receiver's phases before each, are a
third table, each receiver's probes then a fourth.

`--sender-trace` also samples the remote senders' kernel state at every sample (`ss -ti`
in the sending namespace, read by `netbed.tcpinfo`: cwnd, ssthresh, srtt, pacing and
delivery rates, `snd_wnd`, bbr's bandwidth estimate and pacing gain), on the bed's clock,
into `sender_trace`; `python3 -m netbed.rledbattrace` prints it beside the receiver's
publications, for a stretch of a run.

`--publish-ms MS` makes the receivers publish every MS ms (0: at every segment they send)
and the watcher read that often (`WATCH_FLOOR_MS` at the least); the JSON keeps that detail
around each verdict and probe (`rledbatstats.thin_series`) and 100 ms elsewhere, and
`python3 -m netbed.rledbattrace --port 5001,5002` follows both receivers and the queue
through a probe.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from . import install, paths, tcpinfo, topo
from .rledbatstats import (PORT_PLAIN, PORT_RL, backlog_bytes, bytes_by_port, is_pair,
                           markdown_table, pair_markdown_table, pair_probes, pair_verdicts,
                           phase_summary, probe_windows, probes_markdown_table,
                           right_edge_check, rstats_trace, summarise, summarise_pairs,
                           thin_series, verdicts_markdown_table)
from .tcprun import _run_cgroups, rledbat_run_argv

__all__ = ["bytes_by_port", "backlog_bytes", "phase_summary", "check", "run", "main"]

#: The shortest interval the state watcher (`ledbat tcp rstats --watch`) runs at, ms: each
#: read lists the system's BPF maps, so a shorter one would take CPU from the bed's flows.
WATCH_FLOOR_MS = 2


def _ns(ns: str, argv: list[str]) -> list[str]:
    return ["ip", "netns", "exec", ns] + argv


def _acks(path: str, t0: float) -> dict[int, list]:
    """The captured ACKs of both ports, [t from t0, flags, ack, win, wscale] each."""
    by_port: dict[int, list] = {PORT_RL: [], PORT_PLAIN: []}
    with open(path) as fh:
        for line in fh:
            t, sport, _dport, flags, ack, win, ws = json.loads(line)
            if sport in by_port:
                by_port[sport].append([round(t - t0, 4), flags, ack, win, ws])
    return by_port


def _edges(by_port: dict[int, list]) -> dict:
    """The right-edge check of the rLEDBAT port's ACKs (and the plain one's, a control)."""
    out = right_edge_check(by_port[PORT_RL])
    out["plain_port"] = right_edge_check(by_port[PORT_PLAIN], limit=3)
    return out


def receiver_argv(ledbat_bin: str, signal: str, params: list[str],
                  recv: list[str]) -> list[str]:
    """The rLEDBAT receiver's command: `recv` under `ledbat tcp run --rledbat`, with the
    signal and then each of `params` as `--rledbat-param`."""
    return rledbat_run_argv(ledbat_bin, [f"signal={signal}", *params], recv)


def run(ledbat_bin: str, phase_s: float, delay_ms: float, signal: str, plain: bool,
        logdir: str, sender_cc: str = "cubic", fifo_ms: float | None = None,
        sample_s: float = 0.2, capture: bool = True,
        rl_params: list[str] | None = None, competitor: str = "plain",
        sender_trace: bool = False, publish_ms: int | None = None) -> dict:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if publish_ms is not None and not plain:
        rl_params = [*(rl_params or []), f"publish_interval_ms={publish_ms}"]
    bn = topo.Bottleneck()
    if fifo_ms is not None:
        bn = topo.Bottleneck.from_fifo_ms(bn.rate_bps, fifo_ms)
    t = topo.Topology(tag=f"rl{os.getpid() % 10000}", delay_ms=delay_ms, logdir=logdir,
                      bottleneck=bn)
    procs: list[subprocess.Popen] = []
    res: dict = {"sender_cc": sender_cc, "fifo_ms": fifo_ms if fifo_ms else bn.fifo_ms,
                 "fifo_frames": bn.fifo_frames, "rtt_ms": 2 * delay_ms, "delay_ms": delay_ms,
                 "phase_s": phase_s, "sample_s": sample_s, "signal": signal,
                 "rledbat": not plain, "rate_bps": bn.rate_bps,
                 "rledbat_params": [] if plain else list(rl_params or []),
                 "competitor": competitor, "publish_ms": publish_ms,
                 "load_before": os.getloadavg()}
    cap = watch = None
    cap_path = os.path.join(logdir, f"rledbat-acks-{os.getpid()}.jsonl")
    watch_path = os.path.join(logdir, f"rledbat-rstats-{os.getpid()}.jsonl")
    try:
        t.setup()
        if capture:
            cap = subprocess.Popen(_ns(t.rcv, [sys.executable, "-m", "netbed.ackcap",
                                               t.RCV_IF, cap_path, str(PORT_RL),
                                               str(PORT_PLAIN)]),
                                   env=env, stdout=subprocess.PIPE, text=True)
            procs.append(cap)
            line = cap.stdout.readline()
            if "capturing" not in line:
                raise RuntimeError(f"ACK capture did not start: {line!r}")
        xfer = [sys.executable, "-m", "netbed.tcpxfer"]
        recv_rl = _ns(t.rcv, xfer + ["recv", t.rcv_ip, str(PORT_RL)])
        recv_2 = _ns(t.rcv, xfer + ["recv", t.rcv_ip, str(PORT_PLAIN)])
        if not plain:
            recv_rl = receiver_argv(ledbat_bin, signal, list(rl_params or []), recv_rl)
            if competitor == "rledbat":  # its own `ledbat tcp run`, cgroup and program
                recv_2 = receiver_argv(ledbat_bin, signal, list(rl_params or []), recv_2)
        for argv in (recv_rl, recv_2):
            p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, text=True)
            procs.append(p)
            line = p.stdout.readline()
            if "listening" not in line:
                raise RuntimeError(f"receiver {argv} did not start: {line!r}")
        total = 3 * phase_s
        if not plain:  # the receivers' state every publication (100 ms), for the trace
            every = 0.1 if publish_ms is None else max(publish_ms, WATCH_FLOOR_MS) / 1000
            with open(watch_path, "w") as out:
                watch = subprocess.Popen([ledbat_bin, "tcp", "rstats", "--json", "--watch",
                                          str(every)], stdout=out, stderr=subprocess.DEVNULL)
            procs.append(watch)
        t0 = time.monotonic()
        snd_a = subprocess.Popen(_ns(t.snd, xfer + ["send", t.rcv_ip, str(PORT_RL), "--cc",
                                                    sender_cc, "--seconds", str(total)]),
                                 env=env, stdout=subprocess.PIPE, text=True)
        procs.append(snd_a)
        samples: list[dict] = []
        senders: list[list] = []
        snd_b = None
        rstats: list = []
        last_plain, plain_end = 0, None
        while time.monotonic() - t0 < total:
            now = time.monotonic() - t0
            if snd_b is None and now >= phase_s:
                rstats.append(_rstats(ledbat_bin) if not plain else None)
                res["competitor_start_s"] = round(now, 3)
                snd_b = subprocess.Popen(
                    _ns(t.snd, xfer + ["send", t.rcv_ip, str(PORT_PLAIN), "--cc", sender_cc,
                                       "--seconds", str(phase_s)]),
                    env=env, stdout=subprocess.PIPE, text=True)
                procs.append(snd_b)
            if (snd_b is not None and competitor == "rledbat" and not plain
                    and "rstats_before_second_end" not in res
                    and now >= res["competitor_start_s"] + phase_s - 1):
                # while the second download still runs (its connection's entry goes
                # when it closes)
                res["rstats_before_second_end"] = _rstats(ledbat_bin)
            if snd_b is not None and "rstats_2" not in res and now >= 2 * phase_s:
                res["rstats_2"] = True
                rstats.append(_rstats(ledbat_bin) if not plain else None)
            ss = subprocess.run(_ns(t.rcv, ["ss", "-tinH", "state", "established"]),
                                capture_output=True, text=True, timeout=10).stdout
            tc = subprocess.run(_ns(t.rtr, ["tc", "-s", "-j", "qdisc", "show", "dev",
                                            t.RTR_RCV_IF]),
                                capture_output=True, text=True, timeout=10).stdout
            sst = subprocess.run(_ns(t.snd, ["ss", "-tinH", "state", "established"]),
                                 capture_output=True, text=True,
                                 timeout=10).stdout if sender_trace else None
            when = round(time.monotonic() - t0, 3)
            if sst is not None:
                senders += [tcpinfo.row(when, port, info)
                            for port, info in sorted(tcpinfo.by_peer_port(sst).items())
                            if port in (PORT_RL, PORT_PLAIN)]
            got = bytes_by_port(ss)
            samples.append({"t": when, "bytes": got, "backlog": backlog_bytes(tc)})
            if got.get(PORT_PLAIN, 0) > last_plain:
                last_plain, plain_end = got[PORT_PLAIN], when
            time.sleep(max(0.0, sample_s - (time.monotonic() - t0 - now)))
        res.pop("rstats_2", None)
        rstats.append(_rstats(ledbat_bin) if not plain else None)
        # The competitor ends when its last byte arrives (the last sample its count grew).
        res["competitor_end_s"] = plain_end
        res["samples"] = samples
        if sender_trace:
            res["sender_trace_fields"] = ["t", "port", *tcpinfo.FIELDS]
            res["sender_trace"] = senders
        res["rstats_end_of_phase"] = rstats
        res["drops"] = t.queue_stats().get("drops")
        for p in procs:
            if p is cap or p is watch:
                continue
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
        res["load_after"] = os.getloadavg()
    finally:
        # The bed goes whatever the readers below raise.
        try:
            for p in procs:
                if p.poll() is None:
                    p.terminate()
                    try:
                        p.wait(timeout=10)
                    except subprocess.TimeoutExpired:
                        p.kill()
            if watch is not None and "samples" in res:
                res.update(rstats_trace(watch_path, t0))
                if publish_ms is not None:
                    res["rstats_series"] = thin_series(res)
            if cap is not None and "samples" in res:
                try:
                    acks = _acks(cap_path, t0)
                    res["right_edge"] = _edges(acks)
                    if res.get("probes"):
                        res["probe_windows"] = probe_windows(res, acks)
                except (OSError, ValueError) as e:
                    res["right_edge"] = {"error": f"{cap_path}: {e}"}
        finally:
            for path in (cap_path, watch_path):
                if os.path.exists(path):
                    os.unlink(path)
            res["teardown_problems"] = t.teardown()
            res["run_cgroups_left"] = _run_cgroups()
    return res


def _rstats(ledbat_bin: str):
    cp = subprocess.run([ledbat_bin, "tcp", "rstats", "--json"], capture_output=True,
                        text=True, timeout=10)
    try:
        return json.loads(cp.stdout)
    except ValueError:
        return cp.stderr.strip()


def _floats(text: str, what: str) -> list[float]:
    try:
        v = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise SystemExit(f"rledbatbed: {what} wants numbers separated by commas, not {text!r}")
    if not v or any(x < 0 for x in v):
        raise SystemExit(f"rledbatbed: {what} wants non-negative numbers, not {text!r}")
    return v


def _write(a, runs: list[dict], rate_bps: int,
           head: dict | None = None) -> tuple[list[dict], list[dict]]:
    """The JSON (`head`: the command, date and builds, then the runs and their summaries)
    and the Markdown tables, each file replaced whole; returns the targets' summary and
    the pairs'."""
    rows = summarise(runs, rate_bps)
    pairs = summarise_pairs([r for r in runs if is_pair(r)], rate_bps)
    if a.json:
        doc = {**(head or {}), "runs": runs, "summary": rows}
        if pairs:
            doc["pair_summary"] = pairs
        paths.write_atomic(a.json, json.dumps(doc, indent=1) + "\n")
    if a.md:
        paths.write_atomic(a.md, _tables(rows, pairs, runs))
    return rows, pairs


def _tables(rows: list[dict], pairs: list[dict], runs: list[dict]) -> str:
    """The Markdown of both summaries, each only when it has a row (the targets' table
    when neither has), and the pair runs' verdicts and probes when they were traced."""
    parts = [markdown_table(rows)] if rows or not pairs else []
    traced = [r for r in runs if is_pair(r) and pair_verdicts(r)]
    probed = [r for r in runs if is_pair(r) and pair_probes(r)]
    return "\n".join(parts + ([pair_markdown_table(pairs)] if pairs else [])
                      + ([verdicts_markdown_table(traced)] if traced else [])
                      + ([probes_markdown_table(probed)] if probed else []))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m netbed.rledbatbed", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ledbat-bin")
    ap.add_argument("--phase-s", type=float, default=30.0)
    d = ap.add_mutually_exclusive_group()
    d.add_argument("--delay-ms", default=None, help="one-way delays, comma-separated")
    d.add_argument("--rtt-ms", default=None, help="base RTTs (2x the one-way delay)")
    ap.add_argument("--sender-cc", default="cubic", help="comma-separated: cubic,bbr")
    ap.add_argument("--fifo-ms", default="300", help="comma-separated FIFO sizes, ms")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--sample-s", type=float, default=0.2)
    ap.add_argument("--signal", choices=["owd", "rtt"], default="owd")
    ap.add_argument("--rledbat-param", action="append", default=[], metavar="KEY=VALUE",
                    help="a further `ledbat tcp run --rledbat-param`, e.g. "
                         "empty_queue_restart=true; repeatable")
    ap.add_argument("--competitor", choices=["plain", "rledbat"], default="plain",
                    help="the second download's receiver: plain (the targets' runs) or "
                         "rledbat, a second receiver of our kind with the same parameters "
                         "(in baseline runs both are plain)")
    ap.add_argument("--plain", action="store_true", help="only runs without --rledbat")
    ap.add_argument("--no-baseline", action="store_true", help="no plain baseline runs")
    ap.add_argument("--no-capture", action="store_true", help="no ACK capture, no (d)")
    ap.add_argument("--sender-trace", action="store_true",
                    help="also sample the remote senders' kernel state (`ss -ti` in their "
                         "namespace: cwnd, srtt, pacing and delivery rates, snd_wnd, bbr's "
                         "bandwidth estimate and gain) at every sample, into the JSON's "
                         "sender_trace; `python3 -m netbed.rledbattrace` prints it")
    ap.add_argument("--publish-ms", type=int, default=None, metavar="MS",
                    help="the receivers publish their state every MS ms (0: at every "
                         "segment they send; `--rledbat-param publish_interval_ms`) and "
                         f"the watcher reads it as often (at least {WATCH_FLOOR_MS} ms "
                         "apart); the JSON keeps that detail within 1.5 s before and 0.3 s "
                         "after each verdict and probe, every 100 ms elsewhere")
    ap.add_argument("--json", default=None)
    ap.add_argument("--md", default=None, help="the summary as a Markdown table")
    ap.add_argument("--table-from", default=None, metavar="JSON",
                    help="print the table of an earlier run's JSON and exit")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless, in every run, the rLEDBAT download takes at least "
                         "half the link alone and less than a fifth of the plain one's rate "
                         "beside it, and nothing is left behind")
    ap.add_argument("--logdir", default="/tmp")
    a = ap.parse_args(argv)
    rate = topo.Bottleneck().rate_bps
    if a.table_from:
        try:
            with open(a.table_from) as fh:
                runs = json.load(fh)["runs"]
        except (OSError, ValueError, KeyError) as e:
            print(f"rledbatbed: {a.table_from}: {e}", file=sys.stderr)
            return 2
        a.json = None
        print(_tables(*_write(a, runs, rate), runs), end="")
        return 0
    if not a.ledbat_bin:
        ap.error("--ledbat-bin is required")
    for p in a.rledbat_param:
        k, eq, v = p.partition("=")
        if not eq or not k or not v:
            ap.error(f"--rledbat-param {p!r}: expected KEY=VALUE")
    if a.publish_ms is not None and not 0 <= a.publish_ms <= 1000:
        ap.error("--publish-ms: 0 to 1000")
    if a.repeats < 1 or a.phase_s <= 0 or not 0.05 <= a.sample_s <= 2:
        ap.error("--repeats >= 1, --phase-s > 0, --sample-s within 0.05..2")
    ccs = [c for c in a.sender_cc.split(",") if c]
    fifos = _floats(a.fifo_ms, "--fifo-ms")
    if 0 in fifos:
        ap.error("--fifo-ms: a FIFO of 0 ms holds nothing")
    if a.rtt_ms is not None:
        delays = [x / 2 for x in _floats(a.rtt_ms, "--rtt-ms")]
    else:
        delays = _floats(a.delay_ms or "20", "--delay-ms")
    ledbat_bin = install.prepare("namespaces, cgroups, BPF", a.ledbat_bin, install.Needs(
        ["ip", "tc", "ss", "ethtool", "ping", "sysctl"]),
        log=lambda m: print(f"rledbatbed: {m}", file=sys.stderr, flush=True))
    if ledbat_bin is None:
        return 2
    kinds = [True] if a.plain else [False] if a.no_baseline else [False, True]
    head = {"command": paths.command_line(["-m", "netbed.rledbatbed"],
                                          sys.argv[1:] if argv is None else argv),
            "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
            **paths.provenance(ledbat_bin), "kernel": os.uname().release}
    runs: list[dict] = []
    for cc in ccs:
        for fifo in fifos:
            for delay in delays:
                for rep in range(a.repeats):
                    for plain in (kinds if rep % 2 == 0 else kinds[::-1]):
                        print(f"rledbatbed: {cc} fifo {fifo:g} ms rtt {2 * delay:g} ms "
                              f"repeat {rep + 1} {'plain' if plain else 'rledbat'}",
                              file=sys.stderr, flush=True)
                        r = run(ledbat_bin, a.phase_s, delay, a.signal, plain, a.logdir,
                                cc, fifo, a.sample_s, not a.no_capture,
                                a.rledbat_param, a.competitor, a.sender_trace,
                                a.publish_ms)
                        r["repeat"] = rep
                        runs.append(r)
                        _write(a, runs, rate, head)
    print(_tables(*_write(a, runs, rate, head), runs), end="")
    if a.check:
        bad = [b for r in runs if r["rledbat"] for b in check(r, rate)]
        bad += [f"left behind by a plain run: {r['run_cgroups_left']} "
                f"{r['teardown_problems']}" for r in runs if not r["rledbat"]
                and (r.get("run_cgroups_left") or r.get("teardown_problems"))]
        for b in bad:
            print(f"rledbatbed: {b}", file=sys.stderr)
        return 1 if bad else 0
    return 0


def check(res: dict, rate_bps: int) -> list[str]:
    """What the quick check found wrong in one rLEDBAT run (empty: passed): alone at least
    half the link; beside a plain download less than a fifth of its rate, or, beside a
    second receiver of our kind, the two using at least half the link; nothing left
    behind; with --sender-trace, the rLEDBAT download's sender read from `ss`."""
    pair = is_pair(res)
    if "samples" in res:
        p = res["phase_s"]
        c0 = res.get("competitor_start_s", p)
        res = dict(res, alone=phase_summary(res["samples"], p / 2, p, rate_bps),
                   beside_plain=phase_summary(res["samples"], c0 + p / 2, c0 + p, rate_bps))
    bad = []
    alone = res.get("alone", {}).get("rledbat_mbps")
    beside = res.get("beside_plain", {})
    if alone is None or alone < rate_bps / 2e6:
        bad.append(f"the receiver-side download alone: {alone} Mbit/s, below half the link")
    r, p = beside.get("rledbat_mbps"), beside.get("plain_mbps")
    if pair:
        if r is None or p is None or (r + p) * 1e6 < rate_bps / 2:
            bad.append(f"two receivers of our kind: {r} and {p} Mbit/s, less than half "
                       "the link together")
    elif r is None or p is None or r >= p / 5:
        bad.append(f"beside a plain download: {r} against {p} Mbit/s, not below a fifth")
    if "sender_trace_fields" in res:
        cwnd = res["sender_trace_fields"].index("cwnd")
        ports = {r[1] for r in res.get("sender_trace") or [] if r[cwnd] is not None}
        if PORT_RL not in ports:
            bad.append(f"--sender-trace: no sample of the sender to port {PORT_RL} "
                       f"read (ports seen: {sorted(ports)})")
    if res.get("run_cgroups_left") or res.get("teardown_problems"):
        bad.append(f"left behind: {res.get('run_cgroups_left')} "
                   f"{res.get('teardown_problems')}")
    return bad

if __name__ == "__main__":
    sys.exit(main())
