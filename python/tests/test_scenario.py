"""Scenarios, overrides, errors and single runs against the `ledbat sim` CLI."""

import json
import pickle
from pathlib import Path

import pandas as pd
import pytest

import ledbat
from conftest import SCENARIOS, cli

TWO_FLOWS = SCENARIOS / "seed003" / "target-sweep.toml"
SHORT = {"duration": "6s", "warmup": "1s"}


def test_from_toml_reads_a_path_or_text_and_names_a_file_by_its_stem():
    a = ledbat.Scenario.from_toml(TWO_FLOWS)
    b = ledbat.Scenario.from_toml(str(TWO_FLOWS))
    c = ledbat.Scenario.from_toml(TWO_FLOWS.read_text())
    assert a == b and a.name == b.name == c.name == "seed003-target-sweep"
    d = ledbat.Scenario.from_toml('duration = "2s"\n[[flow]]\ncc = { name = "ledbat" }\n')
    assert d.name == "" and d.seed == 1 and d.origin is None


def test_round_trip_through_to_toml_keeps_the_scenario_and_its_results():
    sc = ledbat.Scenario.from_toml(TWO_FLOWS).set(SHORT).set("flow.0.cc.target", "60ms")
    again = ledbat.Scenario.from_toml(sc.to_toml())
    assert again.to_toml() == sc.to_toml()
    assert 'target = "60ms"' in again.to_toml()
    assert again.run(seed=2).summary == sc.run(seed=2).summary


def test_overrides_take_python_values_and_chain():
    sc = ledbat.Scenario.from_toml(TWO_FLOWS).set(SHORT)
    sc.set("flow.0.cc.gain", 4).set("topology.queue.packets", 40).set("series", False)
    assert sc.overrides[-3:] == ("flow.0.cc.gain=4", "topology.queue.packets=40", "series=false")
    toml = sc.to_toml()
    assert "gain = 4.0" in toml and "packets = 40" in toml and "series = false" in toml
    assert sc.run().series.empty


def test_a_refused_override_raises_and_leaves_the_scenario_unchanged():
    sc = ledbat.Scenario.from_toml(TWO_FLOWS)
    with pytest.raises(ledbat.ConfigError, match="tagret"):
        sc.set("flow.0.cc.tagret", "1ms")
    assert sc.overrides == ()
    with pytest.raises(ledbat.ConfigError):
        sc.set("duration", "10s")  # warmup (10 s) must stay below the duration
    assert sc.overrides == ()
    assert isinstance(ledbat.ConfigError("x"), ValueError)


@pytest.mark.parametrize(
    "body, sets",
    [
        ('duration = "2s"\n[[flow]]\ncc = { name = "ledbat", tagret = "25ms" }\n', []),
        ('duration = "2s"\nwarmup = "3s"\n[[flow]]\ncc = { name = "ledbat" }\n', []),
        ('duration = "2s"\n[[flow]]\ncc = { name = "ledbat", gain = -1.0 }\n', []),
        ('duration = "2s"\n[[flow]]\ncc = { name = "ledbat" }\n', ["flow.3.cc.gain=2"]),
        ('duration = "2s"\n[[flow]]\ncc = { name = "ledbat" }\n', ["flow.0.cc.target=-5"]),
    ],
)
def test_errors_carry_the_cli_message(ledbat_bin, tmp_path, body, sets):
    path = tmp_path / "bad.toml"
    path.write_text(body)
    with pytest.raises(ledbat.ConfigError) as e:
        sc = ledbat.Scenario.from_toml(path)
        for s in sets:
            sc.set(s)
    args = [a for s in sets for a in ("--set", s)]
    p = cli(ledbat_bin, "sim", str(path), *args, cwd=tmp_path)
    assert p.returncode != 0
    assert p.stderr == f"error: {e.value}\n"


def test_summary_and_series_equal_the_cli_files_for_the_same_seed(ledbat_bin, tmp_path):
    sc = ledbat.Scenario.from_toml(TWO_FLOWS).set(SHORT).set("flow.0.cc.target", "60ms")
    r = sc.run(seed=7)
    out = tmp_path / "out"
    p = cli(
        ledbat_bin, "sim", str(TWO_FLOWS), "--seed", "7", "--set", "duration=6s",
        "--set", "warmup=1s", "--set", "flow.0.cc.target=60ms", "--out", str(out),
        cwd=tmp_path,
    )
    assert p.returncode == 0, p.stderr
    assert json.loads((out / "summary.json").read_text()) == r.summary
    csv = pd.read_csv(out / "series.csv")
    assert list(csv.columns) == list(r.series.columns)
    assert csv.shape == r.series.shape == (60, 1 + 3 * 2 + 2)
    pd.testing.assert_frame_equal(csv, r.series, check_exact=False, atol=6e-4, rtol=0)


def test_dataframes_have_one_row_per_flow_link_and_sample():
    r = ledbat.Scenario.from_toml(TWO_FLOWS).set(SHORT).run(seed=1)
    assert list(r.flows["name"]) == ["ledbat", "tcp"]
    assert list(r.flows["controller"]) == ["ledbat", "newreno"]
    assert {"throughput_bps", "cwnd_mean_pkts", "rtt_mean_ms", "loss_rate"} <= set(r.flows.columns)
    assert "completions" not in r.flows.columns
    assert list(r.links["name"]) == ["bottleneck", "bottleneck-rev"]
    assert {"utilisation", "qdelay_mean_ms", "queue_mean_arrival_pkts"} <= set(r.links.columns)
    assert r.series.shape == (60, 9)
    assert r.series["t_s"].iloc[0] == pytest.approx(0.1)
    assert r.completions.empty and list(r.completions.columns) == ["flow", "start_s", "time_s", "packets"]
    share = r.flows.set_index("name")["throughput_bps"]
    assert r.aggregate["tcp_share"] == pytest.approx(share["tcp"] / share.sum(), rel=1e-9)


def test_same_seed_gives_the_same_result_and_seeds_differ():
    sc = ledbat.Scenario.from_toml(TWO_FLOWS).set(SHORT)
    assert sc.run(seed=3).summary == sc.run(seed=3).summary
    assert sc.run(seed=3).summary != sc.run(seed=4).summary


def test_scenarios_pickle():
    sc = ledbat.Scenario.from_toml(TWO_FLOWS).set(SHORT)
    back = pickle.loads(pickle.dumps(sc))
    assert back == sc and back.overrides == sc.overrides


def test_controllers_equal_the_cli_json(ledbat_bin, tmp_path):
    p = cli(ledbat_bin, "controllers", "--json", cwd=tmp_path)
    assert p.returncode == 0
    assert ledbat.controllers() == json.loads(p.stdout)
    one = ledbat.controllers("ledbat", ["target=150ms"])
    assert len(one) == 1 and one[0]["defaults"]["target"] == "150ms" and one[0]["non_compliant"]
    with pytest.raises(ledbat.ConfigError) as e:
        ledbat.controllers("nope")
    p = cli(ledbat_bin, "controllers", "nope", cwd=tmp_path)
    assert p.stderr == f"error: {e.value}\n"
