"""A swarm with attackers in it: honest peers (ours and libtorrent) and a real tracker on the
swarm bed (`netbed.swarm`), plus one hostile process per kind of `netbed.attackers`.

    sudo python3 testbed/attack.py                        # 10 min attacked + the same swarm without
    sudo python3 testbed/attack.py --quick                # CI-sized: 2 min each
    python3 testbed/attack.py report OUT_DIR              # the table again

Honest peers: peer 1 seeds (ours), wave 1 of leechers (ours, ours, libtorrent) starts at 0,
wave 2 (ours, libtorrent) at `--wave2` seconds, all disposition 31, behind uplinks of
`--rate-mbit` with a 1 s FIFO. Attackers (peers after them, uplinks of 20 Mbit/s):
`badpiece`, `liar`, `garbage`, `slowloris`, `flood`, `malformed`, `churn`, `utp`, each aimed
at every honest peer; the serving ones also announce to the tracker. Everyone stays until
`--seconds`.

Measured per honest leecher: completion time from its arrival, byte-exact file (SHA-1). Per
our client: resident memory and open file descriptors every 2 s (`/proc/PID`), their
maximum and their value in the last minute against the second; its `--json` counters
(limits hit, bans, hash failures). The same swarm without attackers runs first, so the
completion times compare within one invocation. `report.md` holds the table.

Exit status: 0 both swarms ran, every honest leecher completed byte-exact and our clients'
memory and descriptors stayed under `--max-rss-mb` / `--max-fds`; 1 otherwise; 2 the bed
cannot run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from dataclasses import dataclass

from . import install, paths, proc
from .attackers import KINDS
from .guard import arm
from .interop.harness import make_payload, sha1_of
from .swarm import PEER_PORT, SwarmTopo, read_jsonl, start_tracker, tracker_ready
from .swarmrun import Member, Settings, completed, member_argv, summary_of

ATTACKER_RATE_BPS = 20_000_000
SAMPLE_S = 2.0


@dataclass
class Honest:
    member: Member
    arrive_s: float


def honest_peers(wave2_s: float) -> list[Honest]:
    """The seed, wave 1 (ours, ours, lt) at 0 and wave 2 (ours, lt) at `wave2_s`."""
    plan = [("ours", 0.0), ("ours", 0.0), ("lt", 0.0), ("ours", wave2_s), ("lt", wave2_s)]
    out = [Honest(Member(1, "ours", 31, True), 0.0)]
    for i, (client, at) in enumerate(plan):
        out.append(Honest(Member(i + 2, client, 31, False), at))
    return out


def proc_sample(pid: int) -> tuple[int, int] | None:
    """(resident kB, open file descriptors) of process `pid`, None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        return rss, len(os.listdir(f"/proc/{pid}/fd"))
    except (OSError, StopIteration, ValueError):
        return None


def attacker_argv(kind: str, k: int, honest: list[Honest], info_hash: str, pieces: int,
                  piece_len: int, tracker: str, seconds: float) -> list[str]:
    targets = ",".join(f"{SwarmTopo.peer_ip(h.member.k)}:{PEER_PORT}" for h in honest)
    return [sys.executable, "-m", "netbed.attackers", kind, "--info-hash", info_hash,
            "--pieces", str(pieces), "--piece-len", str(piece_len),
            "--listen", f"{SwarmTopo.peer_ip(k)}:{PEER_PORT}", "--targets", targets,
            "--tracker", tracker, "--max-seconds", str(seconds)]


def run_one(name: str, attacked: bool, a, s: Settings, src: str, torrent: str, info_hash: str,
            pieces: int, out_dir: str, extra: list[str], log=print) -> dict:
    """One swarm on a fresh bed; returns its record (also `NAME/run.json`)."""
    logdir = os.path.join(out_dir, name)
    os.makedirs(logdir, exist_ok=True)
    honest = honest_peers(a.wave2)
    kinds = KINDS if attacked else []
    n = len(honest) + len(kinds)
    topo = SwarmTopo("atk", n, rate_bps=int(a.rate_mbit * 1e6))
    group = proc.Group(logdir)
    errors: list[str] = []
    rec: dict = {"name": name, "attacked": attacked, "errors": errors,
                 "settings": {"seconds": a.seconds, "wave2_s": a.wave2, "rate_mbit": a.rate_mbit,
                              "size_mb": a.size_mb, "piece_kib": s.piece_kib, "extra": extra},
                 "attackers": kinds}
    procs: dict[int, proc.Background] = {}
    samples: dict[int, list[tuple[float, int, int]]] = {}
    try:
        topo.setup()
        for i, _ in enumerate(kinds):
            k = len(honest) + 1 + i
            proc.run(["tc", "qdisc", "replace", "dev", topo.uplink_dev(k), "root", "tbf", "rate",
                      f"{ATTACKER_RATE_BPS}bit", "burst", "30000", "limit", "2500000"],
                     ns=topo.modem)
        start_tracker(topo, group, logdir, [info_hash])
        if not proc.wait_until(lambda: tracker_ready(topo), 10):
            raise proc.CommandError("opentracker did not answer")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        dirs = {}
        for h in honest:
            m = h.member
            d = os.path.dirname(src) if m.seed else os.path.join(logdir, f"data-p{m.k}")
            os.makedirs(d, exist_ok=True)
            dirs[m.k] = d

        def start(h: Honest):
            argv = member_argv(h.member, s, torrent, dirs[h.member.k])
            if h.member.client == "ours":
                argv += extra
            procs[h.member.k] = group.start(f"p{h.member.k}", argv, ns=topo.peer(h.member.k),
                                            env=env)
        start(honest[0])
        time.sleep(2.0)
        t0 = time.monotonic()
        for i, kind in enumerate(kinds):
            k = len(honest) + 1 + i
            group.start(f"attacker-{kind}", attacker_argv(
                kind, k, honest, info_hash, pieces, s.piece_kib * 1024, topo.tracker_url,
                a.seconds), ns=topo.peer(k), env=env)
        pending = [h for h in honest[1:]]
        done_at: dict[int, float] = {}
        next_sample = 0.0
        while time.monotonic() - t0 < a.seconds:
            now = time.monotonic() - t0
            for h in [h for h in pending if h.arrive_s <= now]:
                start(h)
                pending.remove(h)
            for h in honest[1:]:
                k = h.member.k
                if k in procs and k not in done_at and completed(h.member, procs[k]):
                    done_at[k] = now - h.arrive_s
            if now >= next_sample:
                next_sample = now + SAMPLE_S
                for h in honest:
                    if h.member.client == "ours" and h.member.k in procs:
                        x = proc_sample(procs[h.member.k].popen.pid)
                        if x:
                            samples.setdefault(h.member.k, []).append((round(now, 1), *x))
            if not attacked and not pending and len(done_at) == len(honest) - 1:
                break
            time.sleep(0.5)
        rec["t_swarm_s"] = time.monotonic() - t0
        proc.stop_all(list(procs.values()), grace=8.0)
        group.stop_all()
        peers = []
        src_sha = sha1_of(src)
        for h in honest:
            m = h.member
            bg = procs.get(m.k)
            summ = summary_of(m, bg) if bg else {}
            fpath = os.path.join(dirs[m.k], os.path.basename(src))
            exact = m.seed or (os.path.exists(fpath) and sha1_of(fpath) == src_sha)
            if not exact:
                errors.append(f"p{m.k} ({m.client}): file missing or not byte-exact")
            sm = samples.get(m.k, [])
            peers.append({
                "k": m.k, "client": m.client, "seed": m.seed, "arrive_s": h.arrive_s,
                "completion_s": done_at.get(m.k), "byte_exact": bool(exact),
                "exit": bg.returncode if bg else None,
                "max_rss_kb": max((x[1] for x in sm), default=None),
                "max_fds": max((x[2] for x in sm), default=None),
                "samples": sm,
                "counters": summ.get("counters") if m.client == "ours" else None,
                "limits": summ.get("limits") if m.client == "ours" else None,
            })
        missing = [p["k"] for p in peers if not p["seed"] and p["completion_s"] is None]
        if missing:
            errors.append(f"leechers {missing} did not complete")
        rec["peers"] = peers
        rec["attacker_summaries"] = {
            kind: (read_jsonl(os.path.join(logdir, f"attacker-{kind}.out")) or [{}])[-1]
            for kind in kinds}
    except (proc.CommandError, OSError) as e:
        errors.append(str(e))
    finally:
        group.stop_all()
        for p in topo.teardown():
            errors.append(p)
        for h in honest[1:]:
            shutil.rmtree(os.path.join(logdir, f"data-p{h.member.k}"), ignore_errors=True)
    with open(os.path.join(logdir, "run.json"), "w") as f:
        json.dump(rec, f)
    log(f"[attack] {name}: " + ("; ".join(errors) if errors else "ok"))
    return rec


def fmt(x, nd=1):
    return "-" if x is None else f"{x:.{nd}f}"


def late_growth(samples: list) -> tuple[float | None, float | None]:
    """Resident memory (MB) at the end of minute 2 and over the last minute (max)."""
    if not samples:
        return None, None
    end = samples[-1][0]
    m2 = [x[1] for x in samples if 60 <= x[0] <= 120]
    last = [x[1] for x in samples if x[0] >= end - 60]
    return (max(m2) / 1024 if m2 else None), (max(last) / 1024 if last else None)


def report(out_dir: str) -> str:
    recs = {}
    for name in ("baseline", "attacked"):
        p = os.path.join(out_dir, name, "run.json")
        if os.path.exists(p):
            with open(p) as f:
                recs[name] = json.load(f)
    lines = ["# A swarm with attackers", ""]
    if not recs:
        return "\n".join(lines + ["No swarm ran.", ""])
    st = next(iter(recs.values()))["settings"]
    lines += [f"Honest: one seed and five leechers (ours x3, libtorrent x2; wave 2 at "
              f"{st['wave2_s']:.0f} s), uplinks {st['rate_mbit']} Mbit/s with a 1 s FIFO, "
              f"file {st['size_mb']} MB in {st['piece_kib']} KiB pieces, opentracker. "
              f"Attacked: {', '.join(recs.get('attacked', {}).get('attackers', []))}, "
              f"for {st['seconds']:.0f} s. Completion time from each leecher's arrival.", "",
              "| peer | client | wave | T without attackers (s) | T with attackers (s) | "
              "byte-exact | max RSS MB | RSS MB minute 2 / last minute | max fds |",
              "|---|---|---|---|---|---|---|---|---|"]
    base = {p["k"]: p for p in recs.get("baseline", {}).get("peers", [])}
    att = {p["k"]: p for p in recs.get("attacked", {}).get("peers", [])}
    for k in sorted(set(base) | set(att)):
        b, x = base.get(k, {}), att.get(k, {})
        p = x or b
        wave = "seed" if p.get("seed") else ("1" if p.get("arrive_s", 0) == 0 else "2")
        m2, last = late_growth(x.get("samples", []))
        exact = "yes" if x.get("byte_exact") and b.get("byte_exact", True) else "NO"
        lines.append(f"| p{k} | {p.get('client')} | {wave} | {fmt(b.get('completion_s'))} | "
                     f"{fmt(x.get('completion_s'))} | {exact} | "
                     f"{fmt((x.get('max_rss_kb') or 0) / 1024 if x.get('max_rss_kb') else None)} | "
                     f"{fmt(m2)} / {fmt(last)} | {x.get('max_fds', '-')} |")
    lines += ["", "Our clients' counters in the attacked swarm (`--json`):", "",
              "| peer | hash failures | banned addresses | refusals of banned | limits hit |",
              "|---|---|---|---|---|"]
    for k, x in sorted(att.items()):
        if x.get("client") != "ours":
            continue
        c = x.get("counters") or {}
        lim = x.get("limits") or {}
        hits = ", ".join(f"{key} {v}" for key, v in sorted((lim.get("exceeded") or {}).items())
                         if v and key != "banned") or "none"
        lines.append(f"| p{k} | {c.get('hash_failures', '-')} | "
                     f"{len(lim.get('banned') or [])} | {(lim.get('exceeded') or {}).get('banned', '-')} "
                     f"| {hits} |")
    if "attacked" in recs:
        lines += ["", "Attackers (connections opened / refused or failed, bytes sent):", ""]
        for kind, sm in recs["attacked"].get("attacker_summaries", {}).items():
            lines.append(f"- `{kind}`: {sm.get('connections', '-')} / {sm.get('refused', '-')}, "
                         f"{sm.get('bytes_sent', '-')} B")
    for name, r in recs.items():
        if r.get("errors"):
            lines.append(f"\n{name} errors: " + "; ".join(r["errors"]))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write(text)
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", nargs="?", default="run", choices=["run", "report"])
    ap.add_argument("out", nargs="?")
    ap.add_argument("--quick", action="store_true", help="120 s swarms, wave 2 at 40 s, 2 MB")
    ap.add_argument("--seconds", type=float, default=600.0, help="attacked swarm length (600)")
    ap.add_argument("--wave2", type=float, default=240.0, help="second wave's arrival (240 s)")
    ap.add_argument("--rate-mbit", type=float, default=2.0, help="honest uplinks (2 Mbit/s)")
    ap.add_argument("--size-mb", type=float, default=8.0)
    ap.add_argument("--piece-kib", type=int, default=64)
    ap.add_argument("--max-rss-mb", type=float, default=200.0)
    ap.add_argument("--max-fds", type=int, default=400)
    ap.add_argument("--our-extra", default="", help="extra arguments for our clients")
    ap.add_argument("--only", choices=["baseline", "attacked"], default=None,
                    help="run one of the two swarms (the other's run.json in OUT_DIR is kept)")
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--no-install", action="store_true")
    a = ap.parse_args(argv)
    if a.command == "report":
        print(report(a.out))
        return 0
    if a.quick:
        a.seconds, a.wave2, a.size_mb = 120.0, 40.0, 2.0
    ledbat = install.prepare("network namespaces", a.ledbat_bin,
                             install.Needs(["ip", "tc", "ethtool", "nft", "ping", "sysctl", "curl",
                                            "opentracker"], libtorrent=True),
                             install=not a.no_install)
    if ledbat is None:
        return 2
    out = a.out_dir or paths.default_out_dir("attack")
    os.makedirs(out, exist_ok=True)
    arm(None)
    s = Settings(6, a.size_mb, a.rate_mbit, ledbat, "scavenger", a.seconds, a.piece_kib)
    src_dir = os.path.join(out, "source")
    os.makedirs(src_dir, exist_ok=True)
    src = os.path.join(src_dir, "swarm.bin")
    torrent = os.path.join(out, "swarm.torrent")
    if not os.path.exists(src) or os.path.getsize(src) != int(a.size_mb * 1e6):
        make_payload(src, int(a.size_mb * 1e6), seed=27)
    made = proc.run([ledbat, "torrent", "create", src, "-o", torrent, "--piece-kib",
                     str(a.piece_kib), "--announce", SwarmTopo("atk", 2).tracker_url])
    info_hash = re.search(r"info-hash ([0-9a-f]{40})", made.stdout)[1]
    pieces = -(-int(a.size_mb * 1e6) // (a.piece_kib * 1024))
    extra = a.our_extra.split()
    status = 0
    try:
        for name, attacked in (("baseline", False), ("attacked", True)):
            if a.only and a.only != name:
                continue
            rec = run_one(name, attacked, a, s, src, torrent, info_hash, pieces, out, extra)
            if rec["errors"] or not rec.get("peers"):
                status = 1
            for p in rec.get("peers", []):
                if p["client"] == "ours" and ((p["max_rss_kb"] or 0) > a.max_rss_mb * 1024
                                              or (p["max_fds"] or 0) > a.max_fds):
                    print(f"[attack] {name} p{p['k']}: memory or descriptors over the bound",
                          flush=True)
                    status = 1
    except KeyboardInterrupt:
        print("[attack] interrupted", file=sys.stderr)
        status = 1
    print(report(out))
    return status
