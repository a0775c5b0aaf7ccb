"""Scenarios and the results of one run."""

from __future__ import annotations

import json
import os
from functools import cached_property
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd

from . import _native

__all__ = ["Scenario", "Result", "controllers"]

PathOrText = Union[str, "os.PathLike[str]"]


def _override_text(key: str, value: Any) -> str:
    """`key=value` as the CLI's `--set` takes it; Python values are written as TOML."""
    if value is None:
        if "=" not in key:
            raise TypeError(f"set({key!r}) needs a value (or one 'key=value' string)")
        return key
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (int, float)):
        text = repr(value)
    else:
        text = str(value)
    return f"{key}={text}"


class Scenario:
    """A simulation scenario: TOML text (schema in `crates/ledbat-sim/SCENARIOS.md`) plus
    `--set` overrides, validated at every change by the same code as the `ledbat` CLI.

    Build one with :meth:`from_toml`. Scenarios are plain data (text and strings), so they
    pickle and can be sent to Dask workers.
    """

    def __init__(
        self,
        text: str,
        *,
        origin: Optional[str] = None,
        name: Optional[str] = None,
        sets: Sequence[str] = (),
    ) -> None:
        """Parses `text` with the overrides `sets` (``"key=value"`` strings). `origin` is
        the file it came from (error messages start with it, as the CLI's do) and `name` the
        name used when the text sets none. Raises :class:`ledbat.ConfigError`."""
        self._text = text
        self._origin = origin
        self._default_name = name
        self._sets: List[str] = list(sets)
        self._name, self._seed = _native.check(text, self._sets, origin, name)

    @classmethod
    def from_toml(cls, path_or_text: PathOrText) -> "Scenario":
        """Loads a scenario from a file path (a `pathlib.Path`, or a one-line string that
        ends in ``.toml`` or names an existing file) or from TOML text. A scenario read from
        a file without a `name` is named after the file's stem, as by `ledbat sim`.
        Raises :class:`ledbat.ConfigError` (message: ``PATH: what, key and line``) or
        `OSError` if the file cannot be read."""
        if isinstance(path_or_text, os.PathLike) or (
            isinstance(path_or_text, str)
            and "\n" not in path_or_text
            and (path_or_text.endswith(".toml") or os.path.isfile(path_or_text))
        ):
            origin = os.fspath(path_or_text)
            text = Path(origin).read_text(encoding="utf-8")
            return cls(text, origin=origin, name=Path(origin).stem)
        if not isinstance(path_or_text, str):
            raise TypeError("from_toml takes a path or TOML text")
        return cls(path_or_text)

    def set(self, key: Union[str, Mapping[str, Any]], value: Any = None) -> "Scenario":
        """Overrides one key, exactly like the CLI's ``--set key=value``: dotted keys, array
        elements by index (``"flow.0.cc.target"``), values as TOML or bare strings
        (``"60ms"``); Python `bool`, `int` and `float` are written as TOML. ``set("k=v")``
        also works, and ``set({"duration": "10s", "warmup": "2s"})`` applies several
        overrides in order before validating (as several ``--set`` do). Changes this
        scenario and returns it (calls chain). Raises :class:`ledbat.ConfigError` and
        leaves the scenario unchanged if the result is invalid."""
        if isinstance(key, Mapping):
            if value is not None:
                raise TypeError("set(mapping) takes no value")
            items = [_override_text(k, v) for k, v in key.items()]
        else:
            items = [_override_text(key, value)]
        sets = self._sets + items
        self._name, self._seed = _native.check(
            self._text, sets, self._origin, self._default_name
        )
        self._sets = sets
        return self

    def copy(self) -> "Scenario":
        """An independent copy (overrides on it leave this one alone)."""
        return Scenario(
            self._text, origin=self._origin, name=self._default_name, sets=self._sets
        )

    @property
    def text(self) -> str:
        """The TOML text as loaded, without the overrides."""
        return self._text

    @property
    def overrides(self) -> Tuple[str, ...]:
        """The ``key=value`` overrides applied so far, in order."""
        return tuple(self._sets)

    @property
    def origin(self) -> Optional[str]:
        """The file the scenario was read from, if any."""
        return self._origin

    @property
    def name(self) -> str:
        """The scenario's name (the file's stem when the file sets none)."""
        return self._name

    @property
    def seed(self) -> int:
        """The seed a run uses when given none (the scenario's `seed`, default 1)."""
        return self._seed

    def to_toml(self) -> str:
        """The scenario with its overrides and every default spelled out (what
        `ledbat sim --out` writes as scenario.toml)."""
        return _native.to_toml(self._text, self._sets, self._origin, self._default_name)

    def run(self, seed: Optional[int] = None) -> "Result":
        """Simulates the scenario with `seed` (default: :attr:`seed`). The GIL is released
        while it simulates, so runs in several threads proceed in parallel. Same scenario
        and seed give identical results, and the same as `ledbat sim --seed`. Raises
        :class:`ledbat.ConfigError` if a controller refuses its configuration."""
        seed = self._seed if seed is None else int(seed)
        summary, series, swarm = _native.run(*self._args(), seed)
        return Result(json.loads(summary), series, swarm)

    def _args(self) -> Tuple[str, List[str], Optional[str], Optional[str]]:
        return (self._text, list(self._sets), self._origin, self._default_name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scenario):
            return NotImplemented
        return self._args() == other._args()

    def __hash__(self) -> int:
        return hash((self._text, tuple(self._sets), self._origin, self._default_name))

    def __repr__(self) -> str:
        where = f" from {self._origin!r}" if self._origin else ""
        return f"<Scenario {self._name!r}{where}, overrides {self._sets!r}>"


class Result:
    """What one run produced. :attr:`summary` is the content of `summary.json`;
    the DataFrames are built from it (and from the series) on first access. A swarm run
    (a `[swarm]` scenario) has :attr:`peers`, :attr:`classes` and its leecher
    :attr:`completions` instead of flows and links."""

    def __init__(
        self,
        summary: Dict[str, Any],
        series: Optional[List[Tuple[str, str, Any]]],
        swarm: Optional[Tuple[List[Tuple[str, str, Any]], List[Tuple[str, str, Any]]]] = None,
    ):
        """Wraps the native run's output; use :meth:`Scenario.run` rather than this."""
        self._summary = summary
        self._series = series
        self._swarm = swarm

    @property
    def summary(self) -> Dict[str, Any]:
        """Everything `ledbat sim --out` writes to summary.json, as a dict: scenario, seed,
        duration, aggregate metrics, flows, links, packet conservation, engine counters."""
        return self._summary

    @property
    def seed(self) -> int:
        """The seed of the run."""
        return int(self._summary["seed"])

    @property
    def aggregate(self) -> Dict[str, Any]:
        """Whole-run metrics (efficiency, throughput, Jain's indices, TCP share, loss)."""
        return self._summary["aggregate"]

    @cached_property
    def flows(self) -> pd.DataFrame:
        """One row per flow: every scalar field of summary.json's `flows` (name,
        controller, throughput_bps, cwnd_mean_pkts, rtt_mean_ms, ...). The completed
        transfers are in :attr:`completions`."""
        return _records(self._summary["flows"], drop=("completions",))

    @cached_property
    def links(self) -> pd.DataFrame:
        """One row per monitored link: every scalar field of summary.json's `links`
        (utilisation, queue and queuing-delay statistics, losses). The queue-length
        histogram stays in :attr:`summary` (``links[i]["queue_hist"]``)."""
        return _records(self._summary["links"], drop=("queue_hist",))

    @property
    def is_swarm(self) -> bool:
        """Whether this is a BitTorrent swarm run."""
        return self._swarm is not None

    @property
    def swarm(self) -> Dict[str, Any]:
        """summary.json's `swarm` section (per-class results with their queue histograms,
        download-time statistics, byte shares); empty for a flow scenario."""
        return self._summary.get("swarm") or {}

    @cached_property
    def peers(self) -> pd.DataFrame:
        """A swarm's peers, one row each, with the columns of `ledbat sim`'s peers.csv
        (id, class, join/completion/departure times, bytes per transport, uplink queue,
        utilisation, request-to-block latency, protocol counters). Empty for flows."""
        if self._swarm is None:
            return pd.DataFrame()
        return frame(self._swarm[0])

    @cached_property
    def classes(self) -> pd.DataFrame:
        """A swarm's classes, one row each: the scalar fields of summary.json's
        `swarm.classes` (queue histograms stay in :attr:`swarm`), with the download-time
        statistics flattened as ``download.mean``, ``download.q1``, ..."""
        rows = self.swarm.get("classes", [])
        if not rows:
            return pd.DataFrame()
        return pd.json_normalize(
            [{k: v for k, v in r.items() if not k.startswith("queue_hist")} for r in rows]
        )

    @cached_property
    def completions(self) -> pd.DataFrame:
        """Flows: one row per completed transfer, chunk or train (flow, start_s, time_s,
        packets). Swarms: one row per leecher completion with the columns of
        completions.csv (rank, at_s, peer, class, download_s, measured)."""
        if self._swarm is not None:
            return frame(self._swarm[1])
        rows = [
            {"flow": f["name"], **c}
            for f in self._summary["flows"]
            for c in f.get("completions", [])
        ]
        return pd.DataFrame(rows, columns=["flow", "start_s", "time_s", "packets"])

    @cached_property
    def series(self) -> pd.DataFrame:
        """The time series, with the columns of `ledbat sim`'s series.csv: ``t_s``, then per
        flow ``NAME.cwnd_pkts``, ``NAME.rate_mbps``, ``NAME.qdelay_ms`` (NaN where the
        controller has no estimate), then per link ``NAME.queue_pkts``. Empty when the
        scenario sets ``series = false``."""
        if self._series is None:
            return pd.DataFrame()
        return frame(self._series)

    def __repr__(self) -> str:
        a = self.aggregate
        if self._swarm is not None:
            d = self.swarm.get("download", {})
            mean = d.get("mean")
            return (
                f"<Result {self._summary['scenario']!r} seed {self.seed}: swarm of "
                f"{len(self.peers)} peers, {self.swarm.get('measured', 0)} measured "
                f"completions, mean download "
                f"{'-' if mean is None else f'{mean:.1f} s'}>"
            )
        return (
            f"<Result {self._summary['scenario']!r} seed {self.seed}: "
            f"efficiency {a['efficiency']:.3f}, TCP share {a['tcp_share']:.3f}, "
            f"{len(self._summary['flows'])} flows>"
        )


def frame(columns: List[Tuple[str, str, Any]]) -> pd.DataFrame:
    """A DataFrame from the native `(name, kind, cells)` columns (numbers as raw bytes)."""
    data = {}
    for name, kind, cells in columns:
        if kind == "str":
            data[name] = pd.Series(cells, dtype=object)
        else:
            values = np.frombuffer(cells, dtype=np.float64 if kind == "f8" else np.uint64)
            data[name] = values.astype(np.float64 if kind == "f8" else np.int64)  # a copy
    return pd.DataFrame(data)


def _records(rows: List[Dict[str, Any]], drop: Sequence[str]) -> pd.DataFrame:
    return pd.DataFrame([{k: v for k, v in r.items() if k not in drop} for r in rows])


def controllers(name: Optional[str] = None, params: Sequence[str] = ()) -> List[Dict[str, Any]]:
    """The built-in congestion controllers, as `ledbat controllers [NAME] [--param k=v]
    --json` lists them: name, description, source, defaults (the configuration, with
    `params` applied), non_compliant (departures from the source's limits) and recommended
    (true for the project's recommended controller, the transfer commands' default). Raises
    :class:`ledbat.ConfigError` for an unknown name or a refused parameter."""
    return json.loads(_native.controllers(name, list(params)))
