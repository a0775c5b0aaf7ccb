"""`ledbat repro` with its runs on Dask: the local report byte for byte, one task per run,
and an unreachable scheduler as a clear error with no report written."""

import re

import pytest

import ledbat
from conftest import SCENARIOS

CLAIMS = ("s003-ledbat-ledbat-fair", "s002-mdvar-fair-rtt20")
WALL = re.compile(r"in [0-9.]+ s wall clock")


def report(out):
    """report.md and index.html with the wall-clock figure (the one line that may differ)
    taken out."""
    return [WALL.sub("in _ s wall clock", (out / f).read_text()) for f in ("report.md", "index.html")]


def test_repro_on_a_local_cluster_of_two_workers_is_the_local_report(tmp_path, ledbat_bin):
    distributed = pytest.importorskip("distributed")
    args = dict(quick=True, seeds=2, cache=False, scenarios=SCENARIOS, ledbat_bin=ledbat_bin)
    local = ledbat.repro(*CLAIMS, out=tmp_path / "local", **args)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        with distributed.get_task_stream(client) as stream:
            on_dask = ledbat.repro(*CLAIMS, out=tmp_path / "dask", client=client, **args)
        # Through the run cache: a cold cache sends every run, a warm one none.
        cached = dict(args, cache=tmp_path / "cache")
        ledbat.repro(*CLAIMS, out=tmp_path / "cold", client=cluster.scheduler_address, **cached)
        with distributed.get_task_stream(client) as warm_stream:
            ledbat.repro(*CLAIMS, out=tmp_path / "warm", client=client, **cached)
    runs = local["runs"]
    assert runs == 12, "2 scenarios x (2 seeds + the exact start) + setup and null runs"
    tasks = [t for t in stream.data if str(t["key"]).startswith("ledbat-repro-")]
    assert len(tasks) == runs, "one task per run"
    assert len({t["worker"] for t in tasks}) == 2
    assert not [t for t in warm_stream.data if str(t["key"]).startswith("ledbat-repro-")]
    for out in ("dask", "cold", "warm"):
        assert report(tmp_path / out) == report(tmp_path / "local"), out
    assert on_dask == local


def test_an_unreachable_scheduler_is_an_error_and_no_report_is_written(tmp_path, ledbat_bin):
    pytest.importorskip("distributed")
    out = tmp_path / "out"
    with pytest.raises(RuntimeError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        ledbat.repro(
            CLAIMS[0], quick=True, seeds=2, cache=tmp_path / "cache", out=out,
            client="tcp://127.0.0.1:9", scenarios=SCENARIOS, ledbat_bin=ledbat_bin, timeout=2,
        )
    assert not (out / "report.md").exists() and not (out / "index.html").exists()
    assert not list((tmp_path / "cache").glob("v1/*/*.run")), "nothing stored"
