"""Kernel bbr against the simulator's: the analysis both sides share, from hand-made series."""

import math

from netbed import bbrbed
from netbed.measure import Cumulative


def steady(rate_bps, until, lows=()):
    """Cumulative bytes at `rate_bps`, sampled every 0.1 s from 0 to `until`, with the
    100-ms intervals starting at each time of `lows` carrying a tenth of the rate."""
    times, values, acc = [0.0], [0.0], 0.0
    n = round(until / 0.1)
    for i in range(n):
        start = round(i * 0.1, 6)
        r = rate_bps / 10 if any(abs(start - x) < 1e-9 for x in lows) else rate_bps
        acc += r / 8 * 0.1
        times.append(round((i + 1) * 0.1, 6))
        values.append(acc)
    return Cumulative(times, values)


def test_dips_are_low_windows_merged_when_adjacent():
    # Low at 10.0-10.2 (two windows, one dip) and 20.3-20.4: two dips, 10.3 s apart.
    s = steady(9.5e6, 30.0, lows=[10.0, 10.1, 20.3])
    d = bbrbed.dips(s, 5.0, 30.0, 10e6)
    assert [round(x, 1) for x in d] == [10.0, 20.3]
    assert math.isclose(bbrbed._spacing(d), 10.3)
    assert bbrbed._spacing(d[:1]) is None


def test_a_flow_at_half_the_link_has_no_dip_above_half():
    # 5.1 Mbit/s is not below half of 10: no dip; 4.9 is everywhere one long dip.
    assert bbrbed.dips(steady(5.1e6, 10.0), 0.0, 10.0, 10e6) == []
    assert bbrbed.dips(steady(4.9e6, 10.0), 0.0, 10.0, 10e6) == [0.0]


def test_alone_figures():
    flow = steady(9e6, 40.0, lows=[15.0])
    sent = Cumulative([0.0, 40.0], [0.0, 40 * 9.6e6 / 8])
    f = bbrbed.alone_figures(flow, sent, [2.0, 4.0, 6.0], 5.0, 35.0)
    # 30 s at 9 Mbit/s, one 0.1 s interval at 0.9: (29.9 * 9 + 0.1 * 0.9) / 30.
    assert math.isclose(f["rate_mbit"], (29.9 * 9 + 0.09) / 30)
    assert math.isclose(f["link_use"], 0.96)
    assert f["queue_mean_ms"] == 4.0
    assert f["dips"] == 1 and f["dip_spacing_s"] is None
    assert bbrbed.alone_figures(flow, None, [], 5.0, 35.0)["link_use"] is None


def test_beside_figures_give_bbrs_share():
    bbr = Cumulative([0.0, 60.0], [0.0, 60 * 3e6 / 8])
    cubic = Cumulative([0.0, 60.0], [0.0, 60 * 7e6 / 8])
    f = bbrbed.beside_figures(bbr, cubic, 20.0, 60.0)
    assert math.isclose(f["bbr_mbit"], 3.0) and math.isclose(f["cubic_mbit"], 7.0)
    assert math.isclose(f["bbr_share"], 0.3)


def test_sim_sets_put_the_file_on_the_case():
    assert bbrbed.sim_sets("alone", 40.0, 100) == [
        "topology.delay=20ms", 'topology.queue={ kind = "droptail", packets = 100 }']
    # A base RTT of 0 is 30 us each way, as the side-by-side simulator plan has it.
    assert bbrbed.sim_sets("alone", 0.0, 100)[0] == "topology.delay=30us"
    # Beside cubic, the simulator's cubic has Linux's HyStart, as the kernel's.
    assert bbrbed.sim_sets("cubic", 40.0, 17)[-1] == 'flow.1.cc={ name = "cubic", hystart = "linux" }'


def test_markdown_sets_kernel_beside_simulator():
    rows = [
        {"case": "alone", "rtt_ms": 40.0, "fifo_frames": 100, "side": "kernel", "rate_mbit": 9.4,
         "link_use": 0.97, "queue_mean_ms": 3.0, "queue_p95_ms": 9.0, "dips": 3,
         "dip_spacing_s": 10.2},
        {"case": "alone", "rtt_ms": 40.0, "fifo_frames": 100, "side": "kernel", "rate_mbit": 9.6,
         "link_use": 0.99, "queue_mean_ms": 5.0, "queue_p95_ms": 11.0, "dips": 3,
         "dip_spacing_s": 10.4},
        {"case": "alone", "rtt_ms": 40.0, "fifo_frames": 100, "side": "sim", "rate_mbit": 9.7,
         "link_use": None, "queue_mean_ms": 4.0, "queue_p95_ms": 8.0, "dips": 3,
         "dip_spacing_s": 10.3},
        {"case": "cubic", "rtt_ms": 40.0, "fifo_frames": 17, "side": "kernel", "bbr_mbit": 8.0,
         "cubic_mbit": 2.0, "bbr_share": 0.8},
        {"case": "cubic", "rtt_ms": 40.0, "fifo_frames": 275, "side": "kernel",
         "error": "cubic: exited early"},
    ]
    lines = bbrbed.markdown(rows).splitlines()
    assert lines[4] == ("| 40 ms | kernel | 2 | 9.50 [9.40..9.60] | 0.98 [0.97..0.99] | "
                        "4.00 [3.00..5.00] / 10.00 [9.00..11.00] | 3 [3..3] | "
                        "10.30 [10.20..10.40] |")
    assert lines[5] == "| 40 ms | sim | 1 | 9.70 | - | 4.00 / 8.00 | 3 | 10.30 |"
    assert "| 17 | kernel | 1 | 8.00 | 2.00 | 0.80 |" in lines
    assert lines[-1] == "- failed: kernel cubic 40 ms 275 frames: cubic: exited early"


def test_bad_input_is_an_error_naming_it(tmp_path, capsys):
    assert bbrbed.main(["--sim-only", "--rtts-ms", "4O"]) == 2
    assert "not a list of numbers: '4O'" in capsys.readouterr().err
    assert bbrbed.main(["--sim-only", "--repeats", "0"]) == 2
    assert "--repeats" in capsys.readouterr().err
    missing = tmp_path / "none.json"
    assert bbrbed.main(["--report", str(missing)]) == 2
    assert str(missing) in capsys.readouterr().err


def test_report_prints_the_tables_of_a_run(tmp_path, capsys):
    doc = {"rows": [{"case": "cubic", "rtt_ms": 40.0, "fifo_frames": 17, "side": "sim",
                     "bbr_mbit": 8.0, "cubic_mbit": 2.0, "bbr_share": 0.8}]}
    p = tmp_path / "bbrbed.json"
    p.write_text(__import__("json").dumps(doc))
    assert bbrbed.main(["--report", str(p)]) == 0
    assert "| 17 | sim | 1 | 8.00 | 2.00 | 0.80 |" in capsys.readouterr().out
