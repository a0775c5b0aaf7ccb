"""The side-by-side run's tables and checks (`netbed.sidebyside`), from its rows.

A row is one scenario run (see `sidebyside.analyse_single` / `analyse_two`), keyed by FIFO,
base RTT, cross traffic and seeder (or controller, for two of ours). Rows of the same key
are repeats: the tables give the median and the spread (min..max) of each figure, and the
checks compare medians. Several runs' JSON files merge into one table (`--merge`), so that a
long plan can be run as several short ones.

The checks are the targets of docs/sidebyside/README.md for the transfer commands' default
(`scavenger`), at
every base RTT measured:
- alone: payload rate >= the best deployed seeder's (medians);
- after the cross traffic leaves: back at that rate within 3 s (payload rate from 3 s after
  it left to the end of the run >= that median);
- beside cubic: below 20 % of the link within 2 s of cubic's start;
- with a latecomer of its own kind: Jain >= 0.95 over the last half;
- alone: queue mean within 10 % of TARGET, and no tail drop after the warm-up.
"""

from __future__ import annotations

import functools
import math

from .summary import format_range, median_range

DEPLOYED = ("libtorrent", "transmission")
BACK_SHARE = 0.95  # "back at that rate": a 1 s window at 95 % of it
DEFAULT_CC = "scavenger"
DEFAULT_TARGET_MS = 60.0  # scavenger's TARGET (LEDBAT++'s)


def _nan(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _get(row: dict, path: str, absent=None):
    """The value at the dotted `path`; `absent` where the row has no such field."""
    cur = row
    for k in path.split("."):
        if not isinstance(cur, dict) or k not in cur:
            return absent
        cur = cur[k]
    return cur


# A figure over its repeats: `median [min..max]`, the median alone for one repeat or equal ones.
fmt = functools.partial(format_range, same_once=True)


SINGLE_FIGURES = {
    "alone": "alone.payload_mbit",
    "queue_mean": "alone.queue_mean_ms",
    "queue_p95": "alone.queue_p95_ms",
    "drops_start": "alone.drops_from_start",
    "drops_warm": "alone.drops",
    "slowdowns_alone": "alone.slowdowns",
    "until20": "beside.time_until_below_20pct_s",
    "until20_q": "beside.time_until_below_20pct_from_queue_s",
    "utp_beside": "beside.utp_mbit",
    "cross_beside": "beside.cross_mbit",
    "after": "after.payload_from_3s_mbit",
    "after_all": "after.payload_mbit",
    "slowdowns_after": "after.slowdowns",
}


def single_key(r: dict) -> tuple:
    return (r["fifo_ms"], r.get("rtt_ms", 0.0), r.get("cross", "cubic"), r["seeder"])


def two_key(r: dict) -> tuple:
    return (r["fifo_ms"], r.get("rtt_ms", 0.0), r["cc"])


def _groups(rows: list[dict], key) -> dict[tuple, list[dict]]:
    out: dict[tuple, list[dict]] = {}
    for r in rows:
        out.setdefault(key(r), []).append(r)
    return out


def best_deployed(rows: list[dict]) -> dict[tuple, float]:
    """Per (FIFO, base RTT): the best deployed seeder's median alone payload rate."""
    out: dict[tuple, float] = {}
    for k, rs in _groups([r for r in rows if r["seeder"] in DEPLOYED and not r.get("error")],
                         single_key).items():
        s = median_range([_get(r, "alone.payload_mbit") for r in rs])
        if s["n"]:
            at = (k[0], k[1])
            out[at] = max(out.get(at, 0.0), s["median"])
    return out


def time_back(row: dict, reference: float | None, share: float = BACK_SHARE) -> float | None:
    """Seconds from the cross traffic's end until the seeder's 1 s-window payload rate first
    reaches `share` of `reference` (the end of that window); None when it never does."""
    if reference is None:
        return None
    for start, mbit in _get(row, "after.windows_mbit") or []:
        if mbit is not None and mbit >= share * reference:
            return start + 1.0
    return None


def aggregate(doc: dict) -> dict:
    """Per key: the spread of every figure over its repeats (errors counted apart)."""
    ref = best_deployed(doc["single"])
    single = []
    for k, rs in sorted(_groups(doc["single"], single_key).items(), key=lambda x: _order(x[0])):
        ok = [r for r in rs if not r.get("error")]
        g = {"fifo_ms": k[0], "rtt_ms": k[1], "cross": k[2], "seeder": k[3],
             "runs": len(rs), "failed": [r["error"] for r in rs if r.get("error")]}
        for name, path in SINGLE_FIGURES.items():
            g[name] = median_range([_get(r, path) for r in ok])
        back = [time_back(r, ref.get((k[0], k[1]))) for r in ok if r.get("after")]
        g["back95"] = median_range(back)
        g["never_back"] = sum(1 for b in back if b is None)
        # A flow that never fell below 20 % of the link has no time: it counts as "never".
        g["never_below20"] = sum(1 for r in ok if _get(r, "beside.time_until_below_20pct_s")
                                 is None)
        single.append(g)
    two = []
    for k, rs in sorted(_groups(doc["two"], two_key).items(), key=lambda x: x[0]):
        ok = [r for r in rs if not r.get("error")]
        two.append({"fifo_ms": k[0], "rtt_ms": k[1], "cc": k[2], "runs": len(rs),
                    "failed": [r["error"] for r in rs if r.get("error")],
                    "jain": median_range([r.get("jain") for r in ok]),
                    "flow1": median_range([r.get("flow1_mbit") for r in ok]),
                    "flow2": median_range([r.get("flow2_mbit") for r in ok]),
                    "link": median_range([_pct(r.get("link_util")) for r in ok]),
                    "queue_p50": median_range([r.get("queue_p50_ms") for r in ok])})
    return {"single": single, "two": two}


def _order(k: tuple) -> tuple:
    fifo, rtt, cross, seeder = k
    rank = {"libtorrent": 0, "transmission": 1}.get(seeder, 2)
    return (fifo, cross, rtt, rank, seeder)


def _pct(x):
    return None if _nan(x) else x * 100


def seeder_label(s: str) -> str:
    """The row label of a seeder."""
    return {"libtorrent": "libtorrent 2.1.1", "transmission": "Transmission 3.00"}.get(
        s, "ours " + cc_label(s))


def cc_label(spec: str) -> str:
    """`--cc NAME --cc-param K=V ...` of a controller spec `NAME[:K=V...]`."""
    name, *kvs = spec.split(":")
    return " ".join([f"--cc {name}"] + [f"--cc-param {kv}" for kv in kvs])


def markdown(doc: dict) -> str:
    """The tables (one per FIFO and cross traffic; two of ours) and the checks."""
    agg = aggregate(doc)
    lines: list[str] = []
    blocks = _groups(agg["single"], lambda g: (g["fifo_ms"], g["cross"]))
    for (fifo, cross), gs in blocks.items():
        lines += [f"FIFO {fifo:.0f} ms, cross traffic kernel {cross}: median [min..max] of the "
                  "repeats", "",
                  "| base RTT | seeder | runs | alone: payload Mbit/s | queue mean / p95 ms | "
                  "drops from start / after warm-up | slowdowns alone | "
                  f"beside {cross}: time until < 20 % of the link from its start | "
                  f"uTP / {cross} Mbit/s | "
                  f"after {cross} leaves: Mbit/s from 3 s | whole after | time to 95 % of "
                  "the best deployed alone | slowdowns after |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for g in gs:
            until = fmt(g["until20"], 1, " s")
            if g["never_below20"]:
                until += f" ({g['never_below20']} never)"
            if g["until20_q"]["n"]:
                # Runs before this figure was measured have none.
                until += f"; {fmt(g['until20_q'], 1, ' s')} from its queue"
            fail = f" ({len(g['failed'])} failed)" if g["failed"] else ""
            back = fmt(g["back95"], 1, " s")
            if g["never_back"]:
                back += f" ({g['never_back']} never)"
            lines.append(
                f"| {g['rtt_ms']:.0f} ms | {seeder_label(g['seeder'])} | {g['runs']}{fail} | "
                f"{fmt(g['alone'])} | {fmt(g['queue_mean'], 1)} / {fmt(g['queue_p95'], 1)} | "
                f"{fmt(g['drops_start'], 0)} / {fmt(g['drops_warm'], 0)} | "
                f"{fmt(g['slowdowns_alone'], 0)} | {until} | "
                f"{fmt(g['utp_beside'])} / {fmt(g['cross_beside'])} | {fmt(g['after'])} | "
                f"{fmt(g['after_all'])} | {back} | {fmt(g['slowdowns_after'], 0)} |")
        lines.append("")
    if agg["two"]:
        lines += ["Two of ours, the second 10 s after the first: median [min..max]", "",
                  "| FIFO | base RTT | controller | runs | Jain (last half) | flow 1 / flow 2 "
                  "Mbit/s | link % | queue p50 ms |", "|---|---|---|---|---|---|---|---|"]
        for g in agg["two"]:
            fail = f" ({len(g['failed'])} failed)" if g["failed"] else ""
            lines.append(
                f"| {g['fifo_ms']:.0f} ms | {g['rtt_ms']:.0f} ms | {cc_label(g['cc'])} | "
                f"{g['runs']}{fail} | {fmt(g['jain'], 3)} | {fmt(g['flow1'])} / "
                f"{fmt(g['flow2'])} | {fmt(g['link'], 1)} | {fmt(g['queue_p50'], 1)} |")
        lines.append("")
    for c in checks(doc):
        lines.append(f"- {c['name']}: **{c['verdict']}**: {c['detail']}")
    return "\n".join(lines) + "\n"


def _med(g: dict | None, name: str):
    s = (g or {}).get(name)
    return None if not s else s["median"]


def checks(doc: dict, cc: str = DEFAULT_CC, target_ms: float = DEFAULT_TARGET_MS) -> list[dict]:
    """The targets for `cc`, per FIFO and base RTT measured (medians of repeats)."""
    agg = aggregate(doc)
    out = []
    by = {(g["fifo_ms"], g["rtt_ms"], g["cross"], g["seeder"]): g for g in agg["single"]}
    two = {(g["fifo_ms"], g["rtt_ms"], g["cc"]): g for g in agg["two"]}
    points = sorted({(k[0], k[1]) for k in by if k[3] == cc} | {(k[0], k[1]) for k in two
                                                                  if k[2] == cc})
    for fifo, rtt in points:
        where = f"FIFO {fifo:.0f} ms, base RTT {rtt:.0f} ms"
        cub = by.get((fifo, rtt, "cubic", cc))
        ours = [g for (f, r, _x, s), g in by.items() if (f, r, s) == (fifo, rtt, cc)]
        deployed = [g for (f, r, _x, s), g in by.items() if (f, r) == (fifo, rtt)
                    and s in DEPLOYED]
        best = max((_med(g, "alone") for g in deployed if _med(g, "alone") is not None),
                   default=None)
        best_s = "n/a" if best is None else f"{best:.2f} Mbit/s"
        alone = [(g["cross"], _med(g, "alone")) for g in ours]
        if ours and best is not None:
            ok = all(a is not None and round(a, 2) >= round(best, 2) for _, a in alone)
            out.append(_check(f"{where}: alone at least the best deployed seeder", ok,
                              f"best deployed {best_s}; ours " + ", ".join(
                                  f"{_num(a)} (runs beside {x})" for x, a in alone)))
        after = [(g["cross"], _med(g, "after"), g["back95"], g["never_back"]) for g in ours]
        if ours and best is not None:
            ok = all(a is not None and round(a, 2) >= round(best, 2) for _, a, _b, _n in after)
            out.append(_check(
                f"{where}: back at that rate within 3 s after the cross traffic leaves", ok,
                f"best deployed alone {best_s}; ours from 3 s after it left: " + ", ".join(
                    f"{_num(a)} after {x} (a 1 s window at 95 % of it after "
                    f"{fmt(b, 1, ' s')}{f', {n} runs never' if n else ''})"
                    for x, a, b, n in after)))
        if cub:
            u = cub["until20"]
            ok = u["n"] > 0 and cub["never_below20"] == 0 and u["max"] <= 2.0
            out.append(_check(f"{where}: beside cubic below 20 % of the link within 2 s", ok,
                              f"{fmt(u, 1, ' s')}" + (f", {cub['never_below20']} runs never"
                                                      if cub["never_below20"] else "")
                              + " (median [min..max]; met only when every run is)"))
        t = two.get((fifo, rtt, cc))
        if t:
            j = _med(t, "jain")
            out.append(_check(f"{where}: a latecomer of its own kind, Jain >= 0.95",
                              j is not None and j >= 0.95, fmt(t["jain"], 3)))
        if ours:
            q = [_med(g, "queue_mean") for g in ours]
            d = [_get(g, "drops_warm.max") for g in ours]
            ok_q = all(x is not None and abs(x - target_ms) <= 0.1 * target_ms for x in q)
            ok_d = all(x == 0 for x in d)
            out.append(_check(f"{where}: queue alone within 10 % of TARGET ({target_ms:.0f} ms) "
                              "and no tail drop after the warm-up", ok_q and ok_d,
                              "queue mean " + ", ".join(_num(x, 1, " ms") for x in q)
                              + "; most drops after warm-up in a run "
                              + ", ".join(_num(x, 0, "") for x in d)))
    return out


def _num(x, nd=2, unit=" Mbit/s"):
    return "n/a" if _nan(x) else f"{x:.{nd}f}{unit}"


def _check(name: str, ok: bool, detail: str) -> dict:
    return {"name": name, "verdict": "met" if ok else "missed", "detail": detail}
