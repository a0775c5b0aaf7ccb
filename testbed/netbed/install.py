"""Installing what the bed and the interop harness run: Debian packages and PyPI libtorrent.

One place for the three installers the scripts used to carry (the bed's tools, the
side-by-side's libtorrent and Transmission, interop's libtorrent, Transmission,
qBittorrent and tshark). The command lists are built by pure functions (`apt_commands`,
`pip_command`, `apt_packages_for`) so that they can be checked without root; `ensure` runs
them, each with a timeout, and raises `proc.CommandError` naming what is still missing.

Versions are the ones docs/real-peers.md describes: libtorrent 2.1.1 from PyPI (a
self-contained wheel), Transmission 3.00 and qBittorrent 4.5.2 from Debian 12.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Callable, Sequence

from . import proc

LT_VERSION = "2.1.1"
"""The PyPI libtorrent every Python peer of the bed and of interop runs."""

# Debian package providing each command the bed, the side-by-side or interop runs.
APT_PACKAGES = {
    "ip": "iproute2",
    "tc": "iproute2",
    "ss": "iproute2",
    "ethtool": "ethtool",
    "nft": "nftables",
    "iperf3": "iperf3",
    "ping": "iputils-ping",
    "sysctl": "procps",
    "bpftool": "bpftool",
    "curl": "curl",
    "tshark": "tshark",
    "transmission-daemon": "transmission-daemon",
    "transmission-create": "transmission-cli",
    "qbittorrent-nox": "qbittorrent-nox",
    "opentracker": "opentracker",
}

APT_UPDATE_TIMEOUT_S = 300
APT_INSTALL_TIMEOUT_S = 900
PIP_TIMEOUT_S = 600


def apt_packages_for(commands: Sequence[str]) -> tuple[list[str], list[str]]:
    """(Debian packages providing `commands`, commands no known package provides); both
    sorted and without duplicates."""
    pkgs = sorted({APT_PACKAGES[c] for c in commands if c in APT_PACKAGES})
    unknown = sorted({c for c in commands if c not in APT_PACKAGES})
    return pkgs, unknown


def apt_commands(packages: Sequence[str]) -> list[tuple[list[str], float]]:
    """The apt-get invocations (argv, timeout in s) that install `packages`: an index update,
    then one install that waits for the dpkg lock instead of failing on it."""
    return [(["apt-get", "update", "-qq"], APT_UPDATE_TIMEOUT_S),
            (["apt-get", "-o", "DPkg::Lock::Timeout=300", "install", "-y", "-qq",
              "--no-install-recommends", *sorted(set(packages))], APT_INSTALL_TIMEOUT_S)]


def pip_command(python: str, requirement: str, break_system: bool = False) -> list[str]:
    """`python -m pip install` of one requirement; `break_system` adds the flag Debian's own
    Python (PEP 668, "externally managed") needs; the libtorrent wheel is self-contained."""
    argv = [python, "-m", "pip", "install", "-q", requirement]
    return argv + ["--break-system-packages"] if break_system else argv


def _run(argv: list[str], timeout: float, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        raise proc.CommandError(f"timed out after {timeout:.0f} s: {proc.fmt(argv)}") from e
    except FileNotFoundError as e:
        raise proc.CommandError(f"not found: {argv[0]}") from e


def apt_install(packages: Sequence[str], log: Callable[[str], None] = print) -> None:
    """Installs Debian `packages` with apt-get (non-interactive)."""
    if shutil.which("apt-get") is None:
        raise proc.CommandError(f"no apt-get to install {' '.join(packages)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    log(f"apt-get install {' '.join(sorted(set(packages)))}")
    for argv, timeout in apt_commands(packages):
        cp = _run(argv, timeout, env)
        if cp.returncode != 0:
            raise proc.CommandError(f"{proc.fmt(argv)} failed:\n{cp.stderr[-2000:]}")


def have_module(name: str) -> bool:
    """Whether Python module `name` can be imported (without importing it)."""
    importlib.invalidate_caches()
    return importlib.util.find_spec(name) is not None


def pip_install_libtorrent(log: Callable[[str], None] = print) -> None:
    """Installs PyPI libtorrent LT_VERSION into this interpreter (pip itself from Debian's
    python3-pip first when this Python has none)."""
    req = f"libtorrent=={LT_VERSION}"
    log(f"pip install {req}")
    if _run([sys.executable, "-m", "pip", "--version"], 60).returncode != 0:
        apt_install(["python3-pip"], log)
    cp = _run(pip_command(sys.executable, req), PIP_TIMEOUT_S)
    if cp.returncode != 0 and "externally-managed" in cp.stderr:
        cp = _run(pip_command(sys.executable, req, break_system=True), PIP_TIMEOUT_S)
    if cp.returncode != 0:
        raise proc.CommandError(f"pip install {req} failed: {cp.stderr.strip()[-1000:]}")
    if not have_module("libtorrent"):
        raise proc.CommandError(f"pip installed {req} but `import libtorrent` still fails")


@dataclass
class Needs:
    """What one run needs: commands on PATH and, optionally, Python libtorrent."""

    commands: list[str] = field(default_factory=list)
    libtorrent: bool = False

    def missing(self, which: Callable[[str], str | None] | None = None,
                has_module: Callable[[str], bool] | None = None) -> "Needs":
        """The part of these needs not met on this machine (`which` and `has_module` look
        commands and modules up; default `shutil.which` and `have_module`)."""
        which = which or shutil.which
        has_module = has_module or have_module
        return Needs(sorted({c for c in self.commands if which(c) is None}),
                     self.libtorrent and not has_module("libtorrent"))


def ensure(needs: Needs, install: bool = True, log: Callable[[str], None] = print) -> None:
    """Makes sure every need is met, installing what is missing when `install` is set.

    Raises `proc.CommandError` naming what is missing (and how to install it) otherwise."""
    miss = needs.missing()
    if not miss.commands and not miss.libtorrent:
        return
    pkgs, unknown = apt_packages_for(miss.commands)
    if not install or unknown:
        what = [f"commands {', '.join(miss.commands)} (Debian: {' '.join(pkgs) or '?'})"
                ] if miss.commands else []
        if miss.libtorrent:
            what.append(f"python libtorrent (pip install libtorrent=={LT_VERSION})")
        raise proc.CommandError("missing: " + "; ".join(what)
                                + ("" if install else " (run without --no-install)"))
    if pkgs:
        apt_install(pkgs, log)
        still = [c for c in miss.commands if shutil.which(c) is None]
        if still:
            raise proc.CommandError(f"still missing after apt-get install: {', '.join(still)}")
    if miss.libtorrent:
        pip_install_libtorrent(log)


def preflight(needs: str, ledbat_bin: str | None = None, need_bin: bool = True) -> str | None:
    """What every bed command checks before it touches the machine: root (for `needs`, said
    in the message), the package importable by the children it starts (`check_installed`),
    and, when `need_bin`, our binary at `ledbat_bin` (default: the newest build). Prints the
    first problem and returns None (the caller exits 2); else the binary's absolute path."""
    from .paths import default_ledbat_bin
    if os.geteuid() != 0:
        print(f"error: needs root ({needs}): run it with sudo", file=sys.stderr)
        return None
    problem = check_installed()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return None
    path = os.path.abspath(ledbat_bin or default_ledbat_bin())
    if need_bin and not os.access(path, os.X_OK):
        print(f"error: no ledbat binary at {path} (--ledbat-bin, or cargo build --release "
              "-p ledbat-cli)", file=sys.stderr)
        return None
    return path


def prepare(needs: str, ledbat_bin: str | None, tools: Needs, install: bool = True,
            log: Callable[[str], None] = print, need_bin: bool = True) -> str | None:
    """`preflight`, then `ensure(tools)`: the opening of every bed command. Prints the first
    problem and returns None (the caller exits 2); else our binary's absolute path."""
    path = preflight(needs, ledbat_bin, need_bin)
    if path is None:
        return None
    try:
        ensure(tools, install=install, log=log)
    except proc.CommandError as e:
        print(f"error: {e}", file=sys.stderr)
        return None
    return path


def check_installed() -> str | None:
    """None when this interpreter imports the package from anywhere (so that the children
    a run starts with `python3 -m netbed.X`, in other directories, find it too), else the
    message saying how to install it. Checked in a child: this process may import it only
    because the entry point's own directory (testbed/) is first on its path."""
    try:
        cp = subprocess.run([sys.executable, "-c", "import netbed"], cwd="/",
                            capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        cp = None
    if cp is not None and cp.returncode == 0:
        return None
    return (f"the netbed package is not installed for {sys.executable}: "
            "python3 -m pip install -e ./testbed (see testbed/README.md, \"Installing\")")
