"""Unit tests of the swarm bed's pure parts: the scenarios' members, the uplink sizing and
counters, the statistics, the plots, the libtorrent disposition mapping."""

import pytest

from netbed import swarmstats as st
from netbed.svgplot import line_chart
from netbed.swarm import SwarmTopo, lt_disposition_settings
from netbed.swarmrun import members


def test_every_swarm_has_one_seed_of_disposition_31_then_the_leechers():
    for sc in ("mixed", "utp", "tcp", "tcp25", "tcp50", "tcp75"):
        ms = members(sc, "ours", 9)
        assert len(ms) == 9
        assert ms[0].seed and ms[0].disposition == 31 and ms[0].k == 1
        assert not any(m.seed for m in ms[1:])
        assert [m.k for m in ms] == list(range(1, 10))


def test_homogeneous_dispositions_are_the_thesis_values():
    assert {m.disposition for m in members("mixed", "lt", 5)[1:]} == {31}
    assert {m.disposition for m in members("utp", "lt", 5)[1:]} == {10}
    assert {m.disposition for m in members("tcp", "lt", 5)[1:]} == {5}


def test_heterogeneous_splits_count_tcp_preferring_leechers():
    # 24 leechers: 25 % = 6, 50 % = 12, 75 % = 18 prefer TCP (13); the rest uTP (14).
    for sc, tcp in (("tcp25", 6), ("tcp50", 12), ("tcp75", 18)):
        ds = [m.disposition for m in members(sc, "ours", 25)[1:]]
        assert ds.count(13) == tcp and ds.count(14) == 24 - tcp, sc
    # Interleaved rather than in one block.
    ds = [m.disposition for m in members("tcp50", "ours", 25)[1:]]
    assert ds[:12] != [13] * 12


def test_both_clients_alternate_leechers_and_the_seed_is_ours():
    ms = members("mixed", "both", 6)
    assert [m.client for m in ms] == ["ours", "ours", "lt", "ours", "lt", "ours"]
    with pytest.raises(ValueError):
        members("nope", "ours", 4)
    with pytest.raises(ValueError):
        members("mixed", "utorrent", 4)


def test_uplink_fifo_is_one_second_at_c():
    t = SwarmTopo("x", 4, rate_bps=1_000_000)
    assert t.limit_bytes == 125_000
    assert SwarmTopo("x", 4, rate_bps=2_000_000, buffer_s=0.5).limit_bytes == 125_000
    assert t.peer(3) == "ledbat-tb-x-p3" and t.uplink_dev(3) == "b3"
    with pytest.raises(ValueError):
        SwarmTopo("x", 251)


def test_nft_rules_count_each_uplink_by_protocol():
    rules = SwarmTopo("x", 2).nft_rules()
    for k in (1, 2):
        for p in ("udp", "tcp"):
            assert f"counter up{k}_{p} {{ }}" in rules
            assert f'iifname "a{k}" meta l4proto {p} counter name up{k}_{p}' in rules


def test_queue_samples_drops_and_wire_bytes_from_sampler_records():
    qd = [{"t": 1.0, "q": {"b1": [100, 1, 5, 0, 0]}},
          {"t": 2.0, "q": {"b1": [3000, 2, 7, 0, 0]}},
          {"t": 9.0, "q": {"b1": [0, 0, 9, 0, 0]}}]
    assert st.queue_samples(qd, "b1", 0.5, 2.5) == [100, 3000]
    assert st.drops(qd, "b1") == 4
    assert st.drops(qd, "b2") is None
    ctr = [{"c": {"up1_udp": [1, 10]}}, {"c": {"up1_udp": [5, 500], "up1_tcp": [2, 80]}}]
    assert st.wire_bytes(ctr, 1) == {"udp": 500, "tcp": 80}


def test_class_summary_by_hand():
    # Two leechers done at 10 s and 20 s; queues 0 and 125 000 B at 1 Mbit/s = 0 and 1000 ms.
    peers = [
        {"seed": True, "completion_s": None, "queue_bytes": [125_000]},
        {"seed": False, "completion_s": 10.0, "queue_bytes": [0]},
        {"seed": False, "completion_s": 20.0, "queue_bytes": [125_000]},
    ]
    c = st.class_summary(peers, 1_000_000)
    assert c["mean_t_s"] == 15.0 and c["sd_t_s"] == 5.0 and c["completed"] == 2
    # E[Q] = 250 000 / 3 B = 83.3 KB = 666.7 ms; two of three samples non-empty.
    assert abs(c["mean_q_ms"] - 2000 / 3) < 1e-9
    assert abs(c["nonempty"] - 2 / 3) < 1e-12


def test_byte_share_and_cdfs():
    peers = [{"wire": {"tcp": 300, "udp": 100}}, {"wire": {"tcp": 0, "udp": 600}}]
    assert st.byte_share(peers)["tcp_share"] == 0.3
    assert st.cdf([3, 1, 2]) == [(1, 1 / 3), (2, 2 / 3), (3, 1.0)]
    assert st.ccdf([1, 2, 3, 4]) == [(1, 0.75), (2, 0.5), (3, 0.25), (4, 0.0)]
    assert st.quantile([1, 2, 3, 4], 0.5) == 2.5


def test_cpu_busy_from_two_proc_stat_lines():
    # 100 ticks pass: 30 user, 10 system, 50 idle, 10 iowait -> 40 % busy.
    a = [0, 0, 0, 0, 0, 0, 0, 0]
    b = [30, 0, 10, 50, 10, 0, 0, 0]
    assert st.cpu_busy(a, b) == 0.4


def test_chart_is_an_svg_with_a_path_per_series():
    svg = line_chart("t", "x", "y", [("a", [(0, 0), (1, 1)]), ("b", [(0, 0.5)])])
    assert svg.startswith("<svg") and svg.count("<path") == 2 and ">a<" in svg


def test_libtorrent_switches_follow_the_bitmask():
    assert lt_disposition_settings(13) == {
        "enable_outgoing_tcp": True, "enable_outgoing_utp": False,
        "enable_incoming_tcp": True, "enable_incoming_utp": True}
    assert lt_disposition_settings(10) == {
        "enable_outgoing_tcp": False, "enable_outgoing_utp": True,
        "enable_incoming_tcp": False, "enable_incoming_utp": True}


def test_linear_fit_by_hand():
    # y = 2 + 3x exactly.
    assert st.linear_fit([(0, 2), (1, 5), (2, 8)]) == (2.0, 3.0)
    assert st.linear_fit([(1, 1), (1, 2)]) is None
