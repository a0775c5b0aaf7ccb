"""Unit tests of the competitor timed to our slowdown in the simulator (no root, no binary):
python3 -m pytest testbed."""

import unittest

from netbed import simtimed


def states(*pairs):
    return [{"t_s": f"{t:.3f}", "scavenger.state": s} for t, s in pairs]


class SimTimedTest(unittest.TestCase):
    def test_the_first_slowdown_after_the_time_is_half_a_sample_before_it_shows(self):
        rows = states((30.8, "avoidance"), (30.9, "slowdown"), (31.0, "slowdown"),
                      (31.1, "avoidance"), (31.2, "avoidance-suspect"), (31.3, "slowdown"))
        # 30.9 is before 31.0; the next that starts is at 31.3, shown there: 31.25.
        self.assertEqual(simtimed.first_slowdown(rows, 31.0, 50.0), 31.25)
        self.assertEqual(simtimed.first_slowdown(rows, 30.0, 50.0), 30.85)
        # A slowdown already under way at the window's start is not a start.
        self.assertIsNone(simtimed.first_slowdown(rows[1:3], 30.0, 50.0))
        self.assertIsNone(simtimed.first_slowdown(rows, 31.0, 31.2))

    def test_befores_include_both_ends_and_refuse_a_bad_range(self):
        self.assertEqual(simtimed.befores("0,1,0.25"), [0.0, 0.25, 0.5, 0.75, 1.0])
        self.assertEqual(len(simtimed.befores("0,1,0.05")), 21)
        for bad in ("0,1", "1,0,0.1", "0,1,0", "-1,1,0.5", "0,11,1"):
            with self.assertRaises(ValueError):
                simtimed.befores(bad)

    def test_the_offset_starts_the_competitor_that_long_before_the_slowdown(self):
        # simbeside's competitor starts at 30 s plus the offset.
        self.assertEqual(simtimed.arrival_offset(36.25, 0.25), 6.0)
        self.assertEqual(simtimed.arrival_offset(31.05, 1.0), 0.05)

    def test_the_table_counts_the_slow_arrivals_by_their_time_before_the_slowdown(self):
        def row(before, until):
            return {"what": "bbr", "rtt_ms": 20.0, "variant": "scavenger",
                    "before_s": before, "until20_s": until}
        rows = [row(0.0, 1.6), row(0.0, 7.2), row(0.05, None), row(0.05, 5.0), row(0.1, 5.1)]
        md = simtimed.markdown(rows, {("bbr", 20.0, "scavenger"): 2})
        self.assertIn("| bbr | 20 ms | scavenger | 5 (2 seeds without a slowdown left out) "
                      "| 3 | 1 | 0: 1, 0.05: 1, 0.1: 1 |", md)


if __name__ == "__main__":
    unittest.main()
