"""Receiver-side LEDBAT on the bed: the samplers' readers, the phase summary, the quick
check, rate series, time-to-threshold, the right-edge check, median and range and the
per-cell summary, on hand-made data (no root): python3 -m pytest testbed/tests -k rledbat."""

import json
import os
import struct
import unittest
import unittest.mock

from netbed import rledbatbed as rb
from netbed import rledbatstats as st

SS = """\
0      0      10.77.2.1:5001 10.77.1.1:40000
\t ts sack cubic wscale:7,7 rto:244 rtt:43.1/2 bytes_received:1500000 segs_in:1000
0      0      10.77.2.1:5002 10.77.1.1:40002
\t ts sack cubic wscale:7,7 bytes_acked:1 bytes_received:250000 segs_in:20
"""


class ReadersTest(unittest.TestCase):
    def test_bytes_received_are_read_per_local_port(self):
        self.assertEqual(rb.bytes_by_port(SS), {5001: 1_500_000, 5002: 250_000})

    def test_the_backlog_of_the_first_qdisc_is_read(self):
        self.assertEqual(rb.backlog_bytes('[{"kind":"tbf","backlog":75000,"qlen":50}]'), 75000)
        self.assertIsNone(rb.backlog_bytes("[]"))
        self.assertIsNone(rb.backlog_bytes("not json"))


class SummaryTest(unittest.TestCase):
    def test_rates_and_the_queue_over_a_phase(self):
        # 1 250 000 bytes in 2 s = 5 Mbit/s; 125 000 bytes = 0.5 Mbit/s; backlogs 50 000
        # and 100 000 bytes: mean 75 000 B = 60 ms at 10 Mbit/s
        s = [{"t": 1.0, "bytes": {5001: 0, 5002: 0}, "backlog": 50_000},
             {"t": 3.0, "bytes": {5001: 1_250_000, 5002: 125_000}, "backlog": 100_000},
             {"t": 9.0, "bytes": {5001: 9_999_999}, "backlog": 0}]
        out = rb.phase_summary(s, 0.5, 3.5, 10_000_000)
        self.assertEqual((out["rledbat_mbps"], out["plain_mbps"], out["queue_ms"]),
                         (5.0, 0.5, 60.0))
        self.assertEqual(rb.phase_summary(s[:1], 0, 5, 10_000_000)["samples"], 1)

    def test_the_quick_check_wants_half_the_link_alone_and_a_fifth_beside(self):
        ok = {"alone": {"rledbat_mbps": 8.3}, "beside_plain": {"rledbat_mbps": 0.1,
                                                              "plain_mbps": 9.4},
              "run_cgroups_left": [], "teardown_problems": []}
        self.assertEqual(rb.check(ok, 10_000_000), [])
        slow = dict(ok, alone={"rledbat_mbps": 4.9})
        self.assertEqual(len(rb.check(slow, 10_000_000)), 1)
        greedy = dict(ok, beside_plain={"rledbat_mbps": 2.0, "plain_mbps": 9.0})
        self.assertEqual(len(rb.check(greedy, 10_000_000)), 1)
        left = dict(ok, run_cgroups_left=["run-1"])
        self.assertEqual(len(rb.check(left, 10_000_000)), 1)
        # With --sender-trace, a sample of the rLEDBAT download's sender (a row of
        # [t, port, cc, cwnd, ...]) must have been read.
        traced = dict(ok, sender_trace_fields=["t", "port", "cc", "cwnd"],
                      sender_trace=[[1.0, 5001, "cubic", 10], [1.0, 5002, "cubic", 80]])
        self.assertEqual(rb.check(traced, 10_000_000), [])
        blind = dict(traced, sender_trace=[[1.0, 5002, "cubic", 80],
                                           [1.2, 5001, None, None]])
        self.assertEqual(rb.check(blind, 10_000_000),
                         ["--sender-trace: no sample of the sender to port 5001 read "
                          "(ports seen: [5002])"])


def samples(rates_mbps, dt=0.2, port=5001, t0=0.0):
    """Samples every dt s of a download receiving rates_mbps[i] during interval i."""
    out, x, t = [{"t": t0, "bytes": {port: 0}, "backlog": 0}], 0, t0
    for r in rates_mbps:
        t = round(t + dt, 6)
        x += round(r * 1e6 / 8 * dt)
        out.append({"t": t, "bytes": {port: x}, "backlog": 0})
    return out


class SeriesTest(unittest.TestCase):
    def test_rates_are_taken_over_a_trailing_window(self):
        # 5 intervals of 0.2 s at 10, 10, 0, 0, 5 Mbit/s; window 0.4 s: from t = 0.4 on,
        # the mean of the last two intervals: 10, 5, 0, 2.5 Mbit/s.
        ser = st.rate_series(samples([10, 10, 0, 0, 5]), 5001, 0.4)
        self.assertEqual([t for t, _ in ser], [0.4, 0.6, 0.8, 1.0])
        self.assertEqual([round(v / 1e6, 6) for _, v in ser], [10, 5, 0, 2.5])

    def test_a_sample_without_the_port_counts_as_no_bytes(self):
        s = samples([8, 8])
        s.append({"t": 0.6, "bytes": {}, "backlog": 0})  # connection closed
        ser = st.rate_series(s, 5001, 0.2)
        self.assertEqual([round(v / 1e6, 6) for _, v in ser], [8, 8, 0])

    def test_keys_read_back_from_json_are_strings_and_still_count(self):
        s = [{"t": 0.0, "bytes": {"5001": 0}, "backlog": 0},
             {"t": 1.0, "bytes": {"5001": 1_000_000}, "backlog": 0}]
        self.assertEqual(st.rate_series(s, 5001, 1.0), [(1.0, 8e6)])
        self.assertEqual(rb.phase_summary(s, 0, 1, 10_000_000)["rledbat_mbps"], 8.0)


class TimeToStayTest(unittest.TestCase):
    # Points every 0.5 s from t = 10: 9, 9, 3, 1, 4, 1, 1, 1 Mbit/s.
    SER = [(10 + 0.5 * i, v * 1e6) for i, v in enumerate([9, 9, 3, 1, 4, 1, 1, 1])]

    def test_below_counts_from_the_start_to_the_last_crossing(self):
        # Below 2 Mbit/s for good from t = 12.5 (the 4 at t = 12 breaks the first dip).
        self.assertEqual(st.time_to_stay(self.SER, 10.0, 14.0, below=2e6), 2.5)
        # Below 5: from t = 11.0 on.
        self.assertEqual(st.time_to_stay(self.SER, 10.0, 14.0, below=5e6), 1.0)

    def test_above_and_never(self):
        # Above 8 Mbit/s holds only at 10.0 and 10.5, and not at the end: never settles.
        self.assertIsNone(st.time_to_stay(self.SER, 10.0, 14.0, above=8e6))
        # Up to 10.5 only, it holds from the first point: 0 s after a start at 10.
        self.assertEqual(st.time_to_stay(self.SER, 10.0, 10.5, above=8e6), 0.0)
        self.assertIsNone(st.time_to_stay(self.SER, 20.0, 30.0, above=8e6), "no point")

    def test_the_start_need_not_be_a_sample_time(self):
        self.assertEqual(st.time_to_stay(self.SER, 11.2, 14.0, below=2e6), 1.3)


def tcp(sport, flags, ack, win, wscale=None):
    """An IPv4 TCP segment header (no payload) with an optional window-scale option."""
    opts = b"" if wscale is None else b"\x01\x03\x03" + bytes([wscale])
    doff = (20 + len(opts)) // 4
    t = struct.pack("!HHIIHHHH", sport, 40000, 7, ack, (doff << 12) | flags, win, 0, 0)
    total = 20 + len(t) + len(opts)
    ip = bytes([0x45, 0]) + struct.pack("!H", total) + bytes(5) + b"\x06" + bytes(10)
    return ip + t + opts


class RightEdgeTest(unittest.TestCase):
    def test_headers_are_read_with_the_window_scale_of_a_syn(self):
        h = st.parse_tcp(tcp(5001, 0x12, 1001, 65160, wscale=7))
        self.assertEqual((h["sport"], h["dport"], h["flags"], h["ack"], h["win"],
                          h["wscale"]), (5001, 40000, 0x12, 1001, 65160, 7))
        self.assertIsNone(st.parse_tcp(tcp(5001, 0x10, 1, 2))["wscale"])
        self.assertIsNone(st.parse_tcp(b"\x60" + bytes(60)), "IPv6 is not read")
        self.assertIsNone(st.parse_tcp(tcp(5001, 0x10, 1, 2)[:30]), "truncated")

    def test_an_edge_that_moves_back_is_a_retreat(self):
        # Shift 7: edges 1000 + 100*128 = 13800; 2000 + 100*128 = 14800; 3000 + 90*128
        # = 14520 (280 back); 5000 + 90*128 = 16520; the SYN-ACK's own edge is not checked.
        acks = [[0.0, 0x12, 1, 65535, 7], [0.1, 0x10, 1000, 100, None],
                [0.2, 0x10, 2000, 100, None], [0.3, 0x10, 3000, 90, None],
                [0.4, 0x10, 5000, 90, None]]
        out = st.right_edge_check(acks)
        self.assertEqual((out["acks"], out["retreats"], out["max_retreat_bytes"]),
                         (4, 1, 280))
        self.assertEqual(out["first"], [{"t": 0.3, "retreat_bytes": 280}])

    def test_a_closing_window_that_keeps_its_edge_is_no_retreat_nor_is_a_wrap(self):
        # Shift 0: ack 2^32 - 100 win 200 (edge 100 after the wrap), then ack 50 win 50.
        acks = [[0.0, 0x12, 0, 1000, None], [0.1, 0x10, 2**32 - 100, 200, None],
                [0.2, 0x10, 50, 50, None], [0.3, 0x14, 0, 0, None]]  # an RST: skipped
        out = st.right_edge_check(acks)
        self.assertEqual((out["acks"], out["retreats"]), (2, 0))


class SummaryOverRepeatsTest(unittest.TestCase):
    def _run(self, rledbat, alone, beside, again, plain_mbps=9.0, retreats=0):
        # Phases of 4 s: rates per 0.2 s interval; the competitor from 4 s to 8 s.
        r = [alone] * 20 + [beside] * 20 + [again] * 20
        s = samples(r)
        for x in s:
            if 4.0 < x["t"] <= 8.0:
                x["bytes"][5002] = round((x["t"] - 4.0) * plain_mbps * 1e6 / 8)
            x["backlog"] = 75_000  # 60 ms at 10 Mbit/s
        return {"sender_cc": "cubic", "fifo_ms": 121, "rtt_ms": 40, "rledbat": rledbat,
                "phase_s": 4.0, "competitor_start_s": 4.0, "competitor_end_s": 8.0,
                "samples": s, "right_edge": {"retreats": retreats}}

    def test_a_cell_pairs_each_repeat_with_its_baseline(self):
        runs = [self._run(True, 9.5, 0.1, 9.5), self._run(False, 10.0, 5.0, 10.0),
                self._run(True, 8.0, 0.1, 9.5, retreats=2), self._run(False, 10.0, 5.0, 10.0)]
        [row] = st.summarise(runs, 10_000_000)
        self.assertEqual((row["runs"], row["baseline_runs"]), (2, 2))
        # Ratios 0.95 and 0.80: median 0.875.
        self.assertEqual(row["alone_ratio"]["median"], 0.875)
        self.assertEqual(row["alone_queue_ms"]["median"], 60.0)
        # The rate falls at 4 s: the 0.6-s window is below 2 Mbit/s from 4.6 s (its first
        # sample after the competitor's start with under 1/5 of the window before it);
        # and back above 9 Mbit/s 0.6 s after 8 s.
        self.assertEqual(row["yield_s"]["median"], 0.6)
        self.assertEqual(row["recover_s"]["median"], 0.6)
        self.assertEqual(row["reach_s"]["median"], 0.6)
        self.assertEqual(row["targets"], {"a_rate": False, "a_queue": True, "b": True,
                                          "c": True, "d": False})
        md = st.markdown_table([row])
        self.assertIn("| cubic | 121 | 40 | 2 | 8.75 [8.00..9.50] (10.00 [10.00..10.00]) |",
                      md)



class PairTest(unittest.TestCase):
    """Two receivers of our kind (`--competitor rledbat`)."""

    @staticmethod
    def _run(first_mbps, second_mbps, rledbat=True):
        # the first alone at 8 Mbit/s for 4 s, then both for 4 s, samples every 0.5 s
        s, x1, x2 = [], 0, 0
        for i in range(17):
            t = i * 0.5
            if t > 0:
                x1 += round((8.0 if t <= 4.0 else first_mbps) * 1e6 / 8 * 0.5)
            if t > 4.0:
                x2 += round(second_mbps * 1e6 / 8 * 0.5)
            s.append({"t": t, "bytes": {5001: x1, 5002: x2} if t > 4.0 else {5001: x1},
                      "backlog": 75_000})
        flow = {"local": "10.77.2.1:5001", "remote": "10.77.1.1:4000", "detections": 1}
        return {"sender_cc": "cubic", "fifo_ms": 121, "rtt_ms": 10, "rledbat": rledbat,
                "competitor": "rledbat", "phase_s": 4.0, "competitor_start_s": 4.0,
                "samples": s, "rstats_end_of_phase": [[flow]],
                "rstats_before_second_end": [dict(flow, detections=3),
                                             {"local": "10.77.2.1:5002", "detections": 0}]}

    def test_jains_index_by_hand(self):
        self.assertEqual(st.jain([6.0, 3.0]), 0.9)  # 81 / (2 x 45)
        self.assertEqual(st.jain([5.0, 5.0]), 1.0)
        self.assertIsNone(st.jain([5.0, None]))
        self.assertIsNone(st.jain([0.0, 0.0]))

    def test_a_pair_runs_rates_share_and_yields(self):
        m = st.pair_metrics(self._run(6.0, 3.0), 10_000_000)
        self.assertEqual((m["first_mbps"], m["second_mbps"], m["jain"], m["used"]),
                         (6.0, 3.0, 0.9, 0.9))
        # over the whole phase the second's connection opens after the first sample: its
        # count starts from none
        self.assertEqual((m["queue_ms"], m["jain_whole"]), (60.0, 0.9))
        # the first's count went from 1 to 3 while both downloaded; the second's is 0
        self.assertEqual((m["first_detections"], m["second_detections"]), (2, 0))
        # a snapshot that failed (rstats' stderr kept as a string) is no count
        m = st.pair_metrics(dict(self._run(6.0, 3.0), rstats_before_second_end="no"),
                            10_000_000)
        self.assertEqual((m["first_detections"], m["second_detections"]), (None, None))

    def test_pairs_are_summarised_apart_from_the_targets_runs(self):
        runs = [self._run(6.0, 3.0), self._run(4.5, 4.5), self._run(5.0, 5.0, False)]
        self.assertEqual(st.summarise(runs, 10_000_000), [])
        rows = st.summarise_pairs(runs, 10_000_000)
        self.assertEqual([(r["rledbat"], r["runs"]) for r in rows], [(False, 1), (True, 2)])
        self.assertEqual(rows[1]["jain"]["median"], 0.95)  # of 0.9 and 1.0
        md = st.pair_markdown_table(rows)
        self.assertIn("| cubic | 121 | 10 | rLEDBAT | 2 | 5.25 [4.50..6.00] / 3.75 "
                      "[3.00..4.50] | 0.950 [0.900..1.000] | 0.90 [0.90..0.90] | "
                      "60 [60..60] | 0.950 [0.900..1.000] | 2 [2..2] / 0 [0..0] |", md)

    def test_the_watchers_lines_become_a_series_and_each_verdict_once(self):
        import tempfile
        t0 = 100.0
        flow = {"local": "10.77.2.1:5001", "updated_ns": 101_500_000_000, "phase": 1,
                "window": 40_000, "qd_ns": 61_250_000, "tests": 1, "clamp": 40_960,
                "last_test": {"at_ns": 101_400_000_000, "kind": "push", "positive": True,
                              "q0_ns": 70_000_000, "q1_ns": -2_000_000},
                "last_probe": {"at_ns": 101_450_000_000, "from_ns": 30_000_000,
                               "peak_ns": None, "after_ns": 28_000_000, "falls": 0,
                               "in_range": True, "fell": False, "room": False,
                               "resumed": False}}
        later = dict(flow, updated_ns=101_600_000_000, phase=4)
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as fh:
            # the same publication read twice, a later one, and a line cut at the end
            fh.write(json.dumps([flow]) + "\n" + json.dumps([flow]) + "\n"
                     + json.dumps([later]) + "\n" + '[{"local": "10.77')
        tr = st.rstats_trace(fh.name, t0)
        os.unlink(fh.name)
        self.assertEqual(tr["rstats_series"], [[1.5, 5001, 1, 40_000, 61.2, 1, 40_960],
                                               [1.6, 5001, 4, 40_000, 61.2, 1, 40_960]])
        self.assertEqual(tr["probes"], [{"t": 1.45, "port": 5001, "from_ms": 30.0,
                                         "peak_ms": None, "after_ms": 28.0, "falls": 0,
                                         "in_range": True, "fell": False, "room": False,
                                         "resumed": False}])
        self.assertEqual(tr["verdicts"], [{"t": 1.4, "port": 5001, "kind": "push",
                                           "positive": True, "q0_ms": 70.0,
                                           "q1_ms": -2.0}])
        self.assertIn("rstats_trace_error", st.rstats_trace(fh.name, t0))
        self.assertNotIn("rstats_trace_skipped", tr)

    def test_a_fine_series_keeps_its_detail_only_around_the_detections_acts(self):
        # two ports publishing every 20 ms from 0 to 5 s; a probe of 5001 ended at 3.0 s
        series = [[round(i * 0.02, 3), port, 1, 1000, 10.0, 0, 1000]
                  for i in range(251) for port in (5001, 5002)]
        trace = {"rstats_series": series, "verdicts": [],
                 "probes": [{"t": 3.0, "port": 5001}]}
        kept = st.thin_series(trace, every_s=0.1, before_s=1.0, after_s=0.2)
        times = sorted({r[0] for r in kept})
        # every 20 ms within [2.0, 3.2], both ports; every 100 ms elsewhere
        self.assertEqual([t for t in times if 2.0 <= t <= 3.2],
                         [round(2.0 + i * 0.02, 3) for i in range(61)])
        self.assertEqual([t for t in times if t < 2.0], [round(i * 0.1, 3) for i in range(20)])
        self.assertEqual([t for t in times if t > 3.2], [3.3, 3.4, 3.5, 3.6, 3.7, 3.8, 3.9,
                                                         4.0, 4.1, 4.2, 4.3, 4.4, 4.5, 4.6,
                                                         4.7, 4.8, 4.9, 5.0])
        self.assertEqual(len([r for r in kept if r[1] == 5002]), len(kept) // 2)
        # a verdict is a mark as a probe is; nothing to mark keeps the 100-ms rows
        marked = st.thin_series(dict(trace, probes=[], verdicts=[{"t": 1.0, "port": 5002}]),
                                every_s=0.1, before_s=0.1, after_s=0.0)
        self.assertIn(0.92, {r[0] for r in marked})
        self.assertEqual(len(st.thin_series({"rstats_series": series})), 2 * 51)

    def test_entries_of_a_build_that_publishes_less_are_skipped_and_counted(self):
        # An older `rstats --json` had no updated_ns: its entries are left out, the
        # others kept (a KeyError here once left the bed's namespaces behind).
        import tempfile
        new = {"local": "10.77.2.1:5001", "updated_ns": 101_500_000_000, "phase": 1,
               "window": 40_000, "qd_ns": 61_250_000, "tests": 1, "clamp": 40_960}
        old = {k: v for k, v in new.items() if k != "updated_ns"}
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as fh:
            fh.write(json.dumps([old, new]) + "\n" + json.dumps([old]) + "\n")
        tr = st.rstats_trace(fh.name, 100.0)
        os.unlink(fh.name)
        self.assertEqual(tr["rstats_series"], [[1.5, 5001, 1, 40_000, 61.2, 1, 40_960]])
        self.assertEqual(tr["rstats_trace_skipped"], 2)

    def test_a_pairs_verdicts_carry_the_others_phases_before_them(self):
        run = self._run(6.0, 3.0)
        run["rstats_series"] = [[5.0, 5002, 0, 20_000, 70.0, 0],
                                [5.3, 5002, 1, 30_000, 65.0, 0],
                                [5.4, 5001, 1, 50_000, 65.0, 1]]
        run["verdicts"] = [
            # alone (before the second's start at 4 s): not listed
            {"t": 3.0, "port": 5001, "kind": "hold", "positive": True, "q0_ms": 0.0,
             "q1_ms": 30.0},
            {"t": 5.6, "port": 5001, "kind": "push", "positive": True, "q0_ms": 70.0,
             "q1_ms": 64.5},
            {"t": 5.8, "port": 5002, "kind": "hold", "positive": False, "q0_ms": 0.0,
             "q1_ms": 3.0}]
        v = st.pair_verdicts(run)
        # 0.5 s before 5.6: the second's publications at 5.3 (avoidance) but not 5.0
        self.assertEqual(v[0], {"who": "first", "t": 1.6, "kind": "push", "positive": True,
                                "q0_ms": 70.0, "q1_ms": 64.5, "fall_ms": 5.5,
                                "other_phases": ["avoidance"], "other_window": 30_000})
        self.assertEqual((v[1]["who"], v[1]["fall_ms"], v[1]["other_phases"]),
                         ("second", None, ["avoidance"]))
        self.assertEqual(len(v), 2)
        md = st.verdicts_markdown_table([run])
        self.assertIn("| cubic | 10 | 1 | first | 1.60 | push | positive | 70.0 | 64.5 | "
                      "5.5 | avoidance | 30000 |", md)

    def test_a_pairs_probes_are_summed_up_per_receiver_while_both_download(self):
        run = self._run(6.0, 3.0)
        p = {"port": 5001, "peak_ms": None, "falls": 0, "in_range": True, "fell": False,
             "room": False, "resumed": False}
        run["probes"] = [
            dict(p, t=3.0, from_ms=10.0, after_ms=9.0),  # alone: left out
            dict(p, t=5.0, from_ms=40.0, after_ms=38.0),
            dict(p, t=6.0, from_ms=30.0, after_ms=20.0, fell=True, falls=1),
            dict(p, t=7.0, from_ms=80.0, after_ms=None, in_range=False, peak_ms=90.0)]
        self.assertEqual(st.pair_probes(run), [
            {"who": "first", "probes": 3, "in_range": 2, "fell": 1, "room": 0, "resumed": 0,
             "from_ms": 40.0, "peak_ms": 90.0, "after_ms": 29.0, "clamp_max": None,
             "advertised_max": None}])
        self.assertIn("| cubic | 10 | 1 | first | 3 | 2 | 1 | 0 | 0 | 40 | 90 | 29 | - | - |",
                      st.probes_markdown_table([run]))
        w = {"port": 5001, "clamp_max": 20_000, "advertised_max": 9_000}
        run["probe_windows"] = [dict(w, t=5.0), dict(w, t=6.0, advertised_max=17_000),
                                dict(w, t=3.0, clamp_max=1)]  # alone: left out
        self.assertEqual([(x["clamp_max"], x["advertised_max"])
                          for x in st.pair_probes(run)], [(20_000, 13_000)])

    def test_a_probes_window_is_read_from_the_acks_before_it_ended(self):
        res = {"probes": [{"t": 10.0, "port": 5001, "in_range": True, "from_ms": 20.0,
                           "peak_ms": 31.0, "after_ms": 22.0}],
               "rstats_series": [[9.3, 5001, 4, 2896, 20.0, 2, 2048],  # before the span
                                 [9.8, 5001, 4, 2896, 25.0, 2, 20_480],
                                 [9.9, 5002, 1, 50_000, 25.0, 0, 50_000]]}
        acks = {5001: [[0.0, 0x12, 1, 100, 7],              # SYN-ACK: shift 7
                       [9.3, 0x10, 1_000, 16, None],        # before the span
                       [9.5, 0x10, 2_000, 40, None],        # 40 << 7 = 5120
                       [9.9, 0x10, 20_000, 136, None],      # 17408
                       [10.0, 0x14, 30_000, 0, None],       # a RST: not a window
                       [10.2, 0x10, 40_000, 16, None]]}     # after it ended
        self.assertEqual(st.probe_windows(res, acks), [
            {"t": 10.0, "port": 5001, "in_range": True, "from_ms": 20.0, "peak_ms": 31.0,
             "after_ms": 22.0, "clamp_max": 20_480, "advertised_max": 17_408,
             "acked_bytes": 18_000}])

    def test_the_quick_check_wants_a_pair_to_use_half_the_link(self):
        ok = dict(self._run(3.0, 3.0), run_cgroups_left=[], teardown_problems=[])
        self.assertEqual(rb.check(ok, 10_000_000), [])
        idle = dict(self._run(2.0, 2.0), run_cgroups_left=[], teardown_problems=[])
        self.assertEqual(len(rb.check(idle, 10_000_000)), 1)


if __name__ == "__main__":
    unittest.main()


class TeardownTest(unittest.TestCase):
    """run() on a stand-in bed (no root: the topology, the processes and the samplers are
    fakes): the bed is removed even when a reader of the run's traces raises."""

    def test_the_bed_goes_when_a_trace_reader_raises(self):
        import io
        import tempfile
        calls = []

        class Topo:
            RCV_IF, RTR_RCV_IF = "rcv0", "rtr1"
            rcv, snd, rtr, rcv_ip = "ns-rcv", "ns-snd", "ns-rtr", "10.0.0.2"

            def __init__(self, **kw):
                pass

            def setup(self):
                calls.append("setup")

            def teardown(self):
                calls.append("teardown")
                return []

            def queue_stats(self):
                return {"drops": 0}

        class Proc:
            def __init__(self, argv, **kw):
                self.stdout = io.StringIO("listening capturing\n")

            def poll(self):
                return 0

            def wait(self, timeout=None):
                return 0

            terminate = kill = lambda self: None

        done = unittest.mock.Mock(stdout="", stderr="")
        boom = unittest.mock.Mock(side_effect=KeyError("updated_ns"))
        with tempfile.TemporaryDirectory() as logdir, \
                unittest.mock.patch.object(rb.topo, "Topology", Topo), \
                unittest.mock.patch.object(rb.subprocess, "Popen", Proc), \
                unittest.mock.patch.object(rb.subprocess, "run", return_value=done), \
                unittest.mock.patch.object(rb, "rstats_trace", boom), \
                unittest.mock.patch.object(rb, "_run_cgroups", return_value=[]):
            with self.assertRaises(KeyError):
                rb.run("ledbat", 0.01, 5.0, "owd", False, logdir, capture=False)
            self.assertEqual(os.listdir(logdir), [], "the watcher's file removed")
        self.assertEqual(calls, ["setup", "teardown"])
        boom.assert_called_once()


class ReceiverArgvTest(unittest.TestCase):
    def test_further_parameters_follow_the_signal_in_order(self):
        argv = rb.receiver_argv("ledbat", "owd", ["empty_queue_restart=true", "target=25ms"],
                                ["recv", "10.0.0.2", "5001"])
        self.assertEqual(argv, ["ledbat", "tcp", "run", "--cc", "cubic", "--rledbat",
                                "--rledbat-param", "signal=owd",
                                "--rledbat-param", "empty_queue_restart=true",
                                "--rledbat-param", "target=25ms",
                                "--", "recv", "10.0.0.2", "5001"])
        self.assertEqual(rb.receiver_argv("l", "rtt", [], ["r"]),
                         ["l", "tcp", "run", "--cc", "cubic", "--rledbat",
                          "--rledbat-param", "signal=rtt", "--", "r"])

    def test_a_parameter_without_a_value_is_refused_before_anything_runs(self):
        with self.assertRaises(SystemExit) as e, \
                unittest.mock.patch("sys.stderr"):
            rb.main(["--ledbat-bin", "x", "--rledbat-param", "empty_queue_restart"])
        self.assertEqual(e.exception.code, 2)

    def test_a_publication_interval_out_of_range_is_refused_before_anything_runs(self):
        for bad in ("-1", "1001"):
            with self.assertRaises(SystemExit) as e, \
                    unittest.mock.patch("sys.stderr"):
                rb.main(["--ledbat-bin", "x", "--publish-ms", bad])
            self.assertEqual(e.exception.code, 2)


class WriteTest(unittest.TestCase):
    def test_the_json_opens_with_the_head_and_the_table_reads_it_back(self):
        import argparse
        import json
        import os
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            a = argparse.Namespace(json=os.path.join(d, "r.json"), md=os.path.join(d, "r.md"))
            head = {"command": "python3 -m netbed.rledbatbed", "ledbat_build": "6f3d5970ab"}
            self.assertEqual(rb._write(a, [], 10_000_000, head), ([], []))
            with open(a.json) as fh:
                doc = json.load(fh)
            self.assertEqual(list(doc), ["command", "ledbat_build", "runs", "summary"])
            self.assertEqual(sorted(os.listdir(d)), ["r.json", "r.md"])  # no .tmp left
            self.assertEqual(rb.main(["--table-from", a.json]), 0)
