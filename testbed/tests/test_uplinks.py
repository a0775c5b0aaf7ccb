"""The bed's and the simulator's uplinks, seed and leechers apart, from hand-made inputs."""

import csv
import json

import pytest

from netbed import uplinks


def bed_peer(k, seed, t, q, drops):
    return {"k": k, "seed": seed, "completion_s": t, "queue_bytes": q, "drops": drops}


def bed_run():
    return {"settings": {"rate_mbit": 1.0},
            "peers": [bed_peer(1, True, None, [0, 125000, 125000, 125000], 30),
                      bed_peer(2, False, 100.0, [0, 0, 62500, 62500], 10),
                      bed_peer(3, False, 110.0, [0, 0, 0, 0], 0)]}


def test_bed_row_separates_the_seed_from_the_mean_leecher():
    r = uplinks.bed_row(bed_run())
    assert r["t"] == 105.0
    # Seed: 375 000 B over 4 samples = 93 750 B = 750 ms at 1 Mbit/s; one sample of four empty.
    assert r["seed"]["q_ms"] == pytest.approx(750.0)
    assert r["seed"]["empty"] == 0.25 and r["seed"]["drops"] == 30
    # Leechers: 250 ms and 0 ms; half and all samples empty; 10 and 0 drops.
    assert r["leech"]["q_ms"] == pytest.approx(125.0)
    assert r["leech"]["empty"] == 0.75 and r["leech"]["drops"] == 5


SIM_FIELDS = ["initial_seed", "download_s", "queue_samples", "uplink_queue_ms", "idle_no_data",
              "idle_awaiting_ack", "idle_awaiting_rto", "uplink_drops", "upload_rtos",
              "upload_rtos_head_delivered", "upload_rtos_undone"]


def sim_peer(seed, t, samples, q, idle, drops, rtos, head, undone):
    return dict(zip(SIM_FIELDS, [str(x) for x in
                                 [seed, t, samples, q, *idle, drops, rtos, head, undone]]))


def sim_rows():
    return [sim_peer(1, "", 100, 600.0, (1, 1, 0), 50, 10, 2, 0),
            sim_peer(0, 100.0, 100, 200.0, (10, 20, 10), 4, 30, 15, 3),
            sim_peer(0, 120.0, 100, 100.0, (0, 10, 10), 0, 10, 5, 1)]


def test_sim_row_counts_idle_samples_and_the_shares_of_timeouts():
    r = uplinks.sim_peers_row(sim_rows())
    assert r["t"] == 110.0
    assert r["seed"]["q_ms"] == 600.0 and r["seed"]["empty"] == 0.02
    le = r["leech"]
    assert le["q_ms"] == 150.0 and le["empty"] == pytest.approx(0.3) and le["drops"] == 2
    assert le["rtos"] == 20 and le["rtos_total"] == 40
    assert (le["head_delivered"], le["undone"]) == (20, 4)


def test_combine_means_runs_and_the_table_shows_shares_of_all_timeouts():
    a = uplinks.sim_peers_row(sim_rows())
    b = uplinks.sim_peers_row(sim_rows())
    b["t"] = 120.0
    c = uplinks.combine([a, b])
    assert c["t"] == 115.0 and c["n"] == 2
    line = uplinks.table([("sim", c)]).splitlines()[2]
    assert line == "| sim | 115.0 | 600 | 2 % | 50 | 150 | 30 % | 2 | 20 | 50 % | 10 % |"
    bed = uplinks.table([("kernel", uplinks.bed_row(bed_run()))]).splitlines()[2]
    assert bed == "| kernel | 105.0 | 750 | 25 % | 30 | 125 | 75 % | 5 | - | - | - |"


def test_duration_ms_reads_the_clients_units():
    assert uplinks.duration_ms("102.838ms") == pytest.approx(102.838)
    assert uplinks.duration_ms("40us") == pytest.approx(0.04)
    assert uplinks.duration_ms("0s") == 0.0
    assert uplinks.duration_ms("1.5s") == 1500.0
    with pytest.raises(ValueError):
        uplinks.duration_ms("soon")


def conn(base, sent):
    return {"transport": "utp", "utp": {"bytes_sent": sent, "metrics": {"base_delay": base}}}


def test_utp_base_weighs_connections_by_bytes_and_keeps_wrapped_ones_apart():
    seed = {"peers": [conn("40us", 100), conn("50ms", 300), {"transport": "tcp", "utp": None}]}
    leech = {"peers": [conn("20us", 100), conn("4294967.2ms", 100), conn("10ms", 0)]}
    r = uplinks.utp_base([(True, seed), (False, leech)])
    assert r["seed"]["bytes"] == 400 and r["seed"]["queued"] == 0.75
    assert r["seed"]["mean_ms"] == pytest.approx((0.04 * 100 + 50 * 300) / 400)
    assert r["seed"]["wrapped"] == 0.0
    assert r["leech"]["queued"] == 0.0 and r["leech"]["wrapped"] == 0.5
    assert r["leech"]["mean_ms"] == pytest.approx(0.02)


def test_main_reads_bed_repetitions_and_simulator_seeds(tmp_path, capsys):
    for rep in (1, 2):
        d = tmp_path / "bed" / f"tcp-ours-{rep}"
        d.mkdir(parents=True)
        (d / "run.json").write_text(json.dumps(bed_run()))
        (d / "p1.out").write_text(json.dumps({"peers": [conn("50ms", 100)]}))
        (d / "p2.out").write_text(json.dumps({"peers": [conn("40us", 100)]}))
    for seed in ("1", "2"):
        d = tmp_path / "sim" / seed
        d.mkdir(parents=True)
        with open(d / "peers.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=SIM_FIELDS)
            w.writeheader()
            w.writerows(sim_rows())
    assert uplinks.main([str(tmp_path / "bed"), "tcp", "--sim",
                         f"sim, x = y={tmp_path / 'sim'}"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split(" | ")[0] for ln in lines[2:]] == [
        "| kernel, repetition 1", "| kernel, repetition 2", "| sim, x = y (2 seeds)"]
    assert uplinks.main([str(tmp_path / "bed"), "tcp", "--utp-base"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Peer 3's report is missing; the seed's one connection has a queued base.
    assert lines[2] == "| kernel, repetition 1 | 100 % | 50.0 | 0 % | 0.0 | 0 % | 1 |"
    assert uplinks.main([str(tmp_path / "bed"), "utp"]) == 2
