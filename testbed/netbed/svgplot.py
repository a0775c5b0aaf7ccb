"""Minimal SVG line plots (standard library only): one chart, several named step curves."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
          "#7f7f7f"]


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    t = (lo // step) * step
    out = []
    while t <= hi + 1e-9:
        if t >= lo - 1e-9:
            out.append(round(t, 10))
        t += step
    return out


def line_chart(title: str, xlabel: str, ylabel: str,
               series: list[tuple[str, list[tuple[float, float]]]],
               width: int = 560, height: int = 360, points: bool = False) -> str:
    """An SVG document plotting each (name, points) as a step line (or, with `points`, as
    dots), with a legend."""
    pts = [p for _, s in series for p in s]
    # Both axes start at zero (or below), so that charts of one kind compare by eye.
    x0, x1 = (min([0.0] + [p[0] for p in pts]), max(p[0] for p in pts)) if pts else (0.0, 1.0)
    y0, y1 = 0.0, max([1.0] + [p[1] for p in pts])
    if x1 <= x0:
        x1 = x0 + 1
    ml, mr, mt, mb = 60, 20, 30, 45
    pw, ph = width - ml - mr, height - mt - mb

    def sx(x):
        return ml + (x - x0) / (x1 - x0) * pw

    def sy(y):
        return mt + ph - (y - y0) / (y1 - y0) * ph

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="13">{escape(title)}</text>',
           f'<rect x="{ml}" y="{mt}" width="{pw}" height="{ph}" fill="none" stroke="black"/>']
    for t in _ticks(x0, x1):
        out.append(f'<line x1="{sx(t):.1f}" y1="{mt + ph}" x2="{sx(t):.1f}" y2="{mt + ph + 4}" stroke="black"/>')
        out.append(f'<text x="{sx(t):.1f}" y="{mt + ph + 16}" text-anchor="middle">{t:g}</text>')
    for t in _ticks(y0, y1):
        out.append(f'<line x1="{ml - 4}" y1="{sy(t):.1f}" x2="{ml}" y2="{sy(t):.1f}" stroke="black"/>')
        out.append(f'<text x="{ml - 6}" y="{sy(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    out.append(f'<text x="{ml + pw / 2}" y="{height - 8}" text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text x="14" y="{mt + ph / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {mt + ph / 2})">{escape(ylabel)}</text>')
    for i, (name, s) in enumerate(series):
        c = COLORS[i % len(COLORS)]
        if s and points:
            for x, y in s:
                out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3.5" fill="{c}"/>')
        elif s:
            d = []
            for j, (x, y) in enumerate(s):
                if j == 0:
                    d.append(f"M{sx(x):.1f},{sy(y):.1f}")
                else:
                    d.append(f"H{sx(x):.1f}V{sy(y):.1f}")
            out.append(f'<path d="{" ".join(d)}" fill="none" stroke="{c}" stroke-width="1.5"/>')
        ly = mt + 14 + 14 * i
        out.append(f'<line x1="{ml + pw - 150}" y1="{ly - 4}" x2="{ml + pw - 130}" y2="{ly - 4}" '
                   f'stroke="{c}" stroke-width="2"/>')
        out.append(f'<text x="{ml + pw - 125}" y="{ly}">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
