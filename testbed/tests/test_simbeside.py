"""Unit tests of the side-by-side plan in the simulator (no root, no binary):
python3 -m pytest testbed."""

import unittest

from netbed import simbeside


class SimBesideTest(unittest.TestCase):
    def test_a_variant_is_a_label_and_parameters(self):
        self.assertEqual(simbeside.parse_variant("cd:competitor.enabled=true,slowdown_backoff=8"),
                         ("cd", {"competitor.enabled": "true", "slowdown_backoff": "8"}))
        self.assertEqual(simbeside.parse_variant("plain"), ("plain", {}))
        with self.assertRaises(ValueError):
            simbeside.parse_variant("cd:competitor.enabled")
        with self.assertRaises(ValueError):
            simbeside.parse_variant(":a=1")

    def test_our_parameters_go_to_both_flows_of_the_latecomer_case_only(self):
        p = {"competitor.enabled": "true"}
        self.assertEqual(simbeside.our_sets("scavenger-beside.toml", p),
                         ["flow.0.cc.competitor.enabled=true"])
        self.assertEqual(simbeside.our_sets("scavenger-latecomer.toml", p),
                         ["flow.0.cc.competitor.enabled=true",
                          "flow.1.cc.competitor.enabled=true"])

    def test_a_base_rtt_is_half_each_way_and_0_is_30_us(self):
        jobs = simbeside.jobs_for("beside", 40.0, ["bbr"])
        self.assertEqual(jobs, [("bbr", "scavenger-beside.toml",
                                 ["topology.delay=20ms", 'flow.1.cc={ name = "bbr" }'])])
        (_, _, sets), = simbeside.jobs_for("noise", 0.0, [])
        self.assertEqual(sets, ["topology.delay=30us", "topology.jitter=5ms"])
        with self.assertRaises(ValueError):
            simbeside.jobs_for("nothing", 0.0, [])

    def test_spread_is_median_and_range_and_counts_the_nevers(self):
        self.assertEqual(simbeside.spread([1.0, 3.0, 2.0]), "2.00 [1.00..3.00]")
        self.assertEqual(simbeside.spread([2.0, 2.0, None]), "2.00 (1 never)")
        self.assertEqual(simbeside.spread([None, None]), "none (2)")
        self.assertEqual(simbeside.spread([True, False, True]), "2/3")
        # NaN (nothing to average) is left out of the median but is not a "never".
        self.assertEqual(simbeside.spread([1.0, float("nan"), 2.0, None]),
                         "1.50 [1.00..2.00] (1 never)")
        self.assertEqual(simbeside.spread([float("nan")]), "n/a")

    def test_queue_reaches_finds_the_first_sample_at_the_level(self):
        # 1.2 ms per 1500-byte frame at 10 Mbit/s: 55 frames = 66 ms.
        cols = {"t_s": [29.9, 30.0, 30.1, 30.2], "bottleneck.queue_pkts": [60, 50, 55, 70]}
        self.assertEqual(simbeside.queue_reaches(cols, 30, 50, 66.0), 30.1)
        self.assertIsNone(simbeside.queue_reaches(cols, 30, 50, 90.0))

    def test_yield_kinds_names_the_positives_in_a_row_before_each_detection(self):
        def t(flow, kind, verdict, suspected="1", positives="0", yielded="0"):
            return {"flow": flow, "kind": kind, "verdict": verdict, "suspected": suspected,
                    "positives": positives, "yielded": yielded}
        tests = [
            t("first", "push", "positive", positives="1"),
            t("latecomer", "hold", "positive", "0", "1"),
            t("first", "push", "negative"),  # resets the first flow's row
            t("first", "hold", "positive", "0", "1"),
            t("first", "push", "collision"),  # no verdict: the row stays
            t("first", "push", "positive", positives="2", yielded="1"),
            t("latecomer", "hold", "positive", "0", "2", "1"),
        ]
        self.assertEqual(simbeside.yield_kinds(tests),
                         {"hold-periodic+push": 1, "hold-periodic+hold-periodic": 1})
        self.assertEqual(simbeside.yield_kinds([]), {})


if __name__ == "__main__":
    unittest.main()
