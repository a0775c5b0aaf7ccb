"""Bounded subprocesses.

Every command the bed runs goes through here: short commands through `run` (always with a
timeout), long-lived ones (receivers, senders, samplers) through `Background`, which puts the
child in a session of its own so it can be stopped, with everything it forked, by its process
group id and nothing else.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Sequence

# Default bound of a short command (ip, tc, nft, ethtool, sysctl): none takes more than a
# fraction of a second on an idle machine.
SHORT_TIMEOUT_S = 20.0


class CommandError(RuntimeError):
    """A command failed or timed out; the message names the command and its output."""


def fmt(argv: Sequence[str]) -> str:
    """A shell-quoted rendering of `argv`, for messages and logs."""
    return " ".join(shlex.quote(a) for a in argv)


def in_ns(ns: str | None, argv: Sequence[str]) -> list[str]:
    """`argv` run inside network namespace `ns` (or as is when `ns` is None)."""
    if ns is None:
        return list(argv)
    return ["ip", "netns", "exec", ns, *argv]


def run(argv: Sequence[str], *, ns: str | None = None, timeout: float = SHORT_TIMEOUT_S,
        check: bool = True, input_text: str | None = None) -> subprocess.CompletedProcess:
    """Runs a short command to completion within `timeout` seconds and returns it.

    Raises `CommandError` on timeout, or on a non-zero exit when `check` is set.
    """
    full = in_ns(ns, argv)
    try:
        cp = subprocess.run(full, capture_output=True, text=True, timeout=timeout,
                            input=input_text, start_new_session=True)
    except subprocess.TimeoutExpired as e:
        raise CommandError(f"timed out after {timeout:.0f} s: {fmt(full)}") from e
    except FileNotFoundError as e:
        raise CommandError(f"not found: {full[0]} (in {fmt(full)})") from e
    if check and cp.returncode != 0:
        raise CommandError(
            f"exit {cp.returncode}: {fmt(full)}\n{cp.stderr.strip() or cp.stdout.strip()}")
    return cp


@dataclass
class Background:
    """A long-lived child in its own session, with stdout and stderr sent to files."""

    name: str
    argv: list[str]
    popen: subprocess.Popen
    started: float
    stdout_path: str
    stderr_path: str

    @classmethod
    def start(cls, name: str, argv: Sequence[str], *, ns: str | None, logdir: str,
              env: dict[str, str] | None = None) -> "Background":
        """Starts `argv` in namespace `ns`; output goes to `logdir/name.{out,err}`."""
        full = in_ns(ns, argv)
        out_path = os.path.join(logdir, f"{name}.out")
        err_path = os.path.join(logdir, f"{name}.err")
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            try:
                p = subprocess.Popen(full, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                     start_new_session=True, env=env)
            except FileNotFoundError as e:
                raise CommandError(f"not found: {full[0]} (in {fmt(full)})") from e
        return cls(name, full, p, time.monotonic(), out_path, err_path)

    def alive(self) -> bool:
        """Whether the child is still running."""
        return self.popen.poll() is None

    def wait(self, timeout: float) -> int | None:
        """Waits at most `timeout` seconds; returns the exit code or None if still running."""
        try:
            return self.popen.wait(timeout=max(0.0, timeout))
        except subprocess.TimeoutExpired:
            return None

    def stop(self, grace: float = 3.0) -> int:
        """Stops the child's process group: SIGTERM, then SIGKILL after `grace` seconds.

        Returns the exit code (negative for a signal, as in `subprocess`).
        """
        if self.popen.poll() is None:
            self._signal(signal.SIGTERM)
            if self.wait(grace) is None:
                self._signal(signal.SIGKILL)
                self.popen.wait(timeout=10)
        else:
            # The leader is gone; make sure nothing it forked survives it.
            self._signal(signal.SIGKILL)
        return self.popen.returncode

    def _signal(self, sig: int) -> None:
        try:
            os.killpg(self.popen.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def stderr_tail(self, n: int = 5) -> str:
        """The last `n` lines the child wrote to stderr."""
        try:
            with open(self.stderr_path, "r", errors="replace") as f:
                lines = f.read().strip().splitlines()
        except OSError:
            return ""
        return "\n".join(lines[-n:])

    def stdout_text(self) -> str:
        """Everything the child wrote to stdout."""
        try:
            with open(self.stdout_path, "r", errors="replace") as f:
                return f.read()
        except OSError:
            return ""
