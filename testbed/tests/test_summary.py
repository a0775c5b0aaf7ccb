"""The median and range over repeats shared by the bed's reports (`netbed.summary`)."""

import math
import unittest

from netbed.summary import format_range, median_range


class MedianRangeTest(unittest.TestCase):
    def test_odd_count_takes_the_middle_value_and_skips_the_missing(self):
        # Sorted 1, 2, 3: the middle one; one None left out and counted.
        self.assertEqual(median_range([3, None, 1, 2]),
                         {"median": 2, "min": 1, "max": 3, "n": 3, "missing": 1})

    def test_even_count_averages_the_two_middle_values(self):
        # Sorted 1, 2, 3, 4: (2 + 3) / 2 = 2.5.
        self.assertEqual(median_range([4, 1, 2, 3]),
                         {"median": 2.5, "min": 1, "max": 4, "n": 4, "missing": 0})

    def test_nan_counts_as_missing_like_none(self):
        # 9.5, 9.1 measured: median (9.1 + 9.5) / 2 = 9.3; None and NaN missing.
        s = median_range([9.5, math.nan, None, 9.1])
        self.assertAlmostEqual(s["median"], 9.3)
        self.assertEqual((s["min"], s["max"], s["n"], s["missing"]), (9.1, 9.5, 2, 2))

    def test_all_missing_gives_no_median_and_counts_them(self):
        self.assertEqual(median_range([None, None, math.nan]),
                         {"median": None, "min": None, "max": None, "n": 0, "missing": 3})
        self.assertEqual(median_range([]),
                         {"median": None, "min": None, "max": None, "n": 0, "missing": 0})

    def test_digits_round_the_median_only(self):
        # (1.23456 + 2.34567) / 2 = 1.790115 -> 1.79; min and max as measured.
        s = median_range([2.34567, 1.23456], 3)
        self.assertEqual((s["median"], s["min"], s["max"]), (1.79, 1.23456, 2.34567))

    def test_without_count_missing_the_dict_has_only_the_four_older_keys(self):
        # Sorted 1.0, 2.0: median (1.0 + 2.0) / 2 = 1.5; the None is left out, uncounted.
        self.assertEqual(median_range([2.0, None, 1.0], count_missing=False),
                         {"median": 1.5, "min": 1.0, "max": 2.0, "n": 2})
        self.assertEqual(median_range([None], count_missing=False),
                         {"median": None, "min": None, "max": None, "n": 0})


class FormatRangeTest(unittest.TestCase):
    def test_median_then_range_with_the_decimals_asked(self):
        self.assertEqual(format_range(median_range([9.5, 9.1, 9.3])), "9.30 [9.10..9.50]")
        self.assertEqual(format_range(median_range([9.5, 9.1, 9.3]), 1, " s"),
                         "9.3 s [9.1..9.5]")

    def test_one_value_alone_and_equal_values_once_only_when_asked(self):
        self.assertEqual(format_range(median_range([60.0])), "60.00")
        self.assertEqual(format_range(median_range([60.0, 60.0]), 0), "60 [60..60]")
        self.assertEqual(format_range(median_range([60.0, 60.0]), 0, same_once=True), "60")

    def test_range_for_one_gives_a_single_value_its_range_too(self):
        self.assertEqual(format_range(median_range([9.25]), range_for_one=True),
                         "9.25 [9.25..9.25]")
        self.assertEqual(format_range(median_range([0.5, None]), 3, range_for_one=True),
                         "0.500 [0.500..0.500]")
        # same_once still gives equal values once; two values have their range anyway.
        self.assertEqual(format_range(median_range([9.25]), range_for_one=True,
                                      same_once=True), "9.25")
        self.assertEqual(format_range(median_range([1.0, 2.0]), 1, range_for_one=True),
                         "1.5 [1.0..2.0]")
        self.assertEqual(format_range(None, range_for_one=True), "n/a")

    def test_nothing_measured_gives_the_empty_mark(self):
        self.assertEqual(format_range(None), "n/a")
        self.assertEqual(format_range(median_range([None, None])), "n/a")
        self.assertEqual(format_range(median_range([None]), empty="-"), "-")

    def test_missing_repeats_are_counted_after_the_word(self):
        s = median_range([0.6, None, 0.4])
        self.assertEqual(format_range(s, 1, missing="never"), "0.5 [0.4..0.6] (1 never)")
        self.assertEqual(format_range(s, 1), "0.5 [0.4..0.6]")


if __name__ == "__main__":
    unittest.main()
