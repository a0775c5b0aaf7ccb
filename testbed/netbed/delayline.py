"""User-space propagation delay: `python3 -m netbed.delayline DEV_A DEV_B --ms D`.

Runs in a namespace of its own holding two veth ends with no addresses (the kernel there
neither routes nor answers for them) and bridges Ethernet frames between them through
AF_PACKET sockets, holding each frame D ms before passing it on, in both directions. It is
transparent at layer 2 (ARP crosses it like everything else) and adds no queue of its own
beyond the frames in flight: at 10 Mbit/s that is well under a thousand frames.

This replaces `netem delay`, which this kernel lacks (docs/real-peers.md). Frames leave in the
order they arrived, each D after it was read (never earlier than D after it arrived);
the scheduling error is that of `select` (well under a millisecond on an idle core),
printed at exit with the frame counts.

`--reorder-every N --reorder-ms X` (for `tcpglue.py`'s `reorder`): while switched on by
SIGUSR1 (and off by the next), every Nth frame of more than 1,000 bytes read on DEV_A is held
X ms longer, so that the frames behind it overtake it: TCP sees reordering, not loss.
"""

from __future__ import annotations

import argparse
import heapq
import os
import select
import signal
import socket
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
_stop = False
_reorder = False


def _on_term(_sig, _frame):
    global _stop
    _stop = True


def _on_usr1(_sig, _frame):
    global _reorder
    _reorder = not _reorder


def reorder_extra(every: int, extra: float):
    """A function giving the extra hold of each frame read on the first device: `extra` for
    every `every`th frame of more than 1,000 bytes while reordering is on, else 0."""
    count = 0

    def f(frame: bytes) -> float:
        nonlocal count
        if not _reorder or len(frame) <= 1000:
            return 0.0
        count += 1
        return extra if count % every == 0 else 0.0
    return f


def open_dev(dev: str) -> socket.socket:
    """A raw socket receiving every frame of `dev` and able to send on it."""
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
    s.bind((dev, 0))
    s.setblocking(False)
    return s


def read_ready(sock, out, heap: list, seq: int, delay: float, clock=time.monotonic,
               extra=None) -> int:
    """Queues every frame waiting on `sock` for `out`, each due `delay` after the moment it
    was read (not the moment the batch began: a frame that arrives while a long batch is
    being read would otherwise leave before its delay, and RTT samples would fall below the
    path's base RTT); `extra(frame)`, if given, adds to a frame's hold. Returns the next
    sequence number."""
    while True:
        try:
            frame, addr = sock.recvfrom(65535)
        except BlockingIOError:
            return seq
        if addr[2] == PACKET_OUTGOING:
            continue  # our own transmissions on this device
        hold = delay + (extra(frame) if extra is not None else 0.0)
        heapq.heappush(heap, (clock() + hold, seq, out, frame))
        seq += 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="netbed.delayline")
    ap.add_argument("dev_a")
    ap.add_argument("dev_b")
    ap.add_argument("--ms", type=float, required=True, help="one-way delay, each direction")
    ap.add_argument("--max-seconds", type=float, default=3600.0)
    ap.add_argument("--reorder-every", type=int, default=0,
                    help="with SIGUSR1: hold every Nth data frame from DEV_A longer")
    ap.add_argument("--reorder-ms", type=float, default=0.0)
    a = ap.parse_args(argv)
    signal.signal(signal.SIGUSR1, _on_usr1)
    signal.signal(signal.SIGTERM, _on_term)
    signal.signal(signal.SIGINT, _on_term)
    # Real-time priority, so that busy neighbours on the machine do not delay our wake-ups
    # (the loop sleeps in select; the kernel's RT throttling still caps it at 95 % of a core).
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        prio = "SCHED_FIFO 10"
    except (OSError, AttributeError):
        prio = "normal priority"
    sa, sb = open_dev(a.dev_a), open_dev(a.dev_b)
    peer = {sa.fileno(): sb, sb.fileno(): sa}
    socks = [sa, sb]
    delay = a.ms / 1000.0
    extra = {sa.fileno(): reorder_extra(a.reorder_every, a.reorder_ms / 1000.0)
             if a.reorder_every > 0 else None}
    heap: list[tuple[float, int, socket.socket, bytes]] = []
    seq = 0
    passed = 0
    late_max = 0.0
    late_1ms = late_5ms = 0
    start = time.monotonic()
    print(f"delayline {a.dev_a} <-> {a.dev_b}: {a.ms} ms each way, {prio}", flush=True)
    while not _stop and time.monotonic() - start < a.max_seconds:
        now = time.monotonic()
        timeout = 0.05 if not heap else max(0.0, heap[0][0] - now)
        ready, _, _ = select.select(socks, [], [], timeout)
        for s in ready:
            seq = read_ready(s, peer[s.fileno()], heap, seq, delay,
                             extra=extra.get(s.fileno()))
        now = time.monotonic()
        while heap and heap[0][0] <= now:
            due, _, out, frame = heapq.heappop(heap)
            late = now - due
            late_max = max(late_max, late)
            late_1ms += late > 0.001
            late_5ms += late > 0.005
            try:
                out.send(frame)
                passed += 1
            except OSError as e:
                print(f"send failed: {e}", file=sys.stderr, flush=True)
    print(f"passed {passed} frames; {late_1ms} more than 1 ms late, {late_5ms} more than "
          f"5 ms, latest {late_max * 1000:.2f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
