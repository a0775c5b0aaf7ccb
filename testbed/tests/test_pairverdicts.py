"""What the detection's tests read in pair runs (netbed.pairverdicts), on hand-made runs:
python3 -m pytest testbed/tests -k pairverdicts."""

import contextlib
import io
import json
import os
import tempfile
import unittest

from netbed import pairverdicts as pv
from netbed import tcpinfo


def run(first_mbps, second_mbps, verdicts, senders=()):
    """A pair run whose second download goes from 30 s to 60 s: samples at 45 and 60 s
    give each download's rate over the phase's second half (Jain's index from those)."""
    def b(mbps, t):
        return int(mbps * 1e6 / 8 * t)
    return {
        "competitor": "rledbat", "rate_bps": 10_000_000, "phase_s": 30.0,
        "competitor_start_s": 30.0, "competitor_end_s": 60.0,
        "samples": [{"t": 45.0, "bytes": {"5001": b(first_mbps, 45), "5002": b(second_mbps, 15)},
                     "backlog": 0},
                    {"t": 60.0, "bytes": {"5001": b(first_mbps, 60), "5002": b(second_mbps, 30)},
                     "backlog": 0}],
        "verdicts": verdicts,
        "sender_trace_fields": ["t", "port", *tcpinfo.FIELDS],
        "sender_trace": [list(s) for s in senders],
    }


def push(t, port, positive, q0):
    return {"t": t, "port": port, "kind": "push", "positive": positive, "q0_ms": q0,
            "q1_ms": q0}


def void(t, port):
    return {"t": t, "port": port, "kind": "void", "positive": False, "q0_ms": 50.0,
            "q1_ms": 100.0}


# Shares (Jain 1.0): a collision at 35 s, a negative from 60 ms, a positive from 25 ms 4 s
# after the collision (outside 3 s), and a push before the phase (not counted).
SHARED = run(4.5, 4.5, [push(20.0, 5001, True, 10.0), void(35.0, 5001),
                        push(37.0, 5002, False, 60.0), push(39.0, 5001, True, 25.0)],
             senders=[[31.0, 5001, "cubic", 100, 100, 90.0, 1, 1, 50000, None, None],
                      [33.0, 5001, "cubic", 30, 30, 90.0, 1, 1, 50000, None, None],
                      [33.0, 5002, "cubic", 100, 100, 90.0, 1, 1, 50000, None, None]])
# Fails (Jain (0.5 + 8.5)^2 / (2 (0.25 + 72.25)) = 0.559): positives from 15 and 35 ms,
# the first 1.5 s after a collision.
FAILED = run(0.5, 8.5, [void(40.0, 5002), push(41.5, 5001, True, 15.0),
                        push(42.6, 5001, True, 35.0), push(43.0, 5002, False, 55.0)])


# A yielding first receiver's probes in range (verdicts at 40 and 50 s; one before the phase
# and one out of range are left out): the other's publications [t, port, phase, window, qd,
# tests, clamp] give its window before (the largest in 38.8..39.1 s: 40 000) and during
# (the lowest in 39.1..40 s: 28 000, a cut to 0.7) the first; none near the second.
PROBING = dict(FAILED, probes=[
    {"t": 20.0, "port": 5001, "in_range": True, "from_ms": 20.0, "peak_ms": 80.0,
     "after_ms": 5.0, "fell": True},
    {"t": 40.0, "port": 5001, "in_range": True, "from_ms": 18.0, "peak_ms": 81.0,
     "after_ms": 8.0, "fell": True},
    {"t": 45.0, "port": 5001, "in_range": False, "from_ms": 2.0, "peak_ms": 9.0,
     "after_ms": 3.0, "fell": False},
    {"t": 50.0, "port": 5001, "in_range": True, "from_ms": 16.0, "peak_ms": 76.0,
     "after_ms": 15.0, "fell": False},
], probe_windows=[
    {"t": 40.0, "port": 5001, "clamp_max": 50000, "advertised_max": 50500},
    {"t": 50.0, "port": 5001, "clamp_max": 50000, "advertised_max": 25000},
], rstats_series=[
    [38.7, 5002, 1, 90000, 20.0, 0, 90000], [38.85, 5002, 1, 40000, 16.0, 0, 40000],
    [39.0, 5002, 1, 39000, 17.0, 0, 39000], [39.5, 5002, 1, 28000, 77.0, 0, 28000],
    [40.0, 5002, 1, 30000, 40.0, 0, 30000], [39.5, 5001, 4, 1000, 77.0, 0, 50000],
])


class PairVerdictsTest(unittest.TestCase):
    def test_probe_aftermath_reads_the_other_receivers_cut_around_each_probe_in_range(self):
        a = pv.probe_aftermath(PROBING)
        self.assertEqual([(r["from_ms"], r["fell"]) for r in a], [(18.0, True), (16.0, False)])
        self.assertAlmostEqual(a[0]["opened"], 1.01)
        self.assertEqual(a[0]["other_qd_ms"], 77.0)
        self.assertEqual(a[0]["other_qd_end_ms"], 40.0)
        self.assertAlmostEqual(a[0]["other_cut"], 0.7)
        self.assertEqual(a[1]["opened"], 0.5)
        self.assertIsNone(a[1]["other_qd_ms"])
        self.assertIsNone(a[1]["other_qd_end_ms"])
        self.assertIsNone(a[1]["other_cut"])
        self.assertEqual(pv.probe_aftermath(FAILED), [])

    def test_report_sums_up_the_probes_in_range(self):
        lines = pv.report([("a.json", {"runs": [PROBING]})], 0.95, 3.0, [30.0], 1448)
        self.assertEqual(lines[-3], "probes begun in range while both download: 2 (medians)")
        self.assertEqual(lines[-2], "  followed by the fall: 1; queue at start 18, peak 81 "
                                    "[81..81], after 8 ms; advertised / clamp 1.01..1.01; the "
                                    "other's queuing delay at most 77 ms, 40 ms at the verdict, "
                                    "its window cut to 0.70")
        self.assertEqual(lines[-1], "  not followed by it: 1; queue at start 16, peak 76 "
                                    "[76..76], after 15 ms; advertised / clamp 0.50..0.50; the "
                                    "other's queuing delay at most - ms, - ms at the verdict, "
                                    "its window cut to -")

    def test_a_positive_counts_after_a_collision_only_within_the_window(self):
        vs = pv.phase_verdicts(SHARED)
        self.assertEqual([v["t"] for v in vs], [35.0, 37.0, 39.0])
        self.assertFalse(pv.positive_after_collision(vs, 3.0))
        self.assertTrue(pv.positive_after_collision(vs, 4.0))
        self.assertTrue(pv.positive_after_collision(pv.phase_verdicts(FAILED), 3.0))

    def test_bands_are_half_open_from_zero(self):
        bands = [30.0, 40.0]
        self.assertEqual(pv.band_of(0.0, bands), 0)
        self.assertEqual(pv.band_of(29.9, bands), 0)
        self.assertEqual(pv.band_of(30.0, bands), 1)
        self.assertIsNone(pv.band_of(40.0, bands))

    def test_sender_samples_count_from_two_seconds_into_the_phase(self):
        # 31 s is before 32 s; at 33 s cwnd 30 x 1448 = 43 440 < 50 000 binds, 100 does not.
        self.assertEqual(pv.sender_binding(SHARED, 1448), (2, 1))
        self.assertEqual(pv.sender_binding(FAILED, 1448), (0, 0))

    def test_report_splits_verdicts_by_band_and_outcome(self):
        lines = pv.report([("a.json", {"runs": [SHARED, FAILED]})], 0.95, 3.0,
                          [30.0, 40.0, 50.0, 70.0], 1448)
        self.assertIn("Jain 1.000", lines[0])
        self.assertIn("Jain 0.559", lines[1])
        self.assertIn("collisions at [10.0] s; a positive within 3.0 s after one", lines[1])
        self.assertIn("  0-30 ms: 1 positive of 1 | 1 positive of 1", lines)
        self.assertIn("  30-40 ms: 0 positive of 0 | 1 positive of 1", lines)
        self.assertIn("  50-70 ms: 0 positive of 1 | 0 positive of 1", lines)
        self.assertIn("runs below 0.95 with a positive within 3.0 s after a collision: 1 of "
                      "1; runs at or above it with a collision: 1 of 1", lines)
        self.assertEqual(lines[-4], "remote senders, from 2 s after the second's start: 2 "
                                    "samples, cwnd x 1448 B below snd_wnd in 1")
        self.assertEqual(lines[-3], "probes begun in range while both download: 0 (medians)")
        self.assertEqual(lines[-2], "  followed by the fall: 0; queue at start -, peak - [-], "
                                    "after - ms; advertised / clamp -; the other's queuing "
                                    "delay at most - ms, - ms at the verdict, its window cut "
                                    "to -")

    def test_main_refuses_what_is_not_a_bed_json_and_bad_bands(self):
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "bad.json")
            with open(bad, "w") as fh:
                fh.write("{}")
            good = os.path.join(d, "good.json")
            with open(good, "w") as fh:
                json.dump({"runs": [SHARED, FAILED]}, fh)
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(pv.main([bad]), 2)
                self.assertEqual(pv.main([good, "--bands", "30,20"]), 2)
                self.assertEqual(pv.main([good, "--bands", "x"]), 2)
            self.assertIn("bad.json: not a rledbatbed JSON", err.getvalue())
            self.assertIn("must rise from above 0", err.getvalue())
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(pv.main([good]), 0)
            self.assertIn("1 of 1", out.getvalue())


if __name__ == "__main__":
    unittest.main()
