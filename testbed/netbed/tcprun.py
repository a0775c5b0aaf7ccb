"""End-to-end check of per-application selection (`ledbat tcp run`), on loopback, as root.

`check_run` starts a local TCP server, runs `ledbat tcp run --cc CC -- python3 -m
netbed.tcprun hold ...` (a holder that opens a connection to the server, starts a child
holder that opens another, and reports both local ports), opens a connection of its own
from this process at the same time, and reads every connection's congestion control from
`ss -tin`: the holder's and its child's must be CC, this process's the system default. Then
it ends the run one of three ways and checks that nothing is left behind (ledbat's exit
status, no cgroup under `<v2 mount>/ledbat/`, no `ledbat_select` program loaded):

- `exit`:   the server closes the connections; the holders exit 7 (their EOF status), and
            `ledbat tcp run` passes 7 on;
- `term`:   SIGTERM to ledbat, which passes it on to the first holder: 128 + 15; the
            child holder outlives it, moved out of the cgroup and named on stderr;
- `killed`: SIGKILL to the first holder (its child stays), run with `--kill`: 128 + 9, and
            the child is killed with the cgroup;
- `ledbat-killed`: SIGKILL to ledbat itself, which can do nothing about it: its reaper
            (`ledbat tcp cgroup-reap`) moves both holders out of the cgroup, names them,
            removes the cgroup and exits; the kernel detaches the program.

`check_reaper_on_terminal` checks that the reaper's report reaches a terminal set to stop
background writers (`stty tostop`): on a pseudo-terminal a shell runs `ledbat tcp run --
sleep ...` and stays; ledbat is killed (SIGKILL), so the reaper, now in an orphaned
background process group, must still write its report there (the kernel fails such a
write with EIO unless SIGTTOU is blocked).

Every wait is bounded. `python3 -m netbed.tcprun check --ledbat-bin B` runs the four ends
and the terminal check, and prints JSON (exit status 1 when a check fails).
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

from . import install, ktcp
from .proc import children_of, cmdline_of, parent_of, pid_alive

HOLD_S = 30.0
"""How long a holder keeps its connection open at most."""
EOF_STATUS = 7
"""A holder's exit status when the server closed its connection."""

CC_FLAGS = {"ts", "sack", "ecn", "ecnseen", "fastopen", "ecn_low"}
"""Tokens `ss -i` may print before the congestion control's name."""


@dataclass(frozen=True)
class Socket:
    """One connection of `ss -tinH` (optionally `-p`) output."""

    local_port: int
    peer_port: int
    cc: str | None
    pids: tuple[int, ...] = ()
    """The processes holding it (`users:((...,pid=N,...))` with `-p`)."""


_PIDS = re.compile(r"pid=(\d+)")


def _port(addr: str) -> int | None:
    try:
        return int(addr.rsplit(":", 1)[1])
    except (IndexError, ValueError):
        return None


def sockets(ss_text: str) -> list[Socket]:
    """The connections in `ss -tinH` output: a socket line (its first two `ADDRESS:PORT`
    fields are the local and the peer address, with or without the state column; with `-p`
    a `users:(...)` field names the processes), then its indented information line, whose
    first token that is neither a flag nor `key:value` is the congestion control."""
    out: list[Socket] = []
    cur: Socket | None = None
    for line in ss_text.splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            if cur is not None:
                out.append(cur)
            cur = None
            ports = [p for p in (_port(f) for f in line.split() if not f.startswith("users:"))
                     if p is not None]
            if len(ports) >= 2:
                pids = tuple(int(x) for x in _PIDS.findall(line))
                cur = Socket(ports[0], ports[1], None, pids)
            continue
        if cur is None:
            continue
        cc = next((t for t in line.split() if t not in CC_FLAGS and ":" not in t), None)
        out.append(Socket(cur.local_port, cur.peer_port, cc, cur.pids))
        cur = None
    if cur is not None:
        out.append(cur)
    return out


def cc_by_local_port(ss_text: str) -> dict[int, str]:
    """Local port -> congestion control in `ss -tinH` output (`sockets`; a connection
    without an information line is left out)."""
    return {s.local_port: s.cc for s in sockets(ss_text) if s.cc is not None}


def _ss() -> str:
    return subprocess.run(["ss", "-tinH", "state", "established"], capture_output=True,
                          text=True, timeout=10).stdout


def hold(port: int, report: str, child: bool) -> int:
    """A holder: connects to 127.0.0.1:PORT, starts a child holder (unless it is one), writes
    `LOCALPORT` lines to REPORT, and waits for the server to close (at most HOLD_S)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    kid = None
    if child:
        kid = subprocess.Popen([sys.executable, "-m", "netbed.tcprun", "hold", str(port),
                                report, "--no-child"])
    with open(report, "a") as fh:
        fh.write(f"{os.getpid()} {s.getsockname()[1]}\n")
    s.settimeout(HOLD_S)
    try:
        data = s.recv(1)
    except OSError:
        data = b"x"
    if kid is not None:
        try:
            kid.wait(timeout=10)
        except subprocess.TimeoutExpired:
            kid.kill()
    return EOF_STATUS if data == b"" else 1


class _Server:
    """Accepts connections on 127.0.0.1 and keeps them until `close`."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        self.stop = False
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while not self.stop:
            try:
                c, _ = self.sock.accept()
                self.conns.append(c)
            except OSError:
                continue

    def close(self):
        self.stop = True
        self.thread.join(timeout=5)
        for c in self.conns:
            c.close()
        self.sock.close()


def _wait_lines(path: str, n: int, timeout: float) -> list[tuple[int, int]]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with open(path) as fh:
                rows = [tuple(map(int, line.split())) for line in fh if line.strip()]
            if len(rows) >= n:
                return rows
        except (FileNotFoundError, ValueError):
            pass
        time.sleep(0.05)
    raise TimeoutError(f"the holders did not report {n} connections within {timeout} s")


def _cgroup2_mount() -> str | None:
    with open("/proc/self/mountinfo") as fh:
        for line in fh:
            f = line.split()
            if "-" in f:
                i = f.index("-")
                if i + 1 < len(f) and f[i + 1] == "cgroup2":
                    return f[4]
    return None


def rledbat_run_argv(ledbat_bin: str, params: list[str], cmd: list[str]) -> list[str]:
    """`cmd` under `ledbat tcp run --cc cubic --rledbat`, each of `params` (KEY=VALUE)
    handed on as `--rledbat-param` in order: a download whose receiver runs receiver-side
    LEDBAT, as the beds start one."""
    argv = [ledbat_bin, "tcp", "run", "--cc", "cubic", "--rledbat"]
    for p in params:
        argv += ["--rledbat-param", p]
    return argv + ["--", *cmd]


def _run_cgroups() -> list[str]:
    m = _cgroup2_mount()
    d = os.path.join(m, "ledbat") if m else None
    if not d or not os.path.isdir(d):
        return []
    return sorted(e for e in os.listdir(d) if e.startswith("run-"))


def _selectors() -> int:
    """Programs named ledbat_select loaded now (bpftool), or -1 without bpftool."""
    try:
        cp = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True, text=True,
                            timeout=10)
    except FileNotFoundError:
        return -1
    if cp.returncode != 0:
        return -1
    return sum(1 for p in json.loads(cp.stdout or "[]") if p.get("name") == "ledbat_select")


def _reapers(cgroup_name: str) -> list[int]:
    """Processes running `ledbat tcp cgroup-reap` for the run cgroup `cgroup_name`."""
    pids = (int(e) for e in os.listdir("/proc") if e.isdigit())
    return [p for p in pids
            if "cgroup-reap" in (args := cmdline_of(p))
            and any(a.endswith(cgroup_name) for a in args) and pid_alive(p)]


ENDS = ("exit", "term", "killed", "ledbat-killed")


def check_run(ledbat_bin: str, cc: str = "scavenger", end: str = "exit",
              workdir: str = "/tmp") -> dict:
    """One `ledbat tcp run` as described in the module comment; returns what was seen and
    `ok`."""
    if end not in ENDS:
        raise ValueError(f"end `{end}`: one of {', '.join(ENDS)}")
    before = _selectors()
    # `ledbat tcp run` registers `cc` when it is absent and leaves it registered (a user's
    # later runs reuse it); this check unregisters what it caused, so a test run leaves the
    # machine as it found it
    ctl = ktcp.Controllers(ledbat_bin)
    cc_was_registered = cc in ctl.registered()
    srv = _Server()
    report = os.path.join(workdir, f"tcprun-{os.getpid()}-{end}.txt")
    if os.path.exists(report):
        os.remove(report)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""))
    argv = [ledbat_bin, "tcp", "run", "--cc", cc]
    if end == "killed":
        argv.append("--kill")
    argv += ["--", sys.executable, "-m", "netbed.tcprun", "hold", str(srv.port), report]
    errf = open(report + ".err", "w+")
    proc = subprocess.Popen(argv, env=env, stderr=errf, text=True)
    res: dict = {"end": end, "cc": cc}
    try:
        rows = _wait_lines(report, 2, 15.0)
        other = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
        time.sleep(0.2)
        ccs = cc_by_local_port(_ss())
        mine = other.getsockname()[1]
        res["holders"] = [{"pid": p, "port": port, "cc": ccs.get(port)} for p, port in rows]
        res["other"] = {"port": mine, "cc": ccs.get(mine)}
        # the first holder is ledbat's child (its cgroup-exec became the holder)
        first = [p for p, _ in rows if parent_of(p) == proc.pid]
        if len(first) != 1:
            raise RuntimeError(f"no holder of {rows} is the child of ledbat {proc.pid}")
        run_cgroup = f"run-{proc.pid}"
        res["reapers_during"] = _reapers(run_cgroup)
        if end == "exit":
            srv.close()
        elif end == "term":
            proc.send_signal(signal.SIGTERM)
        elif end == "killed":
            os.kill(first[0], signal.SIGKILL)
        else:
            proc.kill()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
            res["timeout"] = True
        res["status"] = proc.returncode
        if end == "ledbat-killed":
            # the reaper works after ledbat's end: wait (bounded) until it is gone
            end_by = time.monotonic() + 10
            while time.monotonic() < end_by and _reapers(run_cgroup):
                time.sleep(0.05)
        res["reapers_after"] = _reapers(run_cgroup)
        errf.seek(0)
        res["stderr"] = errf.read().strip()
        res["running_at_exit"] = [p for p, _ in rows if pid_alive(p)]
        res["run_cgroups_after"] = _run_cgroups()
        after = _selectors()
        # the kernel frees a program whose link's last descriptor closed with the process
        # that held it: after a SIGKILL, a moment later
        end_by = time.monotonic() + 5
        while time.monotonic() < end_by and after != before:
            time.sleep(0.1)
            after = _selectors()
        res["selectors_before_after"] = [before, after]
        # what outlived the command: ended by the server closing (bounded)
        srv.close()
        other.close()
        end_by = time.monotonic() + 5
        while time.monotonic() < end_by and any(pid_alive(p) for p, _ in rows):
            time.sleep(0.05)
        res["left_processes"] = [p for p, _ in rows if pid_alive(p)]
        want_status = {"exit": EOF_STATUS, "term": 128 + 15, "killed": 128 + 9,
                       "ledbat-killed": -9}[end]
        # SIGTERM reaches the first holder only: its child outlives it, moved out of the
        # cgroup and named; with --kill (killed) it dies with the cgroup; after a SIGKILL to
        # ledbat both run on, moved out and named by the reaper
        want_running = {"term": [p for p, _ in rows if p != first[0]],
                        "ledbat-killed": [p for p, _ in rows]}.get(end, [])
        res["ok"] = bool(
            len(res["reapers_during"]) == 1
            and not res["reapers_after"]
            and all(h["cc"] == cc for h in res["holders"])
            and res["other"]["cc"] not in (None, cc)
            and res["status"] == want_status
            and sorted(res["running_at_exit"]) == sorted(want_running)
            and all(str(p) in res["stderr"] for p in want_running)
            and not res["left_processes"]
            and not res["run_cgroups_after"]
            and after == before
        )
    finally:
        srv.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)
        errf.close()
        if not cc_was_registered and cc in ctl.registered():
            ctl._run("unload", cc, check=False)
            res["unloaded_after"] = cc not in ctl.registered()
        for f in (report, report + ".err"):
            if os.path.exists(f):
                os.remove(f)
    return res


def check_reaper_on_terminal(ledbat_bin: str, cc: str = "scavenger") -> dict:
    """The reaper's report on a `stty tostop` terminal, as described in the module comment;
    returns what was seen and `ok`."""
    ctl = ktcp.Controllers(ledbat_bin)
    cc_was_registered = cc in ctl.registered()
    hold_s = 8
    shell, fd = pty.fork()
    if shell == 0:  # the child: a shell on the terminal that outlives ledbat
        os.execvp("sh", ["sh", "-c", f"stty tostop; '{ledbat_bin}' tcp run --cc {cc} -- "
                         f"sleep {hold_s}; echo run-ended; sleep 2"])
    out = bytearray()

    def drain(seconds: float) -> None:
        end_by = time.monotonic() + seconds
        while time.monotonic() < end_by:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    out.extend(os.read(fd, 4096))
                except OSError:  # the terminal closed: every writer is gone
                    return

    res: dict = {"cc": cc}
    command = None
    try:
        # ledbat is the shell's child, the command (sleep) its child once it has started
        end_by = time.monotonic() + 15
        while time.monotonic() < end_by and command is None:
            drain(0.1)
            runs = children_of(shell)
            kids = children_of(runs[0]) if runs else []
            sleeps = [k for k in kids if cmdline_of(k)[:1] == ["sleep"]]
            if sleeps:
                ledbat, command = runs[0], sleeps[0]
        if command is None:
            raise RuntimeError("`ledbat tcp run -- sleep` did not start its command in 15 s")
        res["run_cgroup"] = run_cgroup = f"run-{ledbat}"
        res["reapers_during"] = _reapers(run_cgroup)
        os.kill(ledbat, signal.SIGKILL)
        end_by = time.monotonic() + 10
        while time.monotonic() < end_by and _reapers(run_cgroup):
            drain(0.1)
        drain(0.5)
        res["reapers_after"] = _reapers(run_cgroup)
        res["terminal"] = out.decode(errors="replace")
        res["run_cgroups_after"] = _run_cgroups()
        report = [ln for ln in res["terminal"].splitlines() if "without closing its cgroup" in ln]
        res["ok"] = bool(
            len(res["reapers_during"]) == 1
            and not res["reapers_after"]
            and len(report) == 1
            and str(command) in report[0]
            and not res["run_cgroups_after"]
        )
    finally:
        for p in (command, shell):
            if p is not None and pid_alive(p):
                os.kill(p, signal.SIGKILL)
        os.waitpid(shell, 0)
        os.close(fd)
        if not cc_was_registered and cc in ctl.registered():
            ctl._run("unload", cc, check=False)
            res["unloaded_after"] = cc not in ctl.registered()
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m netbed.tcprun", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    h = sub.add_parser("hold", help="(internal) a connection holder")
    h.add_argument("port", type=int)
    h.add_argument("report")
    h.add_argument("--no-child", action="store_true")
    c = sub.add_parser("check", help="the end-to-end checks (root)")
    c.add_argument("--ledbat-bin", required=True)
    c.add_argument("--cc", default="scavenger")
    c.add_argument("--ends", default=",".join(ENDS))
    a = ap.parse_args(argv)
    if a.cmd == "hold":
        return hold(a.port, a.report, not a.no_child)
    ledbat_bin = install.prepare("cgroups, BPF", a.ledbat_bin, install.Needs(["ss", "bpftool"]),
                                 log=lambda m: print(f"tcprun: {m}", file=sys.stderr, flush=True))
    if ledbat_bin is None:
        return 2
    results = [check_run(ledbat_bin, a.cc, e) for e in a.ends.split(",")]
    results.append(check_reaper_on_terminal(ledbat_bin, a.cc))
    print(json.dumps(results, indent=1))
    for r in results:
        if not r["ok"]:
            print(f"tcprun: failed: {r.get('end', 'the reaper on a tostop terminal')} "
                  "(the JSON above has what was seen)", file=sys.stderr)
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
