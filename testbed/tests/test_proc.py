"""Unit tests of the process control (no root: ordinary child processes)."""

import os
import signal
import subprocess
import sys
import time
import unittest

import pytest

from netbed import proc


def test_fmt_quotes_arguments_with_spaces():
    assert proc.fmt(["tc", "qdisc", "a b", "it's"]) == "tc qdisc 'a b' 'it'\"'\"'s'"


def test_in_ns_prefixes_ip_netns_exec_only_with_a_namespace():
    assert proc.in_ns(None, ["ping", "x"]) == ["ping", "x"]
    assert proc.in_ns("ns1", ["ping", "x"]) == ["ip", "netns", "exec", "ns1", "ping", "x"]


def test_run_returns_output_and_raises_on_failure():
    assert proc.run(["sh", "-c", "echo hi"]).stdout == "hi\n"
    with pytest.raises(proc.CommandError, match="exit 3"):
        proc.run(["sh", "-c", "echo boom >&2; exit 3"])
    assert proc.run(["sh", "-c", "exit 3"], check=False).returncode == 3


def test_run_decodes_utf8_whatever_the_locale():
    out = proc.run(["printf", "\\316\\274TP"]).stdout
    assert out == "\u03bcTP"


def test_run_bounds_the_time_and_names_the_command():
    t0 = time.monotonic()
    with pytest.raises(proc.CommandError, match="timed out after 0 s: sleep 5"):
        proc.run(["sleep", "5"], timeout=0.2)
    assert time.monotonic() - t0 < 3


def test_run_of_a_missing_program_is_a_command_error():
    with pytest.raises(proc.CommandError, match="not found: no-such-program-xyz"):
        proc.run(["no-such-program-xyz"])


def test_background_stop_kills_the_whole_group(tmp_path):
    # The child forks a grandchild and records its pid; stopping the child's group must
    # stop the grandchild too.
    pidfile = tmp_path / "grandchild"
    bg = proc.Background.start("fam", ["sh", "-c", f"sleep 60 & echo $! > {pidfile}; wait"],
                               ns=None, logdir=str(tmp_path))
    assert proc.wait_until(lambda: pidfile.exists() and pidfile.read_text().strip(), 5, 0.05)
    grandchild = int(pidfile.read_text())
    assert bg.alive()
    code = bg.stop(grace=2.0)
    assert code == -signal.SIGTERM
    assert not bg.alive()
    # The grandchild got the SIGTERM too (it may linger as a zombie of init for a moment).
    assert proc.wait_until(lambda: not _running(grandchild), 5, 0.05)


def test_background_stop_escalates_to_sigkill_after_the_grace(tmp_path):
    bg = proc.Background.start("stubborn", ["sh", "-c", "trap '' TERM; echo up; sleep 60"],
                               ns=None, logdir=str(tmp_path))
    assert proc.wait_until(lambda: "up" in bg.stdout_text(), 5, 0.05)
    t0 = time.monotonic()
    assert bg.stop(grace=0.3) == -signal.SIGKILL
    assert time.monotonic() - t0 < 5


def test_background_second_stop_signals_nothing(tmp_path, monkeypatch):
    bg = proc.Background.start("short", ["true"], ns=None, logdir=str(tmp_path))
    bg.wait(5)
    assert bg.stop() == 0
    sent = []
    monkeypatch.setattr(os, "killpg", lambda pid, sig: sent.append((pid, sig)))
    assert bg.stop() == 0
    assert sent == []


def test_background_logs_go_to_files_named_for_the_child(tmp_path):
    bg = proc.Background.start("talk", ["sh", "-c", "echo out; echo e1 >&2; echo e2 >&2"],
                               ns=None, logdir=str(tmp_path))
    assert bg.wait(5) == 0
    assert (tmp_path / "talk.out").read_text() == "out\n"
    assert bg.stderr_text() == "e1\ne2\n"
    assert bg.stderr_tail(1) == "e2"
    assert bg.returncode == 0


def test_group_stops_every_child_it_started(tmp_path):
    g = proc.Group(str(tmp_path))
    a = g.start("a", ["sleep", "60"])
    b = g.start("b", ["sleep", "60"])
    g.stop_all(grace=1.0)
    assert not a.alive() and not b.alive()
    assert [c.name for c in g.children] == ["a", "b"]


def test_wait_until_returns_as_soon_as_ready():
    calls = []

    def ready():
        calls.append(1)
        return len(calls) >= 3
    assert proc.wait_until(ready, 5, 0.01)
    assert len(calls) == 3


def test_wait_until_gives_up_after_the_timeout_having_tried_once():
    calls = []
    t0 = time.monotonic()
    assert not proc.wait_until(lambda: calls.append(1), 0.2, 0.05)
    took = time.monotonic() - t0
    assert 0.2 <= took < 3.0
    assert len(calls) >= 2
    assert not proc.wait_until(lambda: calls.append(1), 0, 0.05) and len(calls) >= 3


def _running(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_stop_all_signals_every_child_before_waiting(tmp_path):
    # Three children that each take 1 s to leave after SIGTERM: stopped together, not one
    # after the other (which would take 3 s).
    kids = [proc.Background.start(f"k{i}", ["sh", "-c", "trap 'sleep 1; exit 0' TERM; "
                                            "while :; do sleep 0.1; done"],
                                  ns=None, logdir=str(tmp_path)) for i in range(3)]
    time.sleep(0.3)
    t0 = time.monotonic()
    proc.stop_all(kids, grace=5.0)
    assert time.monotonic() - t0 < 2.5
    assert all(not k.alive() for k in kids)
    assert all(k.returncode == 0 for k in kids)


class ProcfsTest(unittest.TestCase):
    """parent_of, pid_alive, children_of and cmdline_of against processes the test starts."""

    def test_a_started_child_is_found_with_its_parent_and_arguments(self):
        p = subprocess.Popen(["sleep", "30"])
        try:
            self.assertIn(p.pid, proc.children_of(os.getpid()))
            self.assertEqual(proc.parent_of(p.pid), os.getpid())
            self.assertEqual(proc.cmdline_of(p.pid), ["sleep", "30"])
            self.assertTrue(proc.pid_alive(p.pid))
        finally:
            p.kill()
            p.wait()

    def test_an_unreaped_child_is_a_zombie_and_not_alive(self):
        p = subprocess.Popen([sys.executable, "-c", "pass"])
        os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped
        try:
            self.assertFalse(proc.pid_alive(p.pid))
            self.assertIn(p.pid, proc.children_of(os.getpid()))
        finally:
            p.wait()

    def test_a_process_that_is_gone_gives_nothing(self):
        p = subprocess.Popen(["true"])
        p.wait()
        self.assertFalse(proc.pid_alive(p.pid))
        self.assertIsNone(proc.parent_of(p.pid))
        self.assertEqual(proc.cmdline_of(p.pid), [])
        self.assertNotIn(p.pid, proc.children_of(os.getpid()))
