"""A figure's median and range over the repeats of a run, and its table cell.

The bed's reports (`netbed.rledbatstats`, `netbed.sbs_report`, `netbed.tcpbed`,
`netbed.reversebed`, `netbed.tcpcost`, `netbed.bbrbed`, `netbed.simbeside`,
`netbed.simkernel`) repeat each scenario a few times and give every figure as its median
with the spread [min..max] beside it. A repeat that could not measure the figure gives None (or NaN): it is left out of the
median and counted as missing, so that a table can say how many repeats never reached it.
The median of n sorted values v_1..v_n is v_((n+1)/2) for odd n and (v_(n/2) +
v_(n/2+1)) / 2 for even n.
"""

from __future__ import annotations

import math


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def median_range(values: list, digits: int | None = None, count_missing: bool = True) -> dict:
    """Median, min and max of the values that are neither None nor NaN, their count `n`, and
    how many were (`missing`, left out with `count_missing` False: reports whose JSON has
    always had only the other four keys); the median rounded to `digits` when given. With no
    value measured, median, min and max are None and `n` is 0."""
    v = sorted(x for x in values if not _missing(x))
    out = {"median": None, "min": None, "max": None, "n": len(v)}
    if v:
        k = len(v) // 2
        med = v[k] if len(v) % 2 else (v[k - 1] + v[k]) / 2
        out.update(median=med if digits is None else round(med, digits), min=v[0], max=v[-1])
    if count_missing:
        out["missing"] = len(values) - len(v)
    return out


def format_range(s: dict | None, nd: int = 2, unit: str = "", empty: str = "n/a",
                 same_once: bool = False, missing: str = "", range_for_one: bool = False) -> str:
    """`median [min..max]` with `nd` decimals (`unit` after the median), the median alone for
    one value (unless `range_for_one`: `v [v..v]`), or also when min == max with `same_once`;
    `empty` when nothing was measured (`s` None or its median None); with `missing` a word,
    ` (k word)` after it when k values were missing."""
    if not s or s["median"] is None:
        return empty
    out = f"{s['median']:.{nd}f}{unit}"
    if (s["n"] > 1 or range_for_one) and not (same_once and s["min"] == s["max"]):
        out += f" [{s['min']:.{nd}f}..{s['max']:.{nd}f}]"
    if missing and s.get("missing"):
        out += f" ({s['missing']} {missing})"
    return out
