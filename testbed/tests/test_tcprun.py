"""Per-application selection (`ledbat tcp run`): the `ss` reader (no root), and the
end-to-end check on loopback (root, a ledbat built with `--features tcp`, cgroup v2; skipped
otherwise): python3 -m pytest testbed/tests/test_tcprun.py."""

import os
import subprocess
import unittest

from netbed import paths, tcprun

SS = """\
0      0      127.0.0.1:41501 127.0.0.1:58090
\t ts sack bbr wscale:10,10 rto:200 rtt:0.036/0.018 mss:32768 cwnd:10 segs_in:2
0      0      127.0.0.1:58090 127.0.0.1:41501
\t ts sack scavenger wscale:10,10 rto:200 rtt:0.032/0.016 mss:32741 cwnd:2
0      0      [::1]:8080 [::1]:50000
\t cubic wscale:7,7 rto:204 cwnd:10
"""


class SsTest(unittest.TestCase):
    def test_each_sockets_congestion_control_is_read_by_its_local_port(self):
        self.assertEqual(tcprun.cc_by_local_port(SS),
                         {41501: "bbr", 58090: "scavenger", 8080: "cubic"})

    def test_a_socket_line_without_information_gives_nothing(self):
        self.assertEqual(tcprun.cc_by_local_port("0 0 127.0.0.1:1 127.0.0.1:2\n"), {})

    def test_sockets_keep_both_ports_and_the_processes_with_or_without_the_state(self):
        text = (
            "ESTAB 0 0 127.0.0.1:5999 127.0.0.1:43210 users:((\"python3\",pid=61,fd=4))\n"
            "\t ts sack bbr wscale:7,7 cwnd:10\n"
            "0 0 127.0.0.1:43210 127.0.0.1:5999 users:((\"python3\",pid=53,fd=3),"
            "(\"sh\",pid=50,fd=3))\n"
            "\t ts sack scavenger wscale:7,7 cwnd:2\n"
            "0 0 [::1]:80 [::1]:4000\n"
        )
        S = tcprun.Socket
        self.assertEqual(tcprun.sockets(text), [
            S(5999, 43210, "bbr", (61,)),
            S(43210, 5999, "scavenger", (53, 50)),
            S(80, 4000, None, ()),
        ])
        # two connections on one local port are both kept; the map by local port keeps one
        self.assertEqual(tcprun.cc_by_local_port(text), {5999: "bbr", 43210: "scavenger"})


def _usable() -> str | None:
    """Why the end-to-end check cannot run here, or None."""
    if os.geteuid() != 0:
        return "needs root"
    b = paths.default_ledbat_bin()
    if not os.path.exists(b):
        return f"no ledbat binary at {b}"
    cp = subprocess.run([b, "tcp", "list"], capture_output=True, text=True, timeout=30)
    if cp.returncode != 0:
        return f"`ledbat tcp list` fails: {cp.stderr.strip()}"
    with open("/proc/self/mountinfo") as fh:
        if " - cgroup2 " not in fh.read():
            return "no cgroup v2"
    return None


@unittest.skipIf(_usable() is not None, _usable() or "")
class RunTest(unittest.TestCase):
    def check(self, end):
        r = tcprun.check_run(paths.default_ledbat_bin(), "scavenger", end)
        self.assertTrue(r["ok"], r)
        # a controller the run registered is unregistered by the check, and is gone
        self.assertIn(r.get("unloaded_after", True), (True,), r)

    def test_the_command_and_its_child_use_the_controller_and_nothing_is_left(self):
        self.check("exit")

    def test_sigterm_to_ledbat_is_passed_on_and_the_cgroup_removed(self):
        self.check("term")

    def test_a_killed_command_with_kill_leaves_nothing(self):
        self.check("killed")

    def test_sigkill_to_ledbat_itself_leaves_nothing_but_the_commands_processes(self):
        self.check("ledbat-killed")

    def test_the_reapers_report_reaches_a_terminal_that_stops_background_writers(self):
        r = tcprun.check_reaper_on_terminal(paths.default_ledbat_bin(), "scavenger")
        self.assertTrue(r["ok"], r)
        self.assertIn(r.get("unloaded_after", True), (True,), r)


if __name__ == "__main__":
    unittest.main()
