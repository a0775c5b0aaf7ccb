"""`ledbat repro` with its runs on Dask: the local report byte for byte, one task per run,
and an unreachable scheduler as a clear error with no report written."""

import json
import re

import pytest

import ledbat
from conftest import SCENARIOS, cli

CLAIMS = ("s003-ledbat-ledbat-fair", "s002-mdvar-fair-rtt20")
# The cost line's count of runs read from the cache, and its wall-clock figure.
COST = re.compile(r"(; [^;)]* read from the run cache, [^;)]*)?\) in [0-9.]+ s wall clock")


def report(out):
    """report.md and index.html with the cost line's variable part (how many runs came from
    the cache, the wall clock) taken out."""
    return [COST.sub(") in _ s wall clock", (out / f).read_text()) for f in ("report.md", "index.html")]


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


# Decided at 5 seeds (one round) and at 10 (two rounds) on --quick.
AUTO_CLAIMS = ("s003-ledbat-ledbat-fair", "s002-md-nf1-first-finishes-first")


def test_seeds_auto_on_a_local_cluster_runs_every_round_and_is_the_cli_report(tmp_path, ledbat_bin):
    distributed = pytest.importorskip("distributed")
    p = cli(
        ledbat_bin, "repro", "--quick", "--seeds", "auto", "--no-cache", "--json",
        "--scenarios", str(SCENARIOS), "--out", str(tmp_path / "cli"), *AUTO_CLAIMS, cwd=tmp_path,
    )
    assert p.returncode == 0, p.stderr
    from_cli = json.loads(p.stdout)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        with distributed.get_task_stream(client) as stream:
            on_dask = ledbat.repro(
                *AUTO_CLAIMS, client=client, seeds="auto", quick=True, cache=False,
                out=tmp_path / "dask", scenarios=SCENARIOS, ledbat_bin=ledbat_bin,
            )
    assert on_dask == from_cli
    seeds = {c["id"]: c["seeds"] for c in on_dask["claims"]}
    assert seeds == {
        "s003-ledbat-ledbat-fair": {"n": 5, "stop": "decided"},
        "s002-md-nf1-first-finishes-first": {"n": 10, "stop": "decided"},
    }, "one claim stops at the first look, the other needs a second round"
    tasks = [t for t in stream.data if str(t["key"]).startswith("ledbat-repro-")]
    assert len(tasks) == on_dask["runs"], "every round's runs went to the cluster"
    assert len({t["worker"] for t in tasks}) == 2
    assert report(tmp_path / "dask") == report(tmp_path / "cli")


@pytest.mark.parametrize("bad", ["ten", "Auto", "0", 0, -1, 2.5, True, "auto:", "auto:5,x"])
def test_seeds_that_are_neither_a_count_nor_auto_are_refused_before_running(tmp_path, bad):
    with pytest.raises(ValueError, match="a number of seeds .at least 1., \"auto\" or"):
        ledbat.repro("s003", seeds=bad, out=tmp_path / "out", ledbat_bin="/nonexistent")
    assert not (tmp_path / "out").exists()


def test_seeds_auto_with_looks_are_passed_to_the_command_as_written():
    from ledbat._repro import _seeds_arg

    assert _seeds_arg("auto:5,10") == "auto:5,10"
    assert _seeds_arg("auto") == "auto"
    assert _seeds_arg(7) == "7"
