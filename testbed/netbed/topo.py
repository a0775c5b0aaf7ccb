"""The topology: sender, router and receiver namespaces with a `tbf` bottleneck in the router.

    sender ns              router ns (forwards)                receiver ns
    [s0 10.77.1.1] ---- [r0 10.77.1.254 | r1 10.77.2.254] ---- [v0 10.77.2.1]
                                               ^ tbf rate R burst 15k limit B (egress)

Facts this relies on (docs/real-peers.md, measured on this machine kind):
- the bottleneck sits in a router, not on the sender's own interface, or the sender's
  socket-buffer and TCP small-queue limits throttle it before the FIFO ever fills;
- `tbf` counts frames including the 14-byte Ethernet header, so a FIFO of N full frames is
  N * 1514 bytes (100 frames = 151 400 B = 121 ms at 10 Mbit/s);
- segmentation offloads must be off on every veth so the qdisc sees wire-size frames;
- `tc -s -j qdisc show` gives exact backlog bytes, queue length and drops.

The namespaces are named `ledbat-tb-<tag>-{snd,rtr,rcv}` so that concurrent runs do not
collide and a crashed run's leftovers can be found (`cleanup_stale`).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field

from . import proc

NS_PREFIX = "ledbat-tb-"
ETH_HEADER = 14
FULL_FRAME = 1514  # 1500-byte IP packet + Ethernet header: what tbf counts


@dataclass
class Bottleneck:
    """The router's egress toward the receiver."""

    rate_bps: int = 10_000_000
    """Link rate in bit/s. Default 10 Mbit/s: a home uplink."""
    fifo_frames: int = 250
    """FIFO size in full 1514-byte frames. Default 250 = 378 500 B = 303 ms at 10 Mbit/s:
    a bloated home uplink, comfortably above LEDBAT's 100 ms TARGET."""
    burst_bytes: int = 15 * 1024
    """tbf bucket. Default 15 KiB: about 10 frames (docs/real-peers.md)."""

    @property
    def limit_bytes(self) -> int:
        """tbf `limit`: the FIFO in bytes of frames."""
        return self.fifo_frames * FULL_FRAME

    @property
    def fifo_ms(self) -> float:
        """How long a full FIFO takes to drain, in ms."""
        return self.limit_bytes * 8 / self.rate_bps * 1000

    def tc_args(self, dev: str) -> list[str]:
        """The `tc` command installing this bottleneck as the root qdisc of `dev`."""
        return ["tc", "qdisc", "replace", "dev", dev, "root", "tbf", "rate",
                f"{self.rate_bps}bit", "burst", str(self.burst_bytes), "limit",
                str(self.limit_bytes)]

    @classmethod
    def from_fifo_ms(cls, rate_bps: int, fifo_ms: float) -> "Bottleneck":
        """The bottleneck whose FIFO of whole frames drains in about `fifo_ms` ms."""
        frames = max(1, round(fifo_ms / 1000 * rate_bps / 8 / FULL_FRAME))
        return cls(rate_bps=rate_bps, fifo_frames=frames)


@dataclass
class Topology:
    """Names and addresses of one bed; `setup` builds it, `teardown` removes it."""

    tag: str
    bottleneck: Bottleneck = field(default_factory=Bottleneck)
    snd_ip: str = "10.77.1.1"
    rtr_snd_ip: str = "10.77.1.254"
    rtr_rcv_ip: str = "10.77.2.254"
    rcv_ip: str = "10.77.2.1"
    delay_ms: float = 0.0
    """One-way propagation delay added in each direction between sender and router by a
    user-space delay line (`delayline.py`) in a fourth namespace; 0 = none (base RTT about
    0.06 ms)."""
    logdir: str = "/tmp"
    """Where the delay line's output goes."""
    disable_ipv6: bool = True
    """Turn IPv6 off in every namespace (no router solicitations or MLD on the bed).
    Interop keeps it on: transmission-daemon binds `::1` too."""
    route_opts: tuple[str, ...] = ()
    """Extra options of both hosts' default routes (`ip route add default via X ...`), e.g.
    `("quickack", "1")`: the receiver acknowledges every segment, no delayed ACKs."""
    reverse: Bottleneck | None = None
    """A second FIFO in the router's egress toward the sender (the downlink of a home line:
    traffic from the receiver's side queues there); None = that direction unlimited."""
    delay_args: tuple[str, ...] = ()
    """Extra arguments of the delay line (`--reorder-every N --reorder-ms X`)."""
    built: bool = False
    _delay_proc: "proc.Background | None" = None

    @property
    def snd(self) -> str:
        """Sender namespace."""
        return f"{NS_PREFIX}{self.tag}-snd"

    @property
    def rtr(self) -> str:
        """Router namespace."""
        return f"{NS_PREFIX}{self.tag}-rtr"

    @property
    def rcv(self) -> str:
        """Receiver namespace."""
        return f"{NS_PREFIX}{self.tag}-rcv"

    @property
    def dly(self) -> str:
        """Delay-line namespace (only with `delay_ms` > 0)."""
        return f"{NS_PREFIX}{self.tag}-dly"

    # Interface names (each lives in its own namespace, so they never clash between beds).
    SND_IF = "s0"
    RTR_SND_IF = "r0"
    RTR_RCV_IF = "r1"  # the bottleneck
    RCV_IF = "v0"
    DLY_SND_IF = "d0"
    DLY_RTR_IF = "d1"

    def namespaces(self) -> list[str]:
        """All namespaces of this bed."""
        return [self.snd, self.rtr, self.rcv] + ([self.dly] if self.delay_ms > 0 else [])

    def setup(self) -> None:
        """Builds namespaces, veth pairs, addresses, routes, offloads and the bottleneck."""
        r = proc.run
        for ns in self.namespaces():
            r(["ip", "netns", "add", ns])
        self.built = True
        for ns in self.namespaces():
            r(["ip", "link", "set", "lo", "up"], ns=ns)
            if self.disable_ipv6:
                # No IPv6 (router solicitations, MLD): only the traffic we start crosses.
                r(["sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1"], ns=ns)
                r(["sysctl", "-q", "-w", "net.ipv6.conf.default.disable_ipv6=1"], ns=ns)
        if self.delay_ms > 0:
            r(["ip", "-n", self.snd, "link", "add", self.SND_IF, "type", "veth",
               "peer", "name", self.DLY_SND_IF, "netns", self.dly])
            r(["ip", "-n", self.dly, "link", "add", self.DLY_RTR_IF, "type", "veth",
               "peer", "name", self.RTR_SND_IF, "netns", self.rtr])
            for dev in (self.DLY_SND_IF, self.DLY_RTR_IF):
                r(["ethtool", "-K", dev, "tso", "off", "gso", "off", "gro", "off"], ns=self.dly)
                r(["ip", "-n", self.dly, "link", "set", dev, "up"])
        else:
            r(["ip", "-n", self.snd, "link", "add", self.SND_IF, "type", "veth",
               "peer", "name", self.RTR_SND_IF, "netns", self.rtr])
        r(["ip", "-n", self.rtr, "link", "add", self.RTR_RCV_IF, "type", "veth",
           "peer", "name", self.RCV_IF, "netns", self.rcv])
        for ns, dev, ip in [(self.snd, self.SND_IF, self.snd_ip),
                            (self.rtr, self.RTR_SND_IF, self.rtr_snd_ip),
                            (self.rtr, self.RTR_RCV_IF, self.rtr_rcv_ip),
                            (self.rcv, self.RCV_IF, self.rcv_ip)]:
            r(["ip", "-n", ns, "addr", "add", f"{ip}/24", "dev", dev])
            r(["ethtool", "-K", dev, "tso", "off", "gso", "off", "gro", "off"], ns=ns)
            if self.delay_ms > 0 and dev in (self.SND_IF, self.RTR_SND_IF):
                # Frames the delay line copies must carry finished checksums: veth leaves
                # them to a (virtual) offload the AF_PACKET copy does not get.
                r(["ethtool", "-K", dev, "tx", "off"], ns=ns)
            r(["ip", "-n", ns, "link", "set", dev, "up"])
        r(["sysctl", "-q", "-w", "net.ipv4.ip_forward=1"], ns=self.rtr)
        r(["ip", "-n", self.snd, "route", "add", "default", "via", self.rtr_snd_ip,
           *self.route_opts])
        r(["ip", "-n", self.rcv, "route", "add", "default", "via", self.rtr_rcv_ip,
           *self.route_opts])
        r(self.bottleneck.tc_args(self.RTR_RCV_IF), ns=self.rtr)
        if self.reverse is not None:
            r(self.reverse.tc_args(self.RTR_SND_IF), ns=self.rtr)
        if self.delay_ms > 0:
            env = dict(os.environ, PYTHONUNBUFFERED="1")
            self._delay_proc = proc.Background.start(
                "delayline", [sys.executable, "-m", "netbed.delayline", self.DLY_SND_IF,
                              self.DLY_RTR_IF, "--ms", str(self.delay_ms),
                              *self.delay_args],
                ns=self.dly, logdir=self.logdir, env=env)
        # Sanity: both hosts reach each other through the router (ARP crosses the delay
        # line too; the first ping may take a moment).
        r(["ping", "-c", "1", "-W", "3", self.rcv_ip], ns=self.snd, timeout=10)

    def queue_stats(self) -> dict[str, int | None]:
        """Cumulative bytes sent and packets dropped by the bottleneck (see `tbf_stats`)."""
        cp = proc.run(["tc", "-s", "-j", "qdisc", "show", "dev", self.RTR_RCV_IF],
                      ns=self.rtr, check=False)
        return tbf_stats(cp.stdout)

    def teardown(self) -> list[str]:
        """Kills whatever still runs in the namespaces and deletes them.

        Returns the problems met (never raises: it runs in `finally`)."""
        problems: list[str] = []
        if self._delay_proc is not None:
            self._delay_proc.stop()
            self._delay_proc = None
        for ns in self.namespaces():
            problems += delete_ns(ns)
        self.built = False
        return problems


def list_ns() -> list[str]:
    """Names of all network namespaces."""
    cp = proc.run(["ip", "netns", "list"], check=False)
    return [line.split()[0] for line in cp.stdout.splitlines() if line.strip()]


def delete_ns(ns: str) -> list[str]:
    """Kills the processes left in `ns` (all started by the bed) and deletes it."""
    problems: list[str] = []
    if ns not in list_ns():
        return problems
    cp = proc.run(["ip", "netns", "pids", ns], check=False)
    for tok in cp.stdout.split():
        try:
            os.kill(int(tok), 9)
        except (ValueError, ProcessLookupError, PermissionError):
            pass
    cp = proc.run(["ip", "netns", "del", ns], check=False)
    if cp.returncode != 0:
        problems.append(f"ip netns del {ns}: {cp.stderr.strip()}")
    return problems


def delete_prefixed(prefix: str) -> list[str]:
    """Deletes every namespace whose name starts with `prefix` (with what runs in it);
    returns their names."""
    gone = [ns for ns in list_ns() if ns.startswith(prefix)]
    for ns in gone:
        delete_ns(ns)
    return gone


def delete_tagged(tag: str) -> list[str]:
    """Deletes the namespaces of the bed run tagged `tag`."""
    return delete_prefixed(f"{NS_PREFIX}{tag}-")


def cleanup_stale() -> list[str]:
    """Deletes every namespace a previous bed left behind; returns their names."""
    return delete_prefixed(NS_PREFIX)


def tbf_stats(tc_json: str) -> dict[str, int | None]:
    """`{"sent_bytes", "drops"}` of the first qdisc in `tc -s -j qdisc show` output (counters
    since the qdisc was made); empty when the output holds no qdisc."""
    try:
        q = json.loads(tc_json)[0]
    except (ValueError, IndexError, KeyError, TypeError):
        return {}
    if not isinstance(q, dict):
        return {}
    return {"sent_bytes": q.get("bytes"), "drops": q.get("drops")}
