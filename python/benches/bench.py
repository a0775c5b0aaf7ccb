"""Prints two cost figures of the Python package (a benchmark, not a test):

1. one run from Python (`Scenario.run`, summary parsed, series converted) against the same
   run from the CLI (`ledbat sim`, the whole process: start, simulate, print); the median
   and minimum of `--repeat` alternating runs each, and their ratios (goal: at most 1.05);
2. a 40-run sweep (4 grid points x 10 seeds) on a Dask LocalCluster of two single-threaded
   worker processes against one worker; the ratio of wall times (goal: at most 0.6).
   Cluster start-up is not counted (each cluster first runs one warm-up task per worker).
   Before and after it, a baseline: two runs in two threads against one after the other,
   which shows how much of a second core the machine gives at that moment.

    pip install './python[dask]'
    python python/benches/bench.py [--ledbat-bin target/release/ledbat]

Wall-clock figures depend on what else runs on the machine: say what did when quoting them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

import ledbat  # the installed package (this script's folder holds no `ledbat`)

REPO = Path(__file__).resolve().parents[2]
SCENARIO = REPO / "scenarios" / "seed003" / "target-sweep.toml"


def bench_single(bin_path: str, duration: str, repeat: int) -> None:
    sc = ledbat.Scenario.from_toml(SCENARIO).set("duration", duration)
    cmd = [bin_path, "sim", str(SCENARIO), "--seed", "1", "--set", f"duration={duration}"]
    subprocess.run(cmd, check=True, capture_output=True)  # page the binary in
    sc.run(seed=1)
    cli, py = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        cli.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        r = sc.run(seed=1)
        _ = r.summary, r.series
        py.append(time.perf_counter() - t0)
    c, p = statistics.median(cli), statistics.median(py)
    print(f"single run ({SCENARIO.name}, duration {duration}, seed 1, {repeat} alternating runs):")
    print(f"  CLI  ledbat sim      median {c * 1000:7.1f} ms, min {min(cli) * 1000:7.1f} ms  (process wall time)")
    print(f"  Python Scenario.run  median {p * 1000:7.1f} ms, min {min(py) * 1000:7.1f} ms")
    print(f"  ratio Python / CLI   median {p / c:7.3f},    min {min(py) / min(cli):7.3f}   (goal <= 1.05)")


def bench_cores(duration: str) -> None:
    """What the machine gives two parallel simulations right now: two runs in two Python
    threads (GIL released) against the same two runs one after the other."""
    import threading

    sc = ledbat.Scenario.from_toml(SCENARIO).set("duration", duration)
    t0 = time.perf_counter()
    sc.run(seed=1)
    sc.run(seed=2)
    seq = time.perf_counter() - t0
    ts = [threading.Thread(target=sc.run, args=(s,)) for s in (1, 2)]
    t0 = time.perf_counter()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    par = time.perf_counter() - t0
    print(f"baseline: two runs (duration {duration}) in two threads / one after the other:")
    print(f"  {par:.2f} s / {seq:.2f} s = {par / seq:.3f}   (0.5 = two free cores)")


def bench_sweep(duration: str) -> None:
    from distributed import Client, LocalCluster

    sc = ledbat.Scenario.from_toml(SCENARIO).set("duration", duration)
    grid = {"flow.0.cc.target": ["25ms", "60ms"], "flow.0.cc.gain": [1.0, 10.0]}
    seeds = range(1, 11)
    walls = {}
    for n in (1, 2):
        with LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster, Client(cluster) as client:
            client.wait_for_workers(n)
            warm = sc.copy().set({"duration": "2s", "warmup": "0s"})
            ledbat.sweep(warm, {}, seeds=range(1, n + 1), client=client)
            t0 = time.perf_counter()
            runs, _ = ledbat.sweep(sc, grid, seeds=seeds, client=client)
            walls[n] = time.perf_counter() - t0
            assert len(runs) == 40
    print(f"40-run sweep (4 points x 10 seeds, duration {duration}) on a Dask LocalCluster:")
    print(f"  1 worker   {walls[1]:7.2f} s")
    print(f"  2 workers  {walls[2]:7.2f} s")
    print(f"  ratio 2 / 1 {walls[2] / walls[1]:6.3f}   (goal <= 0.6)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    ap.add_argument("--ledbat-bin", default=str(target / "release" / "ledbat"))
    ap.add_argument("--duration", default="1000s", help="simulated time of the single run")
    ap.add_argument("--sweep-duration", default="1000s", help="simulated time of each sweep run")
    ap.add_argument("--repeat", type=int, default=15)
    a = ap.parse_args()
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")
    bench_single(a.ledbat_bin, a.duration, a.repeat)
    bench_cores(a.duration)
    bench_sweep(a.sweep_duration)
    bench_cores(a.duration)


if __name__ == "__main__":
    main()
