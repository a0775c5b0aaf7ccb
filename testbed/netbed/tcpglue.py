"""Kernel traces that force each path of the BPF controller's glue (crates/ledbat-tcp/bpf/
ledbat.bpf.c), each checked against ledbat-core by `ledbat tcp check`.

    sudo python3 testbed/tcpglue.py --ledbat-bin B [--scenarios drops,rto,...]
        [--controllers ledbat,scavenger] [--out-dir DIR] [--save-dir DIR]

One scenario, one fresh bed (topo.Topology: sender, delay line, router with the `tbf`
bottleneck, receiver), one controller registered as `tg_N` for the run, `ledbat tcp trace`
recording it, one `netbed.tcpxfer` transfer selecting it:

  loopback    no bed: one namespace's loopback (MSS 32,741 bytes), 3 s, ACKs of several
              32 KB segments (the RFC step's product that once saturated in the C)
  drops       a FIFO of 6 frames: tail drops -> ssthresh -> loss events
  rto         at 1.5 s the bottleneck's qdisc is deleted (its queue dropped) and replaced
              by `tbf rate 8bit burst 1600 limit 1600` (a black hole but for one frame) for
              2 s, then deleted and put back: a retransmission timeout
  undo        at 1.5 s the delay line is stopped (SIGSTOP) for 1.2 s and continued: the
              frames it held arrive after the RTO, which the kernel finds spurious (F-RTO,
              DSACK) and undoes
  reorder     from 1.5 s to 3.5 s the delay line holds every 50th data frame from the
              sender 12 ms longer (SIGUSR1; this kernel has no netem): four 3-ms frames
              of the 4 Mbit/s link overtake it, so that fast retransmits are spurious
              and the DSACKs of the retransmissions make the kernel undo the reduction
  idle        the sender stops writing at 1.5 s for 2 s (more than the RTO): idle restart
  applimited  the sender writes 1 Mbit/s into a 4 Mbit/s link: transmission starts from an
              empty flight (CA_EVENT_TX_START) and ACKs whose flight caps the window

Per scenario it prints (and writes into DIR/tcpglue.json) the events of each kind in the
checked connection (the longest traced from its init: the receiver's side runs the
system's default), the events of the kind the scenario is for, and `ledbat tcp check`'s
verdict; it exits 1 when a check fails. With
`--save-dir`, each checked connection's trace is written there cut after the last event of
its scenario's kind (at the fifth such event, plus 50 events, 600 records at most): what
crates/ledbat-tcp/tests/traces/ holds and CI replays. Every
namespace is deleted and every controller unloaded at the end, whatever happened; the run
stops after `--max-seconds`.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time

from . import guard, install, paths, proc, topo
from .ktcp import Controllers


class GlueControllers(Controllers):
    """`ktcp.Controllers` under names of this script's own (`tg_N`), so that a stale-instance
    clean-up never unloads a concurrent bed run's `tb_N`."""

    def ensure(self, spec: str) -> str:
        if spec in self.loaded:
            return self.loaded[spec]
        name = f"tg_{len(self.loaded)}"
        if name in self.registered():
            self._run("unload", name)  # left by a killed run of this script
        controller, *params = spec.split(":")
        argv = ["load", controller, "--as", name]
        for p in params:
            argv += ["--param", p]
        self._run(*argv)
        self.loaded[spec] = name
        return name

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = ("init", "ack", "loss", "timeout-rto", "timeout-idle", "sent", "undo", "source")
SCENARIOS = ("loopback", "drops", "rto", "undo", "reorder", "idle", "applimited")
# the kinds of event a scenario is for
WANTED = {"loopback": "wide-ack", "drops": "loss", "rto": "timeout-rto", "undo": "undo",
          "reorder": "undo", "idle": "timeout-idle", "applimited": "sent"}
RATE = 4_000_000
OWD_MS = 10.0
PORT = 5311
KEEP_AFTER = 50
SAVE_WANTED = 5
MAX_SAVED = 600


def kind_of(rec: dict) -> str:
    """The kind of one trace record, as `KINDS` names it."""
    what = rec["what"]
    if "init" in what:
        return "init"
    if "undo" in what:
        return "undo"
    ev = what["event"]
    if ev["ev"] == "timeout":
        return "timeout-rto" if ev["rto"] else "timeout-idle"
    if ev["ev"] == "delaysource":
        return "source"
    return ev["ev"]


def capped(rec: dict, mss: int) -> bool:
    """Whether an ACK left the window at RFC 6817's cap, its flight plus one MSS (the
    default ALLOWED_INCREASE): the window follows what the sender keeps in flight."""
    ev = rec["what"].get("event", {})
    return ev.get("ev") == "ack" and abs(rec["cwnd_q32"] / 2**32 - ev["flight"] - mss) < 1e-3


def count(records: list[dict], mss: int) -> dict[str, int]:
    """Events of each kind; ACKs of several segments at once (`multi-ack`), of enough
    bytes for the RFC step's product to pass 64 bits (`wide-ack`, `is_wanted`); ACKs at the
    flightsize cap (`capped-ack`). A transmission start from an empty flight (`sent`,
    CA_EVENT_TX_START) is what only a sender that runs out of data makes."""
    n = dict.fromkeys(KINDS, 0)
    n["multi-ack"] = n["wide-ack"] = n["capped-ack"] = 0
    for r in records:
        k = kind_of(r)
        n[k] = n.get(k, 0) + 1
        if k == "ack" and r["what"]["event"]["packets"] > 1:
            n["multi-ack"] += 1
        if is_wanted(r, "wide-ack"):
            n["wide-ack"] += 1
        if capped(r, mss):
            n["capped-ack"] += 1
    return n


def is_wanted(rec: dict, wanted: str) -> bool:
    """Whether a record is of the kind `wanted`: a `KINDS` name, `multi-ack`, or `wide-ack`
    (an ACK whose bytes * MSS reach 2^32, so that the RFC step's Q32 product
    off_target * bytes * MSS passes 2^64 at off_target 1)."""
    k = kind_of(rec)
    if wanted == "multi-ack":
        return k == "ack" and rec["what"]["event"]["packets"] > 1
    if wanted == "wide-ack":
        ev = rec["what"].get("event", {})
        return k == "ack" and ev["bytes"] * (ev["bytes"] // max(ev["packets"], 1)) >= 2**32
    return k == wanted


def checked_connection(path: str) -> tuple[dict, list[dict], int]:
    """The trace's header, and the records and MSS of its longest connection from init."""
    with open(path) as f:
        lines = f.read().splitlines()
    head = json.loads(lines[0])
    conns: dict[tuple[int, int], list[dict]] = {}
    for line in lines[1:]:
        r = json.loads(line)
        conns.setdefault((r["lport"], r["rport"]), []).append(r)
    best: list[dict] = []
    for recs in conns.values():
        starts = [i for i, r in enumerate(recs) if "init" in r["what"]]
        if starts and len(recs) - starts[-1] > len(best):
            best = recs[starts[-1]:]
    mss = best[0]["what"]["init"]["mss"] if best else 0
    return head, best, mss


def save(head: dict, recs: list[dict], wanted: str, out: str) -> int:
    """Writes the connection cut `KEEP_AFTER` events after its `SAVE_WANTED`-th `wanted`
    event (or its last), and after `MAX_SAVED` records at most; returns the records
    written."""
    at = [i for i, r in enumerate(recs) if is_wanted(r, wanted)][:SAVE_WANTED]
    keep = recs[: min((at[-1] if at else 0) + KEEP_AFTER + 1, MAX_SAVED)]
    with open(out, "w") as f:
        f.write(json.dumps(head, separators=(",", ":")) + "\n")
        for r in keep:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    return len(keep)


def check(ledbat_bin: str, path: str) -> dict:
    """`ledbat tcp check --json`: its exit status and connections."""
    cp = subprocess.run([ledbat_bin, "tcp", "check", path, "--json"], capture_output=True,
                        text=True, timeout=300)
    try:
        conns = json.loads(cp.stdout)
    except ValueError:
        return {"status": cp.returncode, "error": cp.stderr.strip() or "no output"}
    return {"status": cp.returncode, "connections": conns}


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=HERE, PYTHONUNBUFFERED="1")


def transfer(snd_ns: str, rcv_ns: str, ip: str, cc: str, seconds: float, logdir: str,
             sender_opts: list[str], during) -> dict:
    """One `netbed.tcpxfer` transfer; `during(t0)` runs while it does (the scenario's
    actions). Returns the sender's JSON line."""
    py = sys.executable
    recv = proc.Background.start("recv", [py, "-m", "netbed.tcpxfer", "recv", ip, str(PORT)],
                                 ns=rcv_ns, logdir=logdir, env=_env())
    try:
        time.sleep(0.5)
        snd = proc.Background.start(
            "send", [py, "-m", "netbed.tcpxfer", "send", ip, str(PORT), "--cc", cc,
                     "--seconds", str(seconds), *sender_opts], ns=snd_ns, logdir=logdir,
            env=_env())
        try:
            during(time.monotonic())
            if snd.wait(seconds + 30) is None:
                raise proc.CommandError(f"the sender did not finish in {seconds + 30:.0f} s")
        finally:
            snd.stop()
    finally:
        recv.stop()
    with open(os.path.join(logdir, "send.out")) as f:
        lines = f.read().splitlines()
    return json.loads(lines[-1]) if lines else {}


def _at(t0: float, t: float) -> None:
    time.sleep(max(0.0, t0 + t - time.monotonic()))


def run_one(scenario: str, spec: str, ledbat_bin: str, ccs: GlueControllers, out_dir: str,
            tag: str) -> tuple[dict, str]:
    """Runs one scenario with one controller; returns its row and the trace's path."""
    kname = ccs.ensure(spec)
    logdir = os.path.join(out_dir, f"{scenario}-{spec.replace(':', '_')}")
    os.makedirs(logdir, exist_ok=True)
    trace_path = os.path.join(logdir, "trace.jsonl")
    tracer = proc.Background.start("trace", [ledbat_bin, "tcp", "trace", kname, "--out",
                                             trace_path], ns=None, logdir=logdir)
    time.sleep(0.5)
    row: dict = {"scenario": scenario, "controller": spec, "load_before": os.getloadavg()[0]}
    try:
        if scenario == "loopback":
            ns = f"{topo.NS_PREFIX}{tag}-lo"
            proc.run(["ip", "netns", "add", ns])
            try:
                proc.run(["ip", "link", "set", "lo", "up"], ns=ns)
                row["sender"] = transfer(ns, ns, "127.0.0.1", kname, 3.0, logdir, [],
                                         lambda t0: None)
            finally:
                topo.delete_ns(ns)
        else:
            fifo = 6 if scenario == "drops" else 60
            b = topo.Bottleneck(rate_bps=RATE, fifo_frames=fifo)
            extra = (("--reorder-every", "50", "--reorder-ms", "12") if scenario == "reorder"
                     else ())
            t = topo.Topology(tag=tag, bottleneck=b, delay_ms=OWD_MS, logdir=logdir,
                              delay_args=extra)
            opts: list[str] = ["--bind", t.snd_ip]
            seconds = 5.0
            during = lambda t0: None  # noqa: E731
            if scenario == "rto":
                def during(t0: float) -> None:
                    # deleting the qdisc drops what it queued (`tc qdisc change` would keep
                    # it, and those originals arriving late make the RTO spurious: undo)
                    dev = t.RTR_RCV_IF
                    _at(t0, 1.5)
                    proc.run(["tc", "qdisc", "del", "dev", dev, "root"], ns=t.rtr)
                    proc.run(["tc", "qdisc", "add", "dev", dev, "root", "tbf", "rate", "8bit",
                              "burst", "1600", "limit", "1600"], ns=t.rtr)
                    _at(t0, 3.5)
                    proc.run(["tc", "qdisc", "del", "dev", dev, "root"], ns=t.rtr)
                    proc.run(b.tc_args(dev), ns=t.rtr)
                seconds = 7.0
            elif scenario == "undo":
                def during(t0: float) -> None:
                    _at(t0, 1.5)
                    os.killpg(t._delay_proc.popen.pid, signal.SIGSTOP)
                    try:
                        _at(t0, 2.7)
                    finally:
                        os.killpg(t._delay_proc.popen.pid, signal.SIGCONT)
                seconds = 5.0
            elif scenario == "reorder":
                def during(t0: float) -> None:
                    _at(t0, 1.5)
                    os.killpg(t._delay_proc.popen.pid, signal.SIGUSR1)
                    _at(t0, 3.5)
                    os.killpg(t._delay_proc.popen.pid, signal.SIGUSR1)
                seconds = 5.0
            elif scenario == "idle":
                opts += ["--pause", "1.5:2"]
            elif scenario == "applimited":
                opts += ["--rate-bps", str(RATE // 4)]
            try:
                t.setup()
                row["sender"] = transfer(t.snd, t.rcv, t.rcv_ip, kname, seconds, logdir,
                                         opts, during)
            finally:
                row["teardown_problems"] = t.teardown()
    finally:
        time.sleep(0.3)
        tracer.stop(sig=signal.SIGINT, grace=10)
    row["load_after"] = os.getloadavg()[0]
    return row, trace_path


def resave(out_dir: str, save_dir: str) -> None:
    """Cuts the traces of an earlier run's `out_dir` into `save_dir` again (`--resave`)."""
    with open(os.path.join(out_dir, "tcpglue.json")) as f:
        rows = json.load(f)
    os.makedirs(save_dir, exist_ok=True)
    for row in rows:
        spec = row["controller"]
        path = os.path.join(out_dir, f"{row['scenario']}-{spec.replace(':', '_')}",
                            "trace.jsonl")
        head, recs, _ = checked_connection(path)
        out = os.path.join(save_dir, f"{row['scenario']}-{spec.split(':')[0]}.jsonl")
        print(out, save(head, recs, WANTED[row["scenario"]], out), os.path.getsize(out))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--controllers", default="ledbat,scavenger")
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--save-dir", default=None,
                    help="write each checked connection's trace here, cut after its path")
    ap.add_argument("--max-seconds", type=float, default=600)
    ap.add_argument("--resave", action="store_true",
                    help="no run: cut the traces of --out-dir's earlier run into --save-dir")
    a = ap.parse_args(argv)
    if a.resave:
        if not (a.out_dir and a.save_dir):
            print("error: --resave needs --out-dir and --save-dir", file=sys.stderr)
            return 2
        resave(a.out_dir, a.save_dir)
        return 0
    scenarios = [s for s in a.scenarios.split(",") if s]
    for s in scenarios:
        if s not in SCENARIOS:
            print(f"error: unknown scenario `{s}` (known: {', '.join(SCENARIOS)})",
                  file=sys.stderr)
            return 2
    ledbat_bin = install.preflight("namespaces, qdiscs, BPF", a.ledbat_bin)
    if ledbat_bin is None:
        return 2
    out_dir = os.path.abspath(a.out_dir or paths.default_out_dir("tcpglue"))
    os.makedirs(out_dir, exist_ok=True)
    tag = f"g{os.getpid() % 10000}"
    rows = []
    status = 0
    guard.arm(a.max_seconds)
    ccs = GlueControllers(ledbat_bin)
    try:
        for scenario in scenarios:
            for spec in a.controllers.split(","):
                row, path = run_one(scenario, spec, ledbat_bin, ccs, out_dir, tag)
                head, recs, mss = checked_connection(path)
                row["events"] = count(recs, mss) if recs else {}
                wanted = WANTED[scenario]
                row["wanted"] = wanted
                row["wanted_events"] = sum(is_wanted(r, wanted) for r in recs)
                row["check"] = check(ledbat_bin, path)
                if a.save_dir and recs:
                    os.makedirs(a.save_dir, exist_ok=True)
                    out = os.path.join(a.save_dir, f"{scenario}-{spec.split(':')[0]}.jsonl")
                    row["saved"] = {"path": out, "records": save(head, recs, wanted, out)}
                if row["check"]["status"] != 0:
                    status = 1
                rows.append(row)
                print(json.dumps(row), flush=True)
    except guard.Deadline:
        print(f"[glue] overall time limit of {a.max_seconds:.0f} s hit", file=sys.stderr)
        status = 3
    except (proc.CommandError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        status = 2
    finally:
        guard.disarm()
        for problem in ccs.close():
            print(f"[glue] {problem}", file=sys.stderr)
        topo.delete_tagged(tag)
    with open(os.path.join(out_dir, "tcpglue.json"), "w") as f:
        json.dump(rows, f, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main())
