"""Unit tests of the Fig. 7 analysis (no root, no network)."""

import unittest

from netbed import pingdelay as pd

PING_OUT = """PING 10.77.2.1 (10.77.2.1) 56(84) bytes of data.
64 bytes from 10.77.2.1: icmp_seq=1 ttl=63 time=50.4 ms
64 bytes from 10.77.2.1: icmp_seq=2 ttl=63 time=151 ms
64 bytes from 10.77.2.1: icmp_seq=4 ttl=63 time=152.5 ms
"""


class PingTest(unittest.TestCase):
    def test_reply_lines_give_sequence_and_rtt(self):
        self.assertEqual(pd.parse_ping(PING_OUT), [(1, 50.4), (2, 151.0), (4, 152.5)])

    def test_per_minute_means_leave_empty_minutes_empty(self):
        pts = [(0.0, 10.0), (59.9, 20.0), (60.0, 40.0), (185.0, 7.0)]
        self.assertEqual(pd.per_minute(pts, 4), [15.0, 40.0, None, 7.0])


class GrowthTest(unittest.TestCase):
    def test_a_step_of_one_target_after_the_history_is_growth(self):
        # 10-minute history: plateau = median of minutes 2..9 = 150; last two 250.
        minutes = [60.0, 140.0] + [150.0] * 8 + [250.0, 250.0]
        g = pd.growth(minutes, 10)
        self.assertEqual((g["plateau_ms"], g["last2_ms"], g["growth_ms"]), (150.0, 250.0, 100.0))
        self.assertTrue(g["grows"] and g["long_enough"])

    def test_less_than_half_a_target_is_not_growth(self):
        g = pd.growth([60.0, 140.0] + [150.0] * 8 + [199.0, 199.0], 10)
        self.assertFalse(g["grows"])

    def test_a_run_shorter_than_the_history_says_so(self):
        g = pd.growth([60.0] + [150.0] * 14, 20)
        self.assertFalse(g["long_enough"])
        self.assertFalse(g["grows"])


if __name__ == "__main__":
    unittest.main()
