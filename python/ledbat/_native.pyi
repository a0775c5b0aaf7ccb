"""Type stubs of the Rust extension module `ledbat._native` (see python/src/lib.rs)."""

from typing import List, Optional, Sequence, Tuple

Column = Tuple[str, str, object]  # (name, kind: 'str' | 'f8' | 'u8', list or bytes)
Run = Tuple[int, int, List[Tuple[str, float]]]
Grid = Sequence[Tuple[str, Sequence[object]]]

class ConfigError(ValueError):
    """A scenario, an override or a controller configuration was refused; the message is
    the CLI's (without its `error: ` prefix), naming the key and, for files, the line."""

class SimulationError(RuntimeError):
    """The simulator broke one of its own invariants (packet conservation)."""

def check(
    text: str, sets: Sequence[str], origin: Optional[str] = None, name: Optional[str] = None
) -> Tuple[str, int]:
    """Parses and validates a scenario with its overrides; returns (name, default seed)."""

def to_toml(
    text: str, sets: Sequence[str], origin: Optional[str] = None, name: Optional[str] = None
) -> str:
    """The scenario with its overrides and every default spelled out, as TOML."""

def run(
    text: str, sets: Sequence[str], origin: Optional[str], name: Optional[str], seed: int
) -> Tuple[str, Optional[List[Column]], Optional[Tuple[List[Column], List[Column]]]]:
    """Runs the scenario (GIL released); returns summary.json text, the series table and,
    for a swarm, its peers and completions tables."""

def controllers(name: Optional[str] = None, params: Sequence[str] = ...) -> str:
    """The controller catalog as `ledbat controllers --json` prints it."""

def expand_grid(
    text: str, sets: Sequence[str], origin: Optional[str], name: Optional[str], grid: Grid
) -> Tuple[List[str], List[Tuple[List[int], List[str], List[str]]]]:
    """Grid keys in sweep order and, per point, value indices, values as text, overrides."""

def run_grid(
    text: str,
    sets: Sequence[str],
    origin: Optional[str],
    name: Optional[str],
    grid: Grid,
    seeds: Sequence[int],
    threads: int = 0,
) -> List[Run]:
    """Every grid point with every seed on local threads (GIL released)."""

def run_point(
    text: str,
    sets: Sequence[str],
    origin: Optional[str],
    name: Optional[str],
    point: int,
    seed: int,
) -> Run:
    """One sweep run (a Dask task): (point, seed, metrics)."""

def sweep_tables(
    keys: Sequence[str], params: Sequence[Sequence[str]], runs: Sequence[Run]
) -> Tuple[List[Column], List[Column]]:
    """The runs and means tables of a sweep, as (column, values) pairs."""
