"""Unit tests of the measurement functions (no root, no network): python3 -m pytest testbed."""

import math
import unittest

from netbed import measure
from netbed.topo import Bottleneck


def counters(name, points):
    """nft sampler records from (t, packets, ip_bytes) points."""
    return [{"t": t, "c": {measure.counter_name(name): [p, b]}} for t, p, b in points]


class CumulativeTest(unittest.TestCase):
    def test_interpolates_between_samples(self):
        c = measure.Cumulative([0.0, 1.0, 2.0], [0.0, 100.0, 300.0])
        self.assertAlmostEqual(c.at(0.5), 50.0)
        self.assertAlmostEqual(c.at(1.5), 200.0)

    def test_clamps_outside_samples(self):
        c = measure.Cumulative([1.0, 2.0], [10.0, 20.0])
        self.assertEqual(c.at(0.0), 10.0)
        self.assertEqual(c.at(5.0), 20.0)

    def test_rate_is_bits_per_second(self):
        c = measure.Cumulative([0.0, 2.0], [0.0, 2_500_000.0])
        self.assertAlmostEqual(c.rate_bps(0.0, 2.0), 10e6)

    def test_empty_window_is_an_error(self):
        with self.assertRaises(ValueError):
            measure.Cumulative([0.0, 1.0], [0.0, 1.0]).rate_bps(1.0, 1.0)

    def test_windowed_covers_only_whole_windows(self):
        c = measure.Cumulative([0.0, 10.0], [0.0, 10.0])
        w = c.windowed(0.0, 3.0, 1.0, 0.5)
        self.assertEqual([s for s, _ in w], [0.0, 0.5, 1.0, 1.5, 2.0])


class FramesTest(unittest.TestCase):
    def test_frames_add_ethernet_header_per_packet(self):
        rec = counters("f", [(0.0, 0, 0), (1.0, 10, 15000)])
        c = measure.flow_frames(rec, "f")
        self.assertEqual(c.values[-1], 15000 + 14 * 10)

    def test_payload_removes_headers_per_packet(self):
        rec = counters("f", [(0.0, 0, 0), (1.0, 10, 15000)])
        c = measure.flow_payload(rec, "f", 48)
        self.assertEqual(c.values[-1], 15000 - 48 * 10)

    def test_counter_names_avoid_nft_keywords(self):
        self.assertEqual(measure.counter_name("tcp"), "c_tcp")
        self.assertEqual(measure.counter_name("two-a.b"), "c_two_a_b")


class DelayTest(unittest.TestCase):
    def test_backlog_converts_to_delay_at_link_rate(self):
        b = Bottleneck()
        q = [{"t": float(i), "backlog": b.limit_bytes, "drops": i, "qlen": 250,
              "bytes": 0, "packets": 0} for i in range(5)]
        d = measure.queue_delay(q, 0.0, 4.0, b.rate_bps)
        self.assertAlmostEqual(d.mean_ms, b.fifo_ms)
        self.assertAlmostEqual(d.mean_ms, 302.8)
        self.assertEqual(d.drops, 4)
        self.assertEqual(d.n, 5)

    def test_only_samples_inside_the_window_count(self):
        q = [{"t": t, "backlog": bl, "drops": 0} for t, bl in [(0.0, 0), (1.0, 125000),
                                                              (2.0, 125000), (3.0, 0)]]
        d = measure.queue_delay(q, 0.5, 2.5, 10_000_000)
        self.assertAlmostEqual(d.mean_ms, 100.0)

    def test_queue_reaches_finds_the_first_sample_at_the_threshold(self):
        # 82 500 B at 10 Mbit/s is 66 ms: the sample at 2 s reaches 66 ms, not the one at 1 s
        # (65 ms) nor the one at 0.5 s (outside the window).
        q = [{"t": t, "backlog": bl} for t, bl in [(0.5, 100_000), (1.0, 81_250),
                                                    (2.0, 82_500), (3.0, 120_000)]]
        self.assertEqual(measure.queue_reaches(q, 0.8, 4.0, 66.0, 10_000_000), 2.0)
        self.assertIsNone(measure.queue_reaches(q, 0.8, 1.5, 66.0, 10_000_000))

    def test_percentile_interpolates(self):
        self.assertEqual(measure.percentile([1, 2, 3, 4, 5], 50), 3)
        self.assertAlmostEqual(measure.percentile([0, 10], 95), 9.5)
        self.assertTrue(math.isnan(measure.percentile([], 50)))


class FifoSizeTest(unittest.TestCase):
    def test_fifo_of_100_frames_is_121_ms_at_10_mbit(self):
        # real-peers.md: 100 full frames = 151 400 B = 121 ms at 10 Mbit/s.
        b = Bottleneck(fifo_frames=100)
        self.assertEqual(b.limit_bytes, 151_400)
        self.assertAlmostEqual(b.fifo_ms, 121.12)

    def test_from_fifo_ms_rounds_to_whole_frames(self):
        self.assertEqual(Bottleneck.from_fifo_ms(10_000_000, 303).fifo_frames, 250)
        self.assertEqual(Bottleneck.from_fifo_ms(10_000_000, 121).fifo_frames, 100)


class JainTest(unittest.TestCase):
    def test_equal_rates_are_fair(self):
        self.assertAlmostEqual(measure.jain([5.0, 5.0]), 1.0)

    def test_one_flow_with_everything_is_one_over_n(self):
        self.assertAlmostEqual(measure.jain([10.0, 0.0]), 0.5)

    def test_three_to_one(self):
        self.assertAlmostEqual(measure.jain([3.0, 1.0]), 16 / 20)


class TimeUntilBelowTest(unittest.TestCase):
    def series(self, rate_fn, end=20.0, dt=0.1):
        ts, vs, acc = [], [], 0.0
        n = int(end / dt)
        for i in range(n + 1):
            t = i * dt
            if i:
                acc += rate_fn(t - dt / 2) * dt / 8
            ts.append(t)
            vs.append(acc)
        return measure.Cumulative(ts, vs)

    def test_drop_at_five_seconds_is_found_one_window_later(self):
        s = self.series(lambda t: 10e6 if t < 5 else 1e6)
        got = measure.time_until_below(s, 0.0, 20.0, 2e6, width=1.0, step=0.1)
        # The first 1 s window entirely after the drop ends at 6 s; windows ending a little
        # earlier already average below 2 Mbit/s (mostly low part).
        self.assertGreater(got, 5.0)
        self.assertLessEqual(got, 6.0 + 1e-6)

    def test_never_below_is_none(self):
        s = self.series(lambda t: 10e6)
        self.assertIsNone(measure.time_until_below(s, 0.0, 20.0, 2e6))

    def test_recovering_flow_counts_from_its_last_high(self):
        s = self.series(lambda t: 10e6 if t < 2 or 8 <= t < 9 else 0.0)
        got = measure.time_until_below(s, 0.0, 20.0, 2e6)
        self.assertGreater(got, 9.0)
        self.assertLessEqual(got, 10.0 + 1e-6)

    def test_low_from_the_start_is_one_window(self):
        s = self.series(lambda t: 0.0)
        self.assertAlmostEqual(measure.time_until_below(s, 0.0, 20.0, 2e6), 1.0)


if __name__ == "__main__":
    unittest.main()
