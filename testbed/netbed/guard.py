"""What every bed command does around its run (its pre-flight checks are
`install.preflight`): the overall time limit with the signals that stop a run cleanly
(`Deadline` on expiry, `KeyboardInterrupt` on SIGTERM, so that the command's `finally`
removes what it built)."""

from __future__ import annotations

import math
import signal


class Deadline(BaseException):
    """The overall time limit passed."""


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
