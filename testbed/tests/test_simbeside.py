"""Unit tests of the side-by-side plan in the simulator (no root, no binary):
python3 -m pytest testbed."""

import os
import sys
import unittest
from unittest import mock

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

    def test_a_missing_binary_is_named_in_the_error(self):
        self.assertEqual(simbeside.resolve_binary(sys.executable),
                         os.path.abspath(sys.executable))
        with self.assertRaisesRegex(ValueError, "no ledbat binary at /nonexistent/ledbat"):
            simbeside.resolve_binary("/nonexistent/ledbat")

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

    def test_phase_offsets_spread_the_seeds_evenly_and_seed_1_stays_put(self):
        # frac((k - 1) x 0.6180339887...) x 8 s, to the ms: 0, 4.944, 1.889, 6.833.
        offs = [simbeside.phase_offset(k, 8.0) for k in range(1, 5)]
        self.assertEqual(offs, [0.0, 4.944, 1.889, 6.833])
        self.assertEqual(simbeside.phase_offset(7, 0.0), 0.0)
        # 160 seeds over 8 s: every 0.5-s stretch of the spread gets 9 to 11 of them.
        offs = [simbeside.phase_offset(k, 8.0) for k in range(1, 161)]
        counts = [sum(1 for o in offs if i * 0.5 <= o < (i + 1) * 0.5) for i in range(16)]
        self.assertTrue(all(9 <= n <= 11 for n in counts), counts)
        self.assertTrue(all(0 <= o < 8 for o in offs))

    def test_the_offset_moves_the_other_flow_and_the_runs_end(self):
        self.assertEqual(simbeside.phase_sets("scavenger-beside.toml", 0.0), [])
        self.assertEqual(simbeside.phase_sets("scavenger-beside.toml", 1.25),
                         ["flow.1.start=31.25s", "flow.1.stop=51.25s", "duration=66.25s"])
        self.assertEqual(simbeside.phase_sets("scavenger-latecomer.toml", 2.5),
                         ["flow.1.start=12.5s", "duration=62.5s", "warmup=37.5s"])
        # the other cases have no other flow to move
        self.assertEqual(simbeside.phase_sets("scavenger-stall.toml", 2.5), [])

    def test_only_beside_and_two_record_a_phase_and_the_others_run_unmoved(self):
        calls = []

        def fake_run(binary, path, seed, sets, out):
            calls.append(sets)
            ts = [round(0.1 * k, 1) for k in range(1, 651)]
            return {"cols": {"t_s": ts, "scavenger.rate_mbps": [10.0] * len(ts)},
                    "raw": b"same", "summary": {}, "tests": []}
        with mock.patch.object(simbeside, "run_sim", fake_run):
            row = simbeside.one("ledbat", ("v", {}), "noise", 20.0, "noise",
                                "scavenger-alone.toml", ["topology.jitter=5ms"], 2, 8.0)
        self.assertEqual(row["phase_s"], 0.0)
        self.assertTrue(row["identical"])
        # both runs unmoved; the reference with the detection off
        self.assertEqual(calls, [["topology.jitter=5ms"],
                                 ["topology.jitter=5ms", "flow.0.cc.competitor.enabled=false"]])

    def test_the_beside_windows_move_with_the_competitors_arrival(self):
        # Series every 0.1 s, a sample's rate over the 0.1 s before it: ours at 10 Mbit/s
        # to 33 s, then 1; the competitor at 9 Mbit/s from 32 s (offset 2) to 52 s.
        ts = [round(0.1 * k, 1) for k in range(1, 671)]
        cols = {"t_s": ts,
                "scavenger.rate_mbps": [10.0 if t <= 33 else 1.0 for t in ts],
                "cross.rate_mbps": [9.0 if 32 < t <= 52 else 0.0 for t in ts],
                "bottleneck.queue_pkts": [50.0] * len(ts)}
        fig = simbeside.analyse_beside({"cols": cols}, 2.0)
        # The 1-s windows from 32.9 s on are below 2 Mbit/s (32.9-33.9: 0.1 x 10 + 0.9 x 1
        # = 1.9), the one from 32.8 s is not (2.8): the yield ends 33.9 s, 1.9 s after 32.
        self.assertAlmostEqual(fig["until20_s"], 1.9, places=6)
        self.assertAlmostEqual(fig["ours_beside_mbit"], 1.0, places=6)  # 42-52 s
        self.assertAlmostEqual(fig["cross_beside_mbit"], 9.0, places=6)
        self.assertAlmostEqual(fig["alone_mbit"], 10.0, places=6)  # 5-30 s, unmoved
        # Read as if it arrived at 30 s, the same run's yield seems to take 3.9 s.
        self.assertAlmostEqual(simbeside.analyse_beside({"cols": cols}, 0.0)["until20_s"],
                               3.9, places=6)


if __name__ == "__main__":
    unittest.main()
