"""One controller on the two stacks, side by side: uTP (`sidebyside.py`) and kernel TCP
(`tcpbed.py`) on the same bed, from the JSON files the two beds write.

    python3 -m netbed.stacks --cc SPEC [--cc SPEC ...] --utp A.json ... --kernel B.json ... \
        [--md OUT.md]

Both beds run the same plan on the same bottleneck (10 Mbit/s `tbf`, a 121-ms FIFO, half the
base RTT each way through the user-space delay line): one flow of ours alone, kernel cubic or
bbr (iperf3) joining it at 30 s for 20 s, then ours alone again; and two of ours 10 s apart.
The uTP bed's rows are `single` and `two`, the kernel bed's `cross` and `two`; a row's
`alone`, `beside` and `after` parts have the same keys in both. Rows are kept when their
controller (the uTP `seeder`, the kernel `cc`) is one of the `--cc` specs (several spellings of
one configuration, e.g. a bed alias and its parameters). Each figure is the median and range
over the repeats (`netbed.summary`), one column per base RTT, one line per stack; the number
in parentheses is how many runs the cell has (the `alone` figures come from the alone part of
every cross-traffic run), `k none` how many of them never measured the figure. A time until
below 20 % that a run never reached counts as the slowest ("never"), not as missing.

Targets, as the plan states them: beside bbr below 20 % of the link within 5 s of its start;
beside cubic within 2 s of its queue appearing (the FIFO first holding 1.1 TARGET); two of ours
at Jain >= 0.95. A cell whose median misses its target is marked with `(missed)`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from .sbs_report import _get
from .summary import median_range

RTTS_KEY = "rtt_ms"

# Times until the flow is below 20 % of the link: a run in which it never was (None) is
# slower than any that was, so it enters the median as infinity and shows as "never";
# leaving it out would make the median flatter the controller.
NEVER_IS_SLOWEST = ("time_until_below_20pct_s", "time_until_below_20pct_from_queue_s")

# (label, table, cross kind or None, path into the row, decimals, target: (op, value) or None)
FIGURES = [
    ("alone: Mbit/s", "single", None, "alone.payload_mbit", 2, None),
    ("alone: queue, mean ms", "single", None, "alone.queue_mean_ms", 1, None),
    ("alone: drops after slow start", "single", None, "alone.drops", 0, None),
    ("beside bbr: s until below 20 %", "single", "bbr", "beside.time_until_below_20pct_s", 1,
     ("<=", 5.0)),
    ("beside bbr: ours, Mbit/s", "single", "bbr", "beside.utp_mbit", 2, None),
    ("beside cubic: s until below 20 %, from its queue", "single", "cubic",
     "beside.time_until_below_20pct_from_queue_s", 1, ("<=", 2.0)),
    ("beside cubic: s until below 20 %, from its start", "single", "cubic",
     "beside.time_until_below_20pct_s", 1, None),
    ("beside cubic: ours, Mbit/s", "single", "cubic", "beside.utp_mbit", 2, None),
    ("after bbr left, from 3 s: Mbit/s", "single", "bbr", "after.payload_from_3s_mbit", 2, None),
    ("after cubic left, from 3 s: Mbit/s", "single", "cubic", "after.payload_from_3s_mbit", 2,
     None),
    ("two of ours 10 s apart: Jain", "two", None, "jain", 3, (">=", 0.95)),
]


# What `_get` gives for a field the row does not have (a bed of an older build), apart
# from None, which the bed writes when it measured nothing (a flow never below 20 %).
ABSENT = object()


def rows(doc: dict, stack: str, specs: set[str]) -> dict[str, list[dict]]:
    """The rows of one bed's JSON for the given controller specs, as {"single": [...],
    "two": [...]}: the uTP bed's `single`/`two`, the kernel bed's `cross`/`two`. Rows with an
    error are left out."""
    single = doc.get("single" if stack == "utp" else "cross", [])
    key = "seeder" if stack == "utp" else "cc"
    return {
        "single": [r for r in single if r.get(key) in specs and not r.get("error")],
        "two": [r for r in doc.get("two", []) if r.get("cc") in specs and not r.get("error")],
    }


def merge(docs: list[dict], stack: str, specs: set[str]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {"single": [], "two": []}
    for d in docs:
        for k, v in rows(d, stack, specs).items():
            out[k].extend(v)
    return out


def cell(rs: dict[str, list[dict]], table: str, cross: str | None, path: str, rtt: float):
    """The figure's median and range over the rows at this base RTT (and cross kind); None
    when no row has the figure (an empty cell)."""
    vals = [_get(r, path, ABSENT) for r in rs[table]
            if r.get(RTTS_KEY) == rtt and (cross is None or r.get("cross") == cross)]
    vals = [v for v in vals if v is not ABSENT]
    if not vals:
        return None
    if path.endswith(NEVER_IS_SLOWEST):
        vals = [math.inf if v is None else v for v in vals]
    return median_range(vals)


def text(s: dict, nd: int) -> str:
    """The cell's text: `median [min..max]`, infinity (a run that never got there) as
    "never"."""
    def num(x):
        return "never" if x == math.inf else f"{x:.{nd}f}"
    if s["median"] is None:
        return "none"
    out = num(s["median"])
    if s["n"] > 1:
        out += f" [{num(s['min'])}..{num(s['max'])}]"
    if s.get("missing"):
        out += f" ({s['missing']} none)"
    return out


def missed(s: dict | None, target) -> bool:
    """A cell misses its target when its median is on the wrong side, or when no repeat
    measured it (a flow that never went below 20 % gives None)."""
    if target is None or s is None:
        return False
    if s["median"] is None:
        return True
    op, v = target
    return not (s["median"] <= v if op == "<=" else s["median"] >= v)


def table(stacks: dict[str, dict[str, list[dict]]]) -> tuple[str, list[str]]:
    """The Markdown table and the list of missed cells (`figure, stack, RTT`)."""
    rtts = sorted({r[RTTS_KEY] for rs in stacks.values() for t in rs.values() for r in t})
    head = "| figure | stack | " + " | ".join(f"{rtt:g} ms" for rtt in rtts) + " |"
    lines = [head, "|" + "---|" * (2 + len(rtts))]
    misses = []
    for label, tab, cross, path, nd, target in FIGURES:
        for stack, rs in stacks.items():
            cells = []
            for rtt in rtts:
                s = cell(rs, tab, cross, path, rtt)
                if s is None:
                    cells.append("")
                    continue
                t = text(s, nd)
                if missed(s, target):
                    t += " (missed)"
                    misses.append(f"{label}, {stack}, {rtt:g} ms")
                n = s["n"] + s.get("missing", 0)
                cells.append(f"{t} ({n})" if n > 1 else t)
            lines.append(f"| {label} | {stack} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n", misses


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cc", action="append", required=True,
                    help="controller spec as the beds name it (repeat for aliases)")
    ap.add_argument("--utp", nargs="*", default=[], help="sidebyside.py JSON files")
    ap.add_argument("--kernel", nargs="*", default=[], help="tcpbed.py JSON files")
    ap.add_argument("--md", help="write the table here (default: print it)")
    a = ap.parse_args(argv)
    specs = set(a.cc)
    stacks = {}
    for stack, files in (("uTP", a.utp), ("kernel", a.kernel)):
        docs = []
        for f in files:
            try:
                with open(f) as fh:
                    docs.append(json.load(fh))
            except (OSError, json.JSONDecodeError) as e:
                print(f"stacks: cannot read {f}: {e}", file=sys.stderr)
                return 2
        stacks[stack] = merge(docs, "utp" if stack == "uTP" else "kernel", specs)
        if files and not any(stacks[stack].values()):
            print(f"stacks: no row of {', '.join(sorted(specs))} in the {stack} files",
                  file=sys.stderr)
            return 2
    md, misses = table({k: v for k, v in stacks.items() if any(v.values())})
    md += "\nMissed: " + ("; ".join(misses) if misses else "none") + ".\n"
    if a.md:
        from .paths import write_atomic
        write_atomic(a.md, md)
    else:
        sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
