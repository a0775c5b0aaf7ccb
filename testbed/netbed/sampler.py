"""Periodic sampler, run inside one namespace: `python3 -m netbed.sampler KIND ...`.

Writes one JSON object per line to stdout, each stamped with CLOCK_MONOTONIC seconds
(`t`, the midpoint of the read). All namespaces share that clock, so samples from the
router and the receiver line up with the flow start and stop times the bed records.

Kinds:
- `qdisc DEV`: the root qdisc of DEV from `tc -s -j qdisc show dev DEV`:
  `{"t", "backlog" (bytes), "qlen" (packets), "drops", "bytes", "packets"}`.
- `qdiscs -`: every root qdisc of the namespace from one `tc -s -j qdisc show`:
  `{"t", "q": {dev: [backlog bytes, qlen, drops, bytes, packets]}}` (the swarm bed keeps
  all its uplink bottlenecks in one namespace, so one exec samples them all).
- `nft TABLE`: the named counters of `inet TABLE` from `nft -j list counters table inet TABLE`:
  `{"t", "c": {name: [packets, bytes]}}`.

A long-lived process per namespace costs one `tc` or `nft` exec per sample (about 5 ms),
against about 11 ms through `ip netns exec` each time.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time

_stop = False


def _on_term(_sig, _frame):
    global _stop
    _stop = True


def read_qdisc(dev: str) -> dict:
    """Stats of the root qdisc of `dev`."""
    out = subprocess.run(["tc", "-s", "-j", "qdisc", "show", "dev", dev], capture_output=True,
                         text=True, timeout=5, check=True).stdout
    for q in json.loads(out):
        if q.get("root"):
            return {k: q.get(k, 0) for k in ("backlog", "qlen", "drops", "bytes", "packets")}
    raise RuntimeError(f"no root qdisc on {dev}")


def read_qdiscs(_target: str) -> dict:
    """Stats of every root qdisc in this namespace, by device."""
    out = subprocess.run(["tc", "-s", "-j", "qdisc", "show"], capture_output=True,
                         text=True, timeout=5, check=True).stdout
    return {"q": {q["dev"]: [q.get(k, 0) for k in ("backlog", "qlen", "drops", "bytes", "packets")]
                  for q in json.loads(out) if q.get("root") and "dev" in q}}


def read_nft(table: str) -> dict:
    """Named counters of `inet table`, as {name: [packets, bytes]}."""
    out = subprocess.run(["nft", "-j", "list", "counters", "table", "inet", table],
                         capture_output=True, text=True, timeout=5, check=True).stdout
    c = {}
    for item in json.loads(out).get("nftables", []):
        ctr = item.get("counter")
        if ctr is not None:
            c[ctr["name"]] = [ctr.get("packets", 0), ctr.get("bytes", 0)]
    return {"c": c}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="netbed.sampler")
    ap.add_argument("kind", choices=["qdisc", "qdiscs", "nft"])
    ap.add_argument("target", help="device (qdisc), inet table (nft), anything (qdiscs)")
    ap.add_argument("--interval", type=float, default=0.05, help="seconds between samples")
    ap.add_argument("--max-seconds", type=float, default=3600.0,
                    help="stop after this long even if never told to")
    a = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, _on_term)
    signal.signal(signal.SIGINT, _on_term)
    read = {"qdisc": read_qdisc, "qdiscs": read_qdiscs, "nft": read_nft}[a.kind]
    start = time.monotonic()
    nxt = start
    errors = 0
    while not _stop and time.monotonic() - start < a.max_seconds:
        t0 = time.monotonic()
        try:
            rec = read(a.target)
        except (subprocess.SubprocessError, ValueError, RuntimeError, KeyError) as e:
            errors += 1
            print(f"sample failed: {e}", file=sys.stderr, flush=True)
            if errors > 20:
                return 1
        else:
            t1 = time.monotonic()
            rec["t"] = (t0 + t1) / 2
            sys.stdout.write(json.dumps(rec, separators=(",", ":")) + "\n")
            sys.stdout.flush()
        nxt += a.interval
        delay = nxt - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        else:
            nxt = time.monotonic()  # fell behind: do not burst to catch up
    return 0


if __name__ == "__main__":
    sys.exit(main())
