"""The thesis's chapter 6 on this machine's kernel: flash-crowd swarms of real clients.

    sudo python3 testbed/swarm.py --quick                       # CI: two small swarms
    sudo python3 testbed/swarm.py --scenarios mixed,tcp --clients ours,lt --n 24 --size-mb 8
    python3 testbed/swarm.py report OUT_DIR                     # tables and plots again

One seed (disposition 31, as in every experiment of seed 003 section 6.1.2) with the whole
file and N-1 leechers all arriving at once and never leaving (section 6.2.1), each peer
behind its own 1 Mbit/s uplink with a 1 s FIFO (`netbed.swarm`), a real tracker
(opentracker). Leechers' dispositions per scenario (seed 003 section 6.2):

| scenario | leechers |
|---|---|
| `mixed` | 31 (both transports, uTP preferred: µTorrent's default) |
| `utp` | 10 (uTP only) |
| `tcp` | 5 (TCP only) |
| `tcp25`, `tcp50`, `tcp75` | that share of leechers 13 (dial TCP), the rest 14 (dial uTP); both accept everything |

Clients (`--clients`): `ours` (`ledbat torrent run`), `lt` (libtorrent 2.1.1,
`netbed.lt_swarm`, its transport switches set from the disposition), `both` (leechers
alternate ours / libtorrent, the seed is ours). Each (scenario, client) is one swarm on a
fresh bed; `--repeat R` runs it R times (the thesis ran 3).

Per swarm: every leecher's completion time from the leechers' common start, its file's
SHA-1, every uplink's queue every 100 ms and its drops, every uplink's bytes by protocol on
the wire, and the machine's CPU load (the bed must not be the bottleneck: `cpu_busy` near
1.0 or drops outside the uplinks would mean it is). Output in OUT_DIR: per swarm
`<scenario>-<client>-<i>/` with `run.json` (everything) and every process's output;
`report.md` (tables with the thesis's values beside ours), `completion-<scenario>.svg`
(completion-time CDF per class), `queue-<scenario>.svg` (uplink queue CCDF per class).

Exit status: 0 every swarm ran and every leecher completed byte-exact; 1 otherwise; 2 the
bed cannot run (not root, tools missing); 3 the time limit was hit.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from dataclasses import asdict, dataclass

from . import install, paths, proc, swarmstats as st
from .guard import Deadline, arm, disarm
from .interop.harness import make_payload, sha1_of
from .svgplot import line_chart
from .swarm import PEER_PORT, SwarmTopo, read_jsonl, sampler_argv, start_tracker, tracker_ready

SCENARIOS = ["mixed", "utp", "tcp", "tcp25", "tcp50", "tcp75"]
CLIENTS = ["ours", "lt", "both"]
SEED_DISPOSITION = 31
QUEUE_INTERVAL_S = 0.1


@dataclass
class Member:
    """One peer of a swarm."""

    k: int
    client: str
    disposition: int
    seed: bool

    @property
    def cls(self) -> str:
        """Its class in the plots: client and disposition."""
        return f"{'seed ' if self.seed else ''}{self.client} {self.disposition}"


def members(scenario: str, client: str, n: int) -> list[Member]:
    """The seed (peer 1) and the n-1 leechers of a scenario."""
    leechers = n - 1
    if scenario == "mixed":
        disps = [31] * leechers
    elif scenario == "utp":
        disps = [10] * leechers
    elif scenario == "tcp":
        disps = [5] * leechers
    elif scenario in ("tcp25", "tcp50", "tcp75"):
        tcp = round(int(scenario[3:]) / 100 * leechers)
        # Interleaved, so the two kinds are spread over the peer numbers.
        order = sorted(range(leechers), key=lambda i: (i * 7919) % leechers)
        tcp_set = set(order[:tcp])
        disps = [13 if i in tcp_set else 14 for i in range(leechers)]
    else:
        raise ValueError(f"unknown scenario `{scenario}` (known: {', '.join(SCENARIOS)})")
    if client not in CLIENTS:
        raise ValueError(f"unknown client `{client}` (known: {', '.join(CLIENTS)})")
    seed_client = "ours" if client == "both" else client
    out = [Member(1, seed_client, SEED_DISPOSITION, True)]
    for i, d in enumerate(disps):
        c = client if client != "both" else ("ours" if i % 2 == 0 else "lt")
        out.append(Member(i + 2, c, d, False))
    return out


@dataclass
class Settings:
    """What every swarm of one invocation shares."""

    n: int
    size_mb: float
    rate_mbit: float
    ledbat_bin: str
    cc: str
    max_swarm_s: float
    piece_kib: int = 64


def member_argv(m: Member, s: Settings, torrent: str, data_dir: str) -> list[str]:
    """The command running member `m` in its namespace."""
    listen = f"{SwarmTopo.peer_ip(m.k)}:{PEER_PORT}"
    if m.client == "ours":
        return [s.ledbat_bin, "torrent", "run", torrent, "--data", data_dir, "--listen", listen,
                "--disposition", str(m.disposition), "--cc", s.cc, "--json",
                "--max-seconds", str(s.max_swarm_s + 30), "--rng-seed", str(m.k)]
    argv = [sys.executable, "-m", "netbed.lt_swarm", torrent, "--save", data_dir,
            "--listen", listen, "--disposition", str(m.disposition),
            "--max-seconds", str(s.max_swarm_s + 30)]
    return argv + (["--seed"] if m.seed else [])


def completed(m: Member, bg: proc.Background) -> bool:
    """Whether member `m`'s process said its download completed."""
    if m.client == "ours":
        return "complete after " in bg.stderr_text()
    return any(o.get("event") == "complete" for o in read_jsonl(bg.stdout_path))


def summary_of(m: Member, bg: proc.Background) -> dict:
    """The member's own final summary (our JSON, libtorrent's summary line)."""
    if m.client == "ours":
        try:
            return json.loads(bg.stdout_text())
        except ValueError:
            return {}
    lines = [o for o in read_jsonl(bg.stdout_path) if o.get("event") == "summary"]
    return lines[-1] if lines else {}


def own_transport_bytes(m: Member, summary: dict) -> dict:
    """Payload bytes by transport as the client counts them."""
    if m.client == "ours":
        c = summary.get("counters", {})
        return {t: c.get(t, {}) for t in ("utp", "tcp")}
    return summary.get("by_transport", {})


def run_swarm(scenario: str, client: str, rep: int, s: Settings, src: str, torrent: str,
              info_hash: str, out_dir: str, log=print) -> dict:
    """One swarm on a fresh bed; returns its record (also written to run.json)."""
    name = f"{scenario}-{client}-{rep}"
    logdir = os.path.join(out_dir, name)
    os.makedirs(logdir, exist_ok=True)
    ms = members(scenario, client, s.n)
    topo = SwarmTopo("sw", s.n, rate_bps=int(s.rate_mbit * 1e6))
    group = proc.Group(logdir)
    errors: list[str] = []
    rec: dict = {"name": name, "scenario": scenario, "client": client, "rep": rep,
                 "settings": asdict(s), "members": [asdict(m) for m in ms], "errors": errors}
    procs: dict[int, proc.Background] = {}
    try:
        topo.setup()
        qd = group.start("qdiscs", sampler_argv("qdiscs", "-", QUEUE_INTERVAL_S,
                                                s.max_swarm_s + 120), ns=topo.modem)
        nf = group.start("nft", sampler_argv("nft", "ledbat_sw", 1.0, s.max_swarm_s + 120),
                         ns=topo.modem)
        start_tracker(topo, group, logdir, [info_hash])
        if not proc.wait_until(lambda: tracker_ready(topo), 10):
            raise proc.CommandError("opentracker did not answer")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        dirs = {}
        for m in ms:
            d = os.path.dirname(src) if m.seed else os.path.join(logdir, f"data-p{m.k}")
            os.makedirs(d, exist_ok=True)
            dirs[m.k] = d
        seed = ms[0]
        procs[seed.k] = group.start(f"p{seed.k}", member_argv(seed, s, torrent, dirs[seed.k]),
                                    ns=topo.peer(seed.k), env=env)
        time.sleep(2.0)  # the seed's first announce reaches the tracker
        cpu0, load0 = st.read_proc_stat(), os.getloadavg()
        t_start = time.monotonic()
        for m in ms[1:]:
            procs[m.k] = group.start(f"p{m.k}", member_argv(m, s, torrent, dirs[m.k]),
                                     ns=topo.peer(m.k), env=env)
        done_at: dict[int, float] = {}
        cpu_marks = [(t_start, cpu0)]
        while time.monotonic() - t_start < s.max_swarm_s:
            for m in ms[1:]:
                if m.k not in done_at and completed(m, procs[m.k]):
                    done_at[m.k] = time.monotonic() - t_start
                if not procs[m.k].alive() and m.k not in done_at:
                    errors.append(f"p{m.k} exited early: {procs[m.k].stderr_tail()}")
                    done_at[m.k] = float("nan")
            if len(done_at) == len(ms) - 1:
                break
            time.sleep(0.5)
            if time.monotonic() - cpu_marks[-1][0] >= 5:
                cpu_marks.append((time.monotonic(), st.read_proc_stat()))
        t_end = time.monotonic()
        cpu1, load1 = st.read_proc_stat(), os.getloadavg()
        cpu_marks.append((t_end, cpu1))
        if len(done_at) < len(ms) - 1:
            errors.append(f"{len(ms) - 1 - len(done_at)} leechers did not complete within "
                          f"{s.max_swarm_s:.0f} s")
        time.sleep(1.0)
        cpu_s = {k: st.process_cpu_s(bg.popen.pid) for k, bg in procs.items()}
        proc.stop_all(list(procs.values()), grace=8.0)
        qd.stop()
        nf.stop()
        qdisc = read_jsonl(qd.stdout_path)
        counters = read_jsonl(nf.stdout_path)
        peers = []
        for m in ms:
            summ = summary_of(m, procs[m.k])
            fpath = os.path.join(dirs[m.k], os.path.basename(src))
            ok = m.seed or (os.path.exists(fpath) and sha1_of(fpath) == rec.setdefault(
                "source_sha1", sha1_of(src)))
            if not ok:
                errors.append(f"p{m.k} ({m.cls}): file missing or not byte-exact")
            ct = (summ.get("completed_after") if m.client == "ours" else None)
            t_done = done_at.get(m.k)
            peers.append({
                "k": m.k, "client": m.client, "disposition": m.disposition, "seed": m.seed,
                "class": m.cls,
                "completion_s": None if m.seed or t_done is None or t_done != t_done else t_done,
                "own_completed_after_s": ct if ct is not None else summ.get("completed_after"),
                "byte_exact": bool(ok),
                "wire": st.wire_bytes(counters, m.k),
                "own_bytes": own_transport_bytes(m, summ),
                "uploaded": (summ.get("counters", {}).get("uploaded") if m.client == "ours"
                             else summ.get("payload_up")),
                "drops": st.drops(qdisc, topo.uplink_dev(m.k)),
                "queue_bytes": st.queue_samples(qdisc, topo.uplink_dev(m.k), t_start, t_end),
                "exit": procs[m.k].returncode,
                "cpu_s": cpu_s.get(m.k),
            })
            if m.client == "ours":
                peers[-1]["peer_connections"] = [
                    {k: p.get(k) for k in ("addr", "transport", "outgoing", "error")}
                    | {"down": (p.get("summary") or {}).get("downloaded"),
                       "up": (p.get("summary") or {}).get("uploaded")}
                    for p in summ.get("peers", [])]
        if client == "both":
            rec["ours_lt_exchange"] = ours_lt_exchange(peers)
        busy = [st.cpu_busy(a[1], b[1]) for a, b in zip(cpu_marks, cpu_marks[1:])]
        peers_cpu = sum(c for c in cpu_s.values() if c is not None)
        rec.update({
            "t_swarm_s": t_end - t_start,
            "peers_cpu_s": peers_cpu,
            "peers_cpu_share": peers_cpu / ((t_end - t_start + 2.0) * (os.cpu_count() or 1)),
            "cpu_busy_mean": st.cpu_busy(cpu0, cpu1),
            "cpu_busy_max_5s": max((b for b in busy if b is not None), default=None),
            "loadavg_before": load0, "loadavg_after": load1,
            "queue_samples": len(qdisc), "peers": peers,
        })
    except (proc.CommandError, OSError) as e:
        errors.append(str(e))
    finally:
        group.stop_all()
        for p in topo.teardown():
            errors.append(p)
        for k in range(2, s.n + 1):
            shutil.rmtree(os.path.join(logdir, f"data-p{k}"), ignore_errors=True)
    with open(os.path.join(logdir, "run.json"), "w") as f:
        json.dump(rec, f)
    log(f"[swarm] {name}: {line_of(rec, s.rate_mbit * 1e6)}")
    return rec


def ours_lt_exchange(peers: list[dict]) -> dict:
    """Payload our clients received from and sent to libtorrent peers, by transport (from
    our clients' per-connection reports)."""
    lt_ips = {SwarmTopo.peer_ip(p["k"]) for p in peers if p["client"] == "lt"}
    out = {t: {"from_lt": 0, "to_lt": 0} for t in ("utp", "tcp")}
    for p in peers:
        for c in p.get("peer_connections", []):
            if c["addr"] and c["addr"].rsplit(":", 1)[0] in lt_ips and c["transport"] in out:
                out[c["transport"]]["from_lt"] += c["down"] or 0
                out[c["transport"]]["to_lt"] += c["up"] or 0
    return out


def line_of(rec: dict, rate_bps: float) -> str:
    """One line about a swarm for the log."""
    peers = rec.get("peers", [])
    if not peers:
        return f"FAILED: {'; '.join(rec['errors'])[:300]}"
    c = st.class_summary(peers, int(rate_bps))
    sh = st.byte_share(peers)
    return (f"{c['completed']}/{c['leechers']} complete, E[T] {fmt(c['mean_t_s'])} s, "
            f"E[Q] {fmt(c['mean_q_ms'])} ms, TCP share {fmt(pct(sh['tcp_share']))} %, "
            f"peers' cpu {fmt(pct(rec.get('peers_cpu_share')))} %, machine busy "
            f"{fmt(pct(rec.get('cpu_busy_mean')))} %"
            + (f"; errors: {'; '.join(rec['errors'])[:200]}" if rec["errors"] else ""))


def fmt(x, nd: int = 1) -> str:
    """A number for a table, `-` for None."""
    return "-" if x is None else f"{x:.{nd}f}"


def pct(x):
    """A fraction as a percentage (None stays None)."""
    return None if x is None else 100 * x


# What seed 003 section 6.2 says in its text (its figures' insets are images): the values
# we can put beside ours.
THESIS = {
    "mixed": "shortest E[T] of all; ~80 % of bytes over LEDBAT; queue non-empty ~80 % of the time",
    "utp": "E[T] slightly above mixed; smallest queues",
    "tcp": "longest E[T] of the homogeneous swarms; queue up to ~400 ms on average",
    "tcp25": "E[T] below tcp50 and tcp75 (a little TCP helps); TCP and LEDBAT peers finish alike",
    "tcp50": "E[T] between tcp25 and tcp75; byte share follows the peer share",
    "tcp75": "E[T] above tcp25 (much TCP slows everyone); byte share follows the peer share",
}


def report(out_dir: str, rate_bps: int | None = None) -> str:
    """Writes report.md and the SVG plots from every run.json under `out_dir`."""
    recs = []
    for d in sorted(os.listdir(out_dir)):
        p = os.path.join(out_dir, d, "run.json")
        if os.path.exists(p):
            with open(p) as f:
                recs.append(json.load(f))
    lines = ["# Swarms on the kernel (seed 003, chapter 6)", ""]
    if not recs:
        lines.append("No swarm ran.")
    else:
        s0 = recs[0]["settings"]
        rate = rate_bps or int(s0["rate_mbit"] * 1e6)
        lines += [f"N = {s0['n']} peers (1 seed + {s0['n'] - 1} leechers), file "
                  f"{s0['size_mb']} MB in {s0['piece_kib']} KiB pieces, uplinks "
                  f"{s0['rate_mbit']} Mbit/s with a 1 s FIFO, uTP controller `{s0['cc']}` "
                  f"(ours). T from the leechers' common start; Q every 100 ms while they "
                  f"download; byte share on the wire (TCP/uTP).", "",
                  "| swarm | complete | byte-exact | E[T] s | sd[T] s | max T s | E[Q] ms | "
                  "p95 Q ms | Q>0 | TCP/uTP bytes | uplink drops | peers' CPU | machine busy (mean / max 5 s) | thesis (text of section 6.2) |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in recs:
            peers = r.get("peers", [])
            if not peers:
                why = " ".join("; ".join(r["errors"]).split())[:160]
                lines.append(f"| {r['name']} | failed: {why} |" + " |" * 12)
                continue
            c = st.class_summary(peers, rate)
            sh = st.byte_share(peers)
            exact = sum(1 for p in peers if p["byte_exact"] and not p["seed"])
            dr = sum(p["drops"] or 0 for p in peers)
            share = ("-" if sh["tcp_share"] is None
                     else f"{100 * sh['tcp_share']:.0f}/{100 - 100 * sh['tcp_share']:.0f}")
            lines.append(
                f"| {r['name']} | {c['completed']}/{c['leechers']} | {exact}/{c['leechers']} | "
                f"{fmt(c['mean_t_s'])} | {fmt(c['sd_t_s'])} | {fmt(c['max_t_s'])} | "
                f"{fmt(c['mean_q_ms'])} | {fmt(c['p95_q_ms'])} | {fmt(pct(c['nonempty']), 0)} % | "
                f"{share} | {dr} | {fmt(pct(r.get('peers_cpu_share')), 0)} % | "
                f"{fmt(pct(r.get('cpu_busy_mean')), 0)} / "
                f"{fmt(pct(r.get('cpu_busy_max_5s')), 0)} % | {THESIS.get(r['scenario'], '')} |")
        lines += ["", "Per class (client and disposition; seeds excluded from T):", "",
                  "| swarm | class | peers | E[T] s | E[Q] ms | TCP/uTP bytes |", "|---|---|---|---|---|---|"]
        for r in recs:
            peers = r.get("peers", [])
            for cls in sorted({p["class"] for p in peers}):
                ps = [p for p in peers if p["class"] == cls]
                c = st.class_summary(ps, rate)
                sh = st.byte_share(ps)
                share = ("-" if sh["tcp_share"] is None
                         else f"{100 * sh['tcp_share']:.0f}/{100 - 100 * sh['tcp_share']:.0f}")
                lines.append(f"| {r['name']} | {cls} | {len(ps)} | {fmt(c['mean_t_s'])} | "
                             f"{fmt(c['mean_q_ms'])} | {share} |")
        for scen in sorted({r["scenario"] for r in recs}):
            rs = [r for r in recs if r["scenario"] == scen and r.get("peers")]
            cdfs, ccdfs = [], []
            for r in rs:
                for cls in sorted({p["class"] for p in r["peers"]}):
                    ps = [p for p in r["peers"] if p["class"] == cls]
                    t = [p["completion_s"] for p in ps if p["completion_s"] is not None]
                    if t:
                        cdfs.append((f"{r['client']}#{r['rep']} {cls}", st.cdf(t)))
                    q = [b * 8 / rate * 1000 for p in ps for b in p["queue_bytes"]]
                    if q:
                        ccdfs.append((f"{r['client']}#{r['rep']} {cls}", st.ccdf(q)))
            with open(os.path.join(out_dir, f"completion-{scen}.svg"), "w") as f:
                f.write(line_chart(f"{scen}: completion time CDF", "T (s)", "P[T <= t]", cdfs))
            with open(os.path.join(out_dir, f"queue-{scen}.svg"), "w") as f:
                f.write(line_chart(f"{scen}: uplink queue CCDF", "Q (ms at C)", "P[Q > q]", ccdfs))
            lines.append("")
            lines.append(f"![{scen} completion](completion-{scen}.svg) ![{scen} queue](queue-{scen}.svg)")
        lines += ["", "Seed 003 Fig. 6.4: E[T] against the TCP byte share and against E[Q] "
                  "(one point per swarm; least-squares line over the swarms with some TCP):", ""]
        pts: dict[str, list[tuple[float, float, float]]] = {}
        for r in recs:
            if not r.get("peers"):
                continue
            c = st.class_summary(r["peers"], rate)
            sh = st.byte_share(r["peers"])["tcp_share"]
            if c["mean_t_s"] is not None and sh is not None:
                pts.setdefault(r["client"], []).append((sh, c["mean_q_ms"] or 0, c["mean_t_s"]))
        for client, ps in sorted(pts.items()):
            fit = st.linear_fit([(x, t) for x, _, t in ps if x > 0.01])
            lines.append(f"- {client}: " + (
                f"E[T] = {fit[0]:.1f} s + {fit[1]:.1f} s x TCP share (over "
                f"{sum(1 for x, _, _ in ps if x > 0.01)} swarms with TCP)" if fit else
                "fewer than two swarms with TCP, no fit"))
        with open(os.path.join(out_dir, "completion-vs-tcp-share.svg"), "w") as f:
            f.write(line_chart("E[T] against the TCP byte share", "TCP share of bytes",
                               "E[T] (s)", [(c, [(x, t) for x, _, t in ps])
                                            for c, ps in sorted(pts.items())], points=True))
        with open(os.path.join(out_dir, "completion-vs-queue.svg"), "w") as f:
            f.write(line_chart("E[T] against E[Q]", "E[Q] (ms)", "E[T] (s)",
                               [(c, [(q, t) for _, q, t in ps]) for c, ps in sorted(pts.items())],
                               points=True))
        lines += ["", "![E[T] vs TCP share](completion-vs-tcp-share.svg) "
                  "![E[T] vs E[Q]](completion-vs-queue.svg)"]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write(text)
    return text


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", nargs="?", default="run", choices=["run", "report", "list"])
    ap.add_argument("out", nargs="?", help="report: the output directory to summarise")
    ap.add_argument("--quick", action="store_true",
                    help="CI: N=8, 2 MB, swarms mixed and tcp with both clients mixed")
    ap.add_argument("--scenarios", default="mixed,utp,tcp,tcp25,tcp50,tcp75")
    ap.add_argument("--clients", default="ours,lt")
    ap.add_argument("--n", type=int, default=24, help="peers, seed included (24)")
    ap.add_argument("--size-mb", type=float, default=8.0, help="file size in MB (8)")
    ap.add_argument("--rate-mbit", type=float, default=1.0, help="uplink C (1 Mbit/s)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--cc", default="ledbat", help="our uTP controller (ledbat)")
    ap.add_argument("--max-swarm-seconds", type=float, default=None,
                    help="give up on a swarm after this long (default: 6x the seed's "
                         "minimum time to upload one copy, at least 60 s)")
    ap.add_argument("--max-seconds", type=float, default=None,
                    help="overall limit (default: 600 quick, 1200 otherwise)")
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--no-install", action="store_true")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    if a.command == "report":
        if not a.out:
            print("report needs the output directory", file=sys.stderr)
            return 2
        print(report(a.out))
        return 0
    if a.quick:
        a.n, a.size_mb, a.scenarios, a.clients = 8, 2.0, "mixed,tcp", "both"
    scen = [x for x in a.scenarios.split(",") if x]
    clients = [x for x in a.clients.split(",") if x]
    try:
        for sc in scen:
            for c in clients:
                members(sc, c, a.n)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    seed_copy_s = a.size_mb * 8 / a.rate_mbit
    max_swarm = a.max_swarm_seconds or max(60.0, 6 * seed_copy_s)
    plan = [(sc, c, r) for sc in scen for c in clients for r in range(1, a.repeat + 1)]
    if a.command == "list":
        for sc, c, r in plan:
            print(f"{sc}-{c}-{r}: {', '.join(m.cls for m in members(sc, c, a.n))}")
        print(f"{len(plan)} swarms, each at most {max_swarm:.0f} s (one copy from the seed: "
              f"{seed_copy_s:.0f} s)")
        return 0
    ledbat = install.prepare("network namespaces", a.ledbat_bin,
                             install.Needs(["ip", "tc", "ethtool", "nft", "ping", "sysctl", "curl",
                                            "opentracker"], libtorrent=True),
                             install=not a.no_install)
    if ledbat is None:
        return 2
    out = a.out_dir or paths.default_out_dir("swarm")
    os.makedirs(out, exist_ok=True)
    limit = a.max_seconds or (600 if a.quick else 1200)
    arm(limit)
    s = Settings(a.n, a.size_mb, a.rate_mbit, ledbat, a.cc, max_swarm)
    src_dir = os.path.join(out, "source")
    os.makedirs(src_dir, exist_ok=True)
    src = os.path.join(src_dir, "swarm.bin")
    torrent = os.path.join(out, "swarm.torrent")
    status = 0
    t0 = time.monotonic()
    try:
        if not os.path.exists(src) or os.path.getsize(src) != int(a.size_mb * 1e6):
            make_payload(src, int(a.size_mb * 1e6), seed=11)
        topo_url = SwarmTopo("sw", a.n).tracker_url
        made = proc.run([ledbat, "torrent", "create", src, "-o", torrent, "--piece-kib",
                         str(s.piece_kib), "--announce", topo_url])
        info_hash = re.search(r"info-hash ([0-9a-f]{40})", made.stdout)[1]
        print(f"[swarm] {len(plan)} swarm(s) of {a.n} peers, {a.size_mb} MB, each <= "
              f"{max_swarm:.0f} s; output in {out}", flush=True)
        # Pieces must go both ways between our clients and libtorrent, over the whole run
        # rather than in each swarm: in a small TCP-only swarm our leechers can hold every
        # piece a libtorrent leecher has (both fed by our seed), so nothing is left for them
        # to fetch from libtorrent and one swarm alone can show a single direction.
        both_ways = {"from_lt": 0, "to_lt": 0}
        for sc, c, r in plan:
            rec = run_swarm(sc, c, r, s, src, torrent, info_hash, out)
            peers = rec.get("peers", [])
            if rec["errors"] or not peers or not all(p["byte_exact"] for p in peers):
                status = 1
            ex = rec.get("ours_lt_exchange")
            if ex is not None:
                print(f"[swarm] {rec['name']}: ours <-> libtorrent payload {json.dumps(ex)}",
                      flush=True)
                for way in both_ways:
                    both_ways[way] += sum(v[way] for v in ex.values())
        if any(rec_c == "both" for _, rec_c, _ in plan) and not all(both_ways.values()):
            print(f"[swarm] pieces did not go both ways between our clients and libtorrent "
                  f"over the run: {json.dumps(both_ways)}", flush=True)
            status = 1
    except Deadline:
        print(f"[swarm] time limit of {limit:.0f} s hit", file=sys.stderr)
        status = 3
    except KeyboardInterrupt:
        print("[swarm] interrupted", file=sys.stderr)
        status = 1
    finally:
        disarm()
    print(report(out))
    print(f"[swarm] done in {time.monotonic() - t0:.0f} s", flush=True)
    return status
