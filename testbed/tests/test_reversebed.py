"""The reverse-path bed's arithmetic (no root needed)."""

import unittest

from netbed import reversebed, topo


def iv(start, end, nbytes):
    return {"sum": {"start": start, "end": end, "seconds": end - start, "bytes": nbytes}}


class RateTest(unittest.TestCase):
    def test_only_whole_intervals_inside_the_window_count(self):
        ivs = [iv(0, 1, 1_000_000), iv(1, 2, 2_000_000), iv(2, 3, 3_000_000)]
        # [1, 3]: the last two, 5 MB in 2 s = 20 Mbit/s
        self.assertAlmostEqual(reversebed.mean_rate(ivs, 1.0, 3.0), 20.0)
        # an interval reaching past the window's end is left out
        self.assertAlmostEqual(reversebed.mean_rate(ivs, 0.0, 2.5), 12.0)
        self.assertIsNone(reversebed.mean_rate(ivs, 5.0, 9.0))

    def test_the_downloads_intervals_are_shifted_to_the_uploads_clock(self):
        ivs = [iv(0, 1, 1_250_000)]  # 10 Mbit/s in its own first second
        self.assertAlmostEqual(reversebed.mean_rate(ivs, 15.0, 16.5, offset=15.2), 10.0)
        self.assertIsNone(reversebed.mean_rate(ivs, 15.0, 16.0, offset=15.2))

    def test_the_summary_takes_the_median_over_repeats_per_controller(self):
        runs = [{"cc": "ledbat", "upload_alone_mbit": 9.0, "upload_beside_mbit": 7.0,
                 "download_mbit": 8.0, "upload_after_mbit": 9.0},
                {"cc": "ledbat", "upload_alone_mbit": 9.4, "upload_beside_mbit": 6.0,
                 "download_mbit": 8.4, "upload_after_mbit": None},
                {"cc": "ledbat", "error": "x"}]
        s = reversebed.summarise(runs)["ledbat"]
        self.assertAlmostEqual(s["upload_beside_mbit"]["median"], 6.5)
        self.assertEqual(s["upload_after_mbit"]["n"], 1)
        self.assertIn("| `ledbat` | 9.20 [9.00..9.40] | 6.50", reversebed.markdown(
            reversebed.summarise(runs)))

    def test_one_repeat_keeps_its_range_and_none_measured_is_null_in_the_json(self):
        runs = [{"cc": "cubic", "upload_alone_mbit": 9.5, "upload_beside_mbit": None,
                 "download_mbit": 8.0, "upload_after_mbit": 9.0}]
        s = reversebed.summarise(runs)["cubic"]
        # The JSON keeps median, min, max and n only; a figure no repeat measured is null.
        self.assertEqual(s["upload_alone_mbit"], {"median": 9.5, "min": 9.5, "max": 9.5, "n": 1})
        self.assertIsNone(s["upload_beside_mbit"])
        self.assertIn("| `cubic` | 9.50 [9.50..9.50] | n/a | 8.00 [8.00..8.00] |",
                      reversebed.markdown({"cubic": s}))


class TopologyTest(unittest.TestCase):
    def test_the_reverse_fifo_is_off_unless_asked(self):
        self.assertIsNone(topo.Topology(tag="x").reverse)


if __name__ == "__main__":
    unittest.main()
