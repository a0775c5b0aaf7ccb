"""Real-kernel-bottleneck test bed for ledbat's uTP sender (see testbed/README.md).

    sudo python3 testbed/run.py --quick --ledbat-bin target/debug/ledbat

Exit status: 0 every asserted figure met its floor; 1 some did not (or could not be
measured); 2 the bed could not run (not root, missing tools, bad arguments); 3 the overall
time limit was hit.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict

from . import bittorrent, flows, install, measure, paths, proc, scenarios, topo
from .guard import Deadline, arm, disarm
from .bed import run_scenario
from .paths import default_ledbat_bin
from .report import print_table


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    m = ap.add_mutually_exclusive_group()
    m.add_argument("--quick", action="store_true", help="short scenarios, for CI (default)")
    m.add_argument("--full", action="store_true", help="longer scenarios")
    ap.add_argument("--only", default="", help="comma-separated scenario names (default: all)")
    ap.add_argument("--list", action="store_true", help="list scenarios and exit")
    ap.add_argument("--sut", default="ledbat",
                    help=f"flow kind of the sender under test: {', '.join(flows.KINDS)}, "
                         "or `cmd` with --sut-recv-cmd/--sut-send-cmd (default ledbat)")
    ap.add_argument("--sut-recv-cmd", help="receiver command template for --sut cmd")
    ap.add_argument("--sut-send-cmd", help="sender command template for --sut cmd")
    ap.add_argument("--sut-overhead", type=int, default=None,
                    help="header bytes per data packet of --sut cmd, for its payload rate "
                         "(uTP over IPv4: 48); default: no payload rate")
    ap.add_argument("--ledbat-bin", default=None,
                    help="the ledbat binary (default: the newest of target/{release,debug}/ledbat "
                         "under the repo or $CARGO_TARGET_DIR)")
    ap.add_argument("--cc", default=None, help="controller in alone and vs-tcp (default: "
                                               "the sender's default)")
    ap.add_argument("--two-ccs", default="ledbat,fledbat,ledbat++",
                    help="controllers of the two-transfer scenarios (comma-separated)")
    ap.add_argument("--target-ms", type=float, default=None,
                    help="TARGET: passed to the sender and used by the delay check "
                         "(default: not passed; the check uses the controller's own, from "
                         "`ledbat controllers --json`)")
    ap.add_argument("--competitor", default="iperf3-cubic",
                    help="competing flow kind (default iperf3-cubic), or `competitor-cmd` "
                         "with --competitor-recv-cmd/--competitor-send-cmd")
    ap.add_argument("--competitor-recv-cmd", help="receiver template for competitor-cmd")
    ap.add_argument("--competitor-send-cmd", help="sender template for competitor-cmd "
                                                  "(must stop by itself after {duration} s "
                                                  "or is stopped then)")
    ap.add_argument("--rate-mbit", type=float, default=10.0, help="bottleneck rate (10)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--fifo-frames", type=int, default=None,
                   help="FIFO in full 1514-byte frames (default 250 = 303 ms at 10 Mbit/s)")
    g.add_argument("--fifo-ms", type=float, default=None, help="FIFO in ms at the link rate")
    ap.add_argument("--delay-ms", type=float, default=0.0,
                    help="one-way propagation delay each way, by a user-space delay line "
                         "between sender and router (default 0: base RTT ~0.06 ms)")
    ap.add_argument("--out-dir", default=None,
                    help="results, logs and samples (default $TMPDIR/ledbat-testbed/<time>)")
    ap.add_argument("--max-seconds", type=float, default=None,
                    help="overall time limit (default 600 quick, 1800 full)")
    ap.add_argument("--no-install", action="store_true",
                    help="do not apt-get install missing tools")
    ap.add_argument("--keep-files", action="store_true", help="keep the transferred files")
    ap.add_argument("--cleanup", action="store_true",
                    help="delete namespaces left by a crashed run and exit")
    return ap.parse_args(argv)


def _delayline_metrics(scenario: str, path: str) -> list:
    """How punctual the delay line was (from its exit line), when there was one."""
    try:
        with open(path) as fh:
            last = fh.read().strip().splitlines()[-1]
    except (OSError, IndexError):
        return []
    m = re.match(r"passed (\d+) frames; (\d+) more than 1 ms late, (\d+) more than 5 ms, "
                 r"latest ([\d.]+) ms", last)
    if not m:
        return [scenarios.Metric(scenario, "delay line", None, "", note=last[:120])]
    n, l1, l5, worst = int(m[1]), int(m[2]), int(m[3]), float(m[4])
    return [scenarios.Metric(scenario, "delay line: frames > 1 ms late", l1 / n if n else None,
                             "%", note=f"{n} frames, {l5} > 5 ms late, worst {worst:.1f} ms")]


def _write_series(path: str, res, rate_bps: int) -> None:
    """Per-flow rates, link utilisation and queue delay in 1 s windows every 0.5 s."""
    if not res.qdisc or not res.counters:
        return
    names = [fr.flow.name for fr in res.flows]
    rows = measure.series_rows(res.qdisc, res.counters, names, rate_bps, res.t0,
                               res.t0 + res.length)
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["t", *names, "link", "queue_ms"])
        w.writeheader()
        w.writerows(rows)


def _json_or_none(text: str):
    """The sender's stdout as JSON (whole, or its last line), or None."""
    for cand in (text, text.strip().splitlines()[-1] if text.strip() else ""):
        try:
            return json.loads(cand)
        except ValueError:
            continue
    return None


def target_of(catalog: list[dict], cc: str | None) -> float:
    """TARGET in ms of controller `cc` (None: the transfer commands' default, the row marked
    `recommended`) in the JSON of `ledbat controllers --json`. Raises ValueError naming what
    is missing."""
    for row in catalog:
        if (row.get("name") == cc) if cc else row.get("recommended"):
            t = (row.get("defaults") or {}).get("target")
            if not isinstance(t, str) or not t.endswith("ms"):
                raise ValueError(f"controller `{row.get('name')}` has no TARGET in ms: {t!r}")
            return float(t[:-2])
    raise ValueError(f"no controller `{cc}`" if cc else "no controller marked as recommended")


def controller_target_ms(ledbat_bin: str, cc: str | None) -> float:
    """TARGET in ms of `cc` (or of the binary's default) as the binary reports it."""
    out = subprocess.run([ledbat_bin, "controllers", "--json"], capture_output=True,
                         text=True, timeout=30, check=True).stdout
    return target_of(json.loads(out), cc)


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    quick = not a.full
    settings = scenarios.Settings(
        quick=quick, sut=a.sut, sut_cc=a.cc,
        two_flow_ccs=[c for c in a.two_ccs.split(",") if c],
        target_ms=a.target_ms if a.target_ms is not None else 60.0,
        pass_target=a.target_ms is not None, competitor=a.competitor,
        delay_ms=a.delay_ms)
    rate = int(a.rate_mbit * 1e6)
    if a.fifo_ms is not None:
        settings.bottleneck = topo.Bottleneck.from_fifo_ms(rate, a.fifo_ms)
    else:
        settings.bottleneck = topo.Bottleneck(rate_bps=rate,
                                              fifo_frames=a.fifo_frames or 250)
    all_scn = scenarios.all_scenarios(settings)
    if a.list:
        for s in all_scn:
            print(f"{s.name:14} {s.length(settings):5.0f} s  {s.description}")
        return 0
    if install.preflight("namespaces, qdiscs", need_bin=False) is None:
        return 2
    if a.cleanup:
        stale = topo.cleanup_stale()
        print(f"deleted {len(stale)} namespace(s): {' '.join(stale)}")
        return 0
    only = [x for x in a.only.split(",") if x]
    unknown = [x for x in only if x not in {s.name for s in all_scn}]
    if unknown:
        print(f"error: unknown scenario(s): {', '.join(unknown)} "
              f"(known: {', '.join(s.name for s in all_scn)})", file=sys.stderr)
        return 2
    chosen = [s for s in all_scn if not only or s.name in only]
    if a.sut == "cmd":
        if not (a.sut_recv_cmd and a.sut_send_cmd):
            print("error: --sut cmd needs --sut-recv-cmd and --sut-send-cmd", file=sys.stderr)
            return 2
        kind = flows.template_kind("cmd", a.sut_recv_cmd, a.sut_send_cmd)
        kind.overhead = a.sut_overhead
        flows.register(kind)
    if a.competitor == "competitor-cmd":
        if not (a.competitor_recv_cmd and a.competitor_send_cmd):
            print("error: --competitor competitor-cmd needs --competitor-recv-cmd and "
                  "--competitor-send-cmd", file=sys.stderr)
            return 2
        flows.register(flows.template_kind("competitor-cmd", a.competitor_recv_cmd,
                                           a.competitor_send_cmd))
    # BitTorrent kinds (libtorrent or our seeder and leecher; netbed/bittorrent.py) as the
    # flow under test: they need libtorrent and a torrent of the send file.
    torrent = a.sut in bittorrent.KINDS
    if torrent:
        for k in bittorrent.KINDS.values():
            flows.register(k)
    for k in (a.sut, a.competitor):
        if k not in flows.KINDS:
            print(f"error: unknown flow kind `{k}` (known: {', '.join(flows.KINDS)})",
                  file=sys.stderr)
            return 2
    ledbat_bin = os.path.abspath(a.ledbat_bin or default_ledbat_bin())
    uses = {f.kind for s in chosen for f in s.flows(settings)}
    if install.preflight("namespaces, qdiscs", ledbat_bin, need_bin="ledbat" in uses) is None:
        return 2
    if a.target_ms is None and "ledbat" in uses:
        try:
            settings.target_ms = controller_target_ms(ledbat_bin, a.cc)
        except (OSError, ValueError, subprocess.SubprocessError) as e:
            print(f"error: the TARGET of the sender's controller: {e}", file=sys.stderr)
            return 2
    tools = ["ip", "tc", "nft", "ethtool", "ping", "sysctl", "ss"]
    for k in uses:
        tools += flows.KINDS[k].tools
    try:
        install.ensure(install.Needs(tools, libtorrent=torrent), install=not a.no_install,
                       log=lambda m: print(f"[bed] {m}", flush=True))
    except proc.CommandError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    out_dir = os.path.abspath(a.out_dir or paths.default_out_dir("testbed"))
    work = os.path.join(out_dir, "work")
    os.makedirs(work, exist_ok=True)
    send_file = os.path.join(work, "send.bin")
    longest = max(s.length(settings) for s in chosen)
    with open(send_file, "wb") as fh:  # sparse: reads as zeros, costs no disk
        fh.truncate(int(rate / 8 * (longest + 30) * 2))
    if torrent:
        bittorrent.make_torrent(send_file, send_file + ".torrent")
    ctx = dict(workdir=work, ledbat_bin=ledbat_bin, send_file=send_file)

    max_s = a.max_seconds or (600 if quick else 1800)
    arm(max_s)
    tag = f"{os.getpid() % 100000}"
    b = settings.bottleneck
    print(f"[bed] {'quick' if quick else 'full'} run: {len(chosen)} scenario(s), sender "
          f"under test `{a.sut}`, bottleneck {b.rate_bps / 1e6:g} Mbit/s, FIFO "
          f"{b.fifo_frames} frames = {b.limit_bytes} B = {b.fifo_ms:.0f} ms, delay "
          f"{settings.delay_ms:g} ms each way; out {out_dir}",
          flush=True)
    metrics: list[scenarios.Metric] = []
    runs = []
    status = 0
    started = time.monotonic()
    try:
        for s in chosen:
            fl = s.flows(settings)
            t = time.monotonic()
            print(f"[bed] {s.name}: {s.description} ({s.length(settings):.0f} s)", flush=True)
            res = run_scenario(s.name, fl, s.length(settings), b, ctx,
                               os.path.join(out_dir, s.name), tag,
                               delay_ms=settings.delay_ms)
            ms = [scenarios.Metric(s.name, "base RTT (idle ping)", res.base_rtt_ms, "ms")]
            ms += s.analyse(res, settings)
            ms += _delayline_metrics(s.name, os.path.join(out_dir, s.name, "delayline.out"))
            metrics += ms
            runs.append(res)
            for e in res.errors:
                print(f"[bed]   error: {e}", flush=True)
            for fr in res.flows:
                if fr.error:
                    print(f"[bed]   {fr.flow.name}: {fr.error}", flush=True)
            with open(os.path.join(out_dir, s.name, "samples.json"), "w") as fh:
                json.dump({"t0": res.t0, "qdisc": res.qdisc, "counters": res.counters,
                           "flows": [{"name": fr.flow.name, "kind": fr.kind,
                                      "port": fr.flow.port, "t_start": fr.t_start,
                                      "t_stop": fr.t_stop} for fr in res.flows]}, fh)
            _write_series(os.path.join(out_dir, s.name, "series.csv"), res, b.rate_bps)
            print(f"[bed]   done in {time.monotonic() - t:.0f} s", flush=True)
    except Deadline:
        print(f"[bed] overall time limit of {max_s:.0f} s hit; stopping", file=sys.stderr)
        status = 3
    except KeyboardInterrupt:
        print("[bed] interrupted; cleaning up", file=sys.stderr)
        status = 3
    finally:
        disarm()
        topo.delete_tagged(tag)
        if not a.keep_files:
            for name in os.listdir(work):
                try:
                    os.remove(os.path.join(work, name))
                except OSError:
                    pass

    print_table(metrics, settings, sys.stdout)
    failed = [m for m in metrics if m.passed is False]
    report = {
        **paths.provenance(ledbat_bin),
        "settings": {**asdict(settings), "out_dir": paths.portable_path(out_dir)},
        "seconds": round(time.monotonic() - started, 1),
        "complete": status == 0,
        "metrics": [asdict(m) for m in metrics],
        "flows": [{"scenario": r.name, "name": fr.flow.name, "kind": fr.kind,
                   "sender": fr.sender_argv, "receiver": fr.receiver_argv,
                   "exit_code": fr.exit_code, "error": fr.error,
                   "sender_json": _json_or_none(fr.sender_stdout)}
                  for r in runs for fr in r.flows],
        "errors": [e for r in runs for e in r.errors],
    }
    with open(os.path.join(out_dir, "results.json"), "w") as fh:
        json.dump(report, fh, indent=1, default=str)
    verdict = "run INCOMPLETE (interrupted or out of time)" if status else \
        f"{len(failed)} asserted figure(s) failed"
    print(f"[bed] {verdict}; {time.monotonic() - started:.0f} s; "
          f"results in {out_dir}/results.json")
    if status:
        return status
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
