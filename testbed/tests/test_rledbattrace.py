"""The timeline of one stretch of an rLEDBAT bed run (netbed.rledbattrace), on a hand-made
run: python3 -m pytest testbed/tests -k rledbattrace."""

import contextlib
import io
import json
import os
import tempfile
import unittest

from netbed import rledbattrace as rt
from netbed import tcpinfo

RUN = {
    "sender_cc": "bbr", "rtt_ms": 100.0, "fifo_ms": 121.0, "rledbat": True,
    "rledbat_params": ["competitor.enabled=true"], "competitor_start_s": 30.0,
    "competitor_end_s": 61.659, "load_before": [0.1, 0.2, 0.3],
    # [t, port, phase, window, qd ms, tests, clamp]
    "rstats_series": [[61.77, 5001, 4, 2896, 38.0, 2, 5869],
                      [61.897, 5001, 4, 2896, 0.0, 2, 62710],
                      [61.9, 5002, 1, 9000, 0.0, 0, 9000],
                      [64.379, 5001, 0, 8688, 0.0, 2, 8688]],
    "verdicts": [{"t": 62.0, "port": 5001, "kind": "hold", "positive": False,
                  "q0_ms": 0.0, "q1_ms": None}],
    "probes": [{"t": 62.841, "port": 5001, "from_ms": 0.0, "room": True, "resumed": False},
               {"t": 64.349, "port": 5001, "from_ms": 0.0, "room": True, "resumed": True}],
    "sender_trace_fields": ["t", "port", *tcpinfo.FIELDS],
    "sender_trace": [[61.897, 5001, "bbr", 12, 96, 160.8, 348608, 197776, 10240, 281704,
                      1.25],
                     [61.897, 5002, "bbr", 174, 90, 181.3, 9315488, 9006872, 3532800,
                      9409584, 1.0]],
}


class TimelineTest(unittest.TestCase):
    def test_rows_of_the_port_in_time_order_receiver_first_at_equal_times(self):
        rows = rt.timeline(RUN, 5001, 61.8, 64.0)
        self.assertEqual([r.split()[0] for r in rows], ["rx", "tx", "test", "probe"])
        self.assertEqual(rows[0].split(), ["rx", "61.897", "yielding", "0.0", "2896",
                                           "62710"])
        self.assertEqual(rows[1].split()[:5], ["tx", "61.897", "bbr", "12", "96"])
        self.assertEqual(rows[2].split(), ["test", "62.000", "hold", "negative", "0.0",
                                           "-"])
        self.assertEqual(rows[3].split(), ["probe", "62.841", "0.0", "room"])

    def test_the_whole_run_and_another_port(self):
        self.assertEqual(len(rt.timeline(RUN)), 7)
        # The resuming probe's verdict (64.349) before the slow start's publication.
        self.assertTrue(rt.timeline(RUN)[-2].endswith("room resumed"))
        self.assertTrue(rt.timeline(RUN)[-1].startswith("rx      64.379 slow-start"))
        other = rt.timeline(RUN, 5002)
        self.assertEqual([r.split()[0] for r in other], ["tx", "rx"])  # 61.897, 61.9

    def test_both_ports_of_a_pair_name_their_port_beside_the_queue(self):
        run = dict(RUN, rate_bps=10_000_000,
                   samples=[{"t": 61.9, "bytes": {}, "backlog": 25_000},
                            {"t": 70.0, "bytes": {}, "backlog": 0}])
        rows = rt.timeline(run, [5001, 5002], 61.8, 62.0)
        # at 61.897: rx then tx, each 5001 first; at 61.9 the queue before 5002's rx
        self.assertEqual([r.split()[:2] for r in rows],
                         [["rx", "5001"], ["tx", "5001"], ["tx", "5002"], ["queue", "61.900"],
                          ["rx", "5002"], ["test", "5001"]])
        # 25,000 bytes at 10 Mbit/s: 20 ms
        self.assertEqual(rows[3].split(), ["queue", "61.900", "20.0"])
        self.assertEqual(rows[4].split(), ["rx", "5002", "61.900", "avoidance", "0.0", "9000",
                                           "9000"])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            with open(path, "w") as fh:
                json.dump({"runs": [run]}, fh)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(rt.main([path, "--port", "5001,5002", "--to", "62"]), 0)
            self.assertIn("queue   61.900   20.0", out.getvalue())
            with contextlib.redirect_stderr(err):
                self.assertEqual(rt.main([path, "--port", "5001,x"]), 2)
            self.assertIn("--port '5001,x'", err.getvalue())

    def test_a_run_without_a_sender_trace_says_so(self):
        bare = {k: v for k, v in RUN.items() if not k.startswith("sender_trace")}
        doc = {"runs": [bare], "ledbat_build": "abc", "date_utc": "2026-12-06 23:05:00"}
        self.assertIn("# no sender_trace in this run (taken without --sender-trace)",
                      rt.header(doc, 0))
        self.assertEqual([r.split()[0] for r in rt.timeline(bare, 5001)],
                         ["rx", "rx", "test", "probe", "probe", "rx"])

    def test_the_command_prints_the_stretch_and_refuses_what_it_cannot_read(self):
        with tempfile.TemporaryDirectory() as d:
            good = os.path.join(d, "r.json")
            with open(good, "w") as fh:
                json.dump({"runs": [RUN], "ledbat_build": "abc", "date_utc": "x"}, fh)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(rt.main([good, "--from", "64", "--to", "65"]), 0)
            lines = out.getvalue().splitlines()
            self.assertTrue(lines[0].startswith("# run 0 of 1: bbr sender"))
            self.assertEqual([ln.split()[0] for ln in lines if not ln.startswith("#")],
                             ["probe", "rx"])
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(rt.main([good, "--run", "3"]), 2)
                self.assertEqual(rt.main([os.path.join(d, "missing.json")]), 2)
            self.assertIn("--run 3: it has 1 run(s)", err.getvalue())
            self.assertIn("missing.json", err.getvalue())


if __name__ == "__main__":
    unittest.main()
