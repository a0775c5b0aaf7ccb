"""What the competitor detection's tests read in `netbed.rledbatbed` pair runs (two
rLEDBAT downloads, `--competitor rledbat`), over one or more of the bed's JSON files: the
figures docs/tcp/README.md gives under "Why a run fails". No root; reads the JSON.

    python3 -m netbed.pairverdicts RUNS.json [MORE.json ...] [--shared 0.95] [--within 3]
                                   [--bands 30,40,50,70] [--mss 1448]

Counted over the two downloads' phase (from the second's start to its last byte):

- per run: Jain's index over the phase's second half (`rledbatstats.pair_metrics`), the
  queues positive push tests began from, and the collisions' times (a void push test: both
  receivers pushed at once);
- push verdicts by the queue they began from (`--bands`, ms), in the runs that shared
  (Jain at least `--shared`) and in the others;
- the runs in which a positive test came within `--within` s after a collision;
- with `--sender-trace` runs, the remote senders' samples from 2 s after the second's start
  and how many had cwnd x MSS below the window the receiver advertised (`snd_wnd`): the
  samples in which the sender's own window, not the receiver's, bound. The trace has no
  MSS; `--mss` is the bed's (a 1500-byte MTU less 52 bytes of IP and TCP headers with
  timestamps);
- a yielding receiver's probes begun in the range where the kin rule judges a fall, those
  followed by the fall and the others (`probe_aftermath`): the medians of the queue at
  their start, at their peak and after them, the range of their peaks, the largest window
  advertised over the probe's clamp (runs with `probe_windows`), and what the other
  receiver did meanwhile: its largest queuing delay, the one it published last before the
  probe's verdict, and its window cut (its lowest in the `DURING_S` before the verdict over
  its largest in the `BEFORE_S` before that; publications 100 ms apart, so a coarse
  reading).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

from .rledbatstats import pair_metrics

#: Seconds after the second download's start before a sender sample counts (its slow start).
SENDER_SETTLE_S = 2.0
#: Seconds before a probe's verdict in which the other receiver's publications count as
#: "during" the probe: a probe of eight RTTs and its two RTTs of aftermath at a base RTT of
#: 10 ms and a queue near TARGET.
DURING_S = 0.9
#: Seconds before those whose largest window of the other receiver is its window "before".
BEFORE_S = 0.3


def phase_verdicts(run: dict) -> list[dict]:
    """The run's verdicts while both download, in time order."""
    t0, t1 = run["competitor_start_s"], run["competitor_end_s"]
    return sorted((v for v in run.get("verdicts") or [] if t0 <= v["t"] <= t1),
                  key=lambda v: v["t"])


def positive_after_collision(verdicts: list[dict], within: float) -> bool:
    """Whether a positive test came within `within` s after a collision (a void test)."""
    last_void = None
    for v in verdicts:
        if v["kind"] == "void":
            last_void = v["t"]
        elif v["positive"] and last_void is not None and v["t"] - last_void <= within:
            return True
    return False


def band_of(q0: float, bands: list[float]) -> int | None:
    """The index of the band [bands[i-1], bands[i]) holding q0 (the first from 0)."""
    lo = 0.0
    for i, hi in enumerate(bands):
        if lo <= q0 < hi:
            return i
        lo = hi
    return None


def sender_binding(run: dict, mss: int) -> tuple[int, int]:
    """(samples, samples with cwnd x mss below snd_wnd) of the remote senders, from
    SENDER_SETTLE_S after the second's start to its last byte."""
    fields = run.get("sender_trace_fields") or []
    t0 = run["competitor_start_s"] + SENDER_SETTLE_S
    t1 = run["competitor_end_s"]
    n = bound = 0
    for row in run.get("sender_trace") or []:
        x = dict(zip(fields, row))
        if t0 <= x["t"] <= t1 and x.get("cwnd") and x.get("snd_wnd") is not None:
            n += 1
            bound += x["cwnd"] * mss < x["snd_wnd"]
    return n, bound


def probe_aftermath(run: dict) -> list[dict]:
    """Each probe while both download that began in the range where the kin rule judges a
    fall: its queue at start, peak and after (ms), whether the fall followed, its largest
    advertised window over its largest clamp (None without `probe_windows`), and the other
    receiver's largest queuing delay, its last before the verdict (ms) and its window cut
    (None without its publications)."""
    t0, t1 = run["competitor_start_s"], run["competitor_end_s"]
    series = run.get("rstats_series") or []
    windows = {(w["port"], w["t"]): w for w in run.get("probe_windows") or []}
    out = []
    for p in run.get("probes") or []:
        if not p["in_range"] or not t0 <= p["t"] <= t1:
            continue
        t = p["t"]
        other = [x for x in series if x[1] != p["port"]]
        before = [x[3] for x in other if t - DURING_S - BEFORE_S <= x[0] <= t - DURING_S]
        during = [x for x in other if t - DURING_S < x[0] <= t]
        w = windows.get((p["port"], t))
        out.append({
            "from_ms": p["from_ms"], "peak_ms": p["peak_ms"], "after_ms": p["after_ms"],
            "fell": p["fell"],
            "opened": (w["advertised_max"] / w["clamp_max"]
                       if w and w.get("advertised_max") and w.get("clamp_max") else None),
            "other_qd_ms": max((x[4] for x in during if x[4] is not None), default=None),
            "other_qd_end_ms": during[-1][4] if during else None,
            "other_cut": (min(x[3] for x in during) / max(before)
                          if during and before and max(before) else None),
        })
    return out


def _aftermath_line(label: str, rows: list[dict]) -> str:
    """One set of `probe_aftermath` rows, summed up."""
    def med(k):
        v = [r[k] for r in rows if r[k] is not None]
        return "-" if not v else f"{statistics.median(v):.{2 if k == 'other_cut' else 0}f}"
    def span(k, fmt):
        v = [r[k] for r in rows if r[k] is not None]
        return "-" if not v else f"{min(v):{fmt}}..{max(v):{fmt}}"
    return (f"  {label}: {len(rows)}; queue at start {med('from_ms')}, peak {med('peak_ms')} "
            f"[{span('peak_ms', 'g')}], after {med('after_ms')} ms; advertised / clamp "
            f"{span('opened', '.2f')}; the other's "
            f"queuing delay at most {med('other_qd_ms')} ms, {med('other_qd_end_ms')} ms at the "
            f"verdict, its window cut to "
            f"{med('other_cut')}")


def report(docs: list[tuple[str, dict]], shared: float, within: float,
           bands: list[float], mss: int) -> list[str]:
    """The report's lines for the named JSON documents."""
    out = []
    # [band][shared: 0 no, 1 yes] -> [positives, pushes]
    counts = [[[0, 0], [0, 0]] for _ in bands]
    fail_after = fails = ok_void = oks = samples = bound = 0
    aftermath: list[dict] = []
    for name, doc in docs:
        for i, run in enumerate(doc["runs"]):
            if run.get("competitor") != "rledbat":
                continue
            jain = pair_metrics(run, run.get("rate_bps", 10_000_000))["jain"]
            ok = jain is not None and jain >= shared
            vs = phase_verdicts(run)
            voids = [v["t"] - run["competitor_start_s"] for v in vs if v["kind"] == "void"]
            pos = sorted(v["q0_ms"] for v in vs
                         if v["kind"] == "push" and v["positive"] and v.get("q0_ms") is not None)
            for v in vs:
                if v["kind"] == "push" and v.get("q0_ms") is not None:
                    b = band_of(v["q0_ms"], bands)
                    if b is not None:
                        counts[b][ok][0] += bool(v["positive"])
                        counts[b][ok][1] += 1
            after = positive_after_collision(vs, within)
            if ok:
                oks += 1
                ok_void += bool(voids)
            else:
                fails += 1
                fail_after += after
            aftermath += probe_aftermath(run)
            n, k = sender_binding(run, mss)
            samples += n
            bound += k
            out.append(f"{name} run {i}: Jain {'-' if jain is None else f'{jain:.3f}'}; "
                       f"positive pushes from {pos or '-'} ms; collisions at "
                       f"{[round(t, 2) for t in voids] or '-'} s"
                       f"{'; a positive within ' + str(within) + ' s after one' if after else ''}")
    out.append(f"push verdicts by the queue they began from (runs at Jain >= {shared} | below):")
    lo = 0.0
    for (bad_c, ok_c), hi in zip(counts, bands):
        out.append(f"  {lo:g}-{hi:g} ms: {ok_c[0]} positive of {ok_c[1]} | "
                   f"{bad_c[0]} positive of {bad_c[1]}")
        lo = hi
    out.append(f"runs below {shared} with a positive within {within} s after a collision: "
               f"{fail_after} of {fails}; runs at or above it with a collision: {ok_void} of {oks}")
    if samples:
        out.append(f"remote senders, from {SENDER_SETTLE_S:g} s after the second's start: "
                   f"{samples} samples, cwnd x {mss} B below snd_wnd in {bound}")
    else:
        out.append("remote senders: no sample (runs taken without --sender-trace)")
    out.append(f"probes begun in range while both download: {len(aftermath)} (medians)")
    for label, fell in (("followed by the fall", True), ("not followed by it", False)):
        out.append(_aftermath_line(label, [r for r in aftermath if r["fell"] == fell]))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m netbed.pairverdicts", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+")
    ap.add_argument("--shared", type=float, default=0.95,
                    help="Jain's index from which a run counts as shared (0.95)")
    ap.add_argument("--within", type=float, default=3.0,
                    help="seconds after a collision a positive is counted (3)")
    ap.add_argument("--bands", default="30,40,50,70",
                    help="upper ends of the starting-queue bands, ms (30,40,50,70)")
    ap.add_argument("--mss", type=int, default=1448, help="the senders' MSS, bytes (1448)")
    a = ap.parse_args(argv)
    try:
        bands = [float(x) for x in a.bands.split(",")]
    except ValueError:
        print(f"pairverdicts: --bands {a.bands!r}: not a list of numbers", file=sys.stderr)
        return 2
    if not bands or any(b <= lo for lo, b in zip([0.0] + bands, bands)):
        print(f"pairverdicts: --bands {a.bands!r}: must rise from above 0", file=sys.stderr)
        return 2
    docs = []
    for path in a.json:
        try:
            with open(path) as fh:
                doc = json.load(fh)
            doc["runs"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"pairverdicts: {path}: not a rledbatbed JSON: {e}", file=sys.stderr)
            return 2
        docs.append((path, doc))
    try:
        print("\n".join(report(docs, a.shared, a.within, bands, a.mss)))
    except (KeyError, TypeError) as e:
        print(f"pairverdicts: a run lacks a field the report needs: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
