"""Where the repository and our `ledbat` binary are."""

from __future__ import annotations

import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""The repository root (this package lives in `testbed/netbed`; installed editable)."""


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
