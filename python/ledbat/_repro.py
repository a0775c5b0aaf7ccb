"""`ledbat repro` from Python, with its runs on a Dask cluster."""

from __future__ import annotations

import json
import os
import numbers
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional, Union

__all__ = ["repro"]


def _ledbat_bin(given: Optional[str]) -> str:
    found = given or os.environ.get("LEDBAT_BIN") or shutil.which("ledbat")
    if not found:
        raise FileNotFoundError(
            "ledbat.repro runs the `ledbat` binary: pass ledbat_bin=, set LEDBAT_BIN or put "
            "it on PATH (cargo build --release -p ledbat-cli)"
        )
    return str(found)


def _seeds_arg(seeds: Union[int, str]) -> str:
    """`--seeds`' value: a count of at least 1, ``"auto"``, or ``"auto:"`` and the looks
    (``"auto:5,10"``; the command checks that they increase from 2)."""
    if seeds == "auto":
        return seeds
    if isinstance(seeds, str) and seeds.startswith("auto:"):
        looks = seeds[len("auto:"):].split(",")
        if all(n.strip().isdigit() for n in looks):
            return seeds
    if isinstance(seeds, str) and seeds.isdigit():
        count = int(seeds)
    elif isinstance(seeds, numbers.Integral) and not isinstance(seeds, bool):
        count = int(seeds)
    else:
        count = 0
    if count < 1:
        raise ValueError(
            f"seeds={seeds!r}: a number of seeds (at least 1), \"auto\" or \"auto:5,10\""
        )
    return str(count)


def repro(
    *claims: str,
    client: Any = None,
    seeds: Union[int, str] = 10,
    quick: bool = False,
    out: Union[str, Path] = "repro",
    cache: Union[None, bool, str, Path] = None,
    scenarios: Union[None, str, Path] = None,
    ledbat_bin: Optional[str] = None,
    timeout: float = 10.0,
) -> dict:
    """Runs ``ledbat repro`` (the papers' claims) and returns its report as ``--json`` gives it.

    `claims` are ids, id prefixes or papers (``"seed003"``), none for every claim. `seeds`:
    seeds per scenario, or ``"auto"`` for the sequential rule (``--seeds auto``: rounds of
    seeds until each claim's verdict is decided; ``"auto:5,10"``: those rounds); with
    `client`, every round's runs go to the cluster within this one call, and the report is
    the command line's. With
    `client`, a Dask ``distributed.Client`` or a scheduler address, the runs not in the run
    cache are sent to that cluster, one task per run (``ledbat repro --dask``); the report
    written to `out` (report.md, index.html) is byte for byte the local one but for its
    wall-clock line. The workers need this `ledbat` package and the binary at the same path.
    `cache`: None for the default run cache, False for none (``--no-cache``), or a
    directory. `timeout`: seconds to wait for the scheduler. Raises ValueError for `seeds`
    that are neither a count nor ``"auto"`` (with or without looks), and RuntimeError with
    the command's message when it fails (an unreachable scheduler, an unknown claim); no
    report is written then.
    """
    cmd = [_ledbat_bin(ledbat_bin), "repro", "--json", "--seeds", _seeds_arg(seeds), "--out", str(out)]
    if quick:
        cmd.append("--quick")
    if cache is False:
        cmd.append("--no-cache")
    elif cache is not None and cache is not True:
        cmd += ["--cache", str(cache)]
    if scenarios is not None:
        cmd += ["--scenarios", str(scenarios)]
    if client is not None:
        address = client if isinstance(client, str) else client.scheduler.address
        cmd += ["--dask", str(address), "--dask-python", sys.executable, "--dask-timeout", str(timeout)]
    cmd += [str(c) for c in claims]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        lines = [l for l in p.stderr.splitlines() if l.startswith("error")] or p.stderr.splitlines()[-3:]
        raise RuntimeError(f"ledbat repro failed (exit {p.returncode}): " + " / ".join(lines))
    return json.loads(p.stdout)
