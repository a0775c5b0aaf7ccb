//! `ledbat._native`: the Rust half of the `ledbat` Python package.
//!
//! Thin functions over `ledbat_sim`'s public API: scenarios travel as their TOML text plus
//! the `--set` overrides (so a Python `Scenario` pickles as plain strings and every call
//! parses it through the same `Scenario::from_toml_with` as the CLI), results come back as
//! `summary.json` text and column tables from `ledbat_sim::export`. The simulation itself
//! runs with the GIL released. The Python classes in `ledbat/` wrap these functions.

#![forbid(unsafe_code)]

use ledbat_sim::export::{self, Cells, Table};
use ledbat_sim::sweep::{self, SweepRun, SweepSpec};
use ledbat_sim::{RunError, Scenario};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyList, PyString};
use std::collections::BTreeMap;
use std::fmt::Display;

create_exception!(
    ledbat,
    ConfigError,
    PyValueError,
    "A scenario, an override or a controller configuration was refused. The message is the \
     one the `ledbat` command line prints (after its `error: ` prefix): it names the key and, \
     for scenario files, the line."
);
create_exception!(
    ledbat,
    SimulationError,
    PyRuntimeError,
    "The simulator broke one of its own invariants (packet conservation); a bug to report."
);

/// Where a scenario came from: its text, its overrides, the file it was read from (for
/// error messages, as the CLI prefixes them) and the name used when the file sets none.
struct Source<'a> {
    text: &'a str,
    sets: &'a [String],
    origin: Option<&'a str>,
    name: Option<&'a str>,
}

impl Source<'_> {
    fn config_error(&self, e: impl Display) -> PyErr {
        ConfigError::new_err(match self.origin {
            Some(o) => format!("{o}: {e}"),
            None => e.to_string(),
        })
    }

    fn load(&self) -> PyResult<Scenario> {
        let mut sc =
            Scenario::from_toml_with(self.text, self.sets).map_err(|e| self.config_error(e))?;
        if sc.name.is_empty() {
            sc.name = self.name.unwrap_or_default().to_string();
        }
        Ok(sc)
    }

    /// The grid expanded against this scenario, as `ledbat sweep` expands a sweep file
    /// whose `set` is this scenario's overrides.
    fn points(&self, grid: &Grid) -> PyResult<(Vec<String>, Vec<sweep::GridPoint>)> {
        let spec = SweepSpec {
            scenario: String::new(),
            seeds: sweep::Seeds::Count(1),
            set: self.sets.to_vec(),
            cases: Vec::new(),
            grid: grid.0.clone(),
        };
        let points = spec.points(self.text).map_err(|e| self.config_error(e))?;
        Ok((spec.param_keys(), points))
    }
}

fn run_error(e: RunError) -> PyErr {
    ConfigError::new_err(e.to_string())
}

fn sweep_error(e: sweep::SweepError) -> PyErr {
    match e {
        sweep::SweepError::Run { .. } => ConfigError::new_err(e.to_string()),
        sweep::SweepError::Conservation { .. } => SimulationError::new_err(e.to_string()),
        sweep::SweepError::Pool(_) => PyRuntimeError::new_err(e.to_string()),
    }
}

/// Grid values converted from Python to TOML (`str`, `bool`, `int`, `float`).
struct Grid(BTreeMap<String, Vec<toml::Value>>);

impl<'py> FromPyObject<'py> for Grid {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        let items: Vec<(String, Vec<Bound<'py, PyAny>>)> = ob.extract()?;
        let mut grid = BTreeMap::new();
        for (key, values) in items {
            if values.is_empty() {
                return Err(ConfigError::new_err(format!(
                    "invalid `grid.{key}`: needs at least one value"
                )));
            }
            let values = values
                .iter()
                .map(|v| {
                    toml_value(v).map_err(|e| PyTypeError::new_err(format!("grid `{key}`: {e}")))
                })
                .collect::<PyResult<Vec<_>>>()?;
            grid.insert(key, values);
        }
        Ok(Grid(grid))
    }
}

fn toml_value(v: &Bound<'_, PyAny>) -> Result<toml::Value, String> {
    if v.is_instance_of::<PyBool>() {
        return Ok(toml::Value::Boolean(
            v.extract().map_err(|e| format!("{e}"))?,
        ));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(toml::Value::String(
            v.extract().map_err(|e| format!("{e}"))?,
        ));
    }
    if v.is_instance_of::<PyInt>() {
        return v
            .extract::<i64>()
            .map(toml::Value::Integer)
            .map_err(|e| format!("{e}"));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(v.extract().map_err(|e| format!("{e}"))?));
    }
    // numpy scalars and other numbers: integers first, then floats.
    if let Ok(i) = v.call_method0("__index__").and_then(|i| i.extract::<i64>()) {
        return Ok(toml::Value::Integer(i));
    }
    if let Ok(x) = v.call_method0("__float__").and_then(|x| x.extract::<f64>()) {
        return Ok(toml::Value::Float(x));
    }
    Err(format!(
        "values must be str, bool, int or float, got {}",
        v.get_type().name().map_or("?".into(), |n| n.to_string())
    ))
}

/// A table for Python as `(column, kind, cells)`: kind `"str"` with a list of str, or
/// `"f8"` / `"u8"` with the native-endian bytes of the f64 / u64 values (read with
/// `numpy.frombuffer`, far cheaper than a list of Python floats for long series).
type PyTable = Vec<(String, &'static str, PyObject)>;

fn table_to_py(py: Python<'_>, t: &Table) -> PyResult<PyTable> {
    t.columns
        .iter()
        .map(|c| {
            let (kind, cells) = match &c.cells {
                Cells::Text(v) => ("str", PyList::new(py, v)?.into_any().unbind()),
                Cells::Int(v) => {
                    let b: Vec<u8> = v.iter().flat_map(|x| x.to_ne_bytes()).collect();
                    ("u8", PyBytes::new(py, &b).into_any().unbind())
                }
                Cells::Float { values, .. } => {
                    let b: Vec<u8> = values.iter().flat_map(|x| x.to_ne_bytes()).collect();
                    ("f8", PyBytes::new(py, &b).into_any().unbind())
                }
            };
            Ok((c.name.clone(), kind, cells))
        })
        .collect()
}

/// Parses and validates a scenario with its overrides; returns its name and default seed.
/// Raises `ConfigError` with the CLI's message.
#[pyfunction]
#[pyo3(signature = (text, sets, origin=None, name=None))]
fn check(
    text: &str,
    sets: Vec<String>,
    origin: Option<&str>,
    name: Option<&str>,
) -> PyResult<(String, u64)> {
    let sc = Source {
        text,
        sets: &sets,
        origin,
        name,
    }
    .load()?;
    Ok((sc.name, sc.seed))
}

/// The scenario with its overrides applied and every default spelled out, as TOML (the
/// `scenario.toml` that `ledbat sim --out` writes).
#[pyfunction]
#[pyo3(signature = (text, sets, origin=None, name=None))]
fn to_toml(
    text: &str,
    sets: Vec<String>,
    origin: Option<&str>,
    name: Option<&str>,
) -> PyResult<String> {
    Ok(Source {
        text,
        sets: &sets,
        origin,
        name,
    }
    .load()?
    .to_toml())
}

/// Runs a scenario with `seed` (the GIL is released meanwhile). Returns the text of
/// `summary.json`, the series table as `(column, values)` pairs (`None` when the scenario
/// sets `series = false`, and for swarms) and, for a swarm, its `peers.csv` and
/// `completions.csv` tables.
#[pyfunction]
#[pyo3(signature = (text, sets, origin, name, seed))]
#[allow(clippy::type_complexity)]
fn run(
    py: Python<'_>,
    text: &str,
    sets: Vec<String>,
    origin: Option<&str>,
    name: Option<&str>,
    seed: u64,
) -> PyResult<(String, Option<PyTable>, Option<(PyTable, PyTable)>)> {
    let sc = Source {
        text,
        sets: &sets,
        origin,
        name,
    }
    .load()?;
    let (summary, series, swarm) = py
        .allow_threads(|| {
            let r = ledbat_sim::run(&sc, seed)?;
            if !r.conservation.holds {
                return Ok(Err(format!(
                    "packet conservation violated: {:?}",
                    r.conservation
                )));
            }
            Ok::<_, RunError>(Ok((
                export::summary_json(&r),
                r.series.as_ref().map(export::series_table),
                r.swarm.as_ref().map(|s| {
                    (
                        export::swarm_peers_table(s),
                        export::swarm_completions_table(s),
                    )
                }),
            )))
        })
        .map_err(run_error)?
        .map_err(SimulationError::new_err)?;
    let series = series.map(|t| table_to_py(py, &t)).transpose()?;
    let swarm = swarm
        .map(|(p, c)| Ok::<_, PyErr>((table_to_py(py, &p)?, table_to_py(py, &c)?)))
        .transpose()?;
    Ok((summary, series, swarm))
}

/// The controller catalog as `ledbat controllers [NAME] [--param k=v ...] --json` prints
/// it (JSON text).
#[pyfunction]
#[pyo3(signature = (name=None, params=Vec::new()))]
fn controllers(name: Option<&str>, params: Vec<String>) -> PyResult<String> {
    let params: Vec<&str> = params.iter().map(String::as_str).collect();
    let rows = export::controller_catalog(name, &params)
        .map_err(|e| ConfigError::new_err(e.to_string()))?;
    serde_json::to_string_pretty(&rows).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Expands a grid (`[(key, [values])]`) against the scenario: returns the grid keys in
/// sweep order (sorted) and, per grid point, the index of each value in its key's list,
/// the values as text and the overrides that produce the point.
#[pyfunction]
#[pyo3(signature = (text, sets, origin, name, grid))]
#[allow(clippy::type_complexity)]
fn expand_grid(
    text: &str,
    sets: Vec<String>,
    origin: Option<&str>,
    name: Option<&str>,
    grid: Grid,
) -> PyResult<(Vec<String>, Vec<(Vec<usize>, Vec<String>, Vec<String>)>)> {
    let (keys, points) = Source {
        text,
        sets: &sets,
        origin,
        name,
    }
    .points(&grid)?;
    let points = points
        .into_iter()
        .map(|p| {
            let params = p.params.into_iter().map(|(_, v)| v).collect();
            (p.index, params, p.overrides)
        })
        .collect();
    Ok((keys, points))
}

/// Runs every grid point with every seed on `threads` threads (0: one per core), the GIL
/// released; returns `(point, seed, metrics)` per run, points outer, seeds inner.
#[pyfunction]
#[pyo3(signature = (text, sets, origin, name, grid, seeds, threads=0))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn run_grid(
    py: Python<'_>,
    text: &str,
    sets: Vec<String>,
    origin: Option<&str>,
    name: Option<&str>,
    grid: Grid,
    seeds: Vec<u64>,
    threads: usize,
) -> PyResult<Vec<(usize, u64, Vec<(String, f64)>)>> {
    let (_, points) = Source {
        text,
        sets: &sets,
        origin,
        name,
    }
    .points(&grid)?;
    let runs = py
        .allow_threads(|| sweep::run_grid(&points, &seeds, threads, &|_| {}))
        .map_err(sweep_error)?;
    Ok(runs
        .into_iter()
        .map(|r| (r.point, r.seed, r.metrics))
        .collect())
}

/// One run of a sweep (what a Dask task does): the scenario with `sets` (the sweep's and
/// the grid point's overrides), `seed`, summarised as `(point, seed, metrics)`.
#[pyfunction]
#[pyo3(signature = (text, sets, origin, name, point, seed))]
#[allow(clippy::type_complexity)]
fn run_point(
    py: Python<'_>,
    text: &str,
    sets: Vec<String>,
    origin: Option<&str>,
    name: Option<&str>,
    point: usize,
    seed: u64,
) -> PyResult<(usize, u64, Vec<(String, f64)>)> {
    let sc = Source {
        text,
        sets: &sets,
        origin,
        name,
    }
    .load()?;
    let r = py
        .allow_threads(|| sweep::run_point(&sc, point, seed))
        .map_err(sweep_error)?;
    Ok((r.point, r.seed, r.metrics))
}

/// A sweep's runs and means tables (`runs.csv`, `means.csv`) from its runs, each as
/// `(column, values)` pairs; grid parameter values are text.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn sweep_tables(
    py: Python<'_>,
    keys: Vec<String>,
    params: Vec<Vec<String>>,
    runs: Vec<(usize, u64, Vec<(String, f64)>)>,
) -> PyResult<(PyTable, PyTable)> {
    if let Some(r) = runs.iter().find(|r| r.0 >= params.len()) {
        return Err(PyValueError::new_err(format!(
            "run of grid point {} but the grid has {} points",
            r.0,
            params.len()
        )));
    }
    let runs: Vec<SweepRun> = runs
        .into_iter()
        .map(|(point, seed, metrics)| SweepRun {
            point,
            seed,
            metrics,
        })
        .collect();
    let t = export::sweep_tables(&keys, &params, &runs);
    Ok((table_to_py(py, &t.runs)?, table_to_py(py, &t.means)?))
}

/// The `ledbat._native` module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ConfigError", m.py().get_type::<ConfigError>())?;
    m.add("SimulationError", m.py().get_type::<SimulationError>())?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(to_toml, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(controllers, m)?)?;
    m.add_function(wrap_pyfunction!(expand_grid, m)?)?;
    m.add_function(wrap_pyfunction!(run_grid, m)?)?;
    m.add_function(wrap_pyfunction!(run_point, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_tables, m)?)?;
    Ok(())
}
