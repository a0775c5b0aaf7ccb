"""Sweeps: the tidy tables, identity with `ledbat sweep`, and Dask."""

import math

import pandas as pd
import pytest

import ledbat
from conftest import SCENARIOS, cli

BASE = SCENARIOS / "seed003" / "target-sweep.toml"
GRID = {"flow.0.cc.target": ["25ms", "60ms"], "flow.0.cc.gain": [1.0, 10.0]}
SEEDS = [1, 2, 3]


def small():
    return ledbat.Scenario.from_toml(BASE).set({"duration": "8s", "warmup": "2s"})


def test_runs_has_one_row_per_run_with_the_parameters_as_columns():
    runs, means = ledbat.sweep(small(), GRID, seeds=SEEDS, jobs=2)
    assert runs.shape[0] == 4 * 3 and means.shape[0] == 4
    assert list(runs.columns[:3]) == ["flow.0.cc.gain", "flow.0.cc.target", "seed"]
    assert list(runs["seed"]) == SEEDS * 4
    assert list(runs["flow.0.cc.gain"]) == [1.0] * 6 + [10.0] * 6
    assert list(runs["flow.0.cc.target"][:6]) == ["25ms"] * 3 + ["60ms"] * 3
    assert {"efficiency", "tcp_share", "ledbat.throughput_mbps", "tcp.cwnd_mean_pkts"} <= set(runs.columns)
    assert list(means["runs"]) == [3] * 4
    assert {"tcp_share.mean", "tcp_share.ci95"} <= set(means.columns)


def test_means_are_student_t_intervals_of_the_runs():
    runs, means = ledbat.sweep(small(), GRID, seeds=SEEDS)
    first = runs[(runs["flow.0.cc.gain"] == 1.0) & (runs["flow.0.cc.target"] == "25ms")]
    xs = first["tcp_share"].tolist()
    m = sum(xs) / 3
    s = math.sqrt(sum((x - m) ** 2 for x in xs) / 2)
    assert means["tcp_share.mean"][0] == pytest.approx(m, rel=1e-12)
    assert means["tcp_share.ci95"][0] == pytest.approx(4.303 * s / math.sqrt(3), rel=1e-9)


def test_a_single_run_of_the_sweep_equals_scenario_run():
    runs, _ = ledbat.sweep(small(), {"flow.0.cc.gain": [10.0]}, seeds=[5])
    r = small().set("flow.0.cc.gain", 10.0).run(seed=5)
    assert runs["tcp_share"][0] == r.aggregate["tcp_share"]
    assert runs["ledbat.cwnd_mean_pkts"][0] == r.flows["cwnd_mean_pkts"][0]


def fmt(x):
    return "" if isinstance(x, float) and not math.isfinite(x) else f"{x:.6f}"


def test_numbers_equal_the_cli_runs_and_means_csv(ledbat_bin, tmp_path):
    sc = small()
    sweep_file = tmp_path / "sw.toml"
    sweep_file.write_text(
        f'scenario = "{BASE}"\nseeds = {SEEDS}\nset = ["duration=8s", "warmup=2s"]\n[grid]\n'
        + "".join(f'"{k}" = {[v for v in vs]!r}\n'.replace("'", '"') for k, vs in GRID.items())
    )
    p = cli(ledbat_bin, "sweep", str(sweep_file), "--out", str(tmp_path / "res"), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    runs, means = ledbat.sweep(sc, GRID, seeds=SEEDS)
    for name, ours in (("runs.csv", runs), ("means.csv", means)):
        theirs = pd.read_csv(tmp_path / "res" / name, dtype=str, keep_default_na=False)
        assert list(theirs.columns) == list(ours.columns), name
        assert theirs.shape == ours.shape
        for col in ours.columns[len(GRID):]:
            if col in ("seed", "runs"):
                assert list(theirs[col]) == [str(x) for x in ours[col]], col
            else:
                assert list(theirs[col]) == [fmt(x) for x in ours[col]], (name, col)
        assert list(theirs["flow.0.cc.target"]) == list(ours["flow.0.cc.target"])


def test_bad_grid_keys_and_values_are_refused():
    with pytest.raises(ledbat.ConfigError, match="tagret"):
        ledbat.sweep(small(), {"flow.0.cc.tagret": ["1ms"]})
    with pytest.raises(ledbat.ConfigError, match="needs at least one value"):
        ledbat.sweep(small(), {"flow.0.cc.gain": []})
    with pytest.raises(ledbat.ConfigError, match="seed"):
        ledbat.sweep(small(), {}, seeds=[])
    with pytest.raises(TypeError, match="flow.0.cc.gain"):
        ledbat.sweep(small(), {"flow.0.cc.gain": [object()]})


def test_dask_local_cluster_with_two_workers_gives_the_local_sweep():
    distributed = pytest.importorskip("distributed")
    local = ledbat.sweep(small(), GRID, seeds=SEEDS)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        with distributed.get_task_stream(client) as stream:
            on_dask = ledbat.sweep(small(), GRID, seeds=SEEDS, client=client)
        by_address = ledbat.sweep(
            small(), {"flow.0.cc.gain": [10.0]}, seeds=[1], client=cluster.scheduler_address
        )
    tasks = [t for t in stream.data if str(t["key"]).startswith("ledbat-run-")]
    assert len(tasks) == 12, "one task per run"
    workers = {t["worker"] for t in tasks}
    pd.testing.assert_frame_equal(on_dask.runs, local.runs)
    pd.testing.assert_frame_equal(on_dask.means, local.means)
    assert by_address.runs["tcp_share"][0] == local.runs["tcp_share"][6]  # gain 10, target 25 ms, seed 1
    assert len(workers) == 2, workers

