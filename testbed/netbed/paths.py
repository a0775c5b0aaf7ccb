"""Where the repository and our `ledbat` binary are."""

from __future__ import annotations

import os
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""The repository root (this package lives in `testbed/netbed`; installed editable)."""


def default_out_dir(kind: str, suffix: str = "") -> str:
    """A run's output folder when `--out-dir` is not given: `<temp dir>/ledbat-KIND/<time>SUFFIX`
    (the temp dir is `$TMPDIR`, else /tmp)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return os.path.join(tempfile.gettempdir(), f"ledbat-{kind}", stamp + suffix)


def ledbat_bin_candidates(cargo_target_dir: str | None, repo: str = REPO) -> list[str]:
    """Where `cargo build` puts `ledbat`: {$CARGO_TARGET_DIR, REPO/target}/{release,debug}."""
    roots = ([cargo_target_dir] if cargo_target_dir else []) + [os.path.join(repo, "target")]
    return [os.path.join(r, p, "ledbat") for r in roots for p in ("release", "debug")]


def default_ledbat_bin() -> str:
    """The newest existing candidate (`ledbat_bin_candidates`), or the last one when none
    exists (the error then names a plausible path)."""
    cands = ledbat_bin_candidates(os.environ.get("CARGO_TARGET_DIR"))
    found = [c for c in cands if os.path.exists(c)]
    return max(found, key=os.path.getmtime) if found else cands[-1]


def write_atomic(path: str, data: str | bytes) -> None:
    """Writes `path` whole or not at all: into `path.tmp`, then renamed over it, so a run
    that stops half-way never leaves a half-written result."""
    tmp = path + ".tmp"
    with open(tmp, "wb" if isinstance(data, bytes) else "w") as fh:
        fh.write(data)
    os.replace(tmp, path)
