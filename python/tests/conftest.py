"""Shared fixtures: the repository's paths and the `ledbat` CLI binary to compare with."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = REPO / "scenarios"


@pytest.fixture(scope="session")
def ledbat_bin() -> str:
    """The CLI built from this checkout: $LEDBAT_BIN (CI passes its release binary), or
    `cargo build --release -p ledbat-cli` here (a no-op when it is up to date)."""
    given = os.environ.get("LEDBAT_BIN")
    if given:
        assert Path(given).is_file(), f"LEDBAT_BIN={given} does not exist"
        return str(Path(given).resolve())
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.fail("set LEDBAT_BIN or install cargo: the tests compare with the CLI")
    subprocess.run(
        [cargo, "build", "--release", "-p", "ledbat-cli", "--quiet"], cwd=REPO, check=True
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    if not target.is_absolute():
        target = REPO / target
    return str(target / "release" / "ledbat")


def cli(ledbat_bin: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Runs the CLI, capturing its output as text."""
    return subprocess.run(
        [ledbat_bin, *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )
