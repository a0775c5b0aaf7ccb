"""The systemd units of `contrib/systemd/` run by a real systemd, as root.

The build machine's PID 1 is not systemd, so the units are checked in a throwaway system:
`systemd-nspawn --volatile=yes --boot` starts this host's own systemd (its `/usr`, read-only)
on an empty root in memory, with a network namespace of its own. The two files are installed
there as their comments say: `ledbat-tcp.service` in `/etc/systemd/system/`, and
`ledbat-yield.conf` as a drop-in of a stand-in `restic.service`. Three differences from a
host, each needed by the container and nothing else:

- the binary is at `/opt/ledbat/bin/ledbat`, not `/usr/local/bin/ledbat` (the host's `/usr`
  is read-only in the container, so nothing can be mounted there); the units are copied with
  that one path replaced, and the copy fails if they no longer name `/usr/local/bin/ledbat`;
- nspawn hides the host's `/sys/fs/bpf`, where a host's systemd mounts bpffs at boot, so
  the container gets an empty directory there (`--tmpfs`) and `ledbat tcp attach` mounts its
  own bpffs on it, which ends with the container;
- `--capability=all --system-call-filter=bpf`: the container's root may load BPF programs
  (registering a congestion control is global to the kernel, as on a host).

The container's systemd runs on the host's kind of hierarchy (this machine's is hybrid: v2
at `/sys/fs/cgroup/unified`), or with `unified` on the unified one (v2 at `/sys/fs/cgroup`,
nspawn's `SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1`); the check reads which one it got.

The stand-ins: `sink.service` accepts connections on 127.0.0.1:5999 and keeps them;
`restic.service` and `other.service` each open one connection to it and keep it. Then
`check_units`:

0. boots with `ledbat-tcp.service` enabled (when installed; the links `systemctl enable`
   makes from its `[Install]` section): it must be active, `scavenger` registered, and
   it must have become active before `network-pre.target` was reached;
1. starts `restic.service` alone: `ExecStartPre=` attaches (the drop-in's `Wants=` would
   start `ledbat-tcp.service` if it were not running); restic's connection must use
   `scavenger`, other's and the sink's side of both the namespace's default;
2. restarts `restic.service`: its new connection uses `scavenger` again (a new cgroup,
   attached again);
3. stops it: `ExecStopPost=` detaches, and no pin is left in bpffs;
4. powers the container off: `ledbat-tcp.service`'s `ExecStop=` unregisters `scavenger`,
   which the host's `ledbat tcp list` then shows. With the drop-in alone (`with_loader`
   False) `attach` registers `scavenger` itself and nothing unregisters it (as
   docs/tcp/README.md says); the check then unregisters it.

Every wait is bounded; the container is powered off on every exit (killed if it does not
stop) and `scavenger` is unregistered when the check registered it. The check refuses to run
when `scavenger` is registered already: the units' stop would unregister the host's.
The null run, the same services without the drop-in, must fail the check (restic's
connection then has the namespace's default). `python3 -m netbed.systemdunits --ledbat-bin
B` runs both forms on the hybrid hierarchy, the first also on the unified one, and the null
run and prints JSON (exit 1 when a form fails or the null
run passes, 2 when it cannot run here).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from . import ktcp, paths, tcprun
from .proc import children_of

CONTRIB = os.path.join(paths.REPO, "contrib", "systemd")
INSTALLED_BIN = "/usr/local/bin/ledbat"
"""Where the units' comments install the binary."""
CONTAINER_BIN = "/opt/ledbat/bin/ledbat"
"""Where the container has it."""
CC = "scavenger"
SINK_PORT = 5999
HOLD_S = 120
"""How long a stand-in keeps its connection at most."""
BOOT_TIMEOUT_S = 60.0
UNREACHABLE = ("", "offline")
"""What `systemctl is-system-running` prints before the container's manager answers."""
STEP_TIMEOUT_S = 30.0

_SINK = ("import socket,time\n"
         "s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\n"
         f"s.bind(('127.0.0.1',{SINK_PORT}));s.listen(16);k=[]\n"
         f"end=time.monotonic()+{HOLD_S}\n"
         "while time.monotonic()<end:\n"
         " s.settimeout(max(0.1,end-time.monotonic()))\n"
         " try: k.append(s.accept()[0])\n"
         " except OSError: pass\n")
_HOLDER = ("import socket,time\n"
           "end=time.monotonic()+10\n"
           "while True:\n"
           f" try: c=socket.create_connection(('127.0.0.1',{SINK_PORT}));break\n"
           " except OSError:\n"
           "  if time.monotonic()>end: raise\n"
           "  time.sleep(0.1)\n"
           f"time.sleep({HOLD_S})\n")


STANDIN_DIR = "/opt/ledbat/standin"
"""Where the container has the stand-ins' scripts."""


def _python_unit(description: str, script: str, extra: str = "") -> str:
    return (f"[Unit]\nDescription={description}\n{extra}"
            f"[Service]\nExecStart=/usr/bin/python3 {STANDIN_DIR}/{script}\n")


def enable_links(name: str, text: str, units_dir: str = "/etc/systemd/system") -> dict[str, str]:
    """What `systemctl enable NAME` creates for a unit of text `text`: a link
    `TARGET.wants/NAME` to the unit for each target its `[Install]` section's `WantedBy=`
    names (link path under the units directory -> link target)."""
    out: dict[str, str] = {}
    section = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif section == "Install" and line.startswith("WantedBy="):
            for target in line.split("=", 1)[1].split():
                out[f"{target}.wants/{name}"] = f"{units_dir}/{name}"
    return out


STANDINS = {"sink.py": _SINK, "holder.py": _HOLDER}
"""The stand-ins' scripts, by file name in `STANDIN_DIR`."""


def unit_files(contrib_dir: str = CONTRIB, with_loader: bool = True,
               with_dropin: bool = True) -> dict[str, str]:
    """Path under /etc/systemd/system -> text: the contrib units with the binary's path
    replaced by `CONTAINER_BIN`, and the stand-in services (`STANDINS`). Raises ValueError
    when a contrib unit does not name `INSTALLED_BIN` (the replacement would then check
    another file than the one users install). Without the drop-in (`with_dropin` False,
    the null run) nothing selects restic's congestion control."""
    out: dict[str, str] = {}
    wanted = {}
    if with_dropin:
        wanted["ledbat-yield.conf"] = "restic.service.d/ledbat-yield.conf"
    if with_loader:
        wanted["ledbat-tcp.service"] = "ledbat-tcp.service"
    for name, dest in wanted.items():
        with open(os.path.join(contrib_dir, name)) as fh:
            text = fh.read()
        if INSTALLED_BIN not in text:
            raise ValueError(f"{os.path.join(contrib_dir, name)} does not name {INSTALLED_BIN}")
        out[dest] = text.replace(INSTALLED_BIN, CONTAINER_BIN)
    after = "Wants=sink.service\nAfter=sink.service\n"
    out["sink.service"] = _python_unit("stand-in server", "sink.py")
    out["restic.service"] = _python_unit("stand-in for a backup", "holder.py", after)
    out["other.service"] = _python_unit("stand-in for any other service", "holder.py", after)
    return out


def nspawn_argv(units_dir: str, standin_dir: str, ledbat_bin: str, machine: str) -> list[str]:
    """The container's command line (module comment)."""
    return ["systemd-nspawn", "--quiet", "-D", "/", "--volatile=yes", "--boot",
            "--register=no", "--keep-unit", "--private-network", f"--machine={machine}",
            "--console=passive", "--capability=all", "--system-call-filter=bpf",
            "--tmpfs=/sys/fs/bpf", f"--bind-ro={units_dir}:/etc/systemd/system",
            f"--bind-ro={standin_dir}:{STANDIN_DIR}",
            f"--bind-ro={os.path.abspath(ledbat_bin)}:{CONTAINER_BIN}",
            "systemd.firstboot=off"]


class Container:
    """A booted throwaway system; `sh` runs a command in it, `close` powers it off."""

    def __init__(self, ledbat_bin: str, files: dict[str, str], unified: bool = False,
                 links: dict[str, str] | None = None):
        self.dir = tempfile.mkdtemp(prefix="ledbat-units-")
        log = os.path.join(self.dir, "nspawn.log")
        self.log_tail: list[str] = []
        units, standin = os.path.join(self.dir, "system"), os.path.join(self.dir, "standin")
        for root, tree in ((units, files), (standin, STANDINS)):
            for rel, text in tree.items():
                p = os.path.join(root, rel)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "w") as fh:
                    fh.write(text)
        for rel, dest in (links or {}).items():
            p = os.path.join(units, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            os.symlink(dest, p)
        self.logf = open(log, "w")
        env = dict(os.environ)
        if unified:
            env["SYSTEMD_NSPAWN_UNIFIED_HIERARCHY"] = "1"
        self.proc = subprocess.Popen(
            nspawn_argv(units, standin, ledbat_bin, f"ledbat-units-{os.getpid()}"),
            stdin=subprocess.DEVNULL, stdout=self.logf, stderr=subprocess.STDOUT, env=env)
        self.init = None
        end = time.monotonic() + BOOT_TIMEOUT_S
        while self.init is None and time.monotonic() < end and self.proc.poll() is None:
            kids = children_of(self.proc.pid)
            self.init = kids[0] if kids else None
            time.sleep(0.05)
        if self.init is None:
            self.close()
            raise RuntimeError("systemd-nspawn did not start a container: "
                               + " / ".join(self.log_tail))
        # the manager's bus comes up after the container's init starts: until then
        # systemctl prints nothing or `offline` (no manager reachable) and fails
        self.state = ""
        while (self.state in UNREACHABLE and time.monotonic() < end
               and self.proc.poll() is None):
            left = max(1.0, end - time.monotonic())
            self.state = self.sh("systemctl", "is-system-running", "--wait",
                                 timeout=left).stdout.strip()
            if self.state in UNREACHABLE:
                time.sleep(0.1)

    def sh(self, *argv: str, timeout: float = STEP_TIMEOUT_S) -> subprocess.CompletedProcess:
        return subprocess.run(["nsenter", "-t", str(self.init), "-a", *argv],
                              capture_output=True, text=True, timeout=timeout)

    def close(self) -> bool:
        """Powers off (SIGKILL if it does not stop within 30 s); True if it stopped by
        itself."""
        clean = False
        if self.proc.poll() is None:
            if self.init is not None:
                try:
                    self.sh("systemctl", "poweroff", "--no-block", timeout=10)
                except subprocess.TimeoutExpired:
                    pass
            else:
                self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
                clean = True
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.logf.close()
        with open(self.logf.name, errors="replace") as fh:
            self.log_tail = fh.read().splitlines()[-20:]
        shutil.rmtree(self.dir, ignore_errors=True)
        return clean


def _main_pid(c: Container, unit: str) -> int:
    cp = c.sh("systemctl", "show", "-p", "MainPID", "--value", unit)
    try:
        return int(cp.stdout.strip() or 0)
    except ValueError:
        return 0


def _connection_of(c: Container, unit: str) -> tcprun.Socket | None:
    """The connection `unit`'s main process holds to the sink (waits up to 10 s)."""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        pid = _main_pid(c, unit)
        socks = tcprun.sockets(c.sh("ss", "-tinHp", "state", "established").stdout)
        mine = [s for s in socks if pid and pid in s.pids and s.peer_port == SINK_PORT]
        if mine:
            return mine[0]
        time.sleep(0.1)
    return None


def _sink_side(c: Container, port: int) -> str | None:
    socks = tcprun.sockets(c.sh("ss", "-tinH", "state", "established").stdout)
    return next((s.cc for s in socks if s.local_port == SINK_PORT and s.peer_port == port), None)


def _pins(c: Container) -> list[str]:
    cp = c.sh("find", "/sys/fs/bpf/ledbat", "-type", "f")
    return sorted(cp.stdout.split()) if cp.returncode == 0 else []


def check_units(ledbat_bin: str, with_loader: bool = True, with_dropin: bool = True,
                unified: bool = False) -> dict:
    """The steps of the module comment; returns what was seen and `ok`. With `with_dropin`
    False (the null run: the same services without the drop-in) `ok` must come out False,
    restic's connection having the namespace's default."""
    ctl = ktcp.Controllers(ledbat_bin)
    if CC in ctl.registered():
        raise RuntimeError(f"`{CC}` is registered on this host already; the units' stop would "
                           f"unregister it (run `ledbat tcp unload {CC}` first)")
    res: dict = {"with_loader": with_loader, "with_dropin": with_dropin, "unified": unified}
    files = unit_files(with_loader=with_loader, with_dropin=with_dropin)
    # the loader enabled, as its comment installs it: it must run at boot, before the network
    links = (enable_links("ledbat-tcp.service", files["ledbat-tcp.service"]) if with_loader
             else {})
    res["enabled"] = sorted(links)
    c = Container(ledbat_bin, files, unified, links)
    try:
        res["boot"] = c.state
        # cgroup2fs: the unified hierarchy at /sys/fs/cgroup; tmpfs: v1 controllers there,
        # v2 beside them at /sys/fs/cgroup/unified (hybrid)
        res["cgroup_fs"] = c.sh("stat", "-fc", "%T", "/sys/fs/cgroup").stdout.strip()
        res["v2_at"] = ("/sys/fs/cgroup" if res["cgroup_fs"] == "cgroup2fs" else
                        c.sh("findmnt", "-nt", "cgroup2", "-o", "TARGET").stdout.strip())
        boot = {}
        for unit in ("ledbat-tcp.service", "network-pre.target"):
            cp = c.sh("systemctl", "show", "-p", "ActiveState", "-p",
                      "ActiveEnterTimestampMonotonic", unit)
            boot[unit] = dict(kv.split("=", 1) for kv in cp.stdout.split())
        res["at_boot"] = boot
        res["registered_at_boot"] = CC in ctl.registered()
        steps = []
        for step in ("start", "restart"):
            cp = c.sh("systemctl", step, "restic.service")
            other = "start" if step == "start" else None
            if other:
                c.sh("systemctl", "start", "other.service")
            r = _connection_of(c, "restic.service")
            o = _connection_of(c, "other.service")
            steps.append({
                "step": step,
                "status": cp.returncode,
                "stderr": cp.stderr.strip(),
                "restic": r.cc if r else None,
                "restic_pid": _main_pid(c, "restic.service"),
                "other": o.cc if o else None,
                "sink_side": [_sink_side(c, s.local_port) if s else None for s in (r, o)],
                "loader": c.sh("systemctl", "is-active", "ledbat-tcp.service").stdout.strip(),
                "pins": _pins(c),
            })
        cp = c.sh("systemctl", "stop", "restic.service")
        res["stop"] = {"status": cp.returncode, "pins": _pins(c),
                       "result": c.sh("systemctl", "show", "-p", "Result", "--value",
                                      "restic.service").stdout.strip()}
        res["journal"] = c.sh("journalctl", "--no-pager", "-o", "cat", "-u", "restic.service",
                              "-u", "ledbat-tcp.service").stdout.strip().splitlines()
        res["steps"] = steps
    finally:
        res["stopped_cleanly"] = c.close()
        res["nspawn_log"] = c.log_tail
        res["registered_after"] = CC in ctl.registered()
        if res["registered_after"]:
            ctl._run("unload", CC, check=False)
        res["left_registered"] = CC in ctl.registered()
    pin = "/sys/fs/bpf/ledbat/cgroup/system%2Eslice/restic%2Eservice/select"
    res["ok"] = bool(
        res.get("boot") in ("running", "degraded")
        and res.get("v2_at") == ("/sys/fs/cgroup" if unified else "/sys/fs/cgroup/unified")
        and all(s["status"] == 0 and s["restic"] == CC and s["other"] not in (None, CC)
                and all(x not in (None, CC) for x in s["sink_side"])
                and s["pins"] == [pin]
                and s["loader"] == ("active" if with_loader else "inactive")
                for s in res.get("steps", []))
        and len(res.get("steps", [])) == 2
        and _boot_ok(res.get("at_boot", {}), with_loader)
        and res.get("registered_at_boot") == with_loader
        # the restart's connection is a new process's
        and res["steps"][0]["restic_pid"] != res["steps"][1]["restic_pid"]
        and res["stop"]["status"] == 0 and res["stop"]["pins"] == []
        and res["stop"]["result"] == "success"
        and res["stopped_cleanly"]
        # the loader's stop unregisters; the drop-in alone leaves it for others
        and res["registered_after"] == (not with_loader)
        and not res["left_registered"]
    )
    return res


def _boot_ok(at_boot: dict, with_loader: bool) -> bool:
    """With the loader enabled: active after the boot and active before network-pre.target
    was reached (`systemctl show`'s monotonic times, µs); without: never started at boot."""
    mine = at_boot.get("ledbat-tcp.service", {})
    if not with_loader:
        return mine.get("ActiveState") == "inactive"
    pre = at_boot.get("network-pre.target", {})
    try:
        t_mine = int(mine.get("ActiveEnterTimestampMonotonic", "0"))
        t_pre = int(pre.get("ActiveEnterTimestampMonotonic", "0"))
    except ValueError:
        return False
    return (mine.get("ActiveState") == "active" and pre.get("ActiveState") == "active"
            and 0 < t_mine <= t_pre)


def usable(ledbat_bin: str) -> str | None:
    """Why the check cannot run here, or None."""
    if os.geteuid() != 0:
        return "needs root"
    for tool in ("systemd-nspawn", "nsenter", "ss"):
        if shutil.which(tool) is None:
            return f"no {tool} (Debian: systemd-container, util-linux, iproute2)"
    if not os.path.exists("/usr/lib/systemd/systemd"):
        return "no systemd to boot (Debian: systemd)"
    if not os.path.exists(ledbat_bin):
        return f"no ledbat binary at {ledbat_bin}"
    cp = subprocess.run([ledbat_bin, "tcp", "list", "--json"], capture_output=True, text=True,
                        timeout=30)
    if cp.returncode != 0:
        return f"`ledbat tcp list` fails: {cp.stderr.strip()}"
    if any(i.get("name") == CC for i in json.loads(cp.stdout or "[]")):
        return f"`{CC}` is registered on this host already"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m netbed.systemdunits", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ledbat-bin", default=paths.default_ledbat_bin())
    a = ap.parse_args(argv)
    why = usable(a.ledbat_bin)
    if why:
        print(f"systemdunits: cannot run here: {why}", file=sys.stderr)
        return 2
    cases = ((True, False), (True, True), (False, False))
    results = [check_units(a.ledbat_bin, w, unified=u) for w, u in cases]
    null = check_units(a.ledbat_bin, with_dropin=False)
    print(json.dumps(results + [null], indent=1))
    for (w, u), r in zip(cases, results):
        if not r["ok"]:
            print(f"systemdunits: failed: {'with' if w else 'without'} the loader unit, "
                  f"{'unified' if u else 'hybrid'} hierarchy (the JSON above has what was "
                  "seen)", file=sys.stderr)
    if null["ok"]:
        print("systemdunits: failed: the null run (no drop-in) passed", file=sys.stderr)
    return 0 if all(r["ok"] for r in results) and not null["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
