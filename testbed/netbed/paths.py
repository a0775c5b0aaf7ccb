"""Where the repository and our `ledbat` binary are, and the command line a run records
(`command_line`): one anyone can run from the repository root, not this machine's paths."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
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


OUT = "$out"
"""What a path under a temporary directory is recorded as: the run's output folder, which
the reader chooses (`$out/NAME`, NAME the path's last part)."""

BUILT_BIN = "target/release/ledbat"
"""What a `ledbat` binary outside the repository is recorded as: a copy of a build (or
another checkout's), which `cargo build --release -p ledbat-cli` makes here."""

_PYTHON = re.compile(r"python3(\.\d+)?$")


def temp_roots() -> list[str]:
    """The temporary directories: /tmp, /var/tmp, `$TMPDIR` (what `tempfile.mkdtemp` uses),
    each also as its real path."""
    roots = {"/tmp", "/var/tmp", tempfile.gettempdir(), os.environ.get("TMPDIR") or "/tmp"}
    return sorted({os.path.normpath(r) for r in roots} | {os.path.realpath(r) for r in roots})


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def portable_path(path: str, binary: bool = False, repo: str = REPO,
                  cwd: str | None = None) -> str:
    """`path` (relative to `cwd`, by default the current directory) as anyone can use it
    from the repository root: relative to `repo` inside it; `$out/NAME` under a temporary
    directory (`temp_roots`); `target/release/ledbat` for a `binary` elsewhere. Any other
    path is returned as given."""
    full = os.path.normpath(os.path.join(cwd or os.getcwd(), path))
    if _under(full, repo):
        return os.path.relpath(full, repo)
    if binary:
        return BUILT_BIN
    if any(_under(full, r) for r in temp_roots()):
        return OUT if full in temp_roots() else f"{OUT}/{os.path.basename(full)}"
    return path


def _portable_word(word: str, repo: str, cwd: str | None) -> str:
    """One argument: the Python interpreter as `python3`, a path (absolute, or relative
    with a directory in it) through `portable_path`, anything else as it is."""
    if word == sys.executable or (os.sep in word and _PYTHON.match(os.path.basename(word))):
        return "python3"
    if os.path.isabs(word) or os.sep in word:
        return portable_path(word, repo=repo, cwd=cwd)
    return word


def _quote(word: str) -> str:
    """Shell quoting that leaves the `$out` placeholder to the shell."""
    if word.startswith(OUT + "/") or word == OUT:
        rest = word[len(OUT):]
        return OUT + (rest if shlex.quote(rest) == rest else shlex.quote(rest))
    return shlex.quote(word)


def command_line(prog: list[str], argv: list[str],
                 binary_options: tuple[str, ...] = ("--ledbat-bin",),
                 path_options: tuple[str, ...] = ("--json", "--md", "--out-dir", "--logdir"),
                 repo: str = REPO, cwd: str | None = None) -> str:
    """The command a run records in its JSON: `python3 PROG... ARGV...` as anyone can run
    it from the repository root (`prog`: `testbed/tcpbed.py`, or `-m netbed.NAME`). The
    value of a `binary_options` option goes through `portable_path` as a binary, that of a
    `path_options` one as a path (`x.json` too), any other argument or `--name=value` value
    when it looks like a path (`_portable_word`); every word is quoted for a shell (an empty
    argument as `''`)."""
    def value(opt: str, v: str) -> str:
        if opt in binary_options:
            return portable_path(v, binary=True, repo=repo, cwd=cwd)
        if opt in path_options:
            return portable_path(v, repo=repo, cwd=cwd)
        return _portable_word(v, repo, cwd)

    words = ["python3", *prog]
    prev = ""
    for arg in argv:
        name, eq, v = arg.partition("=")
        if prev:
            words.append(_quote(value(prev, arg)))
        elif arg.startswith("-") and eq:
            words.append(f"{shlex.quote(name)}={_quote(value(name, v))}")
        else:
            words.append(_quote(_portable_word(arg, repo, cwd)))
        prev = arg if not prev and arg in binary_options + path_options else ""
    return " ".join(words)


def build_commit(ledbat_bin: str) -> str | None:
    """The commit `ledbat_bin` was built from, as `ledbat --version` prints it in
    parentheses (`ledbat 0.1.0 (6f3d5970ab)`, `-dirty` when the tree had changes, `unknown`
    for a build outside git); None for a binary that does not say or does not run."""
    try:
        out = subprocess.run([ledbat_bin, "--version"], capture_output=True, text=True,
                             timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"\(([^()\s]+)\)\s*$", out.strip())
    return m.group(1) if m else None


def provenance(ledbat_bin: str | None = None, repo: str = REPO) -> dict:
    """What a bed's results were measured with, for its JSON: the checkout's commit
    (`git_head`) and, when `ledbat` ran, the binary as anyone can name it (`ledbat_bin`)
    and the commit it was built from (`ledbat_build`). The two commits differ when a build
    kept aside ran, as in an A/B of two commits."""
    try:
        head = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        head = ""
    doc: dict = {"git_head": head or None}
    if ledbat_bin:
        doc["ledbat_bin"] = portable_path(ledbat_bin, binary=True)
        doc["ledbat_build"] = build_commit(ledbat_bin)
    return doc
