#!/usr/bin/env python3
"""A libtorrent 2.x (PyPI `libtorrent`) peer for the test bed, uTP only.

    python3 -m netbed.lt_bed seed  TORRENT --save DIR --listen IP:PORT
    python3 -m netbed.lt_bed leech TORRENT --save DIR --listen IP:PORT --peer IP:PORT

Runs until SIGTERM/SIGINT (or --max-seconds) and exits 0; prints one JSON line per second
(`{"t", "state", "down", "up", "peers"}`; payload byte totals as libtorrent counts them).

Settings are the closed-test ones of docs/real-peers.md, taken from the interop
harness's peer (`netbed.lt_peer.closed_settings`): TCP off both ways, uTP on, no
DHT, LSD, UPnP, NAT-PMP or IP notifier, empty DHT bootstrap list, bound to the namespace
address, several connections per IP. The torrent is added neither auto-managed nor paused
(or it never connects). The seeder adds it in seed mode (pieces are trusted, hashed when
first sent) so it serves at once without checking the whole file first.

The leecher keeps dialling its seeder (every second while it has no peer, with
`min_reconnect_time` 1 s and `max_failcount` 1000 so that libtorrent retries at once),
because the bed starts it before the seeder; the bed identifies the flow by the leecher's listen port,
which is where libtorrent's uTP sends the data (one UDP socket per session).
"""

import argparse
import json
import signal
import sys
import time

import libtorrent as lt

from netbed.lt_peer import add_torrent, closed_settings  # the interop peer's settings: one source of truth


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["seed", "leech"])
    ap.add_argument("torrent")
    ap.add_argument("--save", required=True, help="directory holding (seed) or receiving (leech) the data")
    ap.add_argument("--listen", required=True, help="IP:PORT for uTP")
    ap.add_argument("--peer", default=None, help="leech: the seeder's IP:PORT, dialled until connected")
    ap.add_argument("--max-seconds", type=float, default=3600.0)
    a = ap.parse_args()
    if a.mode == "leech" and not a.peer:
        ap.error("leech needs --peer")

    stop = {"flag": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__("flag", True))
    signal.signal(signal.SIGINT, lambda *_: stop.__setitem__("flag", True))

    settings = closed_settings(a.listen)
    # The leecher starts before its seeder: its first dials fail. Retry every second
    # instead of after min_reconnect_time (60 s) x failures, and never give up the peer
    # (max_failcount, default 3).
    settings.update({"min_reconnect_time": 1, "max_failcount": 1000})
    ses = lt.session(settings)
    h, _ = add_torrent(ses, a.torrent, a.save, seed_mode=a.mode == "seed")
    peer = None
    if a.peer:
        ip, port = a.peer.rsplit(":", 1)
        peer = (ip, int(port))

    t0 = time.monotonic()
    last_dial = -10.0
    last_print = -10.0
    while not stop["flag"]:
        now = time.monotonic() - t0
        if now > a.max_seconds:
            break
        st = h.status()
        if peer is not None and st.num_peers == 0 and now - last_dial >= 1.0:
            h.connect_peer(peer)
            last_dial = now
        if now - last_print >= 1.0:
            last_print = now
            print(json.dumps({"t": round(now, 2), "state": str(st.state),
                              "down": st.total_payload_download, "up": st.total_payload_upload,
                              "peers": st.num_peers}), flush=True)
        ses.pop_alerts()
        time.sleep(0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
