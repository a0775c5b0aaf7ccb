"""Our controllers as Linux TCP congestion controls on the bed (crate `ledbat-tcp`).

- `Controllers`: registers instances with `ledbat tcp load CONTROLLER --as NAME --param ...`
  and unregisters every one it registered when it is closed, whatever happened (a `with`
  block, and `close()` from the callers' `finally`);
- the `ktcp` flow kind: a bulk transfer selecting one of them by name (`netbed.tcpxfer`,
  `TCP_CONGESTION`), for a duration or a byte count (`params["bytes"]`, done when the
  receiver has every byte);
- the stats sampler: `ledbat tcp stats --json --watch 0.5` in the root namespace (the
  congestion controls and their statistics are global to the kernel, not per namespace),
  whose rows carry the kernel's TCP clock (CLOCK_MONOTONIC, the clock of the bed's samples).

The bed's instances are named `tb_...` so that a run never touches the ones an
administrator loaded; a stale `tb_` instance of a killed run is unloaded first.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field

from .flows import Context, Flow, FlowKind, register

PREFIX = "tb_"
KERNEL_CCS = ("cubic", "reno", "bbr")
"""The kernel's own controllers: a spec naming one is used as it is, never loaded."""
TCP_OVERHEAD = 20 + 32  # IPv4 + TCP with the timestamp option
STATS_INTERVAL_S = 0.5


# Bed names for controller specs the tables should show short. The `scavenger` preset's
# default is the competitor set (`competitor.enabled=true`, `slowdown_backoff=8`;
# docs/sidebyside/default.md). `scav-comp`: what the bed measured under that name while the
# detection was opt-in (docs/tcp/measured.md, docs/tcp/competitor/): the detection on with
# the slowdown backoff of then, 1, so that those commands measure the same controller.
# `scav-plain`: the preset as it was before the competitor set
# (ledbat_core::scavenger::PLAIN_PARAMS).
ALIASES = {
    "scav-comp": ("scavenger", ["competitor.enabled=true", "slowdown_backoff=1"]),
    "scav-plain": ("scavenger", ["competitor.enabled=false", "slowdown_backoff=1"]),
}


class LoadFailed(RuntimeError):
    """`ledbat tcp` refused; the message is its stderr."""


def spec_parts(spec: str) -> tuple[str, list[str]]:
    """`NAME[:KEY=VALUE...]` -> (controller, ["KEY=VALUE", ...]); ValueError naming the bad
    part. NAME may be one of ALIASES (its parameters first, then the spec's)."""
    name, *kvs = spec.split(":")
    for kv in kvs:
        k, sep, v = kv.partition("=")
        if not (k and sep and v):
            raise ValueError(f"controller spec `{spec}`: `{kv}` is not KEY=VALUE")
    if not name:
        raise ValueError(f"controller spec `{spec}` has no controller")
    if name in ALIASES:
        controller, params = ALIASES[name]
        return controller, [*params, *kvs]
    return name, kvs


@dataclass
class Controllers:
    """Instances registered for one run; `close` unregisters them all."""

    ledbat_bin: str
    loaded: dict[str, str] = field(default_factory=dict)
    """spec -> kernel name."""

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cp = subprocess.run([self.ledbat_bin, "tcp", *args], capture_output=True, text=True,
                            timeout=60)
        if check and cp.returncode != 0:
            raise LoadFailed(f"ledbat tcp {' '.join(args)}: {cp.stderr.strip()}")
        return cp

    def registered(self) -> list[str]:
        """Kernel names of every registered instance `ledbat tcp list` shows (not those
        unregistered but still held by connections)."""
        cp = self._run("list", "--json")
        return [i["name"] for i in json.loads(cp.stdout or "[]") if i.get("registered", True)]

    def ensure(self, spec: str) -> str:
        """The kernel name of `spec`, registering it on first use (one of `KERNEL_CCS` is
        the kernel's own name and is not registered)."""
        if spec in KERNEL_CCS:
            return spec
        if spec in self.loaded:
            return self.loaded[spec]
        name = f"{PREFIX}{len(self.loaded)}"
        if name in self.registered():
            self._run("unload", name)  # left by a killed run
        controller, params = spec_parts(spec)
        argv = ["load", controller, "--as", name]
        for p in params:
            argv += ["--param", p]
        self._run(*argv)
        self.loaded[spec] = name
        return name

    def close(self) -> list[str]:
        """Unregisters every instance this object registered; returns the problems."""
        problems = []
        for spec, name in list(self.loaded.items()):
            cp = self._run("unload", name, check=False)
            if cp.returncode != 0:
                problems.append(f"unload {name} ({spec}): {cp.stderr.strip()}")
            del self.loaded[spec]
        return problems

    def __enter__(self) -> "Controllers":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _server(flow: Flow, ctx: Context) -> list[str]:
    return [sys.executable, "-m", "netbed.tcpxfer", "recv", ctx.rcv_ip, str(flow.port)]


def _client(flow: Flow, ctx: Context) -> list[str]:
    argv = [sys.executable, "-m", "netbed.tcpxfer", "send", ctx.rcv_ip, str(flow.port),
            "--cc", flow.cc or "cubic", "--bind", ctx.snd_ip]
    if "bytes" in flow.params:
        return argv + ["--bytes", str(flow.params["bytes"])]
    return argv + ["--seconds", str(flow.duration)]


KIND = FlowKind("ktcp", _server, _client, [], True,
                "kernel TCP with a congestion control chosen by name (netbed.tcpxfer; "
                "params: bytes)", overhead=TCP_OVERHEAD)


def register_kind() -> None:
    """Adds the `ktcp` kind to the bed's flow kinds."""
    register(KIND)


def stats_sampler(ledbat_bin: str) -> tuple[str, list[str]]:
    """The (name, argv) of the stats sampler for `bed.run_scenario(extra=...)`."""
    return ("ktcp-stats", [ledbat_bin, "tcp", "stats", "--json", "--watch",
                           str(STATS_INTERVAL_S)])


def trace_sampler(ledbat_bin: str, kname: str, path: str) -> tuple[str, list[str]]:
    """The (name, argv) recording `kname`'s kernel events into `path` for the whole run
    (`ledbat tcp trace`; it writes the file when the run stops it)."""
    return (f"ktcp-trace-{kname}", [ledbat_bin, "tcp", "trace", kname, "--out", path])


def check_trace(ledbat_bin: str, path: str) -> dict:
    """`ledbat tcp check --json` of a trace: the connections replayed through ledbat-core,
    the events compared, the mismatches and the largest window difference (bytes)."""
    cp = subprocess.run([ledbat_bin, "tcp", "check", path, "--json"], capture_output=True,
                        text=True, timeout=300)
    try:
        conns = json.loads(cp.stdout)
    except ValueError:
        return {"error": cp.stderr.strip() or "no output"}
    return {"connections": len(conns), "events": sum(c["events"] for c in conns),
            "mismatches": sum(c["mismatches"] for c in conns),
            "max_diff_bytes": max((c["max_diff"] for c in conns), default=0.0),
            "stopped": [c["stopped"] for c in conns if c.get("stopped")],
            "first_mismatch": next((c["first_mismatch"] for c in conns
                                    if c.get("first_mismatch")), None)}


@dataclass
class StatRow:
    """One connection's published state at one time (`ledbat tcp stats --json`)."""

    t: float
    """CLOCK_MONOTONIC seconds (the kernel's TCP clock)."""
    controller: str
    local_port: int
    remote_port: int
    flow: dict


def read_stats(path: str) -> list[StatRow]:
    """The sampler's rows, each connection's entry once per line it appears in."""
    out = []
    try:
        with open(path) as fh:
            for line in fh:
                line = line.strip()
                if not line:
                    continue
                try:
                    rows = json.loads(line)
                except ValueError:
                    continue
                for r in rows:
                    f = r.get("flow", {})
                    try:
                        lp = int(f["local"].rsplit(":", 1)[1])
                        rp = int(f["remote"].rsplit(":", 1)[1])
                    except (KeyError, ValueError, IndexError):
                        continue
                    out.append(StatRow(f.get("updated_ns", 0) / 1e9, r.get("controller", ""),
                                       lp, rp, f))
    except OSError:
        return []
    return out


def sender_rows(rows: list[StatRow], port: int) -> list[StatRow]:
    """The rows of the sending side of the flow to receiver port `port`, in time order,
    one per update."""
    seen, out = set(), []
    for r in rows:
        if r.remote_port == port and (r.t, r.local_port) not in seen:
            seen.add((r.t, r.local_port))
            out.append(r)
    return sorted(out, key=lambda r: r.t)


def slowdowns_between(rows: list[StatRow], a: float, b: float) -> int | None:
    """Slowdowns the sender started in [a, b] (from its published count); None without
    rows."""
    inside = [r.flow.get("slowdowns", 0) for r in rows if a <= r.t <= b]
    before = [r.flow.get("slowdowns", 0) for r in rows if r.t < a]
    if not inside:
        return None
    return max(inside) - (max(before) if before else min(inside))


def arrival_phase(rows: list[StatRow], t: float) -> dict:
    """Where the sender stood when another flow arrived at `t` (CLOCK_MONOTONIC s, the bed's
    clock and the kernel's): the phase of its last row at or before `t`; the seconds from
    the first row that showed its latest slowdown (a count higher than the row before it) to
    `t`; and from `t` to the first row after it that showed a new one (a periodic slowdown or
    a competitor test's hold: the count has both). A slowdown is seen up to one sampler
    interval after it began, so `since_slowdown_s` may be short and `next_slowdown_s` long
    by up to that much. None where no row says."""
    before = [r for r in rows if r.t <= t]
    out = {"phase": None, "since_slowdown_s": None, "next_slowdown_s": None}
    if not before:
        return out
    seen_at = None
    for prev, r in zip([None] + before[:-1], before):
        if r.flow.get("slowdowns", 0) > (prev.flow.get("slowdowns", 0) if prev else 0):
            seen_at = r.t
    count = before[-1].flow.get("slowdowns", 0)
    nxt = next((r.t for r in rows if r.t > t and r.flow.get("slowdowns", 0) > count), None)
    out["phase"] = before[-1].flow.get("phase")
    out["since_slowdown_s"] = None if seen_at is None else round(t - seen_at, 2)
    out["next_slowdown_s"] = None if nxt is None else round(nxt - t, 2)
    return out


def mean_of(rows: list[StatRow], key: str, a: float, b: float) -> float | None:
    """Mean of a published figure over [a, b] (None when no row has it)."""
    vals = [r.flow[key] for r in rows if a <= r.t <= b and r.flow.get(key) is not None]
    return sum(vals) / len(vals) if vals else None
