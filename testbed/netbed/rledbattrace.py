"""One stretch of one `netbed.rledbatbed` run as a timeline: the receiver's publications
(`ledbat tcp rstats --watch`, every 100 ms: its phase, queuing delay, window and the clamp
on the window it advertises), the detection's verdicts and its probes while yielding, and,
when the run was taken with `--sender-trace`, the remote sender's kernel state at every
sample, all on the bed's clock (seconds from the rLEDBAT download's start), merged in time
order. No root; reads the bed's JSON.

    python3 -m netbed.rledbattrace RUNS.json [--run 0] [--port 5001[,5002]] [--from 60]
                                   [--to 66]

Rows (one per line, time first):

    rx     t  phase  qd_ms  window  clamp           the receiver's publication
    test   t  kind  positive|negative  q0_ms q1_ms  a test's verdict
    probe  t  from_ms  room|busy  [resumed]         a probe's verdict while yielding
    tx     t  cc  cwnd  ssthresh  srtt_ms  pacing_bps  delivery_bps  snd_wnd  bw_bps  gain

With two ports (a pair run: `--port 5001,5002`) every row but the queue's names its port
after its kind, and the bottleneck's queue at every sample is a row of its own:

    queue  t  backlog_ms                            `tc`'s backlog at the bed's rate

A run taken with `rledbatbed --publish-ms` has the receivers' publications at that
interval around every probe (every 100 ms elsewhere), so a probe can be followed segment
by segment on both receivers.
"""

from __future__ import annotations

import argparse
import json
import sys

from .rledbatstats import PHASES, PORT_RL


def _f(v, fmt: str = "{}") -> str:
    return "-" if v is None else fmt.format(v)


def timeline(run: dict, port: int | list[int] = PORT_RL, lo: float = 0.0,
             hi: float = float("inf")) -> list[str]:
    """The rows of `run` for the connection on `port` (or on each of a list of ports, each
    row naming its port, with the bottleneck's queue) with lo <= t <= hi, in time order
    (at equal times: queue, rx, test, probe, tx; then by port)."""
    ports = port if isinstance(port, list) else [port]
    many = len(ports) > 1

    def kind(k: str, p: int) -> str:
        return f"{k:<5} {p}" if many else f"{k:<5}"
    rows: list[tuple[float, int, int, str]] = []
    if many:
        rate = run.get("rate_bps") or 10_000_000
        for x in run.get("samples") or []:
            if lo <= x["t"] <= hi and x.get("backlog") is not None:
                rows.append((x["t"], 0, 0, f"queue {x['t']:8.3f} "
                                           f"{x['backlog'] * 8e3 / rate:6.1f}"))
    for t, p, phase, window, qd, _tests, clamp in run.get("rstats_series") or []:
        if p in ports and lo <= t <= hi:
            name = PHASES[phase] if 0 <= phase < len(PHASES) else str(phase)
            rows.append((t, 1, p, f"{kind('rx', p)} {t:8.3f} {name:<10} "
                                  f"{_f(qd, '{:6.1f}')} {window:8d} {clamp:8d}"))
    for v in run.get("verdicts") or []:
        if v["port"] in ports and lo <= v["t"] <= hi:
            rows.append((v["t"], 2, v["port"],
                         f"{kind('test', v['port'])} {v['t']:8.3f} {v['kind']} "
                         f"{'positive' if v['positive'] else 'negative'} "
                         f"{_f(v.get('q0_ms'))} {_f(v.get('q1_ms'))}"))
    for pr in run.get("probes") or []:
        if pr["port"] in ports and lo <= pr["t"] <= hi:
            rows.append((pr["t"], 3, pr["port"],
                         f"{kind('probe', pr['port'])} {pr['t']:8.3f} "
                         f"{_f(pr.get('from_ms'))} {'room' if pr.get('room') else 'busy'}"
                         f"{' resumed' if pr.get('resumed') else ''}"))
    fields = run.get("sender_trace_fields") or []
    for r in run.get("sender_trace") or []:
        x = dict(zip(fields, r))
        if x.get("port") in ports and lo <= x["t"] <= hi:
            rows.append((x["t"], 4, x["port"], "{} {:8.3f} {} {} {} {} {} {} {} {} {}".format(
                kind("tx", x["port"]), x["t"], _f(x.get("cc")), _f(x.get("cwnd")),
                _f(x.get("ssthresh")), _f(x.get("srtt_ms")), _f(x.get("pacing_bps")),
                _f(x.get("delivery_bps")), _f(x.get("snd_wnd")), _f(x.get("bbr_bw_bps")),
                _f(x.get("pacing_gain")))))
    return [line for *_, line in sorted(rows, key=lambda r: r[:3])]


def header(doc: dict, i: int) -> list[str]:
    """What the run is: its cell, options, the competitor's times and the build."""
    r = doc["runs"][i]
    out = [f"# run {i} of {len(doc['runs'])}: {r.get('sender_cc')} sender, base RTT "
           f"{r.get('rtt_ms')} ms, FIFO {r.get('fifo_ms')} ms, "
           f"{'rLEDBAT' if r.get('rledbat') else 'plain'} "
           f"{' '.join(r.get('rledbat_params') or [])}".rstrip(),
           f"# competitor from {r.get('competitor_start_s')} s, its last byte at "
           f"{r.get('competitor_end_s')} s; load before {r.get('load_before')}",
           f"# build {doc.get('ledbat_build')}, {doc.get('date_utc')} UTC"]
    if not r.get("sender_trace"):
        out.append("# no sender_trace in this run (taken without --sender-trace)")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m netbed.rledbattrace", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("--run", type=int, default=0, help="which run of the JSON (from 0)")
    ap.add_argument("--port", default=str(PORT_RL),
                    help=f"the download's receiver port ({PORT_RL}: the rLEDBAT one), or "
                         "two, comma-separated, for both of a pair")
    ap.add_argument("--from", dest="lo", type=float, default=0.0, metavar="S")
    ap.add_argument("--to", dest="hi", type=float, default=float("inf"), metavar="S")
    a = ap.parse_args(argv)
    try:
        with open(a.json) as fh:
            doc = json.load(fh)
        runs = doc["runs"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"rledbattrace: {a.json}: not a rledbatbed JSON: {e}", file=sys.stderr)
        return 2
    if not 0 <= a.run < len(runs):
        print(f"rledbattrace: {a.json}: --run {a.run}: it has {len(runs)} run(s)",
              file=sys.stderr)
        return 2
    try:
        ports = [int(p) for p in a.port.split(",")]
    except ValueError:
        print(f"rledbattrace: --port {a.port!r}: expected ports, comma-separated",
              file=sys.stderr)
        return 2
    print("\n".join(header(doc, a.run) + timeline(runs[a.run], ports if len(ports) > 1
                                                   else ports[0], a.lo, a.hi)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
