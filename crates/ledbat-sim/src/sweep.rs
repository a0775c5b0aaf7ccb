//! Parameter sweeps: a base scenario, named cases (each a list of `--set`-style overrides,
//! for settings that change together, such as a swarm's population), a grid of overrides
//! (cartesian product, taken for every case), and seeds. Expands into runs, plays them in
//! parallel (rayon) and summarises each run as a flat row of numbers;
//! `export::sweep_tables` turns the rows into tables.

use crate::result::RunResult;
use crate::scenario::{Scenario, ScenarioError};
use crate::world::RunError;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which seeds each grid point runs with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Seeds {
    /// Seeds `1..=n`.
    Count(u64),
    /// These seeds.
    List(Vec<u64>),
}

/// A sweep file (see `SCENARIOS.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepSpec {
    /// Path of the base scenario, relative to the sweep file.
    pub scenario: String,
    /// Seeds per grid point. Default 1 (seed 1 only).
    #[serde(default = "one_seed")]
    pub seeds: Seeds,
    /// Overrides applied to every run.
    #[serde(default)]
    pub set: Vec<String>,
    /// Named cases, as `[[case]]` tables; every case runs the whole grid. Default none.
    #[serde(default, rename = "case")]
    pub cases: Vec<Case>,
    /// Grid: dotted key -> values; runs take the cartesian product (keys in sorted order).
    #[serde(default)]
    pub grid: BTreeMap<String, Vec<toml::Value>>,
}

/// A named set of overrides (`[[case]]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Its name: the value of the `case` column.
    pub name: String,
    /// Its overrides, applied after the sweep's `set` and before the grid's.
    #[serde(default)]
    pub set: Vec<String>,
}

fn one_seed() -> Seeds {
    Seeds::Count(1)
}

/// One grid point: its parameter values and the scenario they produce.
#[derive(Clone, Debug)]
pub struct GridPoint {
    /// `(key, value)` in [`SweepSpec::param_keys`] order, values as text.
    pub params: Vec<(String, String)>,
    /// Index of the case (when there are cases), then of each value in its key's list.
    pub index: Vec<usize>,
    /// The overrides (`key=value`) applied after the sweep's `set`: the case's, then the
    /// grid's in key order.
    pub overrides: Vec<String>,
    /// The scenario with the overrides applied.
    pub scenario: Scenario,
}

impl SweepSpec {
    /// Parses a sweep file's text.
    pub fn from_toml(text: &str) -> Result<SweepSpec, ScenarioError> {
        let s: SweepSpec = toml::from_str(text).map_err(|e| ScenarioError::Parse(e.to_string()))?;
        if let Some((k, _)) = s.grid.iter().find(|(_, v)| v.is_empty()) {
            return Err(ScenarioError::Invalid {
                key: format!("grid.{k}"),
                reason: "needs at least one value".into(),
            });
        }
        for (i, c) in s.cases.iter().enumerate() {
            if c.name.trim().is_empty() || s.cases[..i].iter().any(|o| o.name == c.name) {
                return Err(ScenarioError::Invalid {
                    key: format!("case.{i}.name"),
                    reason: format!("needs a name of its own, got `{}`", c.name),
                });
            }
        }
        if matches!(s.seeds, Seeds::Count(0)) || matches!(&s.seeds, Seeds::List(l) if l.is_empty())
        {
            return Err(ScenarioError::Invalid {
                key: "seeds".into(),
                reason: "needs at least one seed".into(),
            });
        }
        Ok(s)
    }

    /// The seeds of every grid point.
    pub fn seed_list(&self) -> Vec<u64> {
        match &self.seeds {
            Seeds::Count(n) => (1..=*n).collect(),
            Seeds::List(l) => l.clone(),
        }
    }

    /// The parameter columns of the result tables: `case` when there are cases, then the
    /// grid keys.
    pub fn param_keys(&self) -> Vec<String> {
        let case = (!self.cases.is_empty()).then(|| "case".to_string());
        case.into_iter().chain(self.grid.keys().cloned()).collect()
    }

    /// Expands the cases and the grid against the base scenario text: cases outer, grid
    /// inner.
    pub fn points(&self, base: &str) -> Result<Vec<GridPoint>, ScenarioError> {
        let none = [Case {
            name: String::new(),
            set: Vec::new(),
        }];
        let cases: &[Case] = if self.cases.is_empty() {
            &none
        } else {
            &self.cases
        };
        let mut out = Vec::new();
        for (ci, case) in cases.iter().enumerate() {
            self.grid_points(base, case, ci, &mut out)?;
        }
        Ok(out)
    }

    fn grid_points(
        &self,
        base: &str,
        case: &Case,
        ci: usize,
        out: &mut Vec<GridPoint>,
    ) -> Result<(), ScenarioError> {
        let keys: Vec<&String> = self.grid.keys().collect();
        let mut idx = vec![0usize; keys.len()];
        loop {
            let case_param =
                (!self.cases.is_empty()).then(|| ("case".to_string(), case.name.clone()));
            let params: Vec<(String, String)> = case_param
                .into_iter()
                .chain(
                    keys.iter()
                        .zip(&idx)
                        .map(|(k, &i)| ((*k).clone(), value_text(&self.grid[*k][i]))),
                )
                .collect();
            let overrides: Vec<String> = case
                .set
                .iter()
                .cloned()
                .chain(
                    keys.iter()
                        .zip(&idx)
                        .map(|(k, &i)| format!("{k}={}", self.grid[*k][i])),
                )
                .collect();
            let mut sets: Vec<String> = self.set.clone();
            sets.extend(overrides.iter().cloned());
            let scenario = Scenario::from_toml_with(base, &sets).map_err(|e| {
                if case.name.is_empty() {
                    e
                } else {
                    ScenarioError::Invalid {
                        key: format!("case `{}`", case.name),
                        reason: e.to_string(),
                    }
                }
            })?;
            let index = (!self.cases.is_empty())
                .then_some(ci)
                .into_iter()
                .chain(idx.iter().copied())
                .collect();
            out.push(GridPoint {
                params,
                index,
                overrides,
                scenario,
            });
            // Odometer increment, last key fastest.
            let mut d = keys.len();
            loop {
                if d == 0 {
                    return Ok(());
                }
                d -= 1;
                idx[d] += 1;
                if idx[d] < self.grid[keys[d]].len() {
                    break;
                }
                idx[d] = 0;
            }
        }
    }
}

fn value_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// One run of a sweep: grid point index, seed and [`metrics_row`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepRun {
    /// Index of the grid point.
    pub point: usize,
    /// Seed.
    pub seed: u64,
    /// The run's metrics.
    pub metrics: Vec<(String, f64)>,
}

/// A sweep run that failed.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The simulator refused the grid point's scenario.
    #[error("grid point {point} seed {seed}: {source}")]
    Run {
        /// Grid point index.
        point: usize,
        /// Seed.
        seed: u64,
        /// Why.
        source: RunError,
    },
    /// Packets were created or lost by the simulator itself (a bug).
    #[error("grid point {point} seed {seed}: packet conservation violated")]
    Conservation {
        /// Grid point index.
        point: usize,
        /// Seed.
        seed: u64,
    },
    /// The worker threads could not be started.
    #[error("starting the worker pool: {0}")]
    Pool(String),
}

/// Plays grid point `point`'s scenario with `seed` and summarises it.
pub fn run_point(scenario: &Scenario, point: usize, seed: u64) -> Result<SweepRun, SweepError> {
    let r = crate::run(scenario, seed).map_err(|source| SweepError::Run {
        point,
        seed,
        source,
    })?;
    if !r.conservation.holds {
        return Err(SweepError::Conservation { point, seed });
    }
    Ok(SweepRun {
        point,
        seed,
        metrics: metrics_row(&r),
    })
}

/// Plays every grid point with every seed (points outer, seeds inner, which is also the
/// order of the result) on `threads` worker threads (0: one per core). `on_done` is called
/// after each run with the number of runs finished so far. The first failure in that order
/// is returned.
pub fn run_grid(
    points: &[GridPoint],
    seeds: &[u64],
    threads: usize,
    on_done: &(dyn Fn(usize) + Sync),
) -> Result<Vec<SweepRun>, SweepError> {
    let jobs: Vec<(usize, u64)> = (0..points.len())
        .flat_map(|p| seeds.iter().map(move |s| (p, *s)))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SweepError::Pool(e.to_string()))?;
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Result<SweepRun, SweepError>> = pool.install(|| {
        jobs.par_iter()
            .map(|&(p, seed)| {
                let r = run_point(&points[p].scenario, p, seed);
                on_done(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                r
            })
            .collect()
    });
    results.into_iter().collect()
}

/// A run summarised as named numbers (NaN where undefined): aggregate metrics, primary
/// link queue metrics, then per-flow throughput and cwnd.
pub fn metrics_row(r: &RunResult) -> Vec<(String, f64)> {
    let a = &r.aggregate;
    let nan = f64::NAN;
    let mut v = vec![
        ("efficiency".to_string(), a.efficiency),
        ("throughput_mbps".into(), a.throughput_bps / 1e6),
        ("jain_long".into(), a.jain_long.unwrap_or(nan)),
        ("jain_short".into(), a.jain_short.unwrap_or(nan)),
        ("tcp_share".into(), a.tcp_share),
        ("loss_rate".into(), a.loss_rate),
    ];
    let l = a.primary_link.and_then(|i| r.links.get(i));
    v.push((
        "queue_mean_arrival_pkts".into(),
        l.map_or(nan, |l| l.queue_mean_arrival_pkts),
    ));
    v.push((
        "queue_mean_time_pkts".into(),
        l.map_or(nan, |l| l.queue_mean_time_pkts),
    ));
    v.push((
        "queue_mean_over_buffer".into(),
        l.and_then(|l| l.queue_mean_over_buffer).unwrap_or(nan),
    ));
    v.push(("qdelay_mean_ms".into(), l.map_or(nan, |l| l.qdelay_mean_ms)));
    v.push((
        "qdelay_p95_ms".into(),
        l.and_then(|l| l.qdelay_p95_ms).unwrap_or(nan),
    ));
    for f in &r.flows {
        v.push((
            format!("{}.throughput_mbps", f.name),
            f.throughput_bps / 1e6,
        ));
        v.push((format!("{}.cwnd_mean_pkts", f.name), f.cwnd_mean_pkts));
        v.push((format!("{}.cwnd_sd_pkts", f.name), f.cwnd_sd_pkts));
    }
    if let Some(s) = &r.swarm {
        swarm_metrics(s, &mut v);
    }
    v
}

/// A swarm run's numbers: completion times (the thesis's metric), uplink queues, byte
/// shares and signalling latency, for the swarm and per class.
fn swarm_metrics(s: &crate::swarm::report::SwarmResult, v: &mut Vec<(String, f64)>) {
    let nan = f64::NAN;
    let o = |x: Option<f64>| x.unwrap_or(nan);
    v.push(("complete".into(), s.complete as u8 as f64));
    v.push(("download_mean_s".into(), o(s.download.mean)));
    v.push(("download_median_s".into(), o(s.download.median)));
    v.push(("download_q1_s".into(), o(s.download.q1)));
    v.push(("download_q3_s".into(), o(s.download.q3)));
    v.push(("tcp_byte_share".into(), o(s.tcp_byte_share)));
    v.push(("swarm_queue_mean_ms".into(), o(s.queue_mean_ms)));
    v.push(("swarm_queue_mean_pkts".into(), o(s.queue_mean_pkts)));
    v.push(("swarm_dequeue_nonempty".into(), o(s.dequeue_nonempty)));
    v.push(("swarm_dequeue_queue_ms".into(), o(s.dequeue_queue_mean_ms)));
    for c in &s.classes {
        let n = &c.name;
        v.push((format!("{n}.download_mean_s"), o(c.download.mean)));
        v.push((format!("{n}.download_median_s"), o(c.download.median)));
        v.push((format!("{n}.measured"), c.download.n as f64));
        v.push((format!("{n}.queue_mean_ms"), o(c.queue_mean_ms)));
        v.push((format!("{n}.queue_mean_pkts"), o(c.queue_mean_pkts)));
        v.push((format!("{n}.queue_over_100_pkts"), o(c.queue_over_100_pkts)));
        v.push((format!("{n}.uplink_utilisation"), o(c.uplink_utilisation)));
        v.push((format!("{n}.dequeue_nonempty"), o(c.dequeue_nonempty)));
        v.push((format!("{n}.dequeue_queue_ms"), o(c.dequeue_queue_mean_ms)));
        v.push((format!("{n}.block_latency_ms"), o(c.block_latency_mean_ms)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "duration = \"2s\"\n[[flow]]\ncc = { name = \"ledbat\" }\n";

    #[test]
    fn grid_expands_to_the_cartesian_product() {
        let s = SweepSpec::from_toml(
            "scenario = \"x.toml\"\nseeds = 3\n[grid]\n\"topology.queue.packets\" = [10, 40]\n\"flow.0.cc.target\" = [\"25ms\", \"50ms\", \"100ms\"]\n",
        )
        .unwrap();
        let pts = s.points(BASE).unwrap();
        assert_eq!(pts.len(), 6);
        assert_eq!(pts[4].index, vec![2, 0]);
        assert_eq!(
            pts[4].overrides,
            vec!["flow.0.cc.target=\"100ms\"", "topology.queue.packets=10"]
        );
        assert_eq!(s.seed_list(), vec![1, 2, 3]);
        assert_eq!(
            pts[1].params,
            vec![
                ("flow.0.cc.target".into(), "25ms".into()),
                ("topology.queue.packets".into(), "40".into())
            ]
        );
        assert_eq!(pts[5].scenario.topology, {
            let mut t = pts[0].scenario.topology.clone();
            if let crate::scenario::Topology::Dumbbell(d) = &mut t {
                d.queue = crate::scenario::QueueConfig::DropTail(crate::scenario::DropTail {
                    packets: Some(40),
                    bytes: None,
                });
            }
            t
        });
    }

    #[test]
    fn cases_run_the_whole_grid_each_and_come_first() {
        let s = SweepSpec::from_toml(
            "scenario = \"x\"\nset = [\"duration=\\\"3s\\\"\"]\n\
             [[case]]\nname = \"small\"\nset = [\"topology.queue.packets=10\", \"topology.rate=\\\"5Mbps\\\"\"]\n\
             [[case]]\nname = \"base\"\n\
             [grid]\n\"flow.0.cc.target\" = [\"25ms\", \"50ms\"]\n",
        )
        .unwrap();
        assert_eq!(s.param_keys(), ["case", "flow.0.cc.target"]);
        let pts = s.points(BASE).unwrap();
        assert_eq!(pts.len(), 4);
        assert_eq!(
            pts[1].params,
            vec![
                ("case".into(), "small".into()),
                ("flow.0.cc.target".into(), "50ms".into())
            ]
        );
        assert_eq!(pts[1].index, vec![0, 1]);
        assert_eq!(
            pts[1].overrides,
            vec![
                "topology.queue.packets=10",
                "topology.rate=\"5Mbps\"",
                "flow.0.cc.target=\"50ms\""
            ]
        );
        let crate::scenario::Topology::Dumbbell(d) = &pts[1].scenario.topology else {
            panic!()
        };
        assert_eq!(d.rate, crate::units::Rate::mbps(5));
        assert_eq!(
            pts[1].scenario.duration,
            ledbat_core::Duration::from_secs(3)
        );
        assert_eq!(pts[2].params[0].1, "base");
        assert_eq!(pts[2].scenario.topology, {
            let mut t = pts[0].scenario.topology.clone();
            if let crate::scenario::Topology::Dumbbell(d) = &mut t {
                d.queue = crate::scenario::QueueConfig::DropTail(crate::scenario::DropTail {
                    packets: Some(100),
                    bytes: None,
                });
                d.rate = crate::units::Rate::mbps(10);
            }
            t
        });
        // A case's bad override names the case; duplicate names are refused.
        let bad = SweepSpec::from_toml(
            "scenario = \"x\"\n[[case]]\nname = \"b\"\nset = [\"flow.0.cc.tagret=1\"]\n",
        )
        .unwrap();
        let e = bad.points(BASE).unwrap_err().to_string();
        assert!(e.contains("case `b`") && e.contains("tagret"), "{e}");
        let e = SweepSpec::from_toml(
            "scenario = \"x\"\n[[case]]\nname = \"a\"\n[[case]]\nname = \"a\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("case.1.name"), "{e}");
    }

    #[test]
    fn bad_grid_key_is_reported() {
        let s =
            SweepSpec::from_toml("scenario = \"x\"\n[grid]\n\"flow.0.cc.tagret\" = [\"1ms\"]\n")
                .unwrap();
        let e = s.points(BASE).unwrap_err().to_string();
        assert!(e.contains("tagret"), "{e}");
        assert!(SweepSpec::from_toml("scenario = \"x\"\nbogus = 1\n").is_err());
    }

    #[test]
    fn run_grid_lists_points_outer_seeds_inner_and_matches_single_runs() {
        let s = SweepSpec::from_toml(
            "scenario = \"x\"\nseeds = [4, 9]\n[grid]\n\"topology.queue.packets\" = [10, 40]\n",
        )
        .unwrap();
        let pts = s.points(BASE).unwrap();
        let calls = std::sync::atomic::AtomicUsize::new(0);
        let runs = run_grid(&pts, &s.seed_list(), 2, &|_| {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
        let order: Vec<(usize, u64)> = runs.iter().map(|r| (r.point, r.seed)).collect();
        assert_eq!(order, [(0, 4), (0, 9), (1, 4), (1, 9)]);
        assert_eq!(calls.into_inner(), 4);
        assert_eq!(runs[3], run_point(&pts[1].scenario, 1, 9).unwrap());
    }
}
