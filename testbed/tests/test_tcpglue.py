"""Unit tests of the glue-path scenarios' trace handling (netbed.tcpglue) and the transfer
tool's rate limit and pause (no root, no bed)."""

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from netbed import tcpglue, tcpxfer

MSS = 1448
Q = 2**32


def rec(seq, what, cwnd_bytes):
    return {"lport": 1, "rport": 2, "seq": seq, "what": what, "cwnd_q32": int(cwnd_bytes * Q)}


def ack(now, packets, flight, mss=MSS):
    return {"event": {"ev": "ack", "now": now, "bytes": packets * mss, "packets": packets,
                      "flight": flight, "newest_sent": now - 1, "rtt": 1, "delay": None}}


TRACE = [
    rec(0, {"init": {"now": 0, "mss": MSS}}, 2 * MSS),
    rec(1, {"event": {"ev": "sent", "now": 1, "bytes": 0, "in_flight": 0}}, 2 * MSS),
    rec(2, ack(2, 1, 2 * MSS), 3 * MSS),           # at the cap: flight 2 + 1 MSS
    rec(3, ack(3, 2, 3 * MSS), 3.5 * MSS),         # two segments, below the cap
    rec(4, {"event": {"ev": "loss", "now": 4, "sent_at": 3, "in_flight": 0, "bytes": 0}},
        1.75 * MSS),
    rec(5, {"event": {"ev": "timeout", "now": 5, "rto": True}}, MSS),
    rec(6, {"undo": {"now": 6}}, 3.5 * MSS),
    rec(7, {"event": {"ev": "timeout", "now": 7, "rto": False}}, 3.5 * MSS),
]


class CountTest(unittest.TestCase):
    def test_each_kind_is_counted_once(self):
        n = tcpglue.count(TRACE, MSS)
        self.assertEqual((n["init"], n["sent"], n["ack"], n["loss"], n["timeout-rto"],
                          n["undo"], n["timeout-idle"]), (1, 1, 2, 1, 1, 1, 1))
        self.assertEqual((n["multi-ack"], n["capped-ack"], n["wide-ack"]), (1, 1, 0))

    def test_a_wide_ack_is_one_whose_bytes_times_mss_reach_2_to_the_32(self):
        # 5 x 32,741 bytes x 32,741 = 5.36e9 >= 2^32; 4 segments give 4.29e9, just under
        wide = rec(1, ack(1, 5, 0, 32_741), 0)
        narrow = rec(1, ack(1, 4, 0, 32_741), 0)
        self.assertTrue(tcpglue.is_wanted(wide, "wide-ack"))
        self.assertFalse(tcpglue.is_wanted(narrow, "wide-ack"))


class SaveTest(unittest.TestCase):
    def test_the_cut_keeps_the_path_and_the_events_after_it(self):
        recs = TRACE[:4] + [rec(4 + i, ack(4 + i, 1, MSS), 2 * MSS) for i in range(100)]
        recs.insert(10, rec(10, {"event": {"ev": "loss", "now": 9, "sent_at": 8,
                                           "in_flight": 0, "bytes": 0}}, MSS))
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "t.jsonl")
            n = tcpglue.save({"instance": "x"}, recs, "loss", out)
            # one loss (fewer than five): cut 50 records after it, at index 10
            self.assertEqual(n, 61)
            with open(out) as f:
                lines = f.read().splitlines()
        self.assertEqual(json.loads(lines[0]), {"instance": "x"})
        self.assertEqual(len(lines), 62)
        self.assertEqual(json.loads(lines[11])["what"]["event"]["ev"], "loss")


class SenderTest(unittest.TestCase):
    def test_a_rate_limited_writer_stays_under_its_rate(self):
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        rcv = subprocess.Popen([sys.executable, "-m", "netbed.tcpxfer", "recv", "127.0.0.1",
                                str(port)], stdout=subprocess.PIPE, text=True)
        self.assertIn("listening", rcv.stdout.readline())
        out = {}
        t = threading.Thread(target=lambda: out.update(tcpxfer.send(
            "127.0.0.1", port, "reno", None, 0.5, None, rate_bps=1_000_000,
            pause=(0.1, 0.2))))
        began = time.monotonic()
        t.start()
        t.join(30)
        rcv.communicate(timeout=30)
        # 1 Mbit/s for 0.5 s (0.2 of it paused): at most 62,500 bytes plus one 4 KB write
        self.assertLessEqual(out["bytes"], 62_500 + 4096)
        self.assertGreater(out["bytes"], 0)
        self.assertGreaterEqual(time.monotonic() - began, 0.5)

    def test_a_bad_pause_is_named(self):
        with self.assertRaises(SystemExit) as e:
            tcpxfer._pause("soon")
        self.assertIn("--pause `soon`", str(e.exception))
        self.assertEqual(tcpxfer._pause("1.5:2"), (1.5, 2.0))


if __name__ == "__main__":
    unittest.main()
