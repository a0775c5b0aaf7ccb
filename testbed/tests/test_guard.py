"""The bed commands' shared pre-flight checks, signals and namespace clean-up."""

import os
import signal

import pytest

from netbed import guard, topo


def test_preflight_names_the_first_problem(monkeypatch, tmp_path):
    monkeypatch.setattr(guard.os, "geteuid", lambda: 1000)
    assert "root" in guard.preflight()
    monkeypatch.setattr(guard.os, "geteuid", lambda: 0)
    monkeypatch.setattr(guard.install, "check_installed", lambda: "netbed is not installed")
    assert guard.preflight() == "netbed is not installed"
    monkeypatch.setattr(guard.install, "check_installed", lambda: None)
    assert guard.preflight() is None
    missing = str(tmp_path / "ledbat")
    assert f"no ledbat binary at {missing}" in guard.preflight(missing)
    exe = tmp_path / "ledbat"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    assert guard.preflight(str(exe)) is None


def test_sigterm_becomes_keyboard_interrupt_once_armed():
    before = signal.getsignal(signal.SIGTERM)
    try:
        guard.arm(None)
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGTERM)
    finally:
        guard.disarm()
        signal.signal(signal.SIGTERM, before)


def test_delete_tagged_removes_only_that_runs_namespaces(monkeypatch):
    names = [f"{topo.NS_PREFIX}a1-snd", f"{topo.NS_PREFIX}a1-rcv", f"{topo.NS_PREFIX}a12-snd",
             "other"]
    deleted = []
    monkeypatch.setattr(topo, "list_ns", lambda: list(names))
    monkeypatch.setattr(topo, "delete_ns", lambda ns: deleted.append(ns) or [])
    assert topo.delete_tagged("a1") == names[:2]
    assert deleted == names[:2]
    deleted.clear()
    assert topo.cleanup_stale() == names[:3]
    assert deleted == names[:3]
