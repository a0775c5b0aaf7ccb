"""The bed's command line: the delay check's TARGET comes from the binary's catalog."""

import unittest

from netbed import bedrun

CATALOG = [
    {"name": "ledbat", "defaults": {"target": "100ms", "gain": 1.0}},
    {"name": "scavenger", "defaults": {"target": "60ms"}, "recommended": True},
    {"name": "newreno", "defaults": {"init_cwnd": 2.0}},
]


class TargetTest(unittest.TestCase):
    def test_the_default_is_the_row_marked_as_recommended(self):
        self.assertEqual(bedrun.target_of(CATALOG, None), 60.0)

    def test_a_named_controller_gives_its_own_target(self):
        self.assertEqual(bedrun.target_of(CATALOG, "ledbat"), 100.0)

    def test_unknown_or_targetless_controllers_are_errors_naming_them(self):
        with self.assertRaisesRegex(ValueError, "no controller `nope`"):
            bedrun.target_of(CATALOG, "nope")
        with self.assertRaisesRegex(ValueError, "newreno"):
            bedrun.target_of(CATALOG, "newreno")
        with self.assertRaisesRegex(ValueError, "marked as recommended"):
            bedrun.target_of(CATALOG[:1], None)


if __name__ == "__main__":
    unittest.main()
