"""RTT samples and windows of each connection of a kernel trace over a window of time.

    python3 docs/sidebyside/push-backoff/rtts.py TRACE FROM_S TO_S

Reads a `ledbat tcp trace` file (JSON lines, --keep-traces of tcpbed.py) and prints, for
each connection, the ACKs with an RTT sample between FROM_S and TO_S seconds after the
first connection's start: their count, the RTT's 5th to 95th percentiles (ms), the packets
each ACK acknowledged and the mean flight (kB).
"""
import json
import sys


def main(path: str, a: float, b: float) -> None:
    start, acks = {}, {}
    with open(path) as fh:
        for line in fh:
            rec = json.loads(line)
            if "lport" not in rec:
                continue
            what = rec["what"]
            if "init" in what:
                start[rec["lport"]] = what["init"]["now"]
                continue
            ev = what.get("event", {})
            if ev.get("ev") == "ack" and ev.get("rtt"):
                acks.setdefault(rec["lport"], []).append(
                    (ev["now"], ev["rtt"] / 1e6, ev["packets"], ev["flight"]))
    t0 = min(start.values())
    for port, rows in sorted(acks.items()):
        sel = [r for r in rows if a * 1e9 <= r[0] - t0 <= b * 1e9]
        if not sel:
            print(f"port {port}: no ACK in the window")
            continue
        rtt = sorted(r[1] for r in sel)
        q = [rtt[min(len(rtt) - 1, int(len(rtt) * p))] for p in (0.05, 0.25, 0.5, 0.75, 0.95)]
        print(f"port {port}: {len(sel)} ACKs, RTT p5/p25/p50/p75/p95 "
              + "/".join(f"{x:.1f}" for x in q) + " ms, "
              f"{sum(r[2] for r in sel) / len(sel):.2f} packets per ACK, "
              f"flight {sum(r[3] for r in sel) / len(sel) / 1e3:.0f} kB")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]))
