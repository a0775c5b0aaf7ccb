"""The bed commands' shared signals and namespace clean-up."""

import os
import signal

import pytest

from netbed import guard, topo


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
