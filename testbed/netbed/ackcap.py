"""The ACKs a host sends on some local ports, for the right-edge check of
`netbed.rledbatbed` (RFC 7323 section 2.4): run inside the receiver's namespace,

    python3 -m netbed.ackcap IFACE OUT PORT [PORT ...]

an AF_PACKET socket on IFACE keeps the outgoing IPv4 TCP segments whose source port is one
of PORT and writes one JSON line per segment to OUT: [t, sport, dport, flags, ack, win,
wscale] (t CLOCK_MONOTONIC seconds; wscale the SYN's option or null). It prints
`{"capturing": IFACE}` once the socket is bound and stops on SIGTERM or SIGINT. No tcpdump
needed; the headers are read by `rledbatstats.parse_tcp`.
"""

from __future__ import annotations

import json
import signal
import socket
import sys
import time

from .rledbatstats import parse_tcp

ETH_P_ALL = 0x0003  # a socket bound to ETH_P_IP alone sees no outgoing packet
PACKET_OUTGOING = 4


def _stop(_sig, _frame):
    raise KeyboardInterrupt()


def main(argv=None) -> int:
    a = sys.argv[1:] if argv is None else argv
    if len(a) < 3:
        print("usage: python3 -m netbed.ackcap IFACE OUT PORT [PORT ...]", file=sys.stderr)
        return 2
    iface, out, ports = a[0], a[1], {int(p) for p in a[2:]}
    signal.signal(signal.SIGTERM, _stop)
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(ETH_P_ALL))
    sock.bind((iface, 0))
    sock.settimeout(0.5)
    n = 0
    with open(out, "w") as fh:
        print(json.dumps({"capturing": iface}), flush=True)
        try:
            while True:
                try:
                    data, addr = sock.recvfrom(128)
                except socket.timeout:
                    continue
                if addr[2] != PACKET_OUTGOING:
                    continue
                h = parse_tcp(data)
                if h is None or h["sport"] not in ports:
                    continue
                fh.write(json.dumps([round(time.monotonic(), 4), h["sport"], h["dport"],
                                     h["flags"], h["ack"], h["win"], h["wscale"]]) + "\n")
                n += 1
        except KeyboardInterrupt:
            pass
    print(json.dumps({"segments": n}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
