"""BitTorrent over uTP between `ledbat torrent` and libtorrent, Transmission and qBittorrent.

Each case moves one file from a seeder to a downloader and asserts that
  1. the file arrives intact (SHA-1 of the result equals the source's), and
  2. the connection really was uTP: a packet capture (tshark with the `bt_utp_udp`
     heuristic) holds uTP SYN and DATA packets, a BitTorrent handshake carrying the
     torrent's info-hash inside uTP, and not one TCP segment on the peers' ports; and the
     real peer agrees (libtorrent: peer_info flag bit 17 and its uTP/TCP peer counters;
     Transmission: the RPC `isUTP` flag of the peer; qBittorrent: the WebUI peer list's
     `connection` field is "μTP" for a peer that carried payload, never anything else).

Peers run with the closed-test settings of docs/real-peers.md (TCP off where
the client allows it, uTP on, no DHT/LSD/PEX/UPnP/NAT-PMP, bound to the test address).
Transmission 3.00 cannot disable TCP or be told to dial a peer, so it only ever accepts
connections and the capture proves no TCP was used. qBittorrent 4.5.2 (qbittorrent-nox,
libtorrent-rasterbar 2.0.8 inside) runs with `Session\\BTProtocol=UTP` (TCP off both
ways), encryption off (we do not speak MSE) and a fresh profile per case, driven through
its WebUI API v2 on 127.0.0.1 of its namespace (curl); with no tracker or DHT it dials
only the peer handed to it by /api/v2/torrents/addPeers, which is how it reaches our
seeder in ours-to-qbt (in qbt-to-ours our downloader dials it).

Networks: `loopback` (127.0.0.1: fast, for correctness) and `netns` (seeder and
downloader in two network namespaces joined through a forwarding router namespace whose
egress toward the downloader is a `tbf` bottleneck: for behaviour; the test bed's
topology, namespaces `ledbat-tb-interop-*`).

Cases are named SEEDER-to-DOWNLOADER: ours-to-lt, lt-to-ours, ours-to-tr, tr-to-ours,
ours-to-qbt, qbt-to-ours (the interop tests), and lt-to-lt, lt-to-tr, tr-to-lt
(`--self-check`: validate the harness and the real peers without our code).

`--our-transport tcp` runs our side over TCP (and libtorrent and qBittorrent TCP-only) to check the
BitTorrent layer alone; the transport assertions are then inverted (TCP expected, no uTP).
That mode is a diagnostic, not the interop test.

Needs root (namespaces, capture) and this package installed (testbed/README.md). Installs
what is missing (pip libtorrent==2.1.1; apt transmission-daemon, transmission-cli,
qbittorrent-nox, tshark, curl) unless --no-install. Every case is bounded in time;
namespaces, processes and temporary files are removed on exit (also on Ctrl-C).
Exit status: 0 all cases passed, 1 a case failed, 2 the harness cannot run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile

from .. import install, proc
from ..guard import Deadline, arm, disarm
from ..paths import default_ledbat_bin
from .harness import Harness, Loopback, Netns
from .peers import log

ALL_CASES = ["ours-to-lt", "lt-to-ours", "ours-to-tr", "tr-to-ours", "ours-to-qbt", "qbt-to-ours"]
SELF_CASES = ["lt-to-lt", "lt-to-tr", "tr-to-lt"]


def needs_of(cases: list[str]) -> install.Needs:
    """What the cases need: libtorrent always (it reads and makes torrents), tshark, curl
    and the namespace tools, and the real clients that take part."""
    kinds = {k for c in cases for k in c.split("-to-")}
    commands = ["ip", "tc", "ethtool", "ping", "sysctl", "curl", "tshark"]
    if "tr" in kinds:
        commands += ["transmission-daemon", "transmission-create"]
    if "qbt" in kinds:
        commands.append("qbittorrent-nox")
    return install.Needs(commands, libtorrent=True)


def results_table(results: list[dict]) -> str:
    """The Markdown table of the cases' results (one row a case, "-" for what a failed case
    did not measure)."""
    rows = ["| case | net | bytes | result | seconds | Mbit/s | uTP pkts (syn/data/state/fin) "
            "| BT handshakes in uTP | TCP segs |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        c = r["capture"]
        t = c["utp_by_type"]
        rows.append(f"| {r['case']} | {r['net']} | {r['bytes']} | {'PASS' if r['ok'] else 'FAIL'} "
                    f"| {r.get('seconds', '-')} | {r.get('mbit_per_s', '-')} | "
                    f"{t.get('syn', 0)}/{t.get('data', 0)}/{t.get('state', 0)}/{t.get('fin', 0)} | "
                    f"{c['bt_handshakes_over_utp']} | {c['tcp_segments']} |")
    return "\n".join(rows) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[1:]))
    ap.add_argument("--cases", default=",".join(ALL_CASES),
                    help=f"comma list from {ALL_CASES + SELF_CASES}")
    ap.add_argument("--self-check", action="store_true",
                    help="run the harness self-check cases (no ledbat) instead")
    ap.add_argument("--net", choices=["loopback", "netns", "both"], default="both")
    ap.add_argument("--loopback-mb", type=float, default=20.0)
    ap.add_argument("--netns-mb", type=float, default=6.0)
    ap.add_argument("--rate-mbit", type=float, default=10.0)
    ap.add_argument("--limit-frames", type=int, default=100, help="tbf FIFO in full frames (100 = 121 ms at 10 Mbit/s)")
    ap.add_argument("--case-timeout", type=float, default=60.0)
    ap.add_argument("--our-transport", choices=["utp", "tcp"], default="utp")
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--our-extra", default="",
                    help='extra arguments for our seed and get, e.g. "--cc ledbat --target-ms 25"')
    ap.add_argument("--no-install", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (captures, logs)")
    ap.add_argument("--capture-bytes", type=int, default=200,
                    help="bytes of each packet captured (0: whole packets, for fuzz seed corpora)")
    ap.add_argument("--json-out", default=None, help="write all results here")
    ap.add_argument("--max-seconds", type=int, default=900,
                    help="overall time limit; on expiry everything is stopped and removed (exit 1)")
    a = ap.parse_args(argv)

    cases = SELF_CASES if a.self_check else [c for c in a.cases.split(",") if c]
    for c in cases:
        if c not in ALL_CASES + SELF_CASES:
            print(f"unknown case {c}", file=sys.stderr)
            return 2
    uses_ours = any("ours" in c for c in cases)
    if uses_ours and a.ledbat_bin is None:
        a.ledbat_bin = default_ledbat_bin()
    if install.preflight("namespaces, packet capture", a.ledbat_bin, need_bin=uses_ours) is None:
        return 2
    try:
        install.ensure(needs_of(cases), install=not a.no_install, log=log)
    except proc.CommandError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    h = Harness(a)
    h.workdir = tempfile.mkdtemp(prefix="ledbat-interop-")
    h.group = proc.Group(h.workdir)
    nets = []
    if a.net in ("loopback", "both"):
        nets.append((Loopback(), int(a.loopback_mb * 1e6)))
    if a.net in ("netns", "both"):
        nets.append((Netns(a.rate_mbit, a.limit_frames, h.workdir), int(a.netns_mb * 1e6)))
    results = []

    def cleanup(*_):
        h.group.stop_all(grace=2.0)
        for n, _ in nets:
            n.cleanup()
        if not a.keep:
            shutil.rmtree(h.workdir, ignore_errors=True)

    arm(a.max_seconds)
    try:
        for net, size in nets:
            try:
                net.setup()
            except proc.CommandError as e:
                print(f"error: cannot build the {net.name} network: {e}", file=sys.stderr)
                return 2
            for case in cases:
                log(f"{case} over {net.name} ({size} B) ...")
                r = h.run_case(case, net, size)
                results.append(r)
                log(("PASS" if r["ok"] else "FAIL"), json.dumps(r))
            net.cleanup()
    except (Deadline, KeyboardInterrupt) as e:
        log("time limit hit" if isinstance(e, Deadline) else "interrupted")
        return 1
    finally:
        disarm()
        if a.keep:
            log("work directory kept:", h.workdir)
        cleanup()

    print(results_table(results), end="")
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if results and all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
