"""A bulk TCP transfer with a chosen congestion control that ends when the receiver has
every byte (iperf3's `-n` ends when the sender has written them, and its server quits
before the last window arrives).

    python3 -m netbed.tcpxfer recv IP PORT
    python3 -m netbed.tcpxfer send IP PORT --cc NAME (--bytes N | --seconds S) [--bind IP]
        [--rate-bps R] [--pause AT:FOR]

The receiver reads until the sender closes and prints one JSON line: bytes, and the times
(CLOCK_MONOTONIC) of the first and the last byte. The sender sets TCP_CONGESTION before it
connects, writes zeros, closes its side and waits until the receiver has closed too, then
prints its JSON line (bytes, seconds, the congestion control the socket used). `--rate-bps`
writes no faster than R bit/s (an application-limited sender); `--pause AT:FOR` stops
writing at AT seconds for FOR seconds (an idle connection).
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
         bind: str | None, rate_bps: float | None = None,
         pause: tuple[float, float] | None = None) -> dict:
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
            el = time.monotonic() - t0
            if seconds is not None and el >= seconds:
                break
            if pause is not None and pause[0] <= el < pause[0] + pause[1]:
                time.sleep(pause[0] + pause[1] - el)
                continue
            if rate_bps and sent * 8 > rate_bps * el:
                time.sleep(min(0.01, sent * 8 / rate_bps - el))
                continue
            want = CHUNK if nbytes is None else min(CHUNK, nbytes - sent)
            if rate_bps:
                want = min(want, 4096)
            n = s.send(buf[:want])
            sent += n
        s.shutdown(socket.SHUT_WR)
        while s.recv(CHUNK):  # the receiver closes when it has read everything
            pass
    except KeyboardInterrupt:
        pass
    finally:
        s.close()
    return {"bytes": sent, "seconds": time.monotonic() - t0, "congestion_control": used}


def _pause(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    at, sep, dur = text.partition(":")
    try:
        return float(at), float(dur)
    except ValueError:
        raise SystemExit(f"error: --pause `{text}` is not AT:FOR (seconds)") from None


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
    s.add_argument("--rate-bps", type=float, default=None)
    s.add_argument("--pause", default=None, metavar="AT:FOR")
    a = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, _on_term)
    try:
        out = recv(a.ip, a.port) if a.cmd == "recv" else send(
            a.ip, a.port, a.cc, a.bytes, a.seconds, a.bind, a.rate_bps,
            _pause(a.pause))
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
