"""Unit tests of scenario analysis, flow commands and nft rules on synthetic samples (no root,
no network): python3 -m pytest testbed."""

import unittest

from netbed import bed, flows, scenarios
from netbed.synthetic import synthetic

RATE = 10_000_000


def by_name(metrics):
    return {m.name: m for m in metrics}


class AloneTest(unittest.TestCase):
    def setUp(self):
        self.s = scenarios.Settings()
        self.flows = scenarios._alone_flows(self.s)

    def test_full_link_at_target_passes(self):
        # 75 000 B = 60 ms at 10 Mbit/s: the default controller's TARGET.
        res = synthetic("alone", self.flows, 25, [lambda t: RATE], lambda t: 75_000)
        m = by_name(scenarios._alone(res, self.s))
        self.assertTrue(m["link utilisation"].passed)
        self.assertAlmostEqual(m["link utilisation"].value, 1.0, places=3)
        self.assertAlmostEqual(m["queue delay mean"].value, 60.0)
        self.assertTrue(m["queue delay mean"].passed)
        self.assertTrue(m["queue delay mean"].goal_met)

    def test_empty_queue_fails_the_delay_floor(self):
        res = synthetic("alone", self.flows, 25, [lambda t: RATE], lambda t: 3000)
        m = by_name(scenarios._alone(res, self.s))
        self.assertFalse(m["queue delay mean"].passed)

    def test_slow_sender_fails_utilisation(self):
        res = synthetic("alone", self.flows, 25, [lambda t: 0.85 * RATE], lambda t: 125_000)
        m = by_name(scenarios._alone(res, self.s))
        self.assertFalse(m["link utilisation"].passed)
        self.assertAlmostEqual(m["link utilisation"].value, 0.85, places=3)

    def test_payload_rate_removes_utp_headers(self):
        res = synthetic("alone", self.flows, 25, [lambda t: RATE], lambda t: 125_000)
        m = by_name(scenarios._alone(res, self.s))
        # 1514-byte frames carry 1514 - 14 - 48 = 1452 payload bytes.
        self.assertAlmostEqual(m["payload rate"].value, 10 * 1452 / 1514, places=3)

    def test_a_failed_flow_fails_every_floor(self):
        res = synthetic("alone", self.flows, 25, [lambda t: RATE], lambda t: 125_000)
        res.flows[0].error = "sender exited with 1"
        ms = scenarios._alone(res, self.s)
        self.assertTrue(all(m.passed is False for m in ms))
        self.assertIn("sender exited with 1", ms[0].note)


class VsTcpTest(unittest.TestCase):
    def test_yielding_sender_leaves_tcp_the_link(self):
        s = scenarios.Settings()
        fl = scenarios._vs_tcp_flows(s)
        ts = fl[1].start

        def utp(t):
            return RATE if t < ts else 0.02 * RATE

        def tcp(t):
            return 0.98 * RATE

        res = synthetic("vs-tcp", fl, fl[0].stop, [utp, tcp], lambda t: 300_000)
        m = by_name(scenarios._vs_tcp(res, s))
        self.assertTrue(m["tcp share"].passed)
        self.assertAlmostEqual(m["tcp share"].value, 0.98, places=3)
        self.assertAlmostEqual(m["time until utp < 20 % of link"].value, 1.0, places=3)

    def test_sender_keeping_half_fails(self):
        s = scenarios.Settings()
        fl = scenarios._vs_tcp_flows(s)
        res = synthetic("vs-tcp", fl, fl[0].stop, [lambda t: RATE / 2, lambda t: RATE / 2],
                        lambda t: 300_000)
        m = by_name(scenarios._vs_tcp(res, s))
        self.assertFalse(m["tcp share"].passed)
        self.assertIsNone(m["time until utp < 20 % of link"].value)


class TwoFlowTest(unittest.TestCase):
    def test_jain_of_a_three_to_one_split(self):
        s = scenarios.Settings()
        fl = scenarios._two_flows("ledbat")(s)
        res = synthetic("two", fl, fl[0].stop,
                        [lambda t: 0.75 * RATE, lambda t: 0.25 * RATE], lambda t: 0)
        m = by_name(scenarios._two(res, s))
        self.assertAlmostEqual(m["jain index, last half"].value, 0.8, places=3)


class CommandsTest(unittest.TestCase):
    ctx = flows.Context(rcv_ip="10.77.2.1", snd_ip="10.77.1.1", workdir="/w",
                        ledbat_bin="/b/ledbat", send_file="/w/send.bin")

    def test_ledbat_sender_carries_cc_and_target(self):
        f = flows.Flow("utp", "ledbat", 0, 10, port=5201, cc="ledbat++",
                       params={"target_ms": "60", "cc_param.gain": "0.5"})
        argv = flows.KINDS["ledbat"].sender(f, self.ctx)
        self.assertEqual(argv[:4], ["/b/ledbat", "send", "/w/send.bin", "10.77.2.1:5201"])
        self.assertIn("--cc", argv)
        self.assertEqual(argv[argv.index("--cc") + 1], "ledbat++")
        self.assertEqual(argv[argv.index("--target-ms") + 1], "60")
        self.assertEqual(argv[argv.index("--cc-param") + 1], "gain=0.5")

    def test_unknown_ledbat_param_is_an_error(self):
        f = flows.Flow("utp", "ledbat", 0, 10, port=5201, params={"bogus": "1"})
        with self.assertRaises(ValueError):
            flows.KINDS["ledbat"].sender(f, self.ctx)

    def test_cubic_competitor_is_iperf3_with_cubic(self):
        f = flows.Flow("tcp", "iperf3-cubic", 5, 25, port=5202)
        argv = flows.KINDS["iperf3-cubic"].sender(f, self.ctx)
        self.assertEqual(argv[argv.index("-C") + 1], "cubic")
        self.assertEqual(argv[argv.index("-t") + 1], "25")

    def test_templates_are_formatted_per_token(self):
        k = flows.template_kind("x", "recv --listen {rcv_ip}:{port} --out '{out}'",
                                "send {file} {rcv_ip}:{port} -t {duration}")
        f = flows.Flow("lt", "x", 0, 12.5, port=6000)
        self.assertEqual(k.receiver(f, self.ctx),
                         ["recv", "--listen", "10.77.2.1:6000", "--out", "/w/recv-lt.bin"])
        self.assertEqual(k.sender(f, self.ctx),
                         ["send", "/w/send.bin", "10.77.2.1:6000", "-t", "13"])

    def test_nft_rules_count_each_flow_by_destination_port(self):
        fl = [flows.Flow("tcp", "iperf3-cubic", 0, 1, port=5201),
              flows.Flow("utp", "ledbat", 0, 1, port=5202)]
        text = bed._nft_rules(fl)
        self.assertIn("counter c_tcp", text)
        self.assertIn("th dport 5201 counter name c_tcp", text)
        self.assertIn("th dport 5202 counter name c_utp", text)
        self.assertIn("hook input", text)


if __name__ == "__main__":
    unittest.main()
