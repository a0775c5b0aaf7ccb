"""Parameter sweeps: a grid of overrides times seeds, on the local cores or on Dask."""

from __future__ import annotations

import uuid
from typing import Any, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

import pandas as pd

from . import _native
from ._scenario import Scenario, frame

__all__ = ["sweep", "SweepResult"]

Run = Tuple[int, int, List[Tuple[str, float]]]


class SweepResult(NamedTuple):
    """A sweep's two tables (unpack as ``runs, means = ledbat.sweep(...)``)."""

    runs: pd.DataFrame
    """One row per run: the grid parameters (the values as given), ``seed``, then every
    metric of `ledbat sweep`'s runs.csv (efficiency, throughput_mbps, jain_long,
    jain_short, tcp_share, loss_rate, queue and per-flow columns; NaN where undefined)."""
    means: pd.DataFrame
    """One row per grid point: the parameters, ``runs``, then ``METRIC.mean`` and
    ``METRIC.ci95`` (95 % Student-t half-width; NaN with fewer than two finite values),
    computed by the same code as `ledbat sweep`'s means.csv."""


def _run_task(
    text: str, sets: List[str], origin: Optional[str], name: Optional[str], point: int, seed: int
) -> Run:
    """One sweep run on a Dask worker (the worker needs `ledbat` installed)."""
    return _native.run_point(text, sets, origin, name, point, seed)


def _on_dask(client: Any, scenario: Scenario, points: list, seeds: List[int], progress: bool) -> List[Run]:
    try:
        import distributed
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "sweeps on Dask need the dask extra: pip install './python[dask]'"
        ) from e
    own = isinstance(client, str)
    if own:
        client = distributed.Client(client)
    try:
        text, sets, origin, name = scenario._args()
        tag = uuid.uuid4().hex[:8]
        futures = [
            client.submit(
                _run_task,
                text,
                sets + list(overrides),
                origin,
                name,
                p,
                seed,
                key=f"ledbat-run-{tag}-p{p}-s{seed}",
                pure=False,
            )
            for p, (_, _, overrides) in enumerate(points)
            for seed in seeds
        ]
        if progress:
            distributed.progress(futures)
        return client.gather(futures)
    finally:
        if own:
            client.close()


def sweep(
    scenario: Scenario,
    grid: Optional[Mapping[str, Sequence[Any]]] = None,
    seeds: Iterable[int] = (1,),
    *,
    client: Any = None,
    jobs: Optional[int] = None,
    progress: bool = False,
) -> SweepResult:
    """Runs `scenario` at every point of `grid` with every seed, like `ledbat sweep`.

    `grid` maps dotted keys (the ``--set`` syntax, e.g. ``"flow.0.cc.gain"``) to lists of
    values (str, bool, int or float); runs take the cartesian product in sorted-key order,
    seeds inner, the scenario's own overrides applied first. With the same grid and seeds
    the numbers are identical to those of a sweep file with the scenario's overrides as its
    `set`.

    By default the runs use the local cores (`jobs` threads, default one per core, GIL
    released). With `client`, a Dask ``distributed.Client`` or a scheduler address
    (``"tcp://host:8786"``), each run is one Dask task on that cluster, shown on its
    dashboard; ``progress=True`` also prints Dask's progress bar. Workers need `ledbat`
    installed (``pip install './python[dask]'``).

    Raises :class:`ledbat.ConfigError` for a bad key or value (naming it) and
    :class:`ledbat.SimulationError` if a run breaks packet conservation.
    """
    items = [(str(k), list(v)) for k, v in (grid or {}).items()]
    seeds = [int(s) for s in seeds]
    if not seeds:
        raise _native.ConfigError("invalid `seeds`: needs at least one seed")
    if any(s < 0 for s in seeds):
        raise _native.ConfigError("invalid `seeds`: seeds are non-negative integers")
    keys, points = _native.expand_grid(*scenario._args(), items)
    if client is None:
        runs = _native.run_grid(*scenario._args(), items, seeds, jobs or 0)
    else:
        runs = _on_dask(client, scenario, points, seeds, progress)
    runs_cols, means_cols = _native.sweep_tables(keys, [p[1] for p in points], runs)
    given = dict(items)

    def typed(point_of_row: Sequence[int], table: List[Tuple[str, str, Any]]) -> pd.DataFrame:
        df = frame(table)
        for i, k in enumerate(keys):
            values = given[k]
            df[k] = pd.Series([values[points[p][0][i]] for p in point_of_row], dtype=object)
            df[k] = df[k].infer_objects()
        return df

    return SweepResult(
        runs=typed([r[0] for r in runs], runs_cols),
        means=typed(range(len(points)), means_cols),
    )
