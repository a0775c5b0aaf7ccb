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
