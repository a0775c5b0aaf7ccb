"""A BitTorrent swarm on the kernel: N peers behind ADSL-like uplinks, a real tracker.

    peer k ns [10.80.k.1] --- aK | modem ns | bK ---- hK | hub ns [tracker 10.82.0.1]
                                             ^ tbf rate C, limit C x 1 s (uplink of peer k)

Seed 003 section 6.2.1: every peer has an access uplink of capacity C (default 1 Mbit/s)
whose buffer holds B/C = 1 s of traffic, like an ADSL modem; downlinks are not limited.
The uplink FIFO of peer k is a `tbf` on the egress of `bK`, in a namespace of its own
("modem") between the peer and the hub, so it queues like a modem's buffer (not the
peer's own interface: docs/real-peers.md). All N modems share one namespace: a policy
rule per peer (`iif aK lookup table 100+k`) sends what peer k uploads out of its own `bK`,
and one `tc -s -j qdisc show` there samples every uplink queue at once (10 Hz), one
`nft` table counts each uplink's bytes by protocol (UDP = uTP, TCP). The hub routes
between modems and runs the tracker (Debian's `opentracker`, whitelist mode, the
torrent's info-hash listed). No propagation delay: the bed's base RTT is about 0.1 ms
and the uplink queues are the whole delay, as on the thesis's LAN testbed.

Offloads are off on every veth, so the qdiscs see wire-size frames; IPv6 is off.
Namespaces are `ledbat-tb-<tag>-{p1..pN,mdm,hub}` so the bed's cleanup finds them.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field

from . import proc
from .topo import FULL_FRAME, NS_PREFIX, delete_ns

TRACKER_IP = "10.82.0.1"
TRACKER_PORT = 6969
PEER_PORT = 6881
NFT_TABLE = "ledbat_sw"


@dataclass
class SwarmTopo:
    """Names, addresses and the uplinks of one swarm bed."""

    tag: str
    n: int
    rate_bps: int = 1_000_000
    """Uplink capacity C of every peer (seed 003 section 6.2.1: 1 Mbit/s)."""
    buffer_s: float = 1.0
    """Uplink FIFO in seconds of traffic at C (B/C = 1 s)."""
    burst_bytes: int = 2 * FULL_FRAME
    """tbf bucket: two full frames (24 ms at 1 Mbit/s), a modem's line pacing."""
    built: bool = False
    namespaces_made: list[str] = field(default_factory=list)

    def __post_init__(self):
        if not 1 <= self.n <= 250:
            raise ValueError(f"{self.n} peers: the bed addresses 1..250")

    def peer(self, k: int) -> str:
        """Namespace of peer k (1-based)."""
        return f"{NS_PREFIX}{self.tag}-p{k}"

    @property
    def modem(self) -> str:
        """The namespace holding every uplink bottleneck."""
        return f"{NS_PREFIX}{self.tag}-mdm"

    @property
    def hub(self) -> str:
        """The namespace routing between modems, with the tracker."""
        return f"{NS_PREFIX}{self.tag}-hub"

    @staticmethod
    def peer_ip(k: int) -> str:
        """Address of peer k."""
        return f"10.80.{k}.1"

    @staticmethod
    def uplink_dev(k: int) -> str:
        """The modem-side device whose egress is peer k's uplink."""
        return f"b{k}"

    @property
    def limit_bytes(self) -> int:
        """tbf `limit`: B = C x buffer_s, in bytes of frames."""
        return int(self.rate_bps / 8 * self.buffer_s)

    @property
    def tracker_url(self) -> str:
        """The announce URL peers use."""
        return f"http://{TRACKER_IP}:{TRACKER_PORT}/announce"

    def namespaces(self) -> list[str]:
        """Every namespace of this bed."""
        return [self.peer(k) for k in range(1, self.n + 1)] + [self.modem, self.hub]

    def setup(self) -> None:
        """Builds the namespaces, veths, routes, uplink qdiscs and counters."""
        r = proc.run
        for ns in self.namespaces():
            r(["ip", "netns", "add", ns])
            self.namespaces_made.append(ns)
            self.built = True
            r(["ip", "link", "set", "lo", "up"], ns=ns)
            r(["sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1",
               "net.ipv6.conf.default.disable_ipv6=1"], ns=ns)
        for ns in (self.modem, self.hub):
            r(["sysctl", "-q", "-w", "net.ipv4.ip_forward=1", "net.ipv4.conf.all.rp_filter=0",
               "net.ipv4.conf.default.rp_filter=0"], ns=ns)
        r(["ip", "-n", self.hub, "addr", "add", f"{TRACKER_IP}/32", "dev", "lo"])
        modem_batch, hub_batch = [], []
        for k in range(1, self.n + 1):
            p, a, b, h = "p0", f"a{k}", f"b{k}", f"h{k}"
            r(["ip", "-n", self.peer(k), "link", "add", p, "type", "veth", "peer", "name", a,
               "netns", self.modem])
            r(["ip", "-n", self.modem, "link", "add", b, "type", "veth", "peer", "name", h,
               "netns", self.hub])
            r(["ip", "-n", self.peer(k), "addr", "add", f"{self.peer_ip(k)}/24", "dev", p])
            r(["ethtool", "-K", p, "tso", "off", "gso", "off", "gro", "off"], ns=self.peer(k))
            r(["ip", "-n", self.peer(k), "link", "set", p, "up"])
            r(["ip", "-n", self.peer(k), "route", "add", "default", "via", f"10.80.{k}.254"])
            modem_batch += [f"addr add 10.80.{k}.254/24 dev {a}", f"addr add 10.81.{k}.1/24 dev {b}",
                            f"link set {a} up", f"link set {b} up",
                            f"route add default via 10.81.{k}.254 dev {b} table {100 + k}",
                            f"rule add iif {a} lookup {100 + k}"]
            hub_batch += [f"addr add 10.81.{k}.254/24 dev {h}", f"link set {h} up",
                          f"route add 10.80.{k}.0/24 via 10.81.{k}.1 dev {h}"]
        self._batch(self.modem, modem_batch)
        self._batch(self.hub, hub_batch)
        for k in range(1, self.n + 1):
            for ns, dev in ((self.modem, f"a{k}"), (self.modem, f"b{k}"), (self.hub, f"h{k}")):
                r(["ethtool", "-K", dev, "tso", "off", "gso", "off", "gro", "off"], ns=ns)
            r(["sysctl", "-q", "-w", f"net.ipv4.conf.a{k}.rp_filter=0",
               f"net.ipv4.conf.b{k}.rp_filter=0"], ns=self.modem)
        tc = []
        for k in range(1, self.n + 1):
            tc.append(f"qdisc replace dev {self.uplink_dev(k)} root tbf rate {self.rate_bps}bit "
                      f"burst {self.burst_bytes} limit {self.limit_bytes}")
        r(["tc", "-batch", "-"], ns=self.modem, input_text="\n".join(tc) + "\n", timeout=60)
        r(["nft", "-f", "-"], ns=self.modem, input_text=self.nft_rules())
        # Sanity: the first and the last peer reach each other and the tracker's address.
        r(["ping", "-c", "1", "-W", "3", self.peer_ip(self.n)], ns=self.peer(1), timeout=10)
        r(["ping", "-c", "1", "-W", "3", TRACKER_IP], ns=self.peer(self.n), timeout=10)

    def _batch(self, ns: str, lines: list[str]) -> None:
        proc.run(["ip", "-batch", "-"], ns=ns, input_text="\n".join(lines) + "\n", timeout=60)

    def nft_rules(self) -> str:
        """One counter per uplink and protocol (`up<k>_udp`, `up<k>_tcp`), in the modem's
        forward hook on the way in from the peer."""
        lines = [f"table inet {NFT_TABLE} {{"]
        for k in range(1, self.n + 1):
            lines += [f"  counter up{k}_udp {{ }}", f"  counter up{k}_tcp {{ }}"]
        lines += ["  chain uplinks {", "    type filter hook forward priority 0; policy accept;"]
        for k in range(1, self.n + 1):
            lines.append(f'    iifname "a{k}" meta l4proto udp counter name up{k}_udp')
            lines.append(f'    iifname "a{k}" meta l4proto tcp counter name up{k}_tcp')
        lines += ["  }", "}"]
        return "\n".join(lines) + "\n"

    def teardown(self) -> list[str]:
        """Kills whatever still runs in the namespaces and deletes them (never raises)."""
        problems: list[str] = []
        for ns in self.namespaces_made:
            problems += delete_ns(ns)
        self.namespaces_made = []
        self.built = False
        return problems


def lt_disposition_settings(bits: int) -> dict:
    """libtorrent's transport switches for a bt.transp_disposition bitmask (seed 003
    section 6.1.2: 1 dial TCP, 2 dial uTP, 4 accept TCP, 8 accept uTP)."""
    return {
        "enable_outgoing_tcp": bool(bits & 1),
        "enable_outgoing_utp": bool(bits & 2),
        "enable_incoming_tcp": bool(bits & 4),
        "enable_incoming_utp": bool(bits & 8),
    }


def start_tracker(topo: SwarmTopo, group: proc.Group, workdir: str, info_hashes: list[str]
                  ) -> proc.Background:
    """opentracker in the hub, HTTP and UDP on TRACKER_PORT, only `info_hashes` allowed
    (Debian builds it in whitelist mode)."""
    with open(os.path.join(workdir, "whitelist.txt"), "w") as f:
        f.write("".join(h.lower() + "\n" for h in info_hashes))
    # It chroots into -d before reading the whitelist: the path is relative to it.
    return group.start("opentracker", [
        "opentracker", "-i", TRACKER_IP, "-p", str(TRACKER_PORT), "-P", str(TRACKER_PORT),
        "-w", "whitelist.txt", "-d", workdir], ns=topo.hub)


def tracker_ready(topo: SwarmTopo) -> bool:
    """Whether the tracker answers (a scrape-less GET of its root from the hub)."""
    cp = proc.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "2",
                   f"http://{TRACKER_IP}:{TRACKER_PORT}/stats"], ns=topo.hub, check=False)
    return cp.returncode == 0 and cp.stdout.strip() not in ("", "000")


def sampler_argv(kind: str, target: str, interval: float, max_seconds: float) -> list[str]:
    """`python -m netbed.sampler` with this interpreter."""
    return [sys.executable, "-m", "netbed.sampler", kind, target, "--interval", str(interval),
            "--max-seconds", str(max_seconds)]


def read_jsonl(path: str) -> list[dict]:
    """The JSON objects of a file with one per line (other lines skipped)."""
    out = []
    try:
        with open(path, errors="replace") as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    try:
                        out.append(json.loads(line))
                    except ValueError:
                        pass
    except OSError:
        pass
    return out
