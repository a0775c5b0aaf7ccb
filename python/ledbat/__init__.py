"""ledbat: the LEDBAT simulator of the `ledbat` Rust toolkit, from Python.

>>> import ledbat
>>> sc = ledbat.Scenario.from_toml("scenarios/thesis/ledbat-alone.toml")
>>> r = sc.set("flow.0.cc.target", "60ms").run(seed=1)
>>> r.summary["aggregate"]["efficiency"], r.flows, r.series
>>> runs, means = ledbat.sweep(sc, grid={"flow.0.cc.gain": [1.0, 4.0]}, seeds=range(1, 11))
>>> outcomes = ledbat.repro("seed003", quick=True, seeds=2, client=dask_client)

Scenarios, overrides, errors and numbers are those of the `ledbat` command line (`sim`,
`sweep`, `controllers`): both call the same Rust code.
"""

from ._native import ConfigError, SimulationError
from ._scenario import Result, Scenario, controllers
from ._repro import repro
from ._sweep import SweepResult, sweep

__all__ = [
    "ConfigError",
    "SimulationError",
    "Scenario",
    "Result",
    "SweepResult",
    "controllers",
    "repro",
    "sweep",
]
__version__ = "0.1.0"
