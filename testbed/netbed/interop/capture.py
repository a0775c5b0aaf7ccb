"""The packet capture of an interop case and what it proves about the transport.

tshark captures the headers (200 bytes: the uTP header and a BitTorrent handshake) of every
UDP and TCP packet on the two peers' ports (whole packets with `--capture-bytes 0`, which is
how the fuzz targets' seed corpora are taken: fuzz/README.md); after the case, tshark with the `bt_utp_udp`
heuristic dissector counts uTP packets by type, BitTorrent handshakes carried inside uTP
for the case's info-hash, and TCP segments (`summarise`). `capture_ok` is the verdict.
"""

from __future__ import annotations

import os
import re
import signal
import time

from .. import proc

# BEP 29 packet types (the `bt-utp.type` field).
UTP_TYPES = {"0": "data", "1": "fin", "2": "state", "3": "reset", "4": "syn"}
SNAP_BYTES = 200


def capture_cmd(iface: str, ports: list[int], path: str, snap: int = SNAP_BYTES,
                control_ports: list[int] = ()) -> list[str]:
    """tshark writing the first `snap` bytes (0: all) of the UDP and TCP packets on `ports`
    to `path`, except TCP on `control_ports`.

    The real peers are driven over HTTP on 127.0.0.1 (qBittorrent's WebUI, Transmission's
    RPC). Those connections leave from an ephemeral port, and the ephemeral range holds the
    peers' ports: on loopback a poll that happens to leave from a peer's port would show up
    as TCP "on the peer's port" though it carries no BitTorrent. A segment with a control
    port at either end is such a poll, never a peer connection."""
    flt = f"(udp or tcp) and ({' or '.join(f'port {p}' for p in ports)})"
    if control_ports:
        flt += f" and not (tcp and ({' or '.join(f'port {p}' for p in control_ports)}))"
    return ["tshark", "-i", iface, "-s", str(snap), "-f", flt, "-w", path, "-q"]


def fields_cmd(path: str, display_filter: str, fields: list[str]) -> list[str]:
    """tshark printing `fields` (tab-separated) of the packets of `path` that match."""
    argv = ["tshark", "-r", path, "--enable-heuristic", "bt_utp_udp", "-Y", display_filter,
            "-T", "fields"]
    for f in fields:
        argv += ["-e", f]
    return argv


def summarise(utp_types: list[str], handshake_hashes: list[str], tcp_segments: int,
              info_hash: str) -> dict:
    """The capture's counts: uTP packets in all and by type name, handshakes in uTP for
    `info_hash` (lower-case hex), TCP segments."""
    types: dict[str, int] = {}
    for t in utp_types:
        types[t] = types.get(t, 0) + 1
    return {
        "utp_packets": sum(types.values()),
        "utp_by_type": {UTP_TYPES.get(k, k): v for k, v in sorted(types.items())},
        "bt_handshakes_over_utp": sum(1 for x in handshake_hashes if x.lower() == info_hash),
        "tcp_segments": tcp_segments,
    }


def capture_ok(c: dict, size: int, want_utp: bool) -> bool:
    """uTP: a SYN, more DATA packets than 64 KiB blocks in the file (a loose floor: no uTP
    packet carries 64 KiB), a handshake for the torrent inside
    uTP and no TCP segment. TCP: some TCP segment and no uTP packet."""
    if want_utp:
        return (c["utp_by_type"].get("syn", 0) >= 1
                and c["utp_by_type"].get("data", 0) > size // 65536
                and c["bt_handshakes_over_utp"] >= 1 and c["tcp_segments"] == 0)
    return c["tcp_segments"] > 0 and c["utp_packets"] == 0


def packets_captured(stderr: str) -> int | None:
    """The count the capturing tshark states when it stops ("1234 packets captured"), or
    None when it stated none (killed, or it never started)."""
    m = re.findall(r"^\s*(\d+) packets? captured", stderr, flags=re.M)
    return int(m[-1]) if m else None


class Capture:
    """tshark running on the case's capture interface from start to `stop`.

    What the capture did is kept beside its counts (`analyse`): the capturing tshark's exit
    status and stated packet count, the file's size and every failed read. A read that
    fails, or that finds no packet in a file the capture says holds some, is tried again
    once after a second; both attempts are recorded."""

    READ_RETRY_S = 1.0

    def __init__(self, h, ports, control_ports=()):
        iface, ns = h.net.capture_iface
        self.path = os.path.join(h.workdir, f"capture-{h.case}-{h.net.name}.pcapng")
        snap = getattr(h.a, "capture_bytes", SNAP_BYTES)
        cmd = capture_cmd(iface, ports, self.path, snap, sorted(control_ports))
        self.proc = h.group.start("tshark", cmd, ns=ns)
        self.exit_code: int | None = None
        self.read_errors: list[str] = []
        proc.wait_until(lambda: "Capturing on" in self.proc.stderr_text(), 10, 0.1)
        time.sleep(0.3)

    def stop(self):
        time.sleep(0.5)
        # SIGINT lets tshark's dumpcap write out what it holds; SIGKILL only after 10 s.
        self.exit_code = self.proc.stop(grace=10.0, sig=signal.SIGINT)

    def _fields(self, display_filter, *fields):
        r = proc.run(fields_cmd(self.path, display_filter, list(fields)), check=False,
                     timeout=300)
        if r.returncode != 0:
            self.read_errors.append(
                f"exit {r.returncode} reading {display_filter!r}: {r.stderr.strip()[-300:]}")
        return [line.split("\t") for line in r.stdout.splitlines() if line]

    def _counts(self, info_hash):
        types = [row[0] for row in self._fields("bt-utp", "bt-utp.type")]
        hs = [row[0] for row in self._fields("bt-utp and bittorrent.info_hash",
                                             "bittorrent.info_hash")]
        tcp = len(self._fields("tcp", "frame.number"))
        return summarise(types, hs, tcp, info_hash)

    def analyse(self, info_hash):
        """The capture's counts (`summarise`) and how the capture went: `file_bytes`,
        `capture_exit`, `packets_captured` (tshark's own count), `read_errors`,
        `read_attempts`."""
        stated = packets_captured(self.proc.stderr_text())
        c = self._counts(info_hash)
        attempts = 1
        seen = c["utp_packets"] + c["tcp_segments"]
        if self.read_errors or (seen == 0 and stated):
            time.sleep(self.READ_RETRY_S)
            c = self._counts(info_hash)
            attempts = 2
        try:
            size = os.path.getsize(self.path)
        except OSError:
            size = None
        c.update(file_bytes=size, capture_exit=self.exit_code, packets_captured=stated,
                 read_errors=list(self.read_errors), read_attempts=attempts)
        if stated is None or c["read_errors"]:
            c["capture_stderr_tail"] = self.proc.stderr_text()[-400:]
        return c
