"""What every bed command does before and around its run: the pre-flight checks (root, the
bed's packages, our binary) and the overall time limit with the signals that stop a run
cleanly (`Deadline` on expiry, `KeyboardInterrupt` on SIGTERM, so that the command's
`finally` removes what it built)."""

from __future__ import annotations

import math
import os
import signal

from . import install


class Deadline(BaseException):
    """The overall time limit passed."""


def preflight(ledbat_bin: str | None = None) -> str | None:
    """The first reason a bed command cannot start, or None: not root (namespaces, qdiscs,
    captures), the bed's packages missing, or, when `ledbat_bin` is given, no executable
    there."""
    if os.geteuid() != 0:
        return ("the test bed creates network namespaces and qdiscs: run it as root "
                "(sudo python3 testbed/...)")
    problem = install.check_installed()
    if problem:
        return problem
    if ledbat_bin is not None and not os.access(ledbat_bin, os.X_OK):
        return (f"no ledbat binary at {ledbat_bin} (cargo build --release -p ledbat-cli, "
                "or --ledbat-bin PATH)")
    return None


def _on_alarm(_sig, _frame):
    raise Deadline()


def _on_term(_sig, _frame):
    raise KeyboardInterrupt()


def arm(seconds: float | None) -> None:
    """From now on SIGTERM raises KeyboardInterrupt and, after `seconds` (none: never),
    SIGALRM raises Deadline. Pair with `disarm()` in the run's `finally`."""
    signal.signal(signal.SIGTERM, _on_term)
    if seconds is not None:
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.alarm(max(1, int(math.ceil(seconds))))


def disarm() -> None:
    """Cancels the time limit (first thing in the run's `finally`, so that clean-up is not
    cut short)."""
    signal.alarm(0)
