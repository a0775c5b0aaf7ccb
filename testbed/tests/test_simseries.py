"""Unit tests of the simulator-series reader (no root): python3 -m pytest testbed."""

import os
import tempfile
import unittest

from netbed import simseries


def write_series(rates, dt=0.1):
    """A series.csv of one flow `s` delivering `rates` (Mbit/s) per interval."""
    fd, path = tempfile.mkstemp(suffix=".csv")
    with os.fdopen(fd, "w") as f:
        f.write("t_s,s.cwnd_pkts,s.rate_mbps,s.qdelay_ms\n")
        for i, r in enumerate(rates, start=1):
            f.write(f"{i * dt:.3f},2.000,{r:.4f},\n")
    return path


class SimSeriesTest(unittest.TestCase):
    def tearDown(self):
        for p in getattr(self, "paths", []):
            os.unlink(p)

    def series(self, rates):
        p = write_series(rates)
        self.paths = getattr(self, "paths", []) + [p]
        return p

    def test_delivered_bytes_are_the_running_sum_of_the_rates(self):
        cols = simseries.read_columns(self.series([8.0, 8.0, 0.0, 4.0]))
        c = simseries.delivered(cols, "s")
        # 8 Mbit/s for 0.1 s = 100 000 bytes per interval.
        self.assertEqual(c.times[0], 0.0)
        self.assertAlmostEqual(c.at(0.2), 200_000.0)
        self.assertAlmostEqual(c.at(0.3), 200_000.0)
        self.assertAlmostEqual(c.at(0.4), 250_000.0)

    def test_a_drop_at_12_s_measured_from_10_s(self):
        # 10 Mbit/s until 12 s, 1 Mbit/s after: the window [11.8, 12.8] averages 2.8 Mbit/s,
        # [11.9, 12.9] 1.9 and every later one less: low for good from the window ending at
        # 12.9 s, 2.9 s after 10 s.
        rates = [10.0] * 120 + [1.0] * 280
        got = simseries.main([self.series(rates), "--flow", "s", "--from", "10",
                              "--until", "40"])
        self.assertEqual(got, 0)
        c = simseries.delivered(simseries.read_columns(self.paths[-1]), "s")
        t = simseries.time_until_below(c, 10.0, 40.0, 2e6)
        self.assertAlmostEqual(t, 2.9, places=6)

    def test_never_below_is_none_and_a_missing_flow_is_an_error(self):
        p = self.series([10.0] * 400)
        c = simseries.delivered(simseries.read_columns(p), "s")
        self.assertIsNone(simseries.time_until_below(c, 10.0, 40.0, 2e6))
        self.assertEqual(simseries.main([p, "--flow", "x", "--from", "0", "--until", "1"]), 2)
