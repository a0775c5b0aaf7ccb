"""Unit tests of the side-by-side analysis, checks and BitTorrent flow commands on synthetic
samples (no root, no network, no libtorrent)."""

import unittest

from netbed import bittorrent, flows
from netbed import sidebyside as sbs
from netbed.flows import Flow
from netbed.synthetic import synthetic

RATE = 10_000_000


def single_run(utp_rate, backlog=125_000, cubic_at=20.0, cubic_for=20.0, delay=2.0):
    """uTP from `delay` s at utp_rate(t) (frames), cubic from cubic_at taking the rest."""
    fl = [Flow("utp", "bt-lt", 0.0, cubic_at + cubic_for + 1),
          Flow("tcp", "iperf3-cubic", cubic_at, cubic_for)]

    def u(t):
        return 0.0 if t < delay else utp_rate(t)
    return synthetic("s", fl, cubic_at + cubic_for + 1, [u, lambda t: RATE - u(t)],
                     lambda t: backlog)


class SingleTest(unittest.TestCase):
    def test_alone_window_starts_after_first_data_and_warm_up(self):
        res = single_run(lambda t: RATE if t < 20 else 0.05 * RATE)
        out = sbs.analyse_single(res, RATE)
        self.assertIsNone(out["error"])
        self.assertAlmostEqual(out["first_data_s"], 2.2, delta=0.2)
        al = out["alone"]
        self.assertAlmostEqual(al["window_s"], 20 - 2.2 - sbs.WARM_S, delta=0.3)
        # Payload: frames of 1514 B minus 14 + 48 header bytes each.
        self.assertAlmostEqual(al["payload_mbit"], 10 * 1452 / 1514, delta=0.05)
        self.assertAlmostEqual(al["queue_p50_ms"], 100.0)

    def test_yielding_at_once_is_about_one_window(self):
        res = single_run(lambda t: RATE if t < 20 else 0.05 * RATE)
        bc = sbs.analyse_single(res, RATE)["beside_cubic"]
        self.assertLessEqual(bc["time_until_below_20pct_s"], 1.2)
        self.assertAlmostEqual(bc["utp_mbit"], 0.5, delta=0.05)
        self.assertAlmostEqual(bc["tcp_mbit"], 9.5, delta=0.05)

    def test_slow_yielding_is_timed(self):
        res = single_run(lambda t: RATE if t < 28 else 0.1 * RATE)
        bc = sbs.analyse_single(res, RATE)["beside_cubic"]
        self.assertAlmostEqual(bc["time_until_below_20pct_s"], 8.0, delta=1.2)

    def test_never_yielding_is_none(self):
        res = single_run(lambda t: RATE if t < 20 else 0.5 * RATE)
        self.assertIsNone(sbs.analyse_single(res, RATE)["beside_cubic"]["time_until_below_20pct_s"])

    def test_late_data_is_an_error_not_a_figure(self):
        res = single_run(lambda t: RATE, delay=17.0)
        out = sbs.analyse_single(res, RATE)
        self.assertIsNone(out["alone"])
        self.assertIn("too short", out["error"])

    def test_no_data_is_an_error(self):
        res = single_run(lambda t: 0.0)
        self.assertEqual(sbs.analyse_single(res, RATE)["error"], "the seeder never sent data")


class TwoTest(unittest.TestCase):
    def run_two(self, r1, r2):
        fl = [Flow("utp1", "bt-ours-ours", 0.0, 40, cc="fledbat"),
              Flow("utp2", "bt-ours-ours", 10.0, 30, cc="fledbat")]
        return sbs.analyse_two(synthetic("t", fl, 40, [r1, r2], lambda t: 30_000), RATE)

    def test_equal_shares_give_jain_one(self):
        out = self.run_two(lambda t: RATE / 2 if t >= 10 else RATE, lambda t: RATE / 2)
        self.assertAlmostEqual(out["jain"], 1.0, places=2)

    def test_starved_latecomer_gives_jain_half(self):
        out = self.run_two(lambda t: RATE, lambda t: 0.0 if t > 10.5 else RATE)
        self.assertLess(out["jain"], 0.6)


def doc_with(single, two):
    return {"single": single, "two": two}


def row(seeder, until, rate, fifo=121):
    return {"fifo_ms": fifo, "seeder": seeder, "alone": {"payload_mbit": rate},
            "beside_cubic": {"time_until_below_20pct_s": until, "cubic_s": 30.0}}


class ChecksTest(unittest.TestCase):
    def test_met_needs_both_fast_yield_and_libtorrents_rate(self):
        d = doc_with([row("libtorrent", 16.0, 9.5), row("ledbat", 12.0, 9.6),
                      row("fledbat", 1.5, 9.4), row("ledbat++", 2.0, 9.55)],
                     [{"fifo_ms": 121, "cc": "fledbat", "jain": 0.95}])
        c = sbs.checks(d)
        self.assertEqual(c[0]["verdict"], "met")
        self.assertIn("met by ledbat++", c[0]["detail"])
        self.assertNotIn("fledbat", c[0]["detail"].split("met by")[1])
        self.assertEqual(c[1]["verdict"], "met")

    def test_missed_when_fast_ones_are_slow_alone(self):
        d = doc_with([row("libtorrent", 16.0, 9.5), row("fledbat", 1.5, 9.0),
                      row("ledbat", None, 9.6)],
                     [{"fifo_ms": 121, "cc": "ledbat++", "jain": 0.7},
                      {"fifo_ms": 121, "cc": "ledbat", "jain": 0.99}])
        c = sbs.checks(d)
        self.assertEqual(c[0]["verdict"], "missed")
        self.assertEqual(c[1]["verdict"], "missed")  # only fledbat and ledbat++ count

    def test_303_ms_rows_do_not_count(self):
        d = doc_with([row("libtorrent", 16.0, 9.5), row("fledbat", 1.0, 9.6, fifo=303)], [])
        self.assertEqual(sbs.checks(d)[0]["verdict"], "missed")

    def test_markdown_has_a_row_per_result(self):
        d = doc_with([row("libtorrent", None, 9.5)],
                     [{"fifo_ms": 121, "cc": "fledbat", "jain": 0.95}])
        d["checks"] = sbs.checks(d)
        md = sbs.markdown(d)
        self.assertIn("| 121 ms | libtorrent 2.1.1 | 9.50 |", md)
        self.assertIn("not within 30 s", md)
        self.assertIn("| 121 ms | --cc fledbat |", md)


class KindsTest(unittest.TestCase):
    def ctx(self):
        return flows.Context(rcv_ip="10.0.2.1", snd_ip="10.0.1.1", workdir="/tmp/sbs-test-work",
                             ledbat_bin="/bin/ledbat", send_file="/tmp/sbs-test-work/f.bin")

    def test_data_goes_to_the_leechers_port_and_the_seeder_listens_on_the_same(self):
        f = Flow("utp", "bt-ours", 0, 10, port=5201, cc="fledbat")
        k = bittorrent.KINDS["bt-ours"]
        leech, seed = k.receiver(f, self.ctx()), k.sender(f, self.ctx())
        self.assertIn("10.0.2.1:5201", leech)
        self.assertEqual(leech[leech.index("--peer") + 1], "10.0.1.1:5201")
        self.assertEqual(seed[seed.index("--listen") + 1], "10.0.1.1:5201")
        self.assertEqual(seed[seed.index("--cc") + 1], "fledbat")
        self.assertIn("/tmp/sbs-test-work/f.bin.torrent", seed)

    def test_our_getter_binds_the_flow_port(self):
        f = Flow("utp2", "bt-ours-ours", 10, 10, port=5202, cc="ledbat++")
        get = bittorrent.KINDS["bt-ours-ours"].receiver(f, self.ctx())
        self.assertEqual(get[get.index("--bind") + 1], "10.0.2.1:5202")
        self.assertEqual(get[:3], ["/bin/ledbat", "torrent", "get"])

    def test_every_kind_has_utp_overhead(self):
        for k in bittorrent.KINDS.values():
            self.assertEqual(k.overhead, 48)


if __name__ == "__main__":
    unittest.main()
