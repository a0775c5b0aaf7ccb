"""Seed 003's Fig. 3.4(b): the TCP share of a LEDBAT vs TCP Reno pair against LEDBAT's
TARGET, for several GAINs, swept on a Dask LocalCluster and plotted next to the thesis.

    pip install './python[examples]'
    python python/examples/fig3_4b.py --seeds 5 --out fig3_4b.png

The scenario is scenarios/seed003/target-sweep.toml (B = 100 packets, so T = 100 % of the
buffer is tau = 120 ms); the claims checked by `ledbat repro` are the s003-target-* and
s003-gain-flat entries of crates/ledbat-repro/src/catalog.rs.

The thesis's values: its plain text gives the level of each region of the f(T) curve
(G = 1), not the plotted points, so the reference drawn here is that description: TCP% near
100 % for T in 20-65 %, falling to about 0 % at T = 100 %, about 50 % beyond the buffer,
and "shaky" (no level given) below 20 %; the f(G) curve (tau = 25 ms, G in 1..10) is
described as flat. They are the text's statements, not numbers read off the figure.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import ledbat

REPO = Path(__file__).resolve().parents[2]
SCENARIO = REPO / "scenarios" / "seed003" / "target-sweep.toml"
# Target as a share of the buffer, T = tau C / (S B): 1 % = 1.2 ms here.
SHARES = [2, 10, 20, 40, 65, 80, 90, 100, 120, 150]
GAINS = [1.0, 4.0, 10.0]
# (T from, T to, TCP share) as the thesis's text describes Fig. 3.4(b).
THESIS = [(20, 65, 1.0), (100, 100, 0.0), (100, 150, 0.5)]


def tau(share_percent: float) -> str:
    """The `target` override for a share of the buffer (in microseconds, exact)."""
    return f"{round(share_percent * 1200)}us"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=5, help="seeds per point (default 5)")
    ap.add_argument("--workers", type=int, default=2, help="Dask workers (default 2)")
    ap.add_argument("--duration", default="100s", help="simulated time per run")
    ap.add_argument("--out", default="fig3_4b.png", help="the plot (PNG)")
    ap.add_argument("--csv", default=None, help="also write the runs table here")
    a = ap.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from distributed import Client, LocalCluster

    sc = ledbat.Scenario.from_toml(SCENARIO).set("duration", a.duration)
    grid = {"flow.0.cc.target": [tau(s) for s in SHARES], "flow.0.cc.gain": GAINS}
    with LocalCluster(n_workers=a.workers, threads_per_worker=1) as cluster, Client(
        cluster
    ) as client:
        print(f"Dask dashboard: {client.dashboard_link}")
        runs, means = ledbat.sweep(
            sc, grid, seeds=range(1, a.seeds + 1), client=client, progress=True
        )
    print()
    if a.csv:
        runs.to_csv(a.csv, index=False)
    share_of = {tau(s): s for s in SHARES}
    means["T"] = means["flow.0.cc.target"].map(share_of)

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for g in GAINS:
        m = means[means["flow.0.cc.gain"] == g].sort_values("T")
        ax.errorbar(
            m["T"], m["tcp_share.mean"], yerr=m["tcp_share.ci95"].fillna(0), marker="o",
            capsize=3, label=f"simulated, G = {g:g} (mean, 95 % CI, {a.seeds} seeds)",
        )
    for i, (lo, hi, v) in enumerate(THESIS):
        ax.plot([lo, hi] if hi > lo else [lo - 2, lo + 2], [v, v], color="black", lw=3,
                alpha=0.5, label="thesis text, G = 1 (region levels)" if i == 0 else None)
    ax.axvspan(65, 100, color="grey", alpha=0.1, label="thesis region T3")
    ax.set_xlabel("LEDBAT target T (% of the 100-packet buffer)")
    ax.set_ylabel("TCP share of the throughput")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title("Seed 003 Fig. 3.4(b): LEDBAT vs TCP Reno, B = 100")
    ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print(f"wrote {a.out}")
    table = means.pivot(index="T", columns="flow.0.cc.gain", values="tcp_share.mean")
    print("TCP share (mean over seeds); columns: GAIN, rows: T (% of buffer)")
    print(table.round(3).to_string())


if __name__ == "__main__":
    main()
