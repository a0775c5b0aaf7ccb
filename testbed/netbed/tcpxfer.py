"""A bulk TCP transfer with a chosen congestion control that ends when the receiver has
every byte (iperf3's `-n` ends when the sender has written them, and its server quits
before the last window arrives).

    python3 -m netbed.tcpxfer recv IP PORT
    python3 -m netbed.tcpxfer send IP PORT --cc NAME (--bytes N | --seconds S) [--bind IP]

The receiver reads until the sender closes and prints one JSON line: bytes, and the times
(CLOCK_MONOTONIC) of the first and the last byte. The sender sets TCP_CONGESTION before it
connects, writes zeros, closes its side and waits until the receiver has closed too, then
prints its JSON line (bytes, seconds, the congestion control the socket used).
"""

from __future__ import annotations

import argparse
import json
import signal
import socket
import sys
import time

CHUNK = 64 * 1024


def _on_term(_sig, _frame):
    raise KeyboardInterrupt()


def recv(ip: str, port: int) -> dict:
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((ip, port))
    srv.listen(1)
    print(json.dumps({"listening": port}), flush=True)
    conn, peer = srv.accept()
    total, first, last = 0, None, None
    try:
        while True:
            b = conn.recv(CHUNK)
            if not b:
                break
            now = time.monotonic()
            first = first if first is not None else now
            last = now
            total += len(b)
    except KeyboardInterrupt:
        pass
    finally:
        conn.close()
        srv.close()
    return {"bytes": total, "first_t": first, "last_t": last, "peer": f"{peer[0]}:{peer[1]}"}


def send(ip: str, port: int, cc: str, nbytes: int | None, seconds: float | None,
         bind: str | None) -> dict:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
    if bind:
        s.bind((bind, 0))
    s.connect((ip, port))
    used = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).rstrip(b"\0").decode()
    buf = bytes(CHUNK)
    sent, t0 = 0, time.monotonic()
    try:
        while True:
            if nbytes is not None and sent >= nbytes:
                break
            if seconds is not None and time.monotonic() - t0 >= seconds:
                break
            n = s.send(buf if nbytes is None else buf[: min(CHUNK, nbytes - sent)])
            sent += n
        s.shutdown(socket.SHUT_WR)
        while s.recv(CHUNK):  # the receiver closes when it has read everything
            pass
    except KeyboardInterrupt:
        pass
    finally:
        s.close()
    return {"bytes": sent, "seconds": time.monotonic() - t0, "congestion_control": used}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("recv")
    r.add_argument("ip")
    r.add_argument("port", type=int)
    s = sub.add_parser("send")
    s.add_argument("ip")
    s.add_argument("port", type=int)
    s.add_argument("--cc", required=True)
    g = s.add_mutually_exclusive_group(required=True)
    g.add_argument("--bytes", type=int)
    g.add_argument("--seconds", type=float)
    s.add_argument("--bind", default=None)
    a = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, _on_term)
    try:
        out = recv(a.ip, a.port) if a.cmd == "recv" else send(
            a.ip, a.port, a.cc, a.bytes, a.seconds, a.bind)
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
