"""The simulator-against-kernel table, from hand-made inputs."""

from netbed import simkernel


def peer(seed, t, q, udp, tcp):
    return {"seed": seed, "completion_s": t, "queue_bytes": q, "wire": {"udp": udp, "tcp": tcp}}


def test_kernel_row_means_over_leechers_and_all_queue_samples():
    run = {"settings": {"rate_mbit": 1.0},
           "peers": [peer(True, None, [0, 125000], 300, 100),
                     peer(False, 100.0, [0, 0], 100, 0),
                     peer(False, 110.0, [62500, 62500], 0, 0)]}
    r = simkernel.kernel_row(run)
    assert r["t"] == 105.0
    assert r["t_sd"] == 5.0
    # 250 000 bytes over 6 samples = 41 666.7 B = 333.3 ms at 1 Mbit/s.
    assert abs(r["q"] - 1000 / 3) < 1e-9
    # TCP: 100 of 500 bytes.
    assert r["tcp"] == 0.2
    assert (r["completed"], r["leechers"]) == (2, 2)


def test_table_pairs_the_scenarios_in_the_beds_order(tmp_path):
    means = tmp_path / "means.csv"
    means.write_text(
        "case,runs,complete.mean,download_mean_s.mean,download_mean_s.ci95,"
        "swarm_queue_mean_ms.mean,tcp_byte_share.mean\n"
        "tcp,10,1,120.0,2.5,400.0,1.0\n"
        "mixed,10,1,99.0,1.0,70.4,0.0\n")
    sim = simkernel.sim_rows(str(means))
    assert sim["tcp"]["t_ci"] == 2.5 and sim["mixed"]["runs"] == 10
    kernel = {"mixed": {"t": 110.0, "q": 69.0, "tcp": 0.0},
              "tcp": {"t": 100.0, "q": 387.0, "tcp": 1.0}}
    lines = simkernel.table(sim, kernel).splitlines()
    assert lines[2] == "| mixed | 99.0 ± 1.0 | 110.0 | 0.90 | 70 | 69 | 0 % | 0 % |"
    assert lines[3] == "| tcp | 120.0 ± 2.5 | 100.0 | 1.20 | 400 | 387 | 100 % | 100 % |"
    assert len(lines) == 4


def test_repetitions_give_the_median_and_the_range():
    rows = [{"t": 100.0, "q": 70.0, "tcp": 0.25}, {"t": 110.0, "q": 60.0, "tcp": 0.29},
            {"t": 104.0, "q": 90.0, "tcp": None}]
    k = simkernel.combine(rows)
    assert k["reps"] == 3
    assert (k["t"], k["t_range"]) == (104.0, (100.0, 110.0))
    assert (k["q"], k["q_range"]) == (70.0, (60.0, 90.0))
    # A missing share is left out: the median of two.
    assert abs(k["tcp"] - 0.27) < 1e-12 and k["tcp_range"] == (0.25, 0.29)
    means = {"mixed": {"t": 99.0, "t_ci": 1.0, "q": 70.4, "tcp": 0.0, "runs": 10, "complete": 1}}
    line = simkernel.table(means, {"mixed": k}).splitlines()[2]
    assert line == ("| mixed | 99.0 ± 1.0 | 104.0 (100.0-110.0) | 0.95 | 70 | "
                    "70 (60-90) | 0 % | 27 % (25-29) |")


def test_one_repetition_has_no_range():
    k = simkernel.combine([{"t": 100.0, "q": 70.0, "tcp": 0.0}])
    assert k["t_range"] is None and k["reps"] == 1


def test_the_command_reads_every_repetition(tmp_path, capsys):
    sim = tmp_path / "sim"
    sim.mkdir()
    (sim / "means.csv").write_text(
        "case,runs,complete.mean,download_mean_s.mean,download_mean_s.ci95,"
        "swarm_queue_mean_ms.mean,tcp_byte_share.mean\n"
        "utp,10,1,100.0,1.0,60.0,0.0\n")
    bed = tmp_path / "bed"
    for rep, t in [(1, 100.0), (2, 120.0), (3, 110.0)]:
        d = bed / f"utp-ours-{rep}"
        d.mkdir(parents=True)
        run = {"settings": {"rate_mbit": 1.0},
               "peers": [peer(True, None, [0], 100, 0), peer(False, t, [0], 100, 0)]}
        (d / "run.json").write_text(__import__("json").dumps(run))
    assert simkernel.main([str(sim), str(bed)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2].startswith("| utp | 100.0 ± 1.0 | 110.0 (100.0-120.0) | 0.91 |")
    assert simkernel.main([str(sim), str(bed), "--rep", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[2].startswith("| utp | 100.0 ± 1.0 | 120.0 | 0.83 |")


def test_sim_rows_where_picks_one_grid_point(tmp_path):
    means = tmp_path / "means.csv"
    means.write_text(
        "case,transport.spurious_rto,runs,complete.mean,download_mean_s.mean,"
        "download_mean_s.ci95,swarm_queue_mean_ms.mean,tcp_byte_share.mean\n"
        "tcp,none,10,1,112.0,2.0,230.0,1.0\n"
        "tcp,linux,10,1,104.0,2.0,350.0,1.0\n")
    assert simkernel.sim_rows(str(means))["tcp"]["t"] == 104.0
    none = simkernel.sim_rows(str(means), {"transport.spurious_rto": "none"})
    assert none["tcp"]["t"] == 112.0 and none["tcp"]["q"] == 230.0
    assert simkernel.sim_rows(str(means), {"transport.spurious_rto": "eifel"}) == {}
