#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, from real traffic (fuzz/README.md, "Seed corpora").

    python3 fuzz/seeds.py capture WORKDIR     # an interop run's kept work directory
    python3 fuzz/seeds.py torrents [WORKDIR]  # torrents made by libtorrent and Transmission
    python3 fuzz/seeds.py tracker             # opentracker's answers to real announces

`capture` reads the whole-packet captures that `interop/run_interop.py --keep
--capture-bytes 0` leaves (one per case: our client against libtorrent, Transmission or
qBittorrent over uTP on loopback) and writes, for what the real peer sent us:
  codec/          distinct uTP datagrams;
  endpoint/       the datagram sequence in `ledbat_utp::replay`'s format (its first and its
                  last datagrams, with the time between them), rebased onto our ids;
  wire/           the BitTorrent byte stream it sent (uTP DATA reordered by seq_nr), cut;
  ext_handshake/  its BEP 10 extended handshake.
`torrents` writes metainfo/ from libtorrent's and transmission-create's torrents of a few
shapes (single and multi file, several piece sizes, announce lists) and any .torrent under
WORKDIR. `tracker` runs opentracker on loopback (whitelist mode) and writes tracker/ from its
raw HTTP answers to announces (compact, several numwant and events, a torrent it does not
track, a scrape). Files are named by their SHA-1 as libFuzzer names corpus files, in
fuzz/corpus/TARGET; `fuzz/run merge` minimises them afterwards.

Needs tshark (capture), Python libtorrent and transmission-create (torrents), opentracker
(tracker): the interop harness installs all of them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
SEED_PORT, GET_PORT = 46881, 46882  # netbed.interop.harness
HEADER_LEN = 20
ST_DATA, ST_FIN, ST_STATE, ST_RESET, ST_SYN = range(5)
# A replay seed holds this many of the peer's first and last datagrams.
HEAD, TAIL = 40, 12
WIRE_BYTES = 48 * 1024


def write(target: str, data: bytes) -> bool:
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, hashlib.sha1(data).hexdigest())
    if os.path.exists(p):
        return False
    with open(p, "wb") as f:
        f.write(data)
    return True


def udp_datagrams(pcap: str) -> list[tuple[float, int, int, bytes]]:
    """(time, source port, destination port, payload) of every UDP packet, in order."""
    out = subprocess.run(["tshark", "-r", pcap, "-Y", "udp", "-T", "fields", "-e",
                          "frame.time_epoch", "-e", "udp.srcport", "-e", "udp.dstport",
                          "-e", "udp.payload"], capture_output=True, text=True, check=True)
    rows = []
    for line in out.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) < 4 or not parts[3]:
            continue
        rows.append((float(parts[0]), int(parts[1]), int(parts[2]),
                     bytes.fromhex(parts[3].replace(":", ""))))
    return rows


def header(d: bytes):
    """(type, conn_id, seq_nr, ack_nr) of a uTP datagram, or None."""
    if len(d) < HEADER_LEN or d[0] & 0x0F != 1 or d[0] >> 4 > 4:
        return None
    ty = d[0] >> 4
    conn_id, = struct.unpack(">H", d[2:4])
    seq, ack = struct.unpack(">HH", d[16:20])
    return ty, conn_id, seq, ack


def payload(d: bytes) -> bytes:
    """The payload after the extension chain (empty when malformed)."""
    ext, pos = d[1], HEADER_LEN
    while ext:
        if pos + 2 > len(d):
            return b""
        ext, n = d[pos], d[pos + 1]
        pos += 2 + n
    return d[pos:] if pos <= len(d) else b""


def replay_input(flags: int, id0: int, isn0: int, seq: list[tuple[float, bytes]]) -> bytes:
    """`ledbat_utp::replay`'s format: header, then the datagrams of peer 0 with time steps
    between them and an application turn (accept, read, write) after each one."""
    out = bytearray([flags]) + struct.pack(">HH", id0, isn0)
    last = seq[0][0] if seq else 0.0
    for t, d in seq:
        steps = int(round((t - last) / 0.010))
        last = t
        while steps > 0:
            n = min(steps, 255)
            out += bytes([1 << 2, n])
            steps -= n
        out += bytes([0]) + struct.pack(">H", len(d)) + d
        out += bytes([2 << 2])
    return bytes(out)


def stream_of(datagrams: list[bytes]) -> bytes:
    """The byte stream carried by a peer's DATA packets, in seq_nr order from the first
    one, up to the first gap."""
    by_seq = {}
    first = None
    for d in datagrams:
        h = header(d)
        if h is None or h[0] != ST_DATA:
            continue
        if first is None:
            first = h[2]
        by_seq.setdefault(h[2], payload(d))
    out = bytearray()
    s = first
    while s is not None and s in by_seq and len(out) < WIRE_BYTES:
        out += by_seq[s]
        s = (s + 1) & 0xFFFF
    return bytes(out[:WIRE_BYTES])


def frames(stream: bytes):
    """(message id, body) of the frames after the 68-byte handshake."""
    pos = 68 if stream[:20] == b"\x13BitTorrent protocol" else 0
    while pos + 4 <= len(stream):
        n, = struct.unpack(">I", stream[pos:pos + 4])
        if pos + 4 + n > len(stream):
            break
        body = stream[pos + 4:pos + 4 + n]
        pos += 4 + n
        if body:
            yield body[0], body[1:]


def from_capture(pcap: str, case: str) -> dict:
    seeder, getter = case.split("-to-")
    if "ours" not in (seeder, getter):
        return {}
    # The real peer listens on its case port; ours may dial from any port (`torrent get`).
    peer_port = GET_PORT if seeder == "ours" else SEED_PORT
    rows = udp_datagrams(pcap)
    theirs = [(t, d) for t, s, dst, d in rows if s == peer_port]
    ours = [d for _, s, dst, d in rows if dst == peer_port]
    our_port = next((s for _, s, dst, _ in rows if dst == peer_port), None)
    if not theirs:
        return {}
    first_syn = next(((s, d) for _, s, _, d in rows
                      if header(d) and header(d)[0] == ST_SYN), None)
    dial = first_syn is not None and first_syn[0] == our_port
    our_first = next((header(d) for d in ours if header(d)), None)
    if dial:
        _, id0, isn0, _ = header(first_syn[1])
    else:
        id0, isn0 = 0, our_first[2] if our_first else 0
    n = {"codec": 0, "endpoint": 0, "wire": 0, "ext_handshake": 0}
    seen_shapes = set()
    for _, d in theirs:
        h = header(d)
        shape = (h[0] if h else -1, d[1] if len(d) > 1 else -1, min(len(d), 200) // 50)
        if shape not in seen_shapes:
            seen_shapes.add(shape)
            n["codec"] += write("codec", d[:2048])
    flags = 1 if dial else 0
    head = replay_input(flags, id0, isn0, theirs[:HEAD])
    n["endpoint"] += write("endpoint", head)
    if len(theirs) > HEAD:
        n["endpoint"] += write("endpoint", head + replay_input(0, 0, 0, theirs[-TAIL:])[5:])
    stream = stream_of([d for _, d in theirs])
    if stream:
        n["wire"] += write("wire", stream)
        for mid, body in frames(stream):
            if mid == 20 and body[:1] == b"\x00":
                n["ext_handshake"] += write("ext_handshake", body[1:])
    return n


def cmd_capture(workdir: str) -> None:
    for name in sorted(os.listdir(workdir)):
        if name.startswith("capture-") and name.endswith(".pcapng"):
            case = name[len("capture-"):].rsplit("-", 1)[0]
            print(f"{name}: {from_capture(os.path.join(workdir, name), case)}")


def cmd_torrents(workdir: str | None) -> None:
    import libtorrent as lt
    tmp = tempfile.mkdtemp(prefix="ledbat-seeds-")
    made = 0
    try:
        single = os.path.join(tmp, "one.bin")
        with open(single, "wb") as f:
            f.write(hashlib.shake_256(b"one").digest(300_000))
        multi = os.path.join(tmp, "album")
        os.makedirs(os.path.join(multi, "disc 2"))
        for i, (sub, size) in enumerate([("a.flac", 70_000), ("disc 2/b.flac", 50_000),
                                         ("disc 2/c.txt", 123)]):
            with open(os.path.join(multi, sub), "wb") as f:
                f.write(hashlib.shake_256(bytes([i])).digest(size))
        for path in (single, multi):
            for piece in (16384, 65536, 262144):
                fs = lt.file_storage()
                lt.add_files(fs, path)
                ct = lt.create_torrent(fs, piece, flags=lt.create_torrent.v1_only)
                ct.add_tracker("http://10.82.0.1:6969/announce", 0)
                if piece == 65536:
                    ct.add_tracker("http://tracker.example:80/announce", 1)
                    ct.set_comment("seed corpus")
                lt.set_piece_hashes(ct, os.path.dirname(path))
                made += write("metainfo", lt.bencode(ct.generate()))
            out = os.path.join(tmp, "tr.torrent")
            if shutil.which("transmission-create"):
                subprocess.run(["transmission-create", "-o", out, "-t",
                                "http://10.82.0.1:6969/announce", "-s", "32", path],
                               capture_output=True, check=True)
                with open(out, "rb") as f:
                    made += write("metainfo", f.read())
                os.unlink(out)
        if workdir:
            for name in os.listdir(workdir):
                if name.endswith(".torrent"):
                    with open(os.path.join(workdir, name), "rb") as f:
                        made += write("metainfo", f.read())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"metainfo: {made} new")


def http_get(port: int, target: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"GET {target} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n"
                  "Connection: close\r\n\r\n".encode())
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


def pct(b: bytes) -> str:
    return "".join(chr(c) if c < 128 and (chr(c).isalnum() or chr(c) in "-._~") else f"%{c:02X}"
                   for c in b)


def cmd_tracker() -> None:
    tmp = tempfile.mkdtemp(prefix="ledbat-tracker-")
    port = 46969
    hashes = [hashlib.sha1(bytes([i])).digest() for i in range(3)]
    with open(os.path.join(tmp, "whitelist.txt"), "w") as f:
        f.write("".join(h.hex() + "\n" for h in hashes[:2]))
    p = subprocess.Popen(["opentracker", "-i", "127.0.0.1", "-p", str(port), "-P", str(port),
                          "-w", "whitelist.txt", "-d", tmp], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    made = 0
    try:
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)

        def announce(h, k, extra=""):
            pid = b"-LB0100-" + f"{k:012d}".encode()
            return (f"/announce?info_hash={pct(h)}&peer_id={pct(pid)}&port={6881 + k}"
                    f"&uploaded=0&downloaded=0&left={1000 * k}{extra}")

        # A swarm of peers so the answers carry peer lists of several sizes.
        for k in range(1, 9):
            http_get(port, announce(hashes[0], k, "&compact=1&event=started"))
        targets = [
            announce(hashes[0], 20, "&compact=1&numwant=50&event=started"),
            announce(hashes[0], 21, "&compact=1&numwant=3"),
            announce(hashes[0], 22, "&compact=1&numwant=0&event=completed"),
            announce(hashes[0], 3, "&compact=1&event=stopped"),
            announce(hashes[0], 23, "&compact=0&numwant=5"),
            announce(hashes[1], 1, "&compact=1&event=started"),
            announce(hashes[2], 1, "&compact=1"),  # not whitelisted
            "/announce?peer_id=x",  # malformed
            f"/scrape?info_hash={pct(hashes[0])}",
            "/nothing-here",
        ]
        for t in targets:
            made += write("tracker", http_get(port, t))
    finally:
        os.killpg(p.pid, 15)
        p.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"tracker: {made} new")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("capture", "torrents", "tracker"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[0] == "capture":
        cmd_capture(argv[1])
    elif argv[0] == "torrents":
        cmd_torrents(argv[1] if len(argv) > 1 else None)
    else:
        cmd_tracker()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
