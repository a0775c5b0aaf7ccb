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

import os
import shutil
import subprocess
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
    """Link rate in bit/s. Default 10 Mbit/s: a home uplink (issue 'uTP transport', part 4)."""
    fifo_frames: int = 250
    """FIFO size in full 1514-byte frames. Default 250 = 378 500 B = 303 ms at 10 Mbit/s:
    a bloated home uplink, comfortably above LEDBAT's 100 ms TARGET."""
    burst_bytes: int = 15 * 1024
    """tbf bucket. Default 15 KiB: about 10 frames (real-peers.md)."""

    @property
    def limit_bytes(self) -> int:
        """tbf `limit`: the FIFO in bytes of frames."""
        return self.fifo_frames * FULL_FRAME

    @property
    def fifo_ms(self) -> float:
        """How long a full FIFO takes to drain, in ms."""
        return self.limit_bytes * 8 / self.rate_bps * 1000

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
            # No IPv6 (router solicitations, MLD): only the traffic we start crosses the bed.
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
        r(["ip", "-n", self.snd, "route", "add", "default", "via", self.rtr_snd_ip])
        r(["ip", "-n", self.rcv, "route", "add", "default", "via", self.rtr_rcv_ip])
        b = self.bottleneck
        r(["tc", "qdisc", "replace", "dev", self.RTR_RCV_IF, "root", "tbf",
           "rate", f"{b.rate_bps}bit", "burst", str(b.burst_bytes),
           "limit", str(b.limit_bytes)], ns=self.rtr)
        if self.delay_ms > 0:
            pkg_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            env = dict(os.environ, PYTHONPATH=pkg_dir, PYTHONUNBUFFERED="1",
                       PYTHONDONTWRITEBYTECODE="1")
            self._delay_proc = proc.Background.start(
                "delayline", [sys.executable, "-m", "netbed.delayline", self.DLY_SND_IF,
                              self.DLY_RTR_IF, "--ms", str(self.delay_ms)],
                ns=self.dly, logdir=self.logdir, env=env)
        # Sanity: both hosts reach each other through the router (ARP crosses the delay
        # line too; the first ping may take a moment).
        r(["ping", "-c", "1", "-W", "3", self.rcv_ip], ns=self.snd, timeout=10)

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


def cleanup_stale() -> list[str]:
    """Deletes every namespace a previous bed left behind; returns their names."""
    stale = [ns for ns in list_ns() if ns.startswith(NS_PREFIX)]
    for ns in stale:
        delete_ns(ns)
    return stale


# Debian packages providing the tools the bed runs, by command name.
APT_PACKAGES = {
    "ip": "iproute2",
    "tc": "iproute2",
    "ss": "iproute2",
    "ethtool": "ethtool",
    "nft": "nftables",
    "iperf3": "iperf3",
    "ping": "iputils-ping",
    "sysctl": "procps",
}


def ensure_tools(commands: list[str], install: bool = True) -> None:
    """Makes sure every command exists, installing missing ones with apt-get when allowed."""
    missing = sorted({c for c in commands if shutil.which(c) is None})
    if not missing:
        return
    pkgs = sorted({APT_PACKAGES[c] for c in missing if c in APT_PACKAGES})
    if not install or not pkgs or shutil.which("apt-get") is None:
        raise proc.CommandError(f"missing commands: {', '.join(missing)} "
                                f"(Debian packages: {' '.join(pkgs) or '?'})")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    print(f"[bed] installing {' '.join(pkgs)} with apt-get", flush=True)
    for argv, t in [(["apt-get", "update", "-qq"], 300),
                    (["apt-get", "install", "-y", "-qq", "--no-install-recommends", *pkgs], 600)]:
        try:
            cp = subprocess.run(argv, capture_output=True, text=True, timeout=t, env=env)
        except subprocess.TimeoutExpired as e:
            raise proc.CommandError(f"timed out: {proc.fmt(argv)}") from e
        if cp.returncode != 0:
            raise proc.CommandError(f"{proc.fmt(argv)} failed:\n{cp.stderr[-2000:]}")
    still = [c for c in missing if shutil.which(c) is None]
    if still:
        raise proc.CommandError(f"still missing after apt-get install: {', '.join(still)}")
