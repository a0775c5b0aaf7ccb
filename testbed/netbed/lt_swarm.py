#!/usr/bin/env python3
"""A libtorrent 2.x (PyPI `libtorrent`) swarm member for the swarm bed.

    python3 -m netbed.lt_swarm TORRENT --save DIR --listen IP:PORT --disposition N [--seed]

Joins the torrent's swarm through its tracker, with the transports of µTorrent's
`bt.transp_disposition` bitmask N mapped onto libtorrent's four switches (1
`enable_outgoing_tcp`, 2 `enable_outgoing_utp`, 4 `enable_incoming_tcp`, 8
`enable_incoming_utp`; seed 003 section 6.1.2). Everything else is libtorrent's default
(choking, slots, request queue) but for the closed-test settings of docs/real-peers.md:
no DHT, LSD, UPnP, NAT-PMP or IP notifier, empty DHT bootstrap list, bound to the
namespace address, plaintext handshakes. One connection per IP (libtorrent's default; every
peer of the bed has its own address). A seed is added in seed mode (data trusted).

Runs until SIGTERM/SIGINT or --max-seconds; prints one JSON line per second
(`{"event": "progress", "t", "pieces", "down", "up", "peers"}`), `{"event": "complete",
"t"}` when the last piece is verified, and a final `{"event": "summary", ...}` with the
completion time, payload totals, and payload per transport summed over the peers it saw
(`peer_info` totals, polled every second: bytes a connection moves after the last poll
before it closes are missed; the bed's wire counters are the reference).
"""

import argparse
import json
import signal
import sys
import time

import libtorrent as lt

from netbed.lt_peer import UTP_SOCKET_FLAG, add_torrent, closed_settings
from netbed.swarm import lt_disposition_settings as disposition_settings


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("torrent")
    ap.add_argument("--save", required=True, help="directory holding (seed) or receiving the data")
    ap.add_argument("--listen", required=True, help="IP:PORT for uTP and TCP")
    ap.add_argument("--disposition", type=int, default=31)
    ap.add_argument("--seed", action="store_true", help="the data is complete (seed mode)")
    ap.add_argument("--max-seconds", type=float, default=3600.0)
    a = ap.parse_args()
    if not 0 < a.disposition <= 31 or not a.disposition & 15:
        ap.error(f"--disposition {a.disposition}: a bitmask 1..31 with a transport bit")

    stop = {"flag": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__("flag", True))
    signal.signal(signal.SIGINT, lambda *_: stop.__setitem__("flag", True))

    settings = closed_settings(a.listen)
    settings.update(disposition_settings(a.disposition))
    settings.update({
        "allow_multiple_connections_per_ip": False,
        "alert_mask": lt.alert.category_t.error_notification
        | lt.alert.category_t.status_notification,
    })
    ses = lt.session(settings)
    h, _ = add_torrent(ses, a.torrent, a.save, seed_mode=a.seed)

    t0 = time.monotonic()
    completed = 0.0 if a.seed else None
    by_peer = {}  # (ip, port, utp) -> [up, down], the largest totals seen
    errors = []
    max_peers = 0
    last_print = -10.0
    while not stop["flag"]:
        now = time.monotonic() - t0
        if now > a.max_seconds:
            break
        st = h.status()
        if completed is None and st.is_seeding:
            completed = now
            print(json.dumps({"event": "complete", "t": round(now, 3)}), flush=True)
        for p in h.get_peer_info():
            key = (p.ip[0], p.ip[1], bool(int(p.flags) & UTP_SOCKET_FLAG))
            v = by_peer.setdefault(key, [0, 0])
            v[0] = max(v[0], p.total_upload)
            v[1] = max(v[1], p.total_download)
        max_peers = max(max_peers, st.num_peers)
        for al in ses.pop_alerts():
            if al.category() & lt.alert.category_t.error_notification:
                errors.append(al.message())
        if now - last_print >= 1.0:
            last_print = now
            print(json.dumps({"event": "progress", "t": round(now, 2), "pieces": st.num_pieces,
                              "down": st.total_payload_download, "up": st.total_payload_upload,
                              "peers": st.num_peers}), flush=True)
        time.sleep(0.2)

    st = h.status()
    per = {"utp": {"uploaded": 0, "downloaded": 0}, "tcp": {"uploaded": 0, "downloaded": 0}}
    for (_ip, _port, utp), (up, down) in by_peer.items():
        t = per["utp" if utp else "tcp"]
        t["uploaded"] += up
        t["downloaded"] += down
    print(json.dumps({
        "event": "summary", "complete": bool(st.is_seeding), "completed_after": completed,
        "seconds": round(time.monotonic() - t0, 3), "pieces": st.num_pieces,
        "payload_down": st.total_payload_download, "payload_up": st.total_payload_upload,
        "by_transport": per, "max_peers": max_peers, "peers_seen": len(by_peer),
        "errors": errors[-10:],
    }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
