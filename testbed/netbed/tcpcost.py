"""What our kernel congestion controls cost: a bulk TCP transfer with one of them against
kernel cubic, back to back in the same run, over loopback and over a veth pair.

    sudo python3 testbed/tcpcost.py [--seconds 10] [--repeats 3] [--ccs scavenger,ledbat]
        [--paths loopback,veth] [--ledbat-bin B] [--rledbat-param KEY=VALUE ...]
        [--json F] [--md F]

`--ccs` names our controllers (the sender's, registered for the run) and may include
`rledbat`: receiver-side LEDBAT, the sender kernel cubic and the receiving iperf3 run under
`ledbat tcp run --cc cubic --rledbat` (its window clamped by the sock_ops program), so its
ratios are those of a download with rLEDBAT to the same download without it;
`--rledbat-param KEY=VALUE` (repeatable) is handed to that `ledbat tcp run` and recorded
in the JSON as `rledbat_params`.

Each round runs iperf3 for SECONDS with cubic and with each of ours (the order rotating
from round to round, so that a drift of the machine does not favour one), in namespaces
of its own (`lo` of one namespace; a veth pair between two, offloads as the kernel sets
them, no qdisc), and measures:
- the throughput iperf3's receiver counted;
- the CPU the whole machine spent during the transfer, from /proc/stat (user, system,
  irq and softirq of every core: the sender, the receiver and the stack between them),
  per GB received.
The ratios to cubic are taken within a round (the same minute of the machine), then their
median and range over the rounds are reported. Run it with nothing else busy: the CPU
figures are the machine's, not the processes'.

For `rledbat` it also measures what the rLEDBAT programs themselves ran: with
`kernel.bpf_stats_enabled` set for the run (the old value restored after), the kernel sums
each BPF program's run time; the sock_ops programs of `ledbat tcp run` (`ledbat_rledbat`,
`ledbat_select`) are read with `bpftool prog show --json` before the transfer and after it
while still attached (the rLEDBAT receiver then serves until it is stopped), per program
id. Their run time per GB received, against the plain download's CPU per GB in the same
round, is the program's own share of the cost, free of the rounds' spread in the machine's
total; it leaves out what the kernel spends around the program (calling it for every ACK,
the window clamp's effects), which only the totals' ratio holds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time

from . import install, ktcp, paths, proc, topo
from .summary import format_range, median_range
from .tcprun import rledbat_run_argv

NS = "ledbat-cost"
VETH_A, VETH_B = "10.78.0.1", "10.78.0.2"


def cpu_busy_seconds() -> float:
    """Seconds of CPU spent by every core so far (user, nice, system, irq, softirq, steal)."""
    with open("/proc/stat") as fh:
        f = fh.readline().split()
    hz = os.sysconf("SC_CLK_TCK")
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in f[1:9])
    return (user + nice + system + irq + softirq + steal) / hz


def setup(path: str) -> tuple[str, str, str]:
    """Namespaces for one path; returns (client ns, server ns, server address)."""
    cleanup()
    r = proc.run
    if path == "loopback":
        r(["ip", "netns", "add", f"{NS}-a"])
        r(["ip", "-n", f"{NS}-a", "link", "set", "lo", "up"])
        return f"{NS}-a", f"{NS}-a", "127.0.0.1"
    for ns in (f"{NS}-a", f"{NS}-b"):
        r(["ip", "netns", "add", ns])
        r(["ip", "-n", ns, "link", "set", "lo", "up"])
    r(["ip", "-n", f"{NS}-a", "link", "add", "c0", "type", "veth", "peer", "name", "c1",
       "netns", f"{NS}-b"])
    r(["ip", "-n", f"{NS}-a", "addr", "add", f"{VETH_A}/24", "dev", "c0"])
    r(["ip", "-n", f"{NS}-b", "addr", "add", f"{VETH_B}/24", "dev", "c1"])
    r(["ip", "-n", f"{NS}-a", "link", "set", "c0", "up"])
    r(["ip", "-n", f"{NS}-b", "link", "set", "c1", "up"])
    return f"{NS}-a", f"{NS}-b", VETH_B


def cleanup() -> None:
    topo.delete_prefixed(NS)


RLEDBAT = "rledbat"
"""The `--ccs` entry for a cubic download whose receiver runs receiver-side LEDBAT."""

RLEDBAT_PROGS = ("ledbat_rledbat", "ledbat_select")
"""The sock_ops programs `ledbat tcp run --rledbat` attaches (their names in the kernel)."""

BPF_STATS = "/proc/sys/kernel/bpf_stats_enabled"


def bpf_run_totals(progs: list[dict], names=RLEDBAT_PROGS) -> dict[int, tuple[int, int]]:
    """From `bpftool prog show --json`: {program id: (run_time_ns, run_cnt)} of the programs
    named in `names` (0 for a program the kernel has not counted)."""
    return {p["id"]: (int(p.get("run_time_ns", 0)), int(p.get("run_cnt", 0)))
            for p in progs if p.get("name") in names}


def bpf_run_delta(before: dict[int, tuple[int, int]],
                  after: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """(run_time_ns, run_cnt) the programs ran between two `bpf_run_totals`: per program id,
    so that a program loaded in between counts from zero and one gone by `after` not at
    all."""
    ns = cnt = 0
    for pid, (t1, c1) in after.items():
        t0, c0 = before.get(pid, (0, 0))
        ns += t1 - t0
        cnt += c1 - c0
    return ns, cnt


def read_bpf_totals() -> dict[int, tuple[int, int]]:
    out = proc.run(["bpftool", "prog", "show", "--json"]).stdout
    return bpf_run_totals(json.loads(out or "[]"))


class BpfStats:
    """`kernel.bpf_stats_enabled` set to 1 for a `with` block, its old value restored."""

    def __enter__(self):
        with open(BPF_STATS) as fh:
            self.old = fh.read().strip()
        with open(BPF_STATS, "w") as fh:
            fh.write("1")
        return self

    def __exit__(self, *exc):
        with open(BPF_STATS, "w") as fh:
            fh.write(self.old)


def receiver_argv(ledbat_bin: str, server_ns: str, rledbat: bool,
                  rl_params: list[str] | None = None) -> list[str]:
    """The receiving iperf3 server's command line, for one test; with `rledbat`, under
    `ledbat tcp run --rledbat` (which joins its cgroup before `ip netns exec` enters the
    namespace), each of `rl_params` handed on as `--rledbat-param`, serving until stopped
    (its programs stay attached until their run time has been read)."""
    if rledbat:
        argv = proc.in_ns(server_ns, ["iperf3", "-s", "-p", "5299"])
        return rledbat_run_argv(ledbat_bin, rl_params or [], argv)
    return proc.in_ns(server_ns, ["iperf3", "-s", "-1", "-p", "5299"])


def transfer(client_ns: str, server_ns: str, addr: str, cc: str, seconds: float,
             ledbat_bin: str, rledbat: bool = False,
             rl_params: list[str] | None = None) -> dict:
    """One iperf3 transfer; the receiver's byte count and the machine's CPU over it.
    `rledbat`: the receiver under receiver-side LEDBAT (`receiver_argv`, with `rl_params`)."""
    srv = subprocess.Popen(receiver_argv(ledbat_bin, server_ns, rledbat, rl_params),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        bpf0 = read_bpf_totals() if rledbat else {}
        c0, t0 = cpu_busy_seconds(), time.monotonic()
        cli = subprocess.Popen(proc.in_ns(client_ns, ["iperf3", "-c", addr, "-p", "5299", "-C",
                                                      cc, "-t", str(seconds), "-J"]),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        seen = None
        if rledbat:
            # receiver-side LEDBAT: one look half-way that its program holds the download
            # (a cost that measured no clamped connection would name the wrong thing)
            time.sleep(seconds / 2)
            rs = subprocess.run([ledbat_bin, "tcp", "rstats", "--json"], capture_output=True,
                                text=True, timeout=30)
            seen = len(json.loads(rs.stdout or "[]")) if rs.returncode == 0 else 0
        out, err = cli.communicate(timeout=seconds + 30)
        c1, t1 = cpu_busy_seconds(), time.monotonic()
        bpf_ns, bpf_cnt = bpf_run_delta(bpf0, read_bpf_totals()) if rledbat else (0, 0)
        cp = subprocess.CompletedProcess(cli.args, cli.returncode, out, err)
    finally:
        # the plain server ends after its one test; a `ledbat tcp run` wrapper is asked to
        # stop (SIGTERM: it stops its command and removes its cgroup) before it is killed
        if rledbat:
            srv.terminate()
        try:
            srv.wait(timeout=5)
        except subprocess.TimeoutExpired:
            srv.terminate()
            try:
                srv.wait(timeout=5)
            except subprocess.TimeoutExpired:
                srv.kill()
                srv.wait()
    if cp.returncode != 0:
        return {"error": cp.stdout[-300:] + cp.stderr[-300:]}
    if seen == 0:
        return {"error": "receiver-side LEDBAT held no connection half-way (ledbat tcp rstats)"}
    j = json.loads(cp.stdout)
    received = j["end"]["sum_received"]["bytes"]
    secs = j["end"]["sum_received"]["seconds"]
    cpu = c1 - c0
    r = {"cc": cc, "gbit_s": received * 8 / secs / 1e9, "bytes": received,
         "rledbat_connections": seen,
         "cpu_s": round(cpu, 3), "wall_s": round(t1 - t0, 3),
         "cpu_s_per_gb": cpu / (received / 1e9),
         "iperf_cpu_host": j["end"]["cpu_utilization_percent"]["host_total"],
         "iperf_cpu_remote": j["end"]["cpu_utilization_percent"]["remote_total"]}
    if rledbat:
        if bpf_cnt == 0:
            return {"error": "the rLEDBAT programs ran no time (kernel.bpf_stats_enabled?)"}
        r.update({"bpf_run_ns": bpf_ns, "bpf_run_cnt": bpf_cnt,
                  "bpf_s_per_gb": bpf_ns / 1e9 / (received / 1e9)})
    return r


def _med(v: list[float]) -> dict:
    """The repeats' median and range (`netbed.summary`) with the keys the JSON has always had:
    median, min, max and n."""
    return median_range(v, count_missing=False)


def summarise(rounds: list[dict], ccs: list[str], paths_: list[str]) -> dict:
    out = {}
    for p in paths_:
        for cc in ["cubic"] + ccs:
            rs = [r for rd in rounds if rd["path"] == p for r in rd["runs"]
                  if r.get("cc") == cc and not r.get("error")]
            if not rs:
                continue
            row = {"gbit_s": _med([r["gbit_s"] for r in rs]),
                   "cpu_s_per_gb": _med([r["cpu_s_per_gb"] for r in rs])}
            if cc != "cubic":
                tr, cr, br = [], [], []
                for rd in rounds:
                    if rd["path"] != p:
                        continue
                    by = {r.get("cc"): r for r in rd["runs"] if not r.get("error")}
                    if cc in by and "cubic" in by:
                        plain = by["cubic"]["cpu_s_per_gb"]
                        tr.append(by[cc]["gbit_s"] / by["cubic"]["gbit_s"])
                        cr.append(by[cc]["cpu_s_per_gb"] / plain)
                        if "bpf_s_per_gb" in by[cc]:
                            # the plain download's CPU plus what the programs ran, per GB
                            br.append(1 + by[cc]["bpf_s_per_gb"] / plain)
                if tr:
                    row["throughput_vs_cubic"] = _med(tr)
                    row["cpu_per_gb_vs_cubic"] = _med(cr)
                if br:
                    row["bpf_cpu_per_gb_vs_cubic"] = _med(br)
            out[f"{p}/{cc}"] = row
    return out


def _f(s: dict | None, nd: int = 2) -> str:
    return format_range(s, nd, range_for_one=True)


def markdown(doc: dict) -> str:
    lines = ["| path | controller | Gbit/s | CPU s per GB | throughput / cubic's | "
             "CPU per GB / cubic's | (cubic's + programs') / cubic's |",
             "|---|---|---|---|---|---|---|"]
    for key, row in doc["summary"].items():
        p, cc = key.split("/", 1)
        lines.append(f"| {p} | {cc} | {_f(row['gbit_s'])} | {_f(row['cpu_s_per_gb'], 3)} | "
                     f"{_f(row.get('throughput_vs_cubic'), 3)} | "
                     f"{_f(row.get('cpu_per_gb_vs_cubic'), 3)} | "
                     f"{_f(row.get('bpf_cpu_per_gb_vs_cubic'), 4)} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--ccs", default="scavenger,ledbat")
    ap.add_argument("--paths", default="loopback,veth")
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--json", default=None)
    ap.add_argument("--md", default=None)
    ap.add_argument("--rledbat-param", action="append", default=[], metavar="KEY=VALUE",
                    help="for the `rledbat` entry of --ccs: a further `ledbat tcp run "
                         "--rledbat-param`, e.g. competitor.enabled=true; repeatable")
    a = ap.parse_args(argv)
    ledbat_bin = install.prepare("namespaces, BPF", a.ledbat_bin,
                                 install.Needs(["ip", "iperf3", "bpftool"]),
                                 log=lambda m: print(f"[cost] {m}"))
    if ledbat_bin is None:
        return 2
    specs = [x for x in a.ccs.split(",") if x]
    paths_ = [x for x in a.paths.split(",") if x]
    bad = [p for p in paths_ if p not in ("loopback", "veth")]
    if bad:
        print(f"error: unknown path(s) {bad} (loopback, veth)", file=sys.stderr)
        return 2
    doc: dict = {"command": paths.command_line(["testbed/tcpcost.py"],
                                               sys.argv[1:] if argv is None else argv),
                 "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
                 **paths.provenance(ledbat_bin), "kernel": os.uname().release,
                 "rledbat_params": list(a.rledbat_param),
                 "load_before": os.getloadavg(), "rounds": []}
    ccs = ktcp.Controllers(ledbat_bin)
    stats = BpfStats() if RLEDBAT in specs else contextlib.nullcontext()
    with stats:
        try:
            names = {s: (s if s == RLEDBAT else ccs.ensure(s)) for s in specs}
            for rep in range(a.repeats):
                for p in paths_:
                    order = ["cubic"] + [names[s] for s in specs]
                    k = rep % len(order)
                    order = order[k:] + order[:k]
                    cns, sns, addr = setup(p)
                    runs = []
                    for kn in order:
                        rl = kn == RLEDBAT
                        r = transfer(cns, sns, addr, "cubic" if rl else kn, a.seconds, ledbat_bin,
                                     rl, a.rledbat_param)
                        r["cc"] = next((s for s, n in names.items() if n == kn), kn)
                        runs.append(r)
                        shown = {k: v for k, v in r.items() if k != "cc"}
                        print(f"[cost] round {rep + 1} {p} {r['cc']}: {json.dumps(shown)}",
                              flush=True)
                    doc["rounds"].append({"round": rep + 1, "path": p, "runs": runs,
                                          "load": os.getloadavg()[0]})
                    cleanup()
        except (ktcp.LoadFailed, proc.CommandError, subprocess.TimeoutExpired) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        finally:
            cleanup()
            for problem in ccs.close():
                print(f"[cost] {problem}", file=sys.stderr)
    doc["load_after"] = os.getloadavg()
    doc["summary"] = summarise(doc["rounds"], specs, paths_)
    md = (f"Cost of our kernel congestion controls against cubic ({doc['kernel']}, "
          f"{a.seconds:g} s transfers, {a.repeats} rounds, {doc['date_utc']} UTC, load "
          f"{doc['load_before'][0]:.2f} before):\n\n" + markdown(doc))
    print("\n" + md)
    for path, text in ((a.json, json.dumps(doc, indent=1)), (a.md, md)):
        if path:
            paths.write_atomic(path, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
