"""The reader of a kernel TCP connection's state in `ss -tinH` output (netbed.tcpinfo), on
lines this kernel's iproute2 printed on the bed (trimmed): python3 -m pytest testbed/tests
-k tcpinfo."""

import unittest

from netbed import tcpinfo

# A bbr sender and a cubic one, in the sending namespace (peer ports 5001 and 5002).
SS = """\
0      1688384 10.77.1.1:55890 10.77.2.1:5001
\t bbr wscale:10,10 rto:304 rtt:100.192/0.023 mss:1448 cwnd:135 ssthresh:96 \
bytes_acked:34577897 bbr:(bw:6836240bps,mrtt:100.127,pacing_gain:1.25,cwnd_gain:2) \
send 15608432bps pacing_rate 8459848bps delivery_rate 6836568bps \
rcv_ssthresh:64088 minrtt:100.084 snd_wnd:311296
0      479288 10.77.1.1:51304 10.77.2.1:5002
\t ts sack cubic wscale:10,10 rto:300 rtt:97.04/0.689 mss:1448 cwnd:80 ssthresh:75 \
send 9549876bps pacing_rate 11.5Mbps delivery_rate 9332568bps rcv_ssthresh:64088 \
minrtt:61.827 snd_wnd:1389568
"""


class TcpInfoTest(unittest.TestCase):
    def test_each_connection_is_read_by_its_peer_port(self):
        got = tcpinfo.by_peer_port(SS)
        self.assertEqual(sorted(got), [5001, 5002])
        self.assertEqual(got[5001], {
            "cc": "bbr", "cwnd": 135, "ssthresh": 96, "srtt_ms": 100.192,
            "pacing_bps": 8459848, "delivery_bps": 6836568, "snd_wnd": 311296,
            "bbr_bw_bps": 6836240, "pacing_gain": 1.25})

    def test_flags_before_the_name_and_scaled_rates_are_read(self):
        cubic = tcpinfo.by_peer_port(SS)[5002]
        self.assertEqual(cubic["cc"], "cubic")
        self.assertEqual(cubic["pacing_bps"], 11_500_000)
        # Not rcv_ssthresh, not minrtt; no bbr fields.
        self.assertEqual((cubic["ssthresh"], cubic["srtt_ms"]), (75, 97.04))
        self.assertIsNone(cubic["bbr_bw_bps"])
        self.assertIsNone(cubic["pacing_gain"])

    def test_a_connection_whose_address_line_cannot_be_read_is_left_out(self):
        bad = "0 0 nonsense\n\t cubic cwnd:10\n" + SS
        self.assertEqual(sorted(tcpinfo.by_peer_port(bad)), [5001, 5002])
        self.assertEqual(tcpinfo.by_peer_port(""), {})
        self.assertEqual(tcpinfo.by_peer_port("0 0 a:1 b:x\n\t cubic cwnd:3\n"), {})

    def test_connections_group_each_address_line_with_its_info_lines(self):
        text = "0 0 a:1 b:5001\n\t cubic cwnd:3\n\t snd_wnd:9\n\n0 0 a:2 b:5002\n"
        self.assertEqual(list(tcpinfo.connections(text)),
                         [(["0", "0", "a:1", "b:5001"], "cubic cwnd:3 snd_wnd:9"),
                          (["0", "0", "a:2", "b:5002"], "")])
        # No info line: left out.
        self.assertEqual(sorted(tcpinfo.by_peer_port(text)), [5001])
        self.assertEqual(tcpinfo.by_peer_port(text)[5001]["snd_wnd"], 9)

    def test_a_row_lists_the_fields_in_order(self):
        info = tcpinfo.by_peer_port(SS)[5001]
        row = tcpinfo.row(1.5, 5001, info)
        self.assertEqual(row[:4], [1.5, 5001, "bbr", 135])
        self.assertEqual(len(row), 2 + len(tcpinfo.FIELDS))


if __name__ == "__main__":
    unittest.main()
