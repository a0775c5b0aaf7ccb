"""Receiver-side LEDBAT on the bed: the samplers' readers, the phase summary and the quick
check, on synthetic text (no root): python3 -m pytest testbed/tests/test_rledbatbed.py."""

import unittest

from netbed import rledbatbed as rb

SS = """\
0      0      10.77.2.1:5001 10.77.1.1:40000
\t ts sack cubic wscale:7,7 rto:244 rtt:43.1/2 bytes_received:1500000 segs_in:1000
0      0      10.77.2.1:5002 10.77.1.1:40002
\t ts sack cubic wscale:7,7 bytes_acked:1 bytes_received:250000 segs_in:20
"""


class ReadersTest(unittest.TestCase):
    def test_bytes_received_are_read_per_local_port(self):
        self.assertEqual(rb.bytes_by_port(SS), {5001: 1_500_000, 5002: 250_000})

    def test_the_backlog_of_the_first_qdisc_is_read(self):
        self.assertEqual(rb.backlog_bytes('[{"kind":"tbf","backlog":75000,"qlen":50}]'), 75000)
        self.assertIsNone(rb.backlog_bytes("[]"))
        self.assertIsNone(rb.backlog_bytes("not json"))


class SummaryTest(unittest.TestCase):
    def test_rates_and_the_queue_over_a_phase(self):
        # 1 250 000 bytes in 2 s = 5 Mbit/s; 125 000 bytes = 0.5 Mbit/s; backlogs 50 000
        # and 100 000 bytes: mean 75 000 B = 60 ms at 10 Mbit/s
        s = [{"t": 1.0, "bytes": {5001: 0, 5002: 0}, "backlog": 50_000},
             {"t": 3.0, "bytes": {5001: 1_250_000, 5002: 125_000}, "backlog": 100_000},
             {"t": 9.0, "bytes": {5001: 9_999_999}, "backlog": 0}]
        out = rb.phase_summary(s, 0.5, 3.5, 10_000_000)
        self.assertEqual((out["rledbat_mbps"], out["plain_mbps"], out["queue_ms"]),
                         (5.0, 0.5, 60.0))
        self.assertEqual(rb.phase_summary(s[:1], 0, 5, 10_000_000)["samples"], 1)

    def test_the_quick_check_wants_half_the_link_alone_and_a_fifth_beside(self):
        ok = {"alone": {"rledbat_mbps": 8.3}, "beside_plain": {"rledbat_mbps": 0.1,
                                                              "plain_mbps": 9.4},
              "run_cgroups_left": [], "teardown_problems": []}
        self.assertEqual(rb.check(ok, 10_000_000), [])
        slow = dict(ok, alone={"rledbat_mbps": 4.9})
        self.assertEqual(len(rb.check(slow, 10_000_000)), 1)
        greedy = dict(ok, beside_plain={"rledbat_mbps": 2.0, "plain_mbps": 9.0})
        self.assertEqual(len(rb.check(greedy, 10_000_000)), 1)
        left = dict(ok, run_cgroups_left=["run-1"])
        self.assertEqual(len(rb.check(left, 10_000_000)), 1)


if __name__ == "__main__":
    unittest.main()
