"""Running one scenario on a fresh bed: setup, counters, samplers, flows, teardown.

`run_scenario` builds a new topology for each scenario (so no queue, TCP metrics cache or
socket survives from the one before), installs one nftables counter per flow in the
receiver's input hook (`th dport PORT`), starts the samplers (router qdisc every 50 ms,
receiver counters every 100 ms), starts every receiver and waits until it listens, then
starts and stops each sender on schedule. Everything it starts is stopped and the
namespaces are deleted in `finally`, whatever happens.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field

from . import proc
from .flows import KINDS, Context, Flow
from .measure import counter_name
from .topo import Bottleneck, Topology

NFT_TABLE = "ledbat_tb"
QDISC_INTERVAL_S = 0.05
COUNTER_INTERVAL_S = 0.1
READY_TIMEOUT_S = 10.0
# Time an iperf3 client is given after its duration to finish and print its JSON.
SELF_END_GRACE_S = 4.0


@dataclass
class FlowRun:
    """What happened to one flow."""

    flow: Flow
    kind: str
    t_start: float | None = None
    """CLOCK_MONOTONIC when the sender was started."""
    t_stop: float | None = None
    """CLOCK_MONOTONIC when the sender ended (by itself or stopped)."""
    exit_code: int | None = None
    ended_itself: bool = False
    error: str | None = None
    """Set when the flow did not run as scheduled (failed start, early exit, error exit)."""
    sender_stdout: str = ""
    sender_argv: list[str] = field(default_factory=list)
    receiver_argv: list[str] = field(default_factory=list)


@dataclass
class RunResult:
    """Raw outcome of one scenario run."""

    name: str
    t0: float
    length: float
    bottleneck: Bottleneck
    flows: list[FlowRun]
    qdisc: list[dict]
    counters: list[dict]
    errors: list[str]
    logdir: str
    base_rtt_ms: float | None = None
    """Mean ping RTT sender -> receiver on the idle bed, before any flow."""

    def flow(self, name: str) -> FlowRun:
        """The run of the flow called `name`."""
        for f in self.flows:
            if f.flow.name == name:
                return f
        raise KeyError(name)


def _nft_rules(flows: list[Flow]) -> str:
    lines = [f"table inet {NFT_TABLE} {{"]
    for f in flows:
        lines.append(f"  counter {counter_name(f.name)} {{ }}")
    lines.append("  chain input {")
    lines.append("    type filter hook input priority 0; policy accept;")
    for f in flows:
        lines.append(f"    meta l4proto {{ tcp, udp }} th dport {f.port} "
                     f"counter name {counter_name(f.name)}")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _read_jsonl(path: str) -> list[dict]:
    out = []
    try:
        with open(path) as fh:
            for line in fh:
                line = line.strip()
                if line:
                    try:
                        out.append(json.loads(line))
                    except json.JSONDecodeError:
                        pass  # a line cut short by SIGTERM
    except OSError:
        pass
    return out


def _listening(topo: Topology, port: int) -> bool:
    cp = proc.run(["ss", "-H", "-l", "-n", "-t", "-u", f"sport = :{port}"], ns=topo.rcv,
                  check=False, timeout=5)
    return cp.returncode == 0 and cp.stdout.strip() != ""


def _ping_ms(topo: Topology) -> float | None:
    """Mean RTT of 5 pings from sender to receiver on the idle bed."""
    cp = proc.run(["ping", "-c", "5", "-i", "0.1", "-q", topo.rcv_ip], ns=topo.snd,
                  check=False, timeout=15)
    for line in cp.stdout.splitlines():
        if "min/avg/max" in line:  # rtt min/avg/max/mdev = 0.041/0.055/0.070/0.010 ms
            try:
                return float(line.split("=")[1].split("/")[1])
            except (IndexError, ValueError):
                return None
    return None


def _wait_first_line(bg: proc.Background, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(bg.stdout_path) and os.path.getsize(bg.stdout_path) > 0:
            return True
        if not bg.alive():
            return False
        time.sleep(0.05)
    return False


def run_scenario(name: str, flows: list[Flow], length: float, bottleneck: Bottleneck,
                 ctx_base: dict, logdir: str, tag: str, delay_ms: float = 0.0,
                 route_opts: tuple[str, ...] = (),
                 extra: list[tuple[str, list[str]]] | None = None) -> RunResult:
    """Runs `flows` for `length` seconds on a fresh bed; returns the raw samples.

    `ctx_base` holds `workdir`, `ledbat_bin` and `send_file` (see `flows.Context`);
    `route_opts` go to the hosts' default routes (`Topology.route_opts`); `extra` are
    further samplers, (name, argv) run in the root namespace for the whole run, their
    output kept in `logdir` as NAME.out."""
    os.makedirs(logdir, exist_ok=True)
    topo = Topology(tag=tag, bottleneck=bottleneck, delay_ms=delay_ms, logdir=logdir,
                    route_opts=route_opts)
    ctx = Context(rcv_ip=topo.rcv_ip, snd_ip=topo.snd_ip, logdir=logdir, **ctx_base)
    for i, f in enumerate(flows):
        if f.port == 0:
            f.port = 5201 + i
    runs = [FlowRun(flow=f, kind=f.kind) for f in flows]
    background: list[proc.Background] = []
    receivers: dict[str, proc.Background] = {}
    senders: dict[str, proc.Background] = {}
    errors: list[str] = []
    samplers: list[proc.Background] = []
    t0 = time.monotonic()
    base_rtt = None
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    try:
        topo.setup()
        # Fresh TCP state per flow: no ssthresh cached from an earlier connection.
        proc.run(["sysctl", "-q", "-w", "net.ipv4.tcp_no_metrics_save=1"], ns=topo.snd)
        proc.run(["nft", "-f", "-"], ns=topo.rcv, input_text=_nft_rules(flows))
        base_rtt = _ping_ms(topo)
        max_s = str(length + 120)
        samplers.append(proc.Background.start(
            "sampler-qdisc",
            [sys.executable, "-m", "netbed.sampler", "qdisc", topo.RTR_RCV_IF,
             "--interval", str(QDISC_INTERVAL_S), "--max-seconds", max_s],
            ns=topo.rtr, logdir=logdir, env=env))
        samplers.append(proc.Background.start(
            "sampler-nft",
            [sys.executable, "-m", "netbed.sampler", "nft", NFT_TABLE,
             "--interval", str(COUNTER_INTERVAL_S), "--max-seconds", max_s],
            ns=topo.rcv, logdir=logdir, env=env))
        for s in samplers:
            if not _wait_first_line(s, READY_TIMEOUT_S):
                raise proc.CommandError(f"{s.name} produced nothing: {s.stderr_tail()}")
        for sname, argv in extra or []:
            samplers.append(proc.Background.start(sname, argv, ns=None, logdir=logdir,
                                                  env=env))
        for r in runs:
            kind = KINDS[r.kind]
            r.receiver_argv = kind.receiver(r.flow, ctx)
            r.sender_argv = kind.sender(r.flow, ctx)
            bg = proc.Background.start(f"{r.flow.name}-receiver", r.receiver_argv,
                                       ns=topo.rcv, logdir=logdir)
            background.append(bg)
            receivers[r.flow.name] = bg
        for r, bg in zip(runs, background):
            deadline = time.monotonic() + READY_TIMEOUT_S
            while not _listening(topo, r.flow.port):
                if not bg.alive() or time.monotonic() > deadline:
                    raise proc.CommandError(
                        f"receiver of {r.flow.name} not listening on port {r.flow.port} "
                        f"({proc.fmt(r.receiver_argv)}): {bg.stderr_tail()}")
                time.sleep(0.05)
        time.sleep(0.5)  # a few idle samples before anything starts
        t0 = time.monotonic()
        pending = sorted(runs, key=lambda r: r.flow.start)
        active: list[FlowRun] = []
        while True:
            now = time.monotonic() - t0
            if now >= length and not active:
                break
            if now >= length + SELF_END_GRACE_S + 5:
                break
            while pending and pending[0].flow.start <= now:
                r = pending.pop(0)
                r.t_start = time.monotonic()
                senders[r.flow.name] = proc.Background.start(
                    f"{r.flow.name}-sender", r.sender_argv, ns=topo.snd, logdir=logdir)
                active.append(r)
            for r in list(active):
                bg = senders[r.flow.name]
                kind = KINDS[r.kind]
                t_rel = time.monotonic() - t0
                rcv = receivers[r.flow.name]
                if not rcv.alive() and rcv.popen.returncode != 0 and r.error is None:
                    r.error = (f"receiver exited with {rcv.popen.returncode} at {t_rel:.1f} s "
                               f"while its sender ran: {rcv.stderr_tail(3)}")
                if not bg.alive():
                    r.t_stop = time.monotonic()
                    r.exit_code = bg.popen.returncode
                    r.ended_itself = True
                    early = t_rel < r.flow.stop - 0.5
                    if r.error is not None:
                        pass  # the receiver failed first
                    elif r.exit_code != 0 or (early and not kind.ends_itself):
                        r.error = (f"sender exited with {r.exit_code} at "
                                   f"{t_rel:.1f} s (scheduled until {r.flow.stop:.1f} s): "
                                   f"{bg.stderr_tail(3)}")
                    elif early and "bytes" not in r.flow.params:
                        # a transfer of a byte count ends when it is done; others must
                        # run their whole duration
                        r.error = f"sender ended early at {t_rel:.1f} s"
                    active.remove(r)
                    continue
                limit = r.flow.stop + (SELF_END_GRACE_S if kind.ends_itself else 0)
                if t_rel >= limit or t_rel >= length:
                    if kind.ends_itself and t_rel < limit:
                        continue  # let iperf3 finish its report
                    r.t_stop = time.monotonic()
                    r.exit_code = bg.stop()
                    active.remove(r)
            if any(r.error for r in runs):
                break  # the scenario cannot be measured: stop now, not at its end
            time.sleep(0.02)
    except proc.CommandError as e:
        errors.append(str(e))
    except KeyboardInterrupt:
        errors.append("interrupted")
        raise
    finally:
        for r in runs:
            bg = senders.get(r.flow.name)
            if bg is not None:
                if bg.alive():
                    r.t_stop = r.t_stop or time.monotonic()
                    r.exit_code = bg.stop()
                r.sender_stdout = bg.stdout_text()
        for bg in background:
            bg.stop()
        for s in samplers:
            s.stop()
        errors += topo.teardown()
    qdisc = _read_jsonl(os.path.join(logdir, "sampler-qdisc.out"))
    counters = _read_jsonl(os.path.join(logdir, "sampler-nft.out"))
    for r in runs:
        if r.t_start is None and not errors:
            r.error = "never started"
    return RunResult(name, t0, length, bottleneck, runs, qdisc, counters, errors, logdir,
                     base_rtt)
