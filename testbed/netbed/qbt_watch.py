"""Watches a qBittorrent peer list: `python3 -m netbed.qbt_watch URL`.

Runs inside the qBittorrent peer's namespace for a whole interop case: fetches URL (the
WebUI's /api/v2/sync/torrentPeers of one torrent) every 50 ms and prints each distinct
view of the peers (`view`) as one JSON line `{"t": unix time, "peers": {addr: view}}`. A
loopback transfer can start and end within 0.3 s, between two polls of the harness loop;
this sees the connection. `watch_evidence` reads those lines back. Runs until stopped.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.request
from dataclasses import dataclass, field

UTP = "\u03bcTP"  # qBittorrent's PeerInfo::connectionType() for utp_socket peers
INTERVAL_S = 0.05


def view(peers: dict) -> dict:
    """What matters of each peer of the WebUI's peer list: transport (`connection`), the
    peer id's client, qBittorrent's client name and flags, and whether payload moved."""
    return {a: {"connection": p.get("connection", ""), "peer_id": p.get("peer_id_client", ""),
                "client": p.get("client", ""), "flags": p.get("flags", ""),
                "payload": bool((p.get("uploaded") or 0) + (p.get("downloaded") or 0))}
            for a, p in peers.items()}


@dataclass
class Evidence:
    """The transport seen over a case."""

    utp_seen: bool = False
    """A uTP peer whose BitTorrent handshake completed (peer id known) or that carried
    payload: a dial in progress is listed too and does not count."""
    tcp_seen: bool = False
    """Any peer on another transport, in any state."""
    connections: dict = field(default_factory=dict)
    """Peer address -> its last view (for the log)."""


def watch_evidence(lines: list[str]) -> Evidence:
    """The evidence in the watcher's output lines (lines that are not views are skipped)."""
    ev = Evidence()
    for line in lines:
        try:
            peers = json.loads(line)["peers"]
        except (ValueError, KeyError, TypeError):
            continue
        for addr, p in peers.items():
            ev.connections[addr] = p
            if p.get("connection") == UTP:
                if p.get("peer_id") or p.get("payload"):
                    ev.utp_seen = True
            elif p.get("connection"):
                ev.tcp_seen = True
    return ev


def main(url: str) -> None:
    seen = None
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                peers = json.loads(r.read().decode("utf-8")).get("peers") or {}
        except Exception:  # the WebUI not up yet or restarting: try again next tick
            peers = None
        if peers:
            v = view(peers)
            if v != seen:
                print(json.dumps({"t": round(time.time(), 3), "peers": v}), flush=True)
                seen = v
        time.sleep(INTERVAL_S)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 -m netbed.qbt_watch URL")
    main(sys.argv[1])
