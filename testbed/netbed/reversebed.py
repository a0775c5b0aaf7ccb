"""An upload beside a download on the reverse path: does our kernel controller yield to
traffic that only shares its ACKs' path? (`ledbat tcp`, the kernel review's finding A11.)

    sudo python3 -m netbed.reversebed [--ccs cubic,scavenger,ledbat,ledbat:signal=rtt]
        [--delay-ms 20] [--fifo-ms 300] [--repeats 1] [--ledbat-bin B] [--json F] [--md F]

The bed's topology with a second `tbf` FIFO of the same rate in the router's egress toward
the sender (the uplink and the downlink of a home line, each with its own queue). The sender
uploads with the controller under test (iperf3, the controller selected by name) for
UPLOAD_S; from DOWN_AT a plain download (kernel cubic, iperf3 in reverse mode: the receiver
side sends) fills the downlink for DOWN_FOR. The upload's own path stays idle: only its ACKs
queue behind the download. Per run, from the receiving side's one-second iperf3 intervals:
- the upload's rate alone (the PRE window before the download), beside the download (the
  second half of the download) and after it (the POST window);
- the download's rate over the second half of its run.

A controller that measures the round trip sees the downlink's queue in every sample and
yields to the download; one that measures the one-way delay from TCP timestamps (seed 002's
signal, the RFC 6817 family's default here) does not. Controllers name `ledbat tcp load`
specs (`NAME[:KEY=VALUE...]`); `cubic` is the kernel's, as the baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from . import install, ktcp, paths, proc, topo
from .summary import format_range, median_range

UPLOAD_S = 45.0
DOWN_AT = 15.0
DOWN_FOR = 15.0
PRE = (5.0, 15.0)
"""The upload alone: seconds after its start (after slow start)."""
POST = (DOWN_AT + DOWN_FOR + 5.0, UPLOAD_S)
"""The upload after the download ended (its slow start back included from 5 s)."""
UP_PORT, DOWN_PORT = 5301, 5302


def mean_rate(intervals: list[dict], lo: float, hi: float, offset: float = 0.0) -> float | None:
    """Mean rate in Mbit/s of iperf3's one-second intervals lying in [lo, hi] seconds of the
    upload's clock; `offset` is when this client started on that clock."""
    got = [(i["sum"]["bytes"], i["sum"]["seconds"]) for i in intervals
           if lo <= i["sum"]["start"] + offset and i["sum"]["end"] + offset <= hi]
    secs = sum(s for _, s in got)
    return sum(b for b, _ in got) * 8 / secs / 1e6 if secs > 0 else None


def analyse(up: dict, down: dict, down_offset: float) -> dict:
    """The figures of one run from the two clients' iperf3 JSON (`down_offset`: seconds from
    the upload's start to the download's)."""
    half = DOWN_AT + DOWN_FOR / 2
    return {
        "upload_alone_mbit": mean_rate(up["intervals"], *PRE),
        "upload_beside_mbit": mean_rate(up["intervals"], half, DOWN_AT + DOWN_FOR),
        "download_mbit": mean_rate(down["intervals"], half, DOWN_AT + DOWN_FOR, down_offset),
        "upload_after_mbit": mean_rate(up["intervals"], *POST),
    }


def _client(bed: topo.Topology, port: int, secs: float, cc: str | None,
            reverse: bool) -> subprocess.Popen:
    argv = ["iperf3", "-c", bed.rcv_ip, "-p", str(port), "-t", str(secs), "-i", "1", "-J"]
    if cc:
        argv += ["-C", cc]
    if reverse:
        argv.append("-R")
    else:
        argv.append("--get-server-output")  # the receiver's intervals: bytes delivered
    return subprocess.Popen(proc.in_ns(bed.snd, argv), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def one_run(kernel_cc: str, a, logdir: str) -> dict:
    """One upload with `kernel_cc` beside the reverse download, on a fresh bed."""
    bn = topo.Bottleneck.from_fifo_ms(10_000_000, a.fifo_ms)
    bed = topo.Topology(tag=f"rev{os.getpid() % 10000}", bottleneck=bn, delay_ms=a.delay_ms,
                        logdir=logdir, reverse=bn)
    servers: list[subprocess.Popen] = []
    clients: list[subprocess.Popen] = []
    try:
        bed.setup()
        for port in (UP_PORT, DOWN_PORT):
            servers.append(subprocess.Popen(
                proc.in_ns(bed.rcv, ["iperf3", "-s", "-1", "-J", "-p", str(port)]),
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(0.5)
        t0 = time.monotonic()
        clients.append(_client(bed, UP_PORT, UPLOAD_S, kernel_cc, reverse=False))
        time.sleep(DOWN_AT)
        down_offset = time.monotonic() - t0
        clients.append(_client(bed, DOWN_PORT, DOWN_FOR, None, reverse=True))
        outs = [c.communicate(timeout=UPLOAD_S + 60)[0] for c in clients]
        bad = [i for i, c in enumerate(clients) if c.returncode != 0]
        if bad:
            return {"error": f"iperf3 client(s) {bad} failed: {outs[bad[0]][-300:]}"}
        up, down = (json.loads(o) for o in outs)
        # rates from the receiving side: the upload's from its server's own report
        up = up.get("server_output_json") or {}
        if "intervals" not in up:
            return {"error": "the upload's server sent no report (--get-server-output)"}
        r = analyse(up, down, down_offset)
        r["down_offset_s"] = round(down_offset, 3)
        return r
    finally:
        for p in clients + servers:
            if p.poll() is None:
                p.kill()
                p.wait()
        for problem in bed.teardown():
            print(f"[reverse] {problem}", file=sys.stderr)


def _med(v: list) -> dict | None:
    """The repeats' median and range (`netbed.summary`) as the JSON has always had it: median,
    min, max and n, or None when no repeat measured the figure."""
    s = median_range(v, count_missing=False)
    return s if s["n"] else None


def summarise(runs: list[dict]) -> dict:
    """Median and range over the repeats, per controller."""
    out: dict = {}
    for cc in dict.fromkeys(r["cc"] for r in runs):
        rs = [r for r in runs if r["cc"] == cc and not r.get("error")]
        out[cc] = {k: _med([r[k] for r in rs]) for k in
                   ("upload_alone_mbit", "upload_beside_mbit", "download_mbit",
                    "upload_after_mbit")}
    return out


def markdown(summary: dict) -> str:
    def f(s):
        return format_range(s, range_for_one=True)
    lines = ["| upload's controller | upload alone | upload beside the download | download | "
             "upload after |", "|---|---|---|---|---|"]
    for cc, row in summary.items():
        lines.append(f"| `{cc}` | {f(row['upload_alone_mbit'])} | "
                     f"{f(row['upload_beside_mbit'])} | {f(row['download_mbit'])} | "
                     f"{f(row['upload_after_mbit'])} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ccs", default="cubic,scavenger,ledbat,ledbat:signal=rtt")
    ap.add_argument("--delay-ms", type=float, default=20.0,
                    help="one-way propagation delay (base RTT twice this)")
    ap.add_argument("--fifo-ms", type=float, default=300.0, help="each direction's FIFO")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--json", default=None)
    ap.add_argument("--md", default=None)
    ap.add_argument("--logdir", default="/tmp")
    a = ap.parse_args(argv)
    ledbat_bin = install.prepare("namespaces, BPF", a.ledbat_bin,
                                 install.Needs(["ip", "iperf3", "ethtool"]),
                                 log=lambda m: print(f"[reverse] {m}"))
    if ledbat_bin is None:
        return 2
    specs = [x for x in a.ccs.split(",") if x]
    doc: dict = {"command": paths.command_line(["-m", "netbed.reversebed"],
                                               sys.argv[1:] if argv is None else argv),
                 "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
                 "kernel": os.uname().release, "load_before": os.getloadavg(),
                 "delay_ms": a.delay_ms, "fifo_ms": a.fifo_ms, "runs": []}
    ccs = ktcp.Controllers(ledbat_bin)
    try:
        names = {s: (s if s == "cubic" else ccs.ensure(s)) for s in specs}
        for rep in range(a.repeats):
            for s in specs:
                r = one_run(names[s], a, a.logdir)
                r.update(cc=s, repeat=rep + 1, load=os.getloadavg()[0])
                doc["runs"].append(r)
                print(f"[reverse] {json.dumps(r)}", flush=True)
    except (ktcp.LoadFailed, proc.CommandError, subprocess.TimeoutExpired, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        for problem in ccs.close():
            print(f"[reverse] {problem}", file=sys.stderr)
    doc["load_after"] = os.getloadavg()
    doc["summary"] = summarise(doc["runs"])
    md = (f"An upload beside a download on the reverse path ({doc['kernel']}, base RTT "
          f"{2 * a.delay_ms:g} ms, {a.fifo_ms:g}-ms FIFO each way, 10 Mbit/s, {a.repeats} "
          f"repeat(s), {doc['date_utc']} UTC, load {doc['load_before'][0]:.2f} before), "
          f"Mbit/s, median [min..max]:\n\n" + markdown(doc["summary"]))
    print("\n" + md)
    for path, text in ((a.json, json.dumps(doc, indent=1)), (a.md, md)):
        if path:
            paths.write_atomic(path, text)
    return 1 if any(r.get("error") for r in doc["runs"]) else 0


if __name__ == "__main__":
    sys.exit(main())
