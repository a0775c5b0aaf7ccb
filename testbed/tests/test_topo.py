"""Unit tests of the topology's pure parts: names, tc arguments, tc statistics."""

from netbed import topo
from netbed.topo import Bottleneck, Topology

# `tc -s -j qdisc show dev r1` of a tbf (iproute2 6.1), trimmed to one qdisc.
TBF_JSON = ('[{"kind":"tbf","handle":"8001:","root":true,"refcnt":2,'
            '"options":{"rate":1250000,"burst":15360,"lat":0},'
            '"bytes":6543210,"packets":4321,"drops":17,"overlimits":900,"requeues":0,'
            '"backlog":30280,"qlen":20}]')


def test_tbf_stats_reads_sent_bytes_and_drops():
    assert topo.tbf_stats(TBF_JSON) == {"sent_bytes": 6543210, "drops": 17}


def test_tbf_stats_of_no_qdisc_or_garbage_is_empty():
    assert topo.tbf_stats("[]") == {}
    assert topo.tbf_stats("") == {}
    assert topo.tbf_stats("Cannot find device \"r1\"") == {}
    assert topo.tbf_stats("[1]") == {}


def test_bottleneck_tc_args_count_the_fifo_in_full_frames():
    # 100 frames x 1514 B = 151 400 B; 15 KiB burst = 15 360 B.
    b = Bottleneck(rate_bps=10_000_000, fifo_frames=100)
    assert b.tc_args("r1") == ["tc", "qdisc", "replace", "dev", "r1", "root", "tbf",
                               "rate", "10000000bit", "burst", "15360", "limit", "151400"]


def test_bottleneck_fifo_ms_and_back():
    # 250 frames = 378 500 B = 3 028 000 bit = 302.8 ms at 10 Mbit/s.
    b = Bottleneck(rate_bps=10_000_000, fifo_frames=250)
    assert abs(b.fifo_ms - 302.8) < 1e-9
    # 121 ms at 10 Mbit/s = 151 250 B = 99.9 frames -> 100.
    assert Bottleneck.from_fifo_ms(10_000_000, 121).fifo_frames == 100
    # Never less than one frame.
    assert Bottleneck.from_fifo_ms(10_000_000, 0.01).fifo_frames == 1


def test_namespace_names_carry_the_prefix_and_tag():
    t = Topology("q7")
    assert (t.snd, t.rtr, t.rcv) == ("ledbat-tb-q7-snd", "ledbat-tb-q7-rtr", "ledbat-tb-q7-rcv")
    assert t.namespaces() == [t.snd, t.rtr, t.rcv]
    assert Topology("q7", delay_ms=10).namespaces()[-1] == "ledbat-tb-q7-dly"
