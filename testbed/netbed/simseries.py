"""The bed's yield measure on a simulator run: `ledbat sim`'s `series.csv` read as the bed's
counters, so that simulated and measured figures use one definition.

    python3 -m netbed.simseries OUT/series.csv --flow scavenger --from 10 --until 40

prints the seconds from `--from` until the flow's 1 s-window rate falls below `--below`
bit/s (default 2e6, 20 % of the bed's 10 Mbit/s link) for good, as the side-by-side report's
"time until uTP < 20 % of the link" (`measure.time_until_below`), or `none`. `series.csv`
gives each flow's delivered rate over each sample interval (`NAME.rate_mbps` at `t_s`, for
(t_s - interval, t_s]); the cumulative delivered bytes are their running sum.
"""

from __future__ import annotations

import argparse
import csv
import sys

from .measure import Cumulative, time_until_below


def read_columns(path: str) -> dict[str, list[float]]:
    """The columns of a `series.csv` as floats (empty cells: nan)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError(f"{path}: empty file")
    header, body = rows[0], rows[1:]
    cols: dict[str, list[float]] = {h: [] for h in header}
    for n, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise ValueError(f"{path}:{n}: {len(row)} cells, header has {len(header)}")
        for h, cell in zip(header, row):
            cols[h].append(float(cell) if cell else float("nan"))
    return cols


def delivered(cols: dict[str, list[float]], flow: str) -> Cumulative:
    """Cumulative bytes the flow delivered, from `t_s` and `FLOW.rate_mbps`; starts at 0
    one interval before the first sample."""
    key = f"{flow}.rate_mbps"
    if key not in cols or "t_s" not in cols:
        raise KeyError(f"no column {key!r} (or t_s) in the series")
    ts, rates = cols["t_s"], cols[key]
    if not ts:
        return Cumulative([], [])
    first = ts[0] - (ts[1] - ts[0] if len(ts) > 1 else ts[0])
    times, values, acc, prev = [first], [0.0], 0.0, first
    for t, r in zip(ts, rates):
        acc += r * 1e6 / 8 * (t - prev)
        times.append(t)
        values.append(acc)
        prev = t
    return Cumulative(times, values)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m netbed.simseries", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("series", help="a `ledbat sim` run's series.csv")
    p.add_argument("--flow", required=True, help="flow name in the scenario")
    p.add_argument("--from", dest="t0", type=float, required=True, help="start, s")
    p.add_argument("--until", type=float, required=True, help="end of the search, s")
    p.add_argument("--below", type=float, default=2e6, help="threshold, bit/s (2e6)")
    a = p.parse_args(argv)
    try:
        got = time_until_below(delivered(read_columns(a.series), a.flow), a.t0, a.until,
                               a.below)
    except (OSError, ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print("none" if got is None else f"{got:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
