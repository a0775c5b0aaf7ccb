"""Flows: what runs at each end, given as commands.

A `FlowKind` turns a flow (port, congestion controller, duration, ...) into two argv
lists: the receiver, run in the receiver namespace and started first, and the sender, run in
the sender namespace. Every flow is identified on the wire by its receiver's port
(`th dport`), where the bed counts its bytes.

Built in:
- `ledbat`: our binary, `ledbat recv --listen ADDR --out PATH` and
  `ledbat send PATH ADDR [--cc NAME] [--target-ms N] [--cc-param k=v] [--json]`.
- `iperf3-cubic` / `iperf3-reno` / `iperf3-bbr`: kernel TCP from Debian's iperf3
  (`iperf3 -c ... -C cubic`), the competing flow.
- `iperf3-udp`: constant-rate UDP (`-b RATE`), for checking the bed itself.
- `cmd`: any sender under test, from two command templates (see `template_kind`), e.g. a
  libtorrent or Transmission seeder and its leecher.

Templates are formatted with: {bin} {rcv_ip} {snd_ip} {port} {duration} {file} {out}
{workdir} {logdir} {cc} {rate}.
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Flow:
    """One flow of a scenario."""

    name: str
    """Label in tables and the nft counter name (letters, digits, underscore)."""
    kind: str
    """A key of `KINDS` (or a kind registered with `register`)."""
    start: float
    """Seconds after the scenario starts."""
    duration: float
    """Seconds the sender runs; the bed stops it then."""
    port: int = 0
    """Receiver port; 0 = assigned by the scenario runner."""
    cc: str | None = None
    """Congestion controller for kinds that take one (ledbat's --cc)."""
    params: dict[str, str] = field(default_factory=dict)
    """Extra per-kind settings (ledbat: target_ms and cc_param.<k>; iperf3-udp: rate)."""

    @property
    def stop(self) -> float:
        """Seconds after the scenario start when the sender is stopped."""
        return self.start + self.duration


@dataclass
class Context:
    """What the command builders may use."""

    rcv_ip: str
    snd_ip: str
    workdir: str
    ledbat_bin: str
    send_file: str
    logdir: str = ""
    """The scenario's log directory (kept after the run; `workdir` is emptied)."""


@dataclass
class FlowKind:
    """How to run one kind of flow."""

    name: str
    receiver: Callable[[Flow, Context], list[str]]
    sender: Callable[[Flow, Context], list[str]]
    tools: list[str]
    """Commands that must exist (installed with apt-get when missing)."""
    ends_itself: bool
    """Whether the sender stops on its own at the end of its duration (iperf3 -t)."""
    description: str
    overhead: int | None = None
    """IP + transport header bytes per data packet, to turn IP bytes into payload bytes
    (None: unknown, no payload rate is reported)."""


def _out(flow: Flow, ctx: Context) -> str:
    return f"{ctx.workdir}/recv-{flow.name}.bin"


def trace_path(flow: Flow, ctx: Context) -> str:
    """Where `ledbat send --trace` writes its 100 ms JSON lines (cwnd, delay estimates)."""
    return f"{ctx.logdir or ctx.workdir}/{flow.name}-trace.jsonl"


def _ledbat_recv(flow: Flow, ctx: Context) -> list[str]:
    return [ctx.ledbat_bin, "recv", "--listen", f"{ctx.rcv_ip}:{flow.port}",
            "--out", _out(flow, ctx), "--force", "--quiet", "--json"]


def _ledbat_send(flow: Flow, ctx: Context) -> list[str]:
    argv = [ctx.ledbat_bin, "send", ctx.send_file, f"{ctx.rcv_ip}:{flow.port}", "--json",
            "--quiet", "--trace", trace_path(flow, ctx)]
    if flow.cc:
        argv += ["--cc", flow.cc]
    for k, v in sorted(flow.params.items()):
        if k == "target_ms":
            argv += ["--target-ms", str(v)]
        elif k.startswith("cc_param."):
            argv += ["--cc-param", f"{k.removeprefix('cc_param.')}={v}"]
        else:
            raise ValueError(f"flow {flow.name}: unknown ledbat parameter `{k}`")
    return argv


def _iperf_server(flow: Flow, ctx: Context) -> list[str]:
    return ["iperf3", "-s", "-1", "-B", ctx.rcv_ip, "-p", str(flow.port)]


def _iperf_tcp(algo: str) -> Callable[[Flow, Context], list[str]]:
    def build(flow: Flow, ctx: Context) -> list[str]:
        return ["iperf3", "-c", ctx.rcv_ip, "-p", str(flow.port), "-B", ctx.snd_ip,
                "-C", algo, "-t", str(max(1, math.ceil(flow.duration))), "-J"]
    return build


def _iperf_udp(flow: Flow, ctx: Context) -> list[str]:
    rate = flow.params.get("rate", "9M")
    return ["iperf3", "-c", ctx.rcv_ip, "-p", str(flow.port), "-B", ctx.snd_ip, "-u",
            "-b", str(rate), "-l", "1400", "-t", str(max(1, math.ceil(flow.duration))), "-J"]


KINDS: dict[str, FlowKind] = {
    "ledbat": FlowKind("ledbat", _ledbat_recv, _ledbat_send, [], False,
                       "our uTP sender: ledbat send / ledbat recv",
                       overhead=20 + 8 + 20),  # IPv4 + UDP + uTP header (no extensions)
    "iperf3-udp": FlowKind("iperf3-udp", _iperf_server, _iperf_udp, ["iperf3"], True,
                           "constant-rate UDP from iperf3 (params: rate)", overhead=20 + 8),
}
for _algo in ("cubic", "reno", "bbr"):
    KINDS[f"iperf3-{_algo}"] = FlowKind(f"iperf3-{_algo}", _iperf_server, _iperf_tcp(_algo),
                                        ["iperf3"], True, f"kernel TCP {_algo} from iperf3",
                                        overhead=20 + 32)  # IPv4 + TCP with timestamps


def template_kind(name: str, receiver_template: str, sender_template: str,
                  tools: list[str] | None = None, description: str = "") -> FlowKind:
    """A flow kind from two shell-like templates, e.g.
    `template_kind("lt", "python3 leech.py {rcv_ip} {port} {out}", "python3 seed.py ...")`."""
    def build(tpl: str) -> Callable[[Flow, Context], list[str]]:
        def f(flow: Flow, ctx: Context) -> list[str]:
            vals = dict(bin=ctx.ledbat_bin, rcv_ip=ctx.rcv_ip, snd_ip=ctx.snd_ip,
                        port=flow.port, duration=math.ceil(flow.duration),
                        file=ctx.send_file, out=_out(flow, ctx), workdir=ctx.workdir,
                        logdir=ctx.logdir,
                        cc=flow.cc or "", rate=flow.params.get("rate", ""))
            return [tok.format(**vals) for tok in shlex.split(tpl)]
        return f
    return FlowKind(name, build(receiver_template), build(sender_template), tools or [],
                    False, description or f"commands: {sender_template}")


def register(kind: FlowKind) -> None:
    """Adds (or replaces) a flow kind."""
    KINDS[kind.name] = kind
