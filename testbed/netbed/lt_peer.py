#!/usr/bin/env python3
"""A libtorrent (PyPI `libtorrent` 2.x) peer for the interop tests, uTP only.

    python3 -m netbed.lt_peer {seed,get} TORRENT --save DIR --listen IP:PORT [--peer IP:PORT]

Seeds or downloads one torrent with the closed-test settings of docs/real-peers.md: TCP
off in both directions, uTP on, no DHT, LSD, UPnP, NAT-PMP or IP notifier, no DHT bootstrap
nodes, listening on one address, several connections per IP allowed, plaintext outgoing handshakes (our peer does not speak MSE).

It prints one JSON object per second on stdout ({"event": "progress", ...}) and a final
{"event": "summary", ...} with what proves the transport was uTP: the maximum seen of
libtorrent's `peer.num_utp_peers` / `peer.num_tcp_peers` session counters, and whether
any connected peer had bit 17 (`utp_socket`) of `peer_info.flags` set.

Exit status: 0 when the goal was reached (`get`: every piece verified; `seed`: at least
`--expect-upload` payload bytes uploaded), 1 otherwise (timeout), 2 on bad arguments.
"""

import argparse
import json
import signal
import sys
import time

import libtorrent as lt

UTP_SOCKET_FLAG = 1 << 17  # peer_info::utp_socket in libtorrent 2.x (not exported to Python)


def closed_settings(listen, tcp=False):
    """The closed-test settings; `tcp` swaps the transports (TCP only, for checking the
    BitTorrent layer of a peer whose uTP is not available)."""
    return {
        "listen_interfaces": listen,
        "enable_outgoing_tcp": tcp,
        "enable_incoming_tcp": tcp,
        "enable_outgoing_utp": not tcp,
        "enable_incoming_utp": not tcp,
        "enable_dht": False,
        "enable_lsd": False,
        "enable_upnp": False,
        "enable_natpmp": False,
        "enable_ip_notifier": False,
        "dht_bootstrap_nodes": "",
        "allow_multiple_connections_per_ip": True,
        "out_enc_policy": 2,  # pe_disabled: plain BitTorrent handshakes
        "in_enc_policy": 1,  # pe_enabled: accept both
        "alert_mask": lt.alert.category_t.error_notification
        | lt.alert.category_t.status_notification
        | lt.alert.category_t.peer_notification,
    }


def add_torrent(ses, torrent: str, save: str, seed_mode: bool = False):
    """Adds `torrent` to `ses`, neither auto-managed nor paused (or it never connects,
    docs/real-peers.md); `seed_mode` trusts the data instead of checking it first.
    Returns (handle, torrent_info)."""
    atp = lt.add_torrent_params()
    atp.ti = lt.torrent_info(torrent)
    atp.save_path = save
    atp.flags &= ~lt.torrent_flags.auto_managed
    atp.flags &= ~lt.torrent_flags.paused
    if seed_mode:
        atp.flags |= lt.torrent_flags.seed_mode
    return ses.add_torrent(atp), atp.ti


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["seed", "get"])
    ap.add_argument("torrent")
    ap.add_argument("--save", required=True, help="directory holding (seed) or receiving (get) the data")
    ap.add_argument("--listen", required=True, help="IP:PORT for uTP")
    ap.add_argument("--peer", action="append", default=[], help="IP:PORT to connect to")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--expect-upload", type=int, default=0, help="seed: stop once this many payload bytes went up")
    ap.add_argument("--tcp", action="store_true", help="TCP only instead of uTP only (checks the BitTorrent layer alone)")
    ap.add_argument("--linger", type=float, default=0.0, help="seconds to keep running after the goal")
    a = ap.parse_args()

    stop = {"flag": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__("flag", True))
    signal.signal(signal.SIGINT, lambda *_: stop.__setitem__("flag", True))

    ses = lt.session(closed_settings(a.listen, a.tcp))
    h, ti = add_torrent(ses, a.torrent, a.save)

    t0 = time.monotonic()
    connected = set()
    maxima = {"peer.num_utp_peers": 0, "peer.num_tcp_peers": 0}
    utp_flag_seen = False
    non_utp_peer_seen = False
    errors = []
    reached = False
    reached_at = None
    last_print = 0.0
    while not stop["flag"]:
        now = time.monotonic() - t0
        st = h.status()
        for p in a.peer:
            ip, port = p.rsplit(":", 1)
            if p not in connected and st.state in (
                lt.torrent_status.downloading,
                lt.torrent_status.seeding,
                lt.torrent_status.finished,
            ):
                h.connect_peer((ip, int(port)))
                connected.add(p)
        for pi in h.get_peer_info():
            if int(pi.flags) & UTP_SOCKET_FLAG:
                utp_flag_seen = True
            elif not int(pi.flags) & int(lt.peer_info.connecting):
                non_utp_peer_seen = True
        ses.post_session_stats()
        for al in ses.pop_alerts():
            if isinstance(al, lt.session_stats_alert):
                for k in maxima:
                    maxima[k] = max(maxima[k], al.values.get(k, 0))
            elif al.category() & lt.alert.category_t.error_notification:
                errors.append(al.message())
        if a.mode == "get":
            goal = st.is_seeding or st.is_finished and st.num_pieces == ti.num_pieces()
        else:
            goal = st.is_seeding and a.expect_upload > 0 and st.total_payload_upload >= a.expect_upload
        if goal and not reached:
            reached, reached_at = True, now
        if now - last_print >= 1.0:
            last_print = now
            print(json.dumps({
                "event": "progress", "t": round(now, 2), "state": str(st.state),
                "pieces": st.num_pieces, "down": st.total_payload_download,
                "up": st.total_payload_upload, "peers": st.num_peers,
            }), flush=True)
        if reached and now - reached_at >= a.linger:
            break
        if now > a.timeout:
            break
        time.sleep(0.1)

    st = h.status()
    print(json.dumps({
        "event": "summary", "goal_reached": reached, "seconds": round(time.monotonic() - t0, 2),
        "seconds_to_goal": reached_at, "pieces": st.num_pieces,
        "total_pieces": ti.num_pieces(), "payload_down": st.total_payload_download,
        "payload_up": st.total_payload_upload, "max_utp_peers": maxima["peer.num_utp_peers"],
        "max_tcp_peers": maxima["peer.num_tcp_peers"], "utp_flag_seen": utp_flag_seen,
        "non_utp_peer_seen": non_utp_peer_seen, "errors": errors[-10:],
        "info_hash": str(ti.info_hash()),
    }), flush=True)
    return 0 if reached else 1


if __name__ == "__main__":
    sys.exit(main())
