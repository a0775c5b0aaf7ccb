"""Bounded subprocesses: the process control of the bed, the side-by-side and interop.

Every command they run goes through here: short commands through `run` (always with a
timeout), long-lived ones (receivers, senders, samplers, real peers, captures) through
`Background`, which puts the child in a session of its own so it can be stopped, with
everything it forked, by its process group id and nothing else. A `Group` remembers the
children it started so that an interrupted run stops exactly those. `wait_until` is the one
bounded polling loop. `parent_of`, `pid_alive`, `children_of` and `cmdline_of` read what
`/proc` says about a process the checks did not start themselves (`tcprun`, `systemdunits`);
each answers for a process that is gone (None, False, empty) and never raises for it.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

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
        # Decoded as UTF-8 whatever the locale (qBittorrent's peer list holds "μTP").
        cp = subprocess.run(full, capture_output=True, encoding="utf-8", errors="replace",
                            timeout=timeout, input=input_text, start_new_session=True)
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
    stopped: bool = field(default=False, repr=False)

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

    @property
    def returncode(self) -> int | None:
        """The exit code once the child has exited (negative for a signal), else None."""
        return self.popen.poll()

    def stop(self, grace: float = 3.0, sig: int = signal.SIGTERM) -> int:
        """Stops the child's process group: `sig`, then SIGKILL after `grace` seconds.

        Returns the exit code (negative for a signal, as in `subprocess`). A second call
        signals nothing: the group id may belong to someone else by then.
        """
        if self.stopped:
            return self.popen.returncode
        self.stopped = True
        if self.popen.poll() is None:
            self._signal(sig)
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
        return _read(self.stdout_path)

    def stderr_text(self) -> str:
        """Everything the child wrote to stderr."""
        return _read(self.stderr_path)


def _read(path: str) -> str:
    try:
        with open(path, "r", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def stop_all(children: Sequence[Background], grace: float = 3.0) -> None:
    """Stops several children at once: SIGTERM to every process group first, then waits up
    to `grace` seconds for all of them together, then SIGKILL to those left."""
    live = [bg for bg in children if not bg.stopped]
    for bg in live:
        if bg.popen.poll() is None:
            bg._signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for bg in live:
        bg.wait(deadline - time.monotonic())
    for bg in live:
        bg.stop(grace=0.0, sig=signal.SIGKILL)


class Group:
    """The background children of one run, so that an interrupted run stops all of them
    (and nothing else)."""

    def __init__(self, logdir: str):
        self.logdir = logdir
        self.children: list[Background] = []

    def start(self, name: str, argv: Sequence[str], *, ns: str | None = None,
              env: dict[str, str] | None = None) -> Background:
        """`Background.start` with this group's log directory; the child is remembered."""
        bg = Background.start(name, argv, ns=ns, logdir=self.logdir, env=env)
        self.children.append(bg)
        return bg

    def stop_all(self, grace: float = 2.0) -> None:
        """Stops every child this group started that is not stopped yet."""
        for bg in self.children:
            bg.stop(grace)


def wait_until(ready: Callable[[], object], timeout: float, interval: float = 0.2) -> bool:
    """Calls `ready` every `interval` seconds until it returns a true value or `timeout`
    seconds have passed (it is called at least once); returns whether it became true."""
    deadline = time.monotonic() + timeout
    while True:
        if ready():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


def _stat_fields(pid: int) -> list[str]:
    """The fields of `/proc/PID/stat` after the command name (state first); empty when gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def parent_of(pid: int) -> int | None:
    """The parent's PID, or None when the process is gone."""
    f = _stat_fields(pid)
    return int(f[1]) if len(f) > 1 else None


def pid_alive(pid: int) -> bool:
    """Whether the process exists and is not a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    f = _stat_fields(pid)
    return bool(f) and f[0] != "Z"


def children_of(pid: int) -> list[int]:
    """The PIDs whose parent is `pid` (any of its threads), in ascending order."""
    return sorted(int(e) for e in os.listdir("/proc") if e.isdigit() and parent_of(int(e)) == pid)


def cmdline_of(pid: int) -> list[str]:
    """The process's arguments; empty when it is gone (or a kernel thread)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return [a.decode(errors="replace") for a in fh.read().split(b"\0") if a]
    except OSError:
        return []
