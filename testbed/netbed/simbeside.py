"""The side-by-side plan in the simulator: the bed's scenarios (docs/sidebyside/README.md) run
with `ledbat sim` over the same grid, measured with the bed's definitions, so that the two
can be compared point by point.

    python3 -m netbed.simbeside [--ledbat-bin BIN] [--seeds 3] [--rtts-ms 0,20,40,100]
        [--cases beside,two,noise,stall,web] [--crosses cubic,cubic-hystart,bbr,newreno]
        [--variant LABEL[:KEY=VALUE,...]] ... [--burst BYTES] [--phase-spread S] [--json F]
        [--md F] [--jobs 2]

Cases, each at every base RTT (half of it each way, no access delay; 0 = 30 us each way) and
for every seed (the seed moves each flow's start by up to 100 ms, so seeds are repeats):
- `beside`: `scenarios/testbed/scavenger-beside.toml`: our flow alone until 30 s, a
  competitor (`--crosses`) from 30 s to 50 s, then alone to 65 s. Alone rate and queue from
  5 s to 30 s; time until our 1 s-window rate is below 20 % of the link for good, from the
  competitor's start and from the moment the queue first reaches 1.1 TARGET after it (its
  queue appearing); both rates over 40-50 s; our rate from 53 s, and when a 1 s window first
  reaches 95 % of our alone rate after 50 s.
- `two`: two of ours 10 s apart (`scavenger-latecomer.toml`, 60 s): Jain's index over the last
  half of the time both run, as the bed's, and the detections in the whole run (either flow
  taking the other for a competitor), each in the JSON by the positive tests that led to it
  (`yield_kinds`, from the run's `tests.csv`).
- `noise`: alone with 5 ms of per-packet jitter (`topology.jitter`); `stall`: alone with a
  receiver that stalls every 2-5 s for 100-400 ms (`scavenger-stall.toml`). Rate, and whether
  the run is byte-identical to the same run with the competitor detection off (it then
  never took the jitter or a stall for a competitor).
- `web`: short web-like TCP transfers (NewReno sessions of 20-200 packets, 0.5-2 s apart)
  from 30 s to 50 s: their mean completion time beside our flow and beside nothing, and our
  rate over that time.

`--burst BYTES` puts a token bucket of that size in front of the bottleneck's FIFO, as the
bed's `tbf` (`topology.burst`; the bed's default is 15360); without it the simulated link
serialises each packet at its rate.

`--phase-spread S` moves, seed by seed, the moment the other flow arrives over S seconds (the
competitor's start and stop in `beside`, the latecomer's start in `two`; every window of the
case moves with it): the seeds' 100 ms leave the arrival at one point of our flow's
slowdown cycle (one slowdown every 9 of its lengths, seconds), and which point decides
whether the competitor meets a flow in avoidance or in a slowdown. Seed k's offset is
`frac((k - 1) x 0.618...) x S` to the ms (`phase_offset`), an even spread for any count.

A variant is our controller with parameters (`before:competitor.enabled=false,
slowdown_backoff=1` is the preset of before the detection); rows are keyed by it. Needs only
the binary (no root, no network).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from .measure import QUEUE_APPEARS_MS, jain, time_until_below
from .paths import REPO, default_ledbat_bin, write_atomic
from .simseries import delivered, read_columns
from .summary import format_range, median_range

SCEN = os.path.join(REPO, "scenarios", "testbed")
CROSSES = {
    "cubic": '{ name = "cubic" }',
    "cubic-hystart": '{ name = "cubic", hystart = "linux" }',
    "bbr": '{ name = "bbr" }',
    "newreno": '{ name = "newreno" }',
}
WEB = ('{ kind = "sessions", chunks = 1, chunk_packets = [20, 200], gap = ["0s", "0s"], '
       'think = ["0.5s", "2s"] }')
CASES = ("beside", "two", "noise", "stall", "web")
LINK_BPS = 10e6
PKT_MS = 1500 * 8 / LINK_BPS * 1e3  # a 1500-byte frame on the 10 Mbit/s link, ms
# The cases' timing (s): `beside`'s competitor from CROSS_AT for CROSS_FOR in a run of
# BESIDE_LEN (scavenger-beside.toml); `two`'s latecomer from LATE_AT, Jain's index from
# TWO_FROM to TWO_LEN, the run's end. `--phase-spread` moves all but the first-flow windows.
CROSS_AT, CROSS_FOR, BESIDE_LEN = 30.0, 20.0, 65.0
LATE_AT, TWO_FROM, TWO_LEN = 10.0, 35.0, 60.0


def run_sim(binary: str, scenario: str, seed: int, sets: list[str], out: str) -> dict:
    """One `ledbat sim` run; returns its series columns and summary."""
    argv = [binary, "sim", scenario, "--seed", str(seed), "--out", out]
    for s in sets:
        argv += ["--set", s]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {r.stderr.strip()}")
    with open(os.path.join(out, "summary.json")) as fh:
        summary = json.load(fh)
    with open(os.path.join(out, "series.csv"), "rb") as fh:
        raw = fh.read()
    with open(os.path.join(out, "tests.csv"), newline="") as fh:
        tests = list(csv.DictReader(fh))
    return {"cols": read_columns(os.path.join(out, "series.csv")), "summary": summary,
            "raw": raw, "tests": tests}


def yield_kinds(tests: list[dict]) -> dict[str, int]:
    """The detections of a run (rows of `tests.csv`) counted by the positive tests in a row
    that led to each, in order: `push+hold-periodic` is a push test, then a periodic
    slowdown's hold."""
    kinds: dict[str, int] = {}
    row: dict[str, list[str]] = {}
    for t in tests:
        run = row.setdefault(t["flow"], [])
        if t["verdict"] == "negative":
            run.clear()
        if t["verdict"] != "positive":
            continue
        run.append(t["kind"] + ("" if t["suspected"] == "1" else "-periodic"))
        if t["yielded"] == "1":
            key = "+".join(run[-int(t["positives"]):])
            kinds[key] = kinds.get(key, 0) + 1
            run.clear()
    return kinds


def mean_in(cols: dict, key: str, a: float, b: float) -> float:
    """Mean of a column over samples with a < t <= b."""
    v = [x for t, x in zip(cols["t_s"], cols[key]) if a < t <= b and x == x]
    return statistics.fmean(v) if v else float("nan")


def queue_reaches(cols: dict, t0: float, t1: float, ms: float) -> float | None:
    """First sample time in [t0, t1] at which the bottleneck queue holds `ms` or more."""
    for t, q in zip(cols["t_s"], cols["bottleneck.queue_pkts"]):
        if t0 <= t <= t1 and q * PKT_MS >= ms:
            return t
    return None


def back_at(cols: dict, flow: str, t0: float, end: float, rate_bps: float) -> float | None:
    """Seconds after `t0` until a 1 s window of the flow's rate first reaches `rate_bps`
    (the window's end), as the bed's "time to 95 %"."""
    for s, r in delivered(cols, flow).windowed(t0, end, 1.0, 0.5):
        if r >= rate_bps:
            return s + 1.0 - t0
    return None


def phase_offset(seed: int, spread: float) -> float:
    """Seconds the other flow's arrival moves for `seed` (from 1) under `--phase-spread`:
    the fractional part of (seed - 1) times the golden ratio's inverse, times `spread`, to
    the ms; 0 for seed 1 and without a spread."""
    return round(((seed - 1) * 0.6180339887498949) % 1.0 * spread, 3)


def phase_sets(scenario: str, off: float) -> list[str]:
    """The `--set`s that move the other flow's arrival, and the run's end, by `off` s."""
    if off == 0:
        return []
    if scenario == "scavenger-beside.toml":
        return [f"flow.1.start={CROSS_AT + off:g}s",
                f"flow.1.stop={CROSS_AT + CROSS_FOR + off:g}s", f"duration={BESIDE_LEN + off:g}s"]
    if scenario == "scavenger-latecomer.toml":
        return [f"flow.1.start={LATE_AT + off:g}s", f"duration={TWO_LEN + off:g}s",
                f"warmup={TWO_FROM + off:g}s"]
    return []


def analyse_beside(res: dict, off: float = 0.0) -> dict:
    c = res["cols"]
    d = delivered(c, "scavenger")
    # every window as an offset from t0, so that the figures do not depend on the spread's
    # rounding beyond t0's own
    t0 = CROSS_AT + off
    t1, end = t0 + CROSS_FOR, t0 + (BESIDE_LEN - CROSS_AT)
    alone = d.rate_bps(5, CROSS_AT)
    until = time_until_below(d, t0, t1, 0.2 * LINK_BPS)
    tq = queue_reaches(c, t0, t1, QUEUE_APPEARS_MS)
    return {
        "alone_mbit": alone / 1e6,
        "queue_ms": mean_in(c, "bottleneck.queue_pkts", 5, CROSS_AT) * PKT_MS,
        "until20_s": until,
        "queue_at_s": None if tq is None else tq - t0,
        "until20_from_queue_s": None if until is None or tq is None else until - (tq - t0),
        "ours_beside_mbit": d.rate_bps(t0 + (CROSS_FOR - 10), t1) / 1e6,
        "cross_beside_mbit": delivered(c, "cross").rate_bps(t0 + (CROSS_FOR - 10), t1) / 1e6,
        "after_from3_mbit": d.rate_bps(t0 + (CROSS_FOR + 3), end) / 1e6,
        "back95_s": back_at(c, "scavenger", t1, end, 0.95 * alone),
    }


def analyse_two(res: dict, off: float = 0.0) -> dict:
    c = res["cols"]
    a, b = delivered(c, "first"), delivered(c, "latecomer")
    a0, a1 = TWO_FROM + off, TWO_LEN + off
    r1, r2 = a.rate_bps(a0, a1), b.rate_bps(a0, a1)
    kinds = yield_kinds(res.get("tests", []))
    return {"jain": jain([r1, r2]), "flow1_mbit": r1 / 1e6, "flow2_mbit": r2 / 1e6,
            "yields": sum(kinds.values()), "yield_kinds": kinds}


def analyse_alone(res: dict, ref: dict, start: float) -> dict:
    d = delivered(res["cols"], "scavenger")
    return {"rate_mbit": d.rate_bps(start, 60) / 1e6, "identical": res["raw"] == ref["raw"]}


def analyse_web(res: dict, ref: dict) -> dict:
    comp = res["summary"]["flows"][1].get("completions") or []
    alone = ref["summary"]["flows"][1].get("completions") or []

    def mean_s(xs):
        v = [x.get("time_s") if isinstance(x, dict) else x for x in xs]
        v = [x for x in v if isinstance(x, (int, float))]
        return statistics.fmean(v) if v else float("nan")

    return {"web_s": mean_s(comp), "web_alone_s": mean_s(alone),
            "ours_mbit": delivered(res["cols"], "scavenger").rate_bps(
                CROSS_AT, CROSS_AT + CROSS_FOR) / 1e6}


def jobs_for(case: str, rtt: float, crosses: list[str]) -> list[tuple[str, str, list[str]]]:
    """(label, scenario, extra sets) of one case at one base RTT."""
    delay = "30us" if rtt == 0 else f"{rtt / 2:g}ms"
    d = [f"topology.delay={delay}"]
    if case == "beside":
        return [(x, "scavenger-beside.toml", d + [f"flow.1.cc={CROSSES[x]}"]) for x in crosses]
    if case == "two":
        return [("two", "scavenger-latecomer.toml",
                 d + [f"duration={TWO_LEN:g}s", f"warmup={TWO_FROM:g}s"])]
    if case == "noise":
        return [("noise", "scavenger-alone.toml", d + ["topology.jitter=5ms"])]
    if case == "stall":
        return [("stall", "scavenger-stall.toml", d)]
    if case == "web":
        return [("web", "scavenger-beside.toml",
                 d + [f"flow.1.traffic={WEB}", 'flow.1.cc={ name = "newreno" }'])]
    raise ValueError(case)


def our_sets(scenario: str, params: dict[str, str]) -> list[str]:
    flows = [0, 1] if scenario == "scavenger-latecomer.toml" else [0]
    return [f"flow.{i}.cc.{k}={v}" for i in flows for k, v in params.items()]


def one(binary: str, variant: tuple[str, dict], case: str, rtt: float, label: str,
        scenario: str, sets: list[str], seed: int, spread: float = 0.0) -> dict:
    name, params = variant
    off = phase_offset(seed, spread) if case in ("beside", "two") else 0.0
    with tempfile.TemporaryDirectory(prefix="simbeside-") as tmp:
        path = os.path.join(SCEN, scenario)
        res = run_sim(binary, path, seed,
                      sets + phase_sets(scenario, off) + our_sets(scenario, params),
                      os.path.join(tmp, "run"))
        if case == "beside":
            fig = analyse_beside(res, off)
        elif case == "two":
            fig = analyse_two(res, off)
        elif case in ("noise", "stall"):
            plain = dict(params, **{"competitor.enabled": "false"})
            ref = run_sim(binary, path, seed, sets + our_sets(scenario, plain),
                          os.path.join(tmp, "ref"))
            fig = analyse_alone(res, ref, 10.0)
        else:
            ref = run_sim(binary, path, seed, sets + ["flow.0.start=65s"],
                          os.path.join(tmp, "ref"))
            fig = analyse_web(res, ref)
    return {"variant": name, "case": case, "rtt_ms": rtt, "what": label, "seed": seed,
            **({"phase_s": off} if spread else {}), **fig}


def spread(vals: list) -> str:
    v = [x for x in vals if isinstance(x, (int, float)) and x == x]
    nones = sum(1 for x in vals if x is None)
    if not v:
        return f"none ({nones})" if nones else "n/a"
    if isinstance(v[0], bool):
        return f"{sum(v)}/{len(v)}"
    # NaN (a figure with nothing to average) is left out but not counted as a "never"
    s = median_range(v) | {"missing": nones}
    return format_range(s, same_once=True, missing="never")


COLUMNS = {
    "beside": [("alone_mbit", "alone Mbit/s"), ("queue_ms", "queue ms"),
               ("until20_s", "< 20 % after s"), ("queue_at_s", "queue at s"),
               ("until20_from_queue_s", "< 20 % after queue s"),
               ("ours_beside_mbit", "ours / "), ("cross_beside_mbit", "cross Mbit/s"),
               ("after_from3_mbit", "after, from 3 s"), ("back95_s", "95 % after s")],
    "two": [("jain", "Jain"), ("flow1_mbit", "flow 1 / "), ("flow2_mbit", "flow 2 Mbit/s"),
            ("yields", "detections")],
    "noise": [("rate_mbit", "Mbit/s"), ("identical", "same as without detection")],
    "stall": [("rate_mbit", "Mbit/s"), ("identical", "same as without detection")],
    "web": [("web_s", "web transfer s"), ("web_alone_s", "without ours s"),
            ("ours_mbit", "ours Mbit/s")],
}


def markdown(rows: list[dict]) -> str:
    out = []
    for case, cols in COLUMNS.items():
        rs = [r for r in rows if r["case"] == case]
        if not rs:
            continue
        keys = sorted({(r["what"], r["rtt_ms"], r["variant"]) for r in rs},
                      key=lambda k: (k[0], k[1], k[2]))
        head = ["case", "base RTT", "variant", "seeds"] + [h for _, h in cols]
        out.append(f"### {case}\n")
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        for what, rtt, var in keys:
            g = [r for r in rs if (r["what"], r["rtt_ms"], r["variant"]) == (what, rtt, var)]
            cells = [what, f"{rtt:g} ms", var, str(len(g))]
            cells += [spread([r.get(k) for r in g]) for k, _ in cols]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def resolve_binary(arg: str | None) -> str:
    """The ledbat binary to run: `arg`, else the build's default (ValueError when absent)."""
    binary = os.path.abspath(arg or default_ledbat_bin())
    if not shutil.which(binary):
        raise ValueError(f"no ledbat binary at {binary} (--ledbat-bin)")
    return binary


def parse_variant(text: str) -> tuple[str, dict]:
    name, _, rest = text.partition(":")
    params = {}
    for kv in filter(None, rest.split(",")):
        k, sep, v = kv.partition("=")
        if not sep or not k:
            raise ValueError(f"variant `{text}`: `{kv}` is not KEY=VALUE")
        params[k] = v
    if not name:
        raise ValueError(f"variant `{text}` has no label")
    return name, params


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m netbed.simbeside", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--rtts-ms", default="0,20,40,100")
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--crosses", default=",".join(CROSSES))
    ap.add_argument("--variant", action="append", default=None,
                    help="LABEL[:KEY=VALUE,...]: our controller's parameters (repeatable; "
                         "default `scavenger` with none)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--burst", type=int, default=None, metavar="BYTES",
                    help="a token bucket of BYTES in front of the bottleneck (topology.burst)")
    ap.add_argument("--phase-spread", type=float, default=0.0, metavar="S",
                    help="move the other flow's arrival over S seconds, seed by seed "
                         "(beside and two)")
    ap.add_argument("--json", default=None)
    ap.add_argument("--md", default=None)
    a = ap.parse_args(argv)
    try:
        variants = [parse_variant(v) for v in (a.variant or ["scavenger"])]
        rtts = [float(x) for x in a.rtts_ms.split(",") if x]
        cases = [c for c in a.cases.split(",") if c]
        crosses = [x for x in a.crosses.split(",") if x]
        bad = [c for c in cases if c not in CASES] + [x for x in crosses if x not in CROSSES]
        if bad:
            raise ValueError(f"unknown case or cross traffic: {', '.join(bad)}")
        if not 0 <= a.phase_spread <= 60:
            raise ValueError(f"--phase-spread {a.phase_spread:g}: must be 0 to 60 s")
        binary = resolve_binary(a.ledbat_bin)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    shape = [] if a.burst is None else [f"topology.burst={a.burst}"]
    work = [(v, case, rtt, label, scen, sets + shape, seed, a.phase_spread)
            for v in variants for case in cases for rtt in rtts
            for label, scen, sets in jobs_for(case, rtt, crosses)
            for seed in range(1, a.seeds + 1)]
    rows = []
    try:
        with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            for r in ex.map(lambda w: one(binary, *w), work):
                rows.append(r)
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    md = markdown(rows)
    if a.phase_spread:
        md = (f"The other flow's arrival spread over {a.phase_spread:g} s, seed by seed "
              f"(`--phase-spread`; `phase_s` in the JSON).\n\n") + md
    print(md)
    for path, text in ((a.json, json.dumps(rows, indent=1)), (a.md, md)):
        if path:
            write_atomic(path, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
