"""BitTorrent swarm runs from Python: per-peer, per-class and completion tables equal to
the files `ledbat swarm --out` writes for the same seed."""

import json

import pandas as pd
import pytest

import ledbat
from conftest import SCENARIOS, cli

SWARM = SCENARIOS / "seed003" / "swarm.toml"
# Section 5.1's swarm, shrunk so that a run takes a fraction of a second.
SMALL = {
    "swarm.leechers": 12,
    "swarm.file_size": "2MiB",
    "swarm.discard": 4,
    "swarm.measure": 8,
}


def small() -> ledbat.Scenario:
    return ledbat.Scenario.from_toml(SWARM).set(SMALL)


def test_a_swarm_run_gives_peers_classes_and_completions():
    r = small().run(seed=3)
    assert r.is_swarm
    assert r.flows.empty and r.links.empty and r.series.empty
    peers = r.peers
    # Every peer that joined before the run stopped (at the 12th completion), in id order.
    ids = peers["id"].tolist()
    assert ids == sorted(set(ids)) and ids[0] == 0 and len(ids) >= 13
    assert peers["initial_seed"].tolist() == [1] + [0] * (len(ids) - 1)
    assert set(peers["class"]) <= {"ledbat", "tcp"}
    assert {"download_s", "uplink_queue_ms", "uploaded_utp", "uploaded_tcp"} <= set(peers.columns)
    assert (peers["ignored"] == 0).all()
    done = r.completions
    assert list(done.columns) == ["rank", "at_s", "peer", "class", "download_s", "measured"]
    assert done["rank"].tolist() == list(range(1, 13))
    assert done["measured"].sum() == 8 == r.swarm["measured"]
    measured = done[done["measured"] == 1]["download_s"]
    assert r.swarm["download"]["mean"] == pytest.approx(measured.mean(), rel=1e-12)
    classes = r.classes
    assert classes["name"].tolist() == ["ledbat", "tcp"]
    assert {"download.mean", "download.q1", "queue_mean_ms", "block_latency_mean_ms"} <= set(
        classes.columns
    )
    assert "queue_hist_pkts" not in classes.columns
    assert "swarm" in repr(r)


def test_swarm_tables_equal_the_cli_files_for_the_same_seed(ledbat_bin, tmp_path):
    r = small().run(seed=5)
    out = tmp_path / "out"
    sets = [a for k, v in SMALL.items() for a in ("--set", f"{k}={v}")]
    p = cli(ledbat_bin, "swarm", str(SWARM), "--seed", "5", *sets, "--out", str(out), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "leecher completions" in p.stdout
    assert json.loads((out / "summary.json").read_text()) == r.summary
    for name, frame in [("peers.csv", r.peers), ("completions.csv", r.completions)]:
        csv = pd.read_csv(out / name)
        assert list(csv.columns) == list(frame.columns), name
        pd.testing.assert_frame_equal(
            csv, frame, check_dtype=False, check_exact=False, atol=1e-3, rtol=0
        )


def test_a_sweep_of_swarms_has_the_swarm_metrics():
    res = ledbat.sweep(small(), grid={"swarm.class.0.share": [0.0, 0.5]}, seeds=[1, 2])
    assert len(res.runs) == 4
    assert {"download_mean_s", "tcp_byte_share", "ledbat.download_mean_s"} <= set(res.runs.columns)
    all_tcp = res.runs[res.runs["swarm.class.0.share"] == "0.0"]
    assert (all_tcp["tcp_byte_share"] == 1.0).all()
