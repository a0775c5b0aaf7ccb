"""Receiver-side LEDBAT on the bed: a download whose receiver runs under `ledbat tcp run
--rledbat` (its receive window clamped by the sock_ops program), from a sender using kernel
cubic, alone and then beside a competing plain download (another cubic sender, a receiver
outside the cgroup), through the bed's 10 Mbit/s tbf FIFO with the delay line.

    sudo python3 -m netbed.rledbatbed --ledbat-bin B [--phase-s 15] [--delay-ms 20]
        [--signal owd|rtt] [--plain] [--json out.json]

Phase 1 (`--phase-s` seconds): the rLEDBAT download alone; phase 2: the competitor joins.
Sampled every 0.5 s: each receiver's `bytes_received` (`ss -ti` in the receiver namespace)
and the bottleneck's backlog (`tc -s qdisc`, as milliseconds at the link rate). Reported per
phase, over its second half: both downloads' rates and the queue's mean; and `ledbat tcp
rstats` at the end of each phase. `--plain` runs the same without `--rledbat` (the
baseline: two cubic downloads). The bed is removed and the run's cgroup with it on every
exit; every wait is bounded.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time

from . import topo
from .tcprun import _run_cgroups

PORT_RL = 5001
PORT_PLAIN = 5002
SAMPLE_S = 0.5


def bytes_by_port(ss_text: str) -> dict[int, int]:
    """Local port -> bytes_received in `ss -tinH` output."""
    out: dict[int, int] = {}
    port = None
    for line in ss_text.splitlines():
        if line and not line[0].isspace():
            f = line.split()
            port = None
            if len(f) >= 4:
                try:
                    port = int(f[-2].rsplit(":", 1)[1])
                except (IndexError, ValueError):
                    port = None
            continue
        m = re.search(r"\bbytes_received:(\d+)", line)
        if port is not None and m:
            out[port] = int(m.group(1))
    return out


def backlog_bytes(tc_json: str) -> int | None:
    """The first qdisc's backlog in `tc -s -j qdisc show` output."""
    try:
        return int(json.loads(tc_json)[0]["backlog"])
    except (ValueError, IndexError, KeyError, TypeError):
        return None


def phase_summary(samples: list[dict], a: float, b: float, rate_bps: int) -> dict:
    """Rates (Mbit/s) of both downloads and the mean queue (ms) between times a and b."""
    inside = [s for s in samples if a <= s["t"] <= b]
    out: dict = {"from_s": a, "to_s": b, "samples": len(inside)}
    if len(inside) < 2:
        return out
    first, last = inside[0], inside[-1]
    dt = last["t"] - first["t"]
    for name, port in (("rledbat_mbps", PORT_RL), ("plain_mbps", PORT_PLAIN)):
        x0, x1 = first["bytes"].get(port), last["bytes"].get(port)
        out[name] = None if x0 is None or x1 is None or dt <= 0 else \
            round((x1 - x0) * 8 / dt / 1e6, 3)
    q = [s["backlog"] for s in inside if s["backlog"] is not None]
    out["queue_ms"] = round(sum(q) / len(q) * 8 / rate_bps * 1000, 1) if q else None
    return out


def _ns(ns: str, argv: list[str]) -> list[str]:
    return ["ip", "netns", "exec", ns] + argv


def run(ledbat_bin: str, phase_s: float, delay_ms: float, signal: str, plain: bool,
        logdir: str) -> dict:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t = topo.Topology(tag=f"rl{os.getpid() % 10000}", delay_ms=delay_ms, logdir=logdir)
    procs: list[subprocess.Popen] = []
    res: dict = {"delay_ms": delay_ms, "phase_s": phase_s, "signal": signal,
                 "rledbat": not plain, "load_before": os.getloadavg()}
    try:
        t.setup()
        xfer = [sys.executable, "-m", "netbed.tcpxfer"]
        recv_rl = _ns(t.rcv, xfer + ["recv", t.rcv_ip, str(PORT_RL)])
        if not plain:
            recv_rl = [ledbat_bin, "tcp", "run", "--cc", "cubic", "--rledbat",
                       "--rledbat-param", f"signal={signal}", "--"] + recv_rl
        for argv in (recv_rl, _ns(t.rcv, xfer + ["recv", t.rcv_ip, str(PORT_PLAIN)])):
            p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, text=True)
            procs.append(p)
            line = p.stdout.readline()
            if "listening" not in line:
                raise RuntimeError(f"receiver {argv} did not start: {line!r}")
        total = 2 * phase_s
        snd_a = subprocess.Popen(_ns(t.snd, xfer + ["send", t.rcv_ip, str(PORT_RL), "--cc",
                                                    "cubic", "--seconds", str(total)]),
                                 env=env, stdout=subprocess.PIPE, text=True)
        procs.append(snd_a)
        t0 = time.monotonic()
        samples: list[dict] = []
        snd_b = None
        rstats: list = []
        while time.monotonic() - t0 < total:
            now = time.monotonic() - t0
            if snd_b is None and now >= phase_s:
                rstats.append(_rstats(ledbat_bin) if not plain else None)
                snd_b = subprocess.Popen(
                    _ns(t.snd, xfer + ["send", t.rcv_ip, str(PORT_PLAIN), "--cc", "cubic",
                                       "--seconds", str(phase_s)]),
                    env=env, stdout=subprocess.PIPE, text=True)
                procs.append(snd_b)
            ss = subprocess.run(_ns(t.rcv, ["ss", "-tinH", "state", "established"]),
                                capture_output=True, text=True, timeout=10).stdout
            tc = subprocess.run(_ns(t.rtr, ["tc", "-s", "-j", "qdisc", "show", "dev",
                                            t.RTR_RCV_IF]),
                                capture_output=True, text=True, timeout=10).stdout
            samples.append({"t": round(now, 3), "bytes": bytes_by_port(ss),
                            "backlog": backlog_bytes(tc)})
            time.sleep(SAMPLE_S)
        rstats.append(_rstats(ledbat_bin) if not plain else None)
        rate = t.bottleneck.rate_bps
        res["alone"] = phase_summary(samples, phase_s / 2, phase_s, rate)
        res["beside_plain"] = phase_summary(samples, phase_s * 1.5, total, rate)
        res["rstats_end_of_phase"] = rstats
        res["drops"] = t.queue_stats().get("drops")
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
        res["load_after"] = os.getloadavg()
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
        res["teardown_problems"] = t.teardown()
        res["run_cgroups_left"] = _run_cgroups()
    return res


def _rstats(ledbat_bin: str):
    cp = subprocess.run([ledbat_bin, "tcp", "rstats", "--json"], capture_output=True,
                        text=True, timeout=10)
    try:
        return json.loads(cp.stdout)
    except ValueError:
        return cp.stderr.strip()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m netbed.rledbatbed", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ledbat-bin", required=True)
    ap.add_argument("--phase-s", type=float, default=15.0)
    ap.add_argument("--delay-ms", type=float, default=20.0,
                    help="one-way delay each way (base RTT twice this)")
    ap.add_argument("--signal", choices=["owd", "rtt"], default="owd")
    ap.add_argument("--plain", action="store_true", help="without --rledbat (baseline)")
    ap.add_argument("--json", default=None)
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless the rLEDBAT download takes at least half the link "
                         "alone and less than a fifth of the plain one's rate beside it, "
                         "and nothing is left behind")
    ap.add_argument("--logdir", default="/tmp")
    a = ap.parse_args(argv)
    if os.geteuid() != 0:
        print("rledbatbed: needs root (namespaces, cgroups, BPF)", file=sys.stderr)
        return 2
    res = run(a.ledbat_bin, a.phase_s, a.delay_ms, a.signal, a.plain, a.logdir)
    text = json.dumps(res, indent=1)
    if a.json:
        with open(a.json, "w") as fh:
            fh.write(text + "\n")
    print(text)
    if a.check:
        bad = check(res, topo.Bottleneck().rate_bps)
        for b in bad:
            print(f"rledbatbed: {b}", file=sys.stderr)
        return 1 if bad else 0
    return 0


def check(res: dict, rate_bps: int) -> list[str]:
    """What the quick check found wrong (empty: passed)."""
    bad = []
    alone = res.get("alone", {}).get("rledbat_mbps")
    beside = res.get("beside_plain", {})
    if alone is None or alone < rate_bps / 2e6:
        bad.append(f"the receiver-side download alone: {alone} Mbit/s, below half the link")
    r, p = beside.get("rledbat_mbps"), beside.get("plain_mbps")
    if r is None or p is None or r >= p / 5:
        bad.append(f"beside a plain download: {r} against {p} Mbit/s, not below a fifth")
    if res.get("run_cgroups_left") or res.get("teardown_problems"):
        bad.append(f"left behind: {res.get('run_cgroups_left')} "
                   f"{res.get('teardown_problems')}")
    return bad


if __name__ == "__main__":
    sys.exit(main())
