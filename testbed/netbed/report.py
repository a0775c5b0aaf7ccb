"""The table the bed prints: one row per figure, with its floor, goal and verdict."""

from __future__ import annotations

from typing import TextIO


def _verdict(m) -> str:
    if m.passed is None:
        return "-"
    v = "PASS" if m.passed else "FAIL"
    if m.goal_met is not None:
        v += " (goal met)" if m.goal_met else " (goal missed)"
    return v


def print_table(metrics, settings, out: TextIO) -> None:
    """Prints `metrics` as a Markdown table (readable as is in a CI log)."""
    b = settings.bottleneck
    out.write(f"\nBottleneck {b.rate_bps / 1e6:g} Mbit/s, FIFO {b.fifo_frames} frames "
              f"({b.limit_bytes} B, {b.fifo_ms:.0f} ms); sender under test `{settings.sut}`"
              f"{' --cc ' + settings.sut_cc if settings.sut_cc else ''}; "
              f"competitor `{settings.competitor}`; {'quick' if settings.quick else 'full'} "
              f"mode\n\n")
    rows = [("scenario", "figure", "value", "floor", "goal", "verdict", "note")]
    for m in metrics:
        rows.append((m.scenario, m.name, m.fmt_value(), m.floor, m.goal, _verdict(m),
                     m.note.replace("\n", " ")[:160]))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for k, r in enumerate(rows):
        cells = [c.ljust(w) for c, w in zip(r, widths)] + [r[-1]]
        out.write("| " + " | ".join(cells) + " |\n")
        if k == 0:
            out.write("|" + "|".join("-" * (w + 2) for w in widths) + "|---|\n")
    out.flush()
