"""Unit tests of the kernel-TCP bed's pieces: seed 002's setups read from the scenario
files, the statistics sampler's rows, the analyses on synthetic samples, the checks, the
cost summary and the transfer tool (over loopback; no root)."""

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import unittest

from netbed import ktcp, tcpbed, tcpcost, tcpxfer
from netbed.flows import Context, Flow
from netbed.synthetic import synthetic

RATE = 10_000_000


class SetupTest(unittest.TestCase):
    def test_seed002_files_become_the_beds_flows(self):
        s = tcpbed.load_setup("two-flows-md-nf1")
        self.assertEqual((s.rate_bps, s.fifo_frames, s.owd_ms), (10_000_000, 60, 20.0))
        self.assertFalse(s.delayed_ack)
        self.assertEqual(s.flows[0], ("first", "ledbat-md:target=25ms:beta=0.6:"
                                      "delay.filter.min.len=1", 0.0, 100_000_000, None))
        self.assertEqual(s.flows[1][2], 15.0)
        t = tcpbed.load_setup("tcp-20mbps-linear")
        self.assertTrue(t.delayed_ack)
        self.assertEqual(t.flows[1][1], "reno")
        self.assertEqual(t.flows[0][3], None)  # a duration, not a transfer
        self.assertEqual(tcpbed.load_setup("two-flows-mdvar-rtt20").owd_ms, 10.0)

    def test_a_smaller_transfer_applies_to_transfers_only(self):
        t = tcpbed.load_setup("tcp-20mbps-linear")
        fl = tcpbed.seed002_flows(t, {t.flows[0][1]: "tb_0"}, 10_000_000)
        self.assertNotIn("bytes", fl[0].params)
        self.assertEqual(fl[1].kind, "iperf3-reno")
        s = tcpbed.load_setup("two-flows-linear")
        fl = tcpbed.seed002_flows(s, {s.flows[0][1]: "tb_0"}, 10_000_000)
        self.assertEqual(fl[0].params["bytes"], "10000000")
        self.assertEqual(fl[1].cc, "tb_0")

    def test_the_tbf_burst_is_a_plan_setting_of_at_least_one_frame(self):
        p = tcpbed._plan(tcpbed.parse_args(["--quick"]))
        self.assertEqual(p.burst_bytes, 15 * 1024)
        p = tcpbed._plan(tcpbed.parse_args(["--quick", "--tbf-burst", "3028"]))
        self.assertEqual(p.burst_bytes, 3028)
        with self.assertRaisesRegex(ValueError, "--tbf-burst 1500: less than one frame"):
            tcpbed._plan(tcpbed.parse_args(["--tbf-burst", "1500"]))

    def test_the_cross_traffic_starts_where_asked_and_leaves_an_alone_window(self):
        p = tcpbed._plan(tcpbed.parse_args([]))
        self.assertEqual((p.cross_at, p.cross_len), (25.0, 60.0))
        p = tcpbed._plan(tcpbed.parse_args(["--cross-at", "23.5"]))
        # the run is as much shorter: cross from 23.5 s for 20 s, then 15 s alone
        self.assertEqual((p.cross_at, p.cross_len), (23.5, 58.5))
        with self.assertRaisesRegex(ValueError, "--cross-at 14: must be 15 to 120 s"):
            tcpbed._plan(tcpbed.parse_args(["--cross-at", "14"]))

    def test_specs_name_their_bad_part(self):
        self.assertEqual(ktcp.spec_parts("ledbat:target=25ms"), ("ledbat", ["target=25ms"]))
        with self.assertRaises(ValueError):
            ktcp.spec_parts("ledbat:target")
        with self.assertRaises(ValueError):
            ktcp.spec_parts(":target=1ms")

    def test_scav_comp_is_the_scavenger_with_competitor_detection_as_measured(self):
        # the detection with the backoff of when the bed measured it (1), whatever the
        # preset's default
        self.assertEqual(ktcp.spec_parts("scav-comp"),
                         ("scavenger", ["competitor.enabled=true", "slowdown_backoff=1"]))
        self.assertEqual(ktcp.spec_parts("scav-comp:target=25ms"),
                         ("scavenger", ["competitor.enabled=true", "slowdown_backoff=1",
                                        "target=25ms"]))
        self.assertEqual(ktcp.spec_parts("scavenger"), ("scavenger", []))

    def test_scav_plain_is_the_scavenger_without_the_competitor_set(self):
        self.assertEqual(ktcp.spec_parts("scav-plain"),
                         ("scavenger", ["competitor.enabled=false", "slowdown_backoff=1"]))
        # a spec's own keys come after the alias's, so they win
        self.assertEqual(ktcp.spec_parts("scav-plain:slowdown_backoff=8"),
                         ("scavenger", ["competitor.enabled=false", "slowdown_backoff=1",
                                        "slowdown_backoff=8"]))


class StatsTest(unittest.TestCase):
    def rows(self):
        lines = []
        for k, (t, sd) in enumerate([(1.0, 0), (1.5, 1), (2.0, 1), (3.0, 3)]):
            flow = {"local": "10.77.1.1:40000", "remote": "10.77.2.1:5201",
                    "updated_ns": int(t * 1e9), "slowdowns": sd, "queuing_ns": 60_000_000}
            back = dict(flow, local="10.77.2.1:5201", remote="10.77.1.1:40000")
            lines.append(json.dumps([{"controller": "tb_0", "flow": flow},
                                     {"controller": "tb_0", "flow": back}]))
            lines.append(lines[-1])  # the sampler saw the same update twice
        with tempfile.NamedTemporaryFile("w", delete=False) as fh:
            fh.write("\n".join(lines) + "\n")
        rows = ktcp.read_stats(fh.name)
        os.unlink(fh.name)
        return rows

    def test_the_senders_rows_once_per_update(self):
        rows = ktcp.sender_rows(self.rows(), 5201)
        self.assertEqual([r.t for r in rows], [1.0, 1.5, 2.0, 3.0])
        self.assertEqual(ktcp.slowdowns_between(rows, 1.2, 3.5), 3)
        self.assertEqual(ktcp.slowdowns_between(rows, 1.8, 2.5), 0)
        self.assertIsNone(ktcp.slowdowns_between(rows, 5, 6))
        self.assertAlmostEqual(ktcp.mean_of(rows, "queuing_ns", 0, 9), 60e6)

    def test_arrival_phase_is_the_last_rows_phase_and_the_slowdowns_seen_around_it(self):
        def row(t, sd, phase):
            return ktcp.StatRow(t, "tb_0", 40000, 5201, {"slowdowns": sd, "phase": phase})
        rows = [row(1.0, 0, "slow-start"), row(1.5, 1, "slowdown"), row(2.0, 1, "avoidance"),
                row(8.0, 1, "avoidance"), row(8.5, 2, "slowdown-ramp"), row(9.0, 2, "avoidance")]
        # before any row: nothing known
        self.assertEqual(ktcp.arrival_phase(rows, 0.5),
                         {"phase": None, "since_slowdown_s": None, "next_slowdown_s": None})
        # in slow start, no slowdown yet; the first showed at 1.5 s
        self.assertEqual(ktcp.arrival_phase(rows, 1.2),
                         {"phase": "slow-start", "since_slowdown_s": None,
                          "next_slowdown_s": 0.3})
        # 8.7 s: the second slowdown first showed at 8.5 s, no third
        self.assertEqual(ktcp.arrival_phase(rows, 8.7),
                         {"phase": "slowdown-ramp", "since_slowdown_s": 0.2,
                          "next_slowdown_s": None})
        # 7.0 s: the first, seen at 1.5 s; the second 1.5 s later
        self.assertEqual(ktcp.arrival_phase(rows, 7.0),
                         {"phase": "avoidance", "since_slowdown_s": 5.5,
                          "next_slowdown_s": 1.5})


class AnalysisTest(unittest.TestCase):
    def test_seed002_completion_times_jain_and_utilisation(self):
        # 1 MB each; the first alone at 8 Mbit/s, then both at 4 until the first is done.
        fl = [Flow("first", "ktcp", 0.0, 60, params={"bytes": "1000000"}),
              Flow("latecomer", "ktcp", 0.5, 60, params={"bytes": "1000000"})]
        res = synthetic("s", fl, 60, [lambda t: 4e6, lambda t: 4e6], lambda t: 0)
        s = tcpbed.Setup("two-flows-linear", RATE, 60, 20.0, False,
                         [("first", "x", 0.0, 1_000_000, None),
                          ("latecomer", "x", 0.5, 1_000_000, None)], 60.0)
        out = tcpbed.analyse_seed002(res, s, None)
        self.assertIsNone(out["error"])
        # payload is 1448 of every 1514 frame bytes: 1 MB takes about 2.09 s at 4 Mbit/s
        self.assertAlmostEqual(out["first_completion_s"], 2.09, delta=0.1)
        self.assertAlmostEqual(out["latecomer_minus_first_s"], 0.5, delta=0.1)

    def test_queue_appears_at_the_first_window_above_ours(self):
        fl = [Flow("ours", "ktcp", 0, 30), Flow("cross", "iperf3-cubic", 10, 10)]
        res = synthetic("s", fl, 30, [lambda t: 5e6, lambda t: 5e6],
                        lambda t: 75_000 if t < 12 else 150_000)
        t = tcpbed.queue_appears(res, res.t0 + 10, 60.0, RATE, res.t0 + 20)
        self.assertAlmostEqual(t - res.t0, 12.0, delta=0.11)
        self.assertIsNone(tcpbed.queue_appears(res, res.t0 + 10, 200.0, RATE, res.t0 + 20))

    def test_checks_read_the_medians(self):
        doc = {"alone": [{"cc": "scavenger", "rtt_ms": 0, "link_util": u, "queue_mean_ms": q,
                          "drops": 0} for u, q in [(0.98, 58), (0.99, 59), (0.95, 70)]],
               "cross": [], "two": [{"cc": "scavenger", "rtt_ms": 0, "jain": 0.9}],
               "seed002": []}
        c = {(x["where"], x["check"]): x["verdict"] for x in tcpbed.checks(doc)}
        self.assertEqual(c[("alone, base RTT 0 ms", "link utilisation")], "met")
        self.assertEqual(c[("alone, base RTT 0 ms", "queue mean (ms)")], "met")
        self.assertEqual(c[("two 10 s apart, base RTT 0 ms", "Jain's index")], "missed")

    def test_alone_is_compared_with_kernel_cubics_rate_where_both_ran(self):
        row = lambda cc, rtt, mbit: {"cc": cc, "rtt_ms": rtt, "link_util": 0.99,
                                     "queue_mean_ms": 58, "drops": 0, "payload_mbit": mbit}
        # medians: ours 9.50 against cubic's 9.56 at 0 ms (0.994), 9.56 against 9.52 at 20
        doc = {"alone": [row("scavenger", 0, m) for m in (9.49, 9.50, 9.52)]
               + [row("cubic", 0, m) for m in (9.56, 9.56, 9.60)]
               + [row("scavenger", 20, 9.56), row("cubic", 20, 9.52)]
               + [row("scavenger", 40, 9.5)],
               "cross": [], "two": [], "seed002": []}
        c = {(x["where"], x["check"]): (x["value"], x["verdict"]) for x in tcpbed.checks(doc)}
        key = "payload rate / kernel cubic's (medians)"
        self.assertEqual(c[("alone, base RTT 0 ms", key)], (0.994, "missed"))
        self.assertEqual(c[("alone, base RTT 20 ms", key)], (1.004, "met"))
        self.assertNotIn(("alone, base RTT 40 ms", key), c)  # no cubic run there

    def test_the_kernels_own_controllers_are_used_by_name_and_never_loaded(self):
        ccs = ktcp.Controllers("/nonexistent/ledbat")  # any call to it would fail
        self.assertEqual([ccs.ensure(c) for c in ("cubic", "reno", "bbr")],
                         ["cubic", "reno", "bbr"])
        self.assertEqual(ccs.loaded, {})
        self.assertEqual(ccs.close(), [])

    def test_bands_as_the_catalog_states_them(self):
        self.assertTrue(tcpbed.band_ok({"kind": "at-least", "bound": 0.95}, 0.96))
        self.assertFalse(tcpbed.band_ok({"kind": "between", "lo": 134, "hi": 158}, 160))
        self.assertTrue(tcpbed.band_ok({"kind": "near", "value": 65, "tol": 13}, 52))
        self.assertIsNone(tcpbed.band_ok({"kind": "other"}, 1))


class CostTest(unittest.TestCase):
    def test_ratios_are_taken_within_a_round(self):
        def run(cc, g, cpu):
            return {"cc": cc, "gbit_s": g, "cpu_s_per_gb": cpu}
        rounds = [{"path": "loopback", "runs": [run("cubic", 10, 1.0), run("scavenger", 9.6, 1.05)]},
                  {"path": "loopback", "runs": [run("cubic", 20, 0.5), run("scavenger", 19, 0.55)]}]
        s = tcpcost.summarise(rounds, ["scavenger"], ["loopback"])
        self.assertAlmostEqual(s["loopback/scavenger"]["throughput_vs_cubic"]["median"], 0.955)
        self.assertAlmostEqual(s["loopback/scavenger"]["cpu_per_gb_vs_cubic"]["min"], 1.05)
        self.assertAlmostEqual(s["loopback/cubic"]["gbit_s"]["median"], 15)
        # The JSON's keys stay median, min, max, n; one repeat's cell keeps its range.
        self.assertEqual(list(s["loopback/cubic"]["gbit_s"]), ["median", "min", "max", "n"])
        one = tcpcost.summarise(rounds[:1], ["scavenger"], ["loopback"])
        self.assertIn("| loopback | scavenger | 9.60 [9.60..9.60] | 1.050 [1.050..1.050] | "
                      "0.960 [0.960..0.960] | 1.050 [1.050..1.050] |",
                      tcpcost.markdown({"summary": one}))

    def test_the_rledbat_receiver_joins_its_cgroup_before_entering_the_namespace(self):
        plain = tcpcost.receiver_argv("/b/ledbat", "ns-b", False)
        self.assertEqual(plain, ["ip", "netns", "exec", "ns-b", "iperf3", "-s", "-1", "-p", "5299"])
        rl = tcpcost.receiver_argv("/b/ledbat", "ns-b", True)
        self.assertEqual(rl[:6], ["/b/ledbat", "tcp", "run", "--cc", "cubic", "--rledbat"])
        # it serves until stopped: its programs are read after the transfer, still attached
        served = ["ip", "netns", "exec", "ns-b", "iperf3", "-s", "-p", "5299"]
        self.assertEqual(rl[6:], ["--", *served])
        tuned = tcpcost.receiver_argv("/b/ledbat", "ns-b", True,
                                      ["competitor.enabled=true", "window_validation=true"])
        self.assertEqual(tuned[6:11], ["--rledbat-param", "competitor.enabled=true",
                                       "--rledbat-param", "window_validation=true", "--"])
        self.assertEqual(tuned[11:], served)
        self.assertEqual(tcpcost.receiver_argv("/b/ledbat", "ns-b", False, ["x=1"]), plain)

    def test_the_programs_run_time_is_counted_per_program_id_between_two_readings(self):
        before = tcpcost.bpf_run_totals([
            {"id": 7, "name": "ledbat_rledbat", "run_time_ns": 1000, "run_cnt": 10},
            {"id": 8, "name": "ledbat_select", "run_time_ns": 50, "run_cnt": 1},
            {"id": 9, "name": "someone_else", "run_time_ns": 9999, "run_cnt": 99},
            {"id": 3, "name": "ledbat_rledbat"},  # a previous run's, gone by the end
        ])
        self.assertEqual(before, {7: (1000, 10), 8: (50, 1), 3: (0, 0)})
        after = tcpcost.bpf_run_totals([
            {"id": 7, "name": "ledbat_rledbat", "run_time_ns": 4000, "run_cnt": 40},
            {"id": 8, "name": "ledbat_select", "run_time_ns": 50, "run_cnt": 1},
            {"id": 12, "name": "ledbat_rledbat", "run_time_ns": 600, "run_cnt": 6},  # new
            {"id": 9, "name": "someone_else", "run_time_ns": 20000, "run_cnt": 200},
        ])
        # 3000 + 0 + 600 ns over 30 + 0 + 6 runs; the others' program and the gone one not
        self.assertEqual(tcpcost.bpf_run_delta(before, after), (3600, 36))

    def test_the_programs_cost_is_added_to_the_plain_downloads_of_the_same_round(self):
        def run(cc, cpu, bpf=None):
            r = {"cc": cc, "gbit_s": 10, "cpu_s_per_gb": cpu}
            if bpf is not None:
                r["bpf_s_per_gb"] = bpf
            return r
        rounds = [{"path": "loopback", "runs": [run("cubic", 1.0), run("rledbat", 1.3, 0.02)]},
                  {"path": "loopback", "runs": [run("cubic", 0.5), run("rledbat", 0.4, 0.02)]},
                  {"path": "loopback", "runs": [run("cubic", 0.8), run("rledbat", 0.9, 0.04)]}]
        s = tcpcost.summarise(rounds, ["rledbat"], ["loopback"])["loopback/rledbat"]
        # (1 + 0.02) / 1, (0.5 + 0.02) / 0.5, (0.8 + 0.04) / 0.8: 1.02, 1.04, 1.05
        b = s["bpf_cpu_per_gb_vs_cubic"]
        self.assertAlmostEqual(b["median"], 1.04)
        self.assertAlmostEqual(b["min"], 1.02)
        self.assertAlmostEqual(b["max"], 1.05)
        # the totals' ratios spread far wider: 1.3, 0.8, 1.125
        self.assertAlmostEqual(s["cpu_per_gb_vs_cubic"]["median"], 1.125)
        self.assertIn("| 1.0400 [1.0200..1.0500] |",
                      tcpcost.markdown({"summary": {"loopback/rledbat": s}}))


class TransferTest(unittest.TestCase):
    def test_a_byte_count_ends_when_the_receiver_has_it_all(self):
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        rcv = subprocess.Popen([sys.executable, "-m", "netbed.tcpxfer", "recv", "127.0.0.1",
                                str(port)], stdout=subprocess.PIPE, text=True)
        self.assertIn("listening", rcv.stdout.readline())
        out = {}
        t = threading.Thread(target=lambda: out.update(
            tcpxfer.send("127.0.0.1", port, "reno", 3_000_000, None, None)))
        t.start()
        t.join(30)
        got = json.loads(rcv.communicate(timeout=30)[0].strip().splitlines()[-1])
        self.assertEqual(out["bytes"], 3_000_000)
        self.assertEqual(got["bytes"], 3_000_000)
        self.assertEqual(out["congestion_control"], "reno")

    def test_the_flow_kind_passes_the_controller_and_the_count(self):
        ctx = Context(rcv_ip="10.0.0.2", snd_ip="10.0.0.1", workdir="/tmp", ledbat_bin="x",
                      send_file="/dev/null")
        argv = ktcp.KIND.sender(Flow("a", "ktcp", 0, 30, port=5201, cc="tb_0",
                                     params={"bytes": "5"}), ctx)
        self.assertEqual(argv[-6:], ["--cc", "tb_0", "--bind", "10.0.0.1", "--bytes", "5"])
        argv = ktcp.KIND.sender(Flow("a", "ktcp", 0, 30, port=5201, cc="tb_0"), ctx)
        self.assertEqual(argv[-2:], ["--seconds", "30"])


if __name__ == "__main__":
    unittest.main()
