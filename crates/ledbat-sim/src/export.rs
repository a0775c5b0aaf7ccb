//! What the front ends show of results: `summary.json`, the time-series table
//! (`series.csv`), a swarm's per-peer and per-completion tables (`peers.csv`,
//! `completions.csv`), a sweep's per-run and per-grid-point tables (`runs.csv`,
//! `means.csv`) and the controller catalog. The `ledbat` command line writes these as files
//! and the Python package turns the same tables into DataFrames, so both show identical
//! numbers.
//!
//! Tables are column-oriented ([`Table`]); [`Table::to_csv`] formats them (fixed decimals
//! per column, empty cells for NaN or missing values, RFC 4180 quoting).

use crate::result::{RunResult, Series};
use crate::stats::mean_ci95;
use crate::swarm::report::SwarmResult;
use crate::sweep::SweepRun;
use ledbat_core::ControllerConfig;
use serde::Serialize;
use std::fmt::Write as _;

/// The cells of one column.
#[derive(Clone, Debug, PartialEq)]
pub enum Cells {
    /// Text (grid parameter values).
    Text(Vec<String>),
    /// Counts and seeds.
    Int(Vec<u64>),
    /// Measurements, written with `decimals` digits; NaN is an empty cell.
    Float {
        /// The values.
        values: Vec<f64>,
        /// Digits after the point in CSV.
        decimals: usize,
    },
}

impl Cells {
    fn len(&self) -> usize {
        match self {
            Cells::Text(v) => v.len(),
            Cells::Int(v) => v.len(),
            Cells::Float { values, .. } => values.len(),
        }
    }

    fn write_cell(&self, row: usize, out: &mut String) {
        match self {
            Cells::Text(v) => out.push_str(&csv_field(&v[row])),
            Cells::Int(v) => {
                let _ = write!(out, "{}", v[row]);
            }
            Cells::Float { values, decimals } => {
                let x = values[row];
                if x.is_finite() {
                    let _ = write!(out, "{x:.decimals$}");
                }
            }
        }
    }
}

/// A named column.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Header.
    pub name: String,
    /// Cells, one per row.
    pub cells: Cells,
}

/// A table as columns of equal length.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The columns, in order.
    pub columns: Vec<Column>,
}

impl Table {
    fn push(&mut self, name: impl Into<String>, cells: Cells) {
        self.columns.push(Column {
            name: name.into(),
            cells,
        });
    }

    /// Number of rows (0 without columns).
    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, |c| c.cells.len())
    }

    /// The column named `name`.
    pub fn column(&self, name: &str) -> Option<&Cells> {
        self.columns
            .iter()
            .find(|c| c.name == name)
            .map(|c| &c.cells)
    }

    /// CSV text: a header line, then one line per row, each ending in `\n`.
    pub fn to_csv(&self) -> String {
        let mut s = String::new();
        for (i, c) in self.columns.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&csv_field(&c.name));
        }
        s.push('\n');
        for row in 0..self.rows() {
            for (i, c) in self.columns.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                c.cells.write_cell(row, &mut s);
            }
            s.push('\n');
        }
        s
    }
}

/// Quotes a CSV field when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `summary.json`: the run result without its time series.
pub fn summary(r: &RunResult) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap_or(serde_json::Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.remove("series");
    }
    v
}

/// The text of `summary.json` (pretty-printed, with a final newline).
pub fn summary_json(r: &RunResult) -> String {
    serde_json::to_string_pretty(&summary(r)).unwrap_or_default() + "\n"
}

/// The time series as a table (`series.csv`): `t_s`, then per flow `NAME.cwnd_pkts`,
/// `NAME.rate_mbps`, `NAME.qdelay_ms` (empty where the controller has no estimate), then
/// per monitored link `NAME.queue_pkts`.
pub fn series_table(s: &Series) -> Table {
    let mut t = Table::default();
    let float = |values: &[f64], decimals| Cells::Float {
        values: values.to_vec(),
        decimals,
    };
    t.push("t_s", float(&s.t_s, 3));
    for f in &s.flows {
        t.push(format!("{}.cwnd_pkts", f.name), float(&f.cwnd_pkts, 3));
        t.push(format!("{}.rate_mbps", f.name), float(&f.rate_mbps, 4));
        t.push(format!("{}.qdelay_ms", f.name), float(&f.qdelay_ms, 3));
    }
    for l in &s.links {
        t.push(
            format!("{}.queue_pkts", l.name),
            Cells::Int(l.queue_pkts.iter().map(|&q| u64::from(q)).collect()),
        );
    }
    t
}

/// The controllers' state names as a table (`states.csv`): `t_s`, then per flow
/// `NAME.state` (empty while the flow is inactive).
pub fn states_table(s: &Series) -> Table {
    let mut t = Table::default();
    t.push(
        "t_s",
        Cells::Float {
            values: s.t_s.clone(),
            decimals: 3,
        },
    );
    for (f, states) in s.flows.iter().zip(&s.states) {
        t.push(
            format!("{}.state", f.name),
            Cells::Text(states.iter().map(|&x| x.to_owned()).collect()),
        );
    }
    t
}

/// The competitor detection's tests (`tests.csv`), one row per test in time order: when
/// it ended (`t_s`), the flow, `kind` (`hold` or `push`), `verdict`, whether the suspicion
/// asked for it, the flow's `share` of the path's rate, a hold's `min_ms` against its
/// `threshold_ms`, a push's `drop` (the others' queue's fall, in TARGETs) and `rise` (the
/// queue's rise, in pushes), the positives in a row after it, whether it made the flow
/// yield, and how many of the flow's tests before it ended in the same sample interval
/// (shown by count only).
pub fn tests_table(s: &Series) -> Table {
    use ledbat_core::competitor::TestKind;
    let r = &s.tests;
    let float = |f: &dyn Fn(&crate::result::TestRecord) -> f64, decimals| Cells::Float {
        values: r.iter().map(f).collect(),
        decimals,
    };
    let hold = |x: &crate::result::TestRecord| match x.outcome.kind {
        TestKind::Hold { min, threshold } => (min.as_millis_f64(), threshold.as_millis_f64()),
        TestKind::Push { .. } => (f64::NAN, f64::NAN),
    };
    let push = |x: &crate::result::TestRecord| match x.outcome.kind {
        TestKind::Push { drop, rise } => (drop, rise),
        TestKind::Hold { .. } => (f64::NAN, f64::NAN),
    };
    let mut t = Table::default();
    t.push("t_s", float(&|x| x.outcome.at.as_secs_f64(), 3));
    t.push(
        "flow",
        Cells::Text(r.iter().map(|x| s.flows[x.flow].name.clone()).collect()),
    );
    t.push(
        "kind",
        Cells::Text(r.iter().map(|x| x.outcome.kind.name().to_owned()).collect()),
    );
    t.push(
        "verdict",
        Cells::Text(
            r.iter()
                .map(|x| x.outcome.verdict.name().to_owned())
                .collect(),
        ),
    );
    t.push(
        "suspected",
        Cells::Int(r.iter().map(|x| u64::from(x.outcome.suspected)).collect()),
    );
    t.push("share", float(&|x| x.outcome.share, 3));
    t.push("min_ms", float(&|x| hold(x).0, 2));
    t.push("threshold_ms", float(&|x| hold(x).1, 2));
    t.push("drop", float(&|x| push(x).0, 3));
    t.push("rise", float(&|x| push(x).1, 3));
    t.push(
        "positives",
        Cells::Int(r.iter().map(|x| u64::from(x.outcome.positives)).collect()),
    );
    t.push(
        "yielded",
        Cells::Int(r.iter().map(|x| u64::from(x.outcome.yielded)).collect()),
    );
    t.push("unseen", Cells::Int(r.iter().map(|x| x.unseen).collect()));
    t
}

/// A swarm's peers (`peers.csv`), one row per peer that joined, in id order; the columns
/// are [`crate::swarm::report::PeerResult`]'s fields (times in s, delays in ms, bytes).
pub fn swarm_peers_table(s: &SwarmResult) -> Table {
    let mut t = Table::default();
    let p = &s.peers;
    let int =
        |f: fn(&crate::swarm::report::PeerResult) -> u64| Cells::Int(p.iter().map(f).collect());
    let float = |f: fn(&crate::swarm::report::PeerResult) -> Option<f64>, decimals| Cells::Float {
        values: p.iter().map(|x| f(x).unwrap_or(f64::NAN)).collect(),
        decimals,
    };
    t.push("id", int(|x| x.id as u64));
    t.push(
        "class",
        Cells::Text(p.iter().map(|x| x.class.clone()).collect()),
    );
    t.push("initial_seed", int(|x| x.initial_seed as u64));
    t.push("joined_s", float(|x| Some(x.joined_s), 6));
    t.push("completed_s", float(|x| x.completed_s, 6));
    t.push("left_s", float(|x| x.left_s, 6));
    t.push("download_s", float(|x| x.download_s, 6));
    t.push(
        "completion_rank",
        float(|x| x.completion_rank.map(f64::from), 0),
    );
    t.push("measured", int(|x| x.measured as u64));
    t.push("downloaded", int(|x| x.downloaded));
    t.push("duplicate", int(|x| x.duplicate));
    t.push("endgame_duplicate", int(|x| x.endgame_duplicate));
    t.push("uploaded_utp", int(|x| x.uploaded_utp));
    t.push("uploaded_tcp", int(|x| x.uploaded_tcp));
    t.push("max_connections", int(|x| x.max_connections as u64));
    t.push("queue_samples", int(|x| x.queue_samples));
    t.push("uplink_queue_pkts", float(|x| x.uplink_queue_pkts, 3));
    t.push("uplink_queue_ms", float(|x| x.uplink_queue_ms, 3));
    t.push("uplink_max_queue_pkts", int(|x| x.uplink_max_queue_pkts));
    t.push("uplink_drops", int(|x| x.uplink_drops));
    t.push("uplink_utilisation", float(|x| x.uplink_utilisation, 4));
    t.push(
        "uplink_queue_ms_per_packet",
        float(|x| x.uplink_queue_ms_per_packet, 3),
    );
    t.push("uplink_dequeues", int(|x| x.uplink_dequeues));
    t.push(
        "uplink_dequeue_nonempty",
        float(|x| x.uplink_dequeue_nonempty, 4),
    );
    t.push(
        "uplink_dequeue_queue_pkts",
        float(|x| x.uplink_dequeue_queue_pkts, 3),
    );
    t.push(
        "uplink_dequeue_queue_ms",
        float(|x| x.uplink_dequeue_queue_ms, 3),
    );
    t.push("upload_lost_pkts", int(|x| x.upload_lost_pkts));
    t.push("upload_loss_acks", int(|x| x.upload_loss_acks));
    t.push("upload_rtos", int(|x| x.upload_rtos));
    t.push(
        "upload_rtos_head_delivered",
        int(|x| x.upload_rtos_head_delivered),
    );
    t.push("upload_rtos_undone", int(|x| x.upload_rtos_undone));
    t.push("idle_no_data", int(|x| x.idle_no_data));
    t.push("idle_awaiting_ack", int(|x| x.idle_awaiting_ack));
    t.push("idle_awaiting_rto", int(|x| x.idle_awaiting_rto));
    t.push("idle_window_full", int(|x| x.idle_window_full));
    t.push("block_latency_ms", float(|x| x.block_latency_ms, 3));
    t.push("late_requests", int(|x| x.late_requests));
    t.push("duplicate_requests", int(|x| x.duplicate_requests));
    t.push("ignored", int(|x| x.ignored));
    t
}

/// A swarm's leecher completions in order (`completions.csv`): rank, time, peer, class,
/// download time, whether measured.
pub fn swarm_completions_table(s: &SwarmResult) -> Table {
    let c = &s.completions;
    let mut t = Table::default();
    t.push(
        "rank",
        Cells::Int(c.iter().map(|x| x.rank as u64).collect()),
    );
    t.push(
        "at_s",
        Cells::Float {
            values: c.iter().map(|x| x.at_s).collect(),
            decimals: 6,
        },
    );
    t.push(
        "peer",
        Cells::Int(c.iter().map(|x| x.peer as u64).collect()),
    );
    t.push(
        "class",
        Cells::Text(c.iter().map(|x| x.class.clone()).collect()),
    );
    t.push(
        "download_s",
        Cells::Float {
            values: c.iter().map(|x| x.download_s).collect(),
            decimals: 6,
        },
    );
    t.push(
        "measured",
        Cells::Int(c.iter().map(|x| x.measured as u64).collect()),
    );
    t
}

/// A sweep's two tables.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepTables {
    /// `runs.csv`: one row per run, grid parameters, `seed`, then every metric.
    pub runs: Table,
    /// `means.csv`: one row per grid point, grid parameters, `runs`, then for every metric
    /// `NAME.mean` and `NAME.ci95` (Student-t half-width over the runs' finite values).
    pub means: Table,
}

/// Builds a sweep's tables. `keys` are the grid keys, `params[p]` the values (as text) of
/// grid point `p` in key order, `runs` the runs in the order they are listed. Metric
/// columns are the union of the runs' metric names in first-seen order.
pub fn sweep_tables(keys: &[String], params: &[Vec<String>], runs: &[SweepRun]) -> SweepTables {
    let mut cols: Vec<&str> = Vec::new();
    for r in runs {
        for (k, _) in &r.metrics {
            if !cols.contains(&k.as_str()) {
                cols.push(k);
            }
        }
    }
    let metric = |r: &SweepRun, c: &str| {
        r.metrics
            .iter()
            .find(|(k, _)| k == c)
            .map_or(f64::NAN, |(_, v)| *v)
    };
    let param_columns = |t: &mut Table, points: &[usize]| {
        for (i, k) in keys.iter().enumerate() {
            t.push(
                k.clone(),
                Cells::Text(points.iter().map(|&p| params[p][i].clone()).collect()),
            );
        }
    };
    let mut runs_t = Table::default();
    param_columns(
        &mut runs_t,
        &runs.iter().map(|r| r.point).collect::<Vec<_>>(),
    );
    runs_t.push("seed", Cells::Int(runs.iter().map(|r| r.seed).collect()));
    for c in &cols {
        runs_t.push(
            *c,
            Cells::Float {
                values: runs.iter().map(|r| metric(r, c)).collect(),
                decimals: 6,
            },
        );
    }
    let points: Vec<usize> = (0..params.len()).collect();
    let mut means_t = Table::default();
    param_columns(&mut means_t, &points);
    let mine = |p: usize| runs.iter().filter(move |r| r.point == p);
    means_t.push(
        "runs",
        Cells::Int(points.iter().map(|&p| mine(p).count() as u64).collect()),
    );
    for c in &cols {
        let (mut m, mut h) = (Vec::new(), Vec::new());
        for &p in &points {
            let xs: Vec<f64> = mine(p)
                .map(|r| metric(r, c))
                .filter(|v| v.is_finite())
                .collect();
            let (mean, half) = mean_ci95(&xs);
            m.push(mean);
            h.push(half.unwrap_or(f64::NAN));
        }
        let float = |values, decimals| Cells::Float { values, decimals };
        means_t.push(format!("{c}.mean"), float(m, 6));
        means_t.push(format!("{c}.ci95"), float(h, 6));
    }
    SweepTables {
        runs: runs_t,
        means: means_t,
    }
}

/// One built-in controller as `ledbat controllers --json` lists it.
#[derive(Clone, Debug, Serialize)]
pub struct ControllerRow {
    /// Registry name.
    pub name: &'static str,
    /// One line on what it does.
    pub description: &'static str,
    /// The paper or RFC it follows.
    pub source: &'static str,
    /// The configuration shown (defaults unless `params` changed them), without `name`.
    pub defaults: serde_json::Value,
    /// Departures of that configuration from the source's limits (empty when compliant).
    pub non_compliant: Vec<String>,
    /// Whether this is the controller the project recommends, the transfer commands'
    /// default ([`ledbat_core::registry::RECOMMENDED`]).
    pub recommended: bool,
}

/// The controller catalog: every controller, or only `name`, with `params` (`key=value`,
/// dotted keys for nested fields) applied to its defaults. Errors name the unknown
/// controller or the refused parameter.
pub fn controller_catalog(
    name: Option<&str>,
    params: &[&str],
) -> Result<Vec<ControllerRow>, Box<dyn std::error::Error + Send + Sync>> {
    if let Some(name) = name {
        ControllerConfig::from_name(name)?;
    }
    ledbat_core::CATALOG
        .iter()
        .filter(|info| name.is_none_or(|n| n == info.name))
        .map(|info| {
            let cfg = ControllerConfig::with_params(info.name, params.iter().copied())?;
            let mut defaults = serde_json::to_value(&cfg)?;
            if let Some(m) = defaults.as_object_mut() {
                m.remove("name");
            }
            Ok(ControllerRow {
                name: info.name,
                description: info.description,
                source: info.source,
                defaults,
                non_compliant: cfg.compliance_notes(),
                recommended: info.name == ledbat_core::registry::RECOMMENDED,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::{FlowSeries, LinkSeries};

    fn run(point: usize, seed: u64, eff: f64) -> SweepRun {
        SweepRun {
            point,
            seed,
            metrics: vec![("efficiency".into(), eff), ("x,y".into(), f64::NAN)],
        }
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("x"), "x");
    }

    #[test]
    fn series_table_writes_fixed_decimals_and_empty_cells_for_nan() {
        let s = Series {
            t_s: vec![0.1, 0.2],
            flows: vec![FlowSeries {
                name: "a".into(),
                cwnd_pkts: vec![2.0, 3.5],
                rate_mbps: vec![1.0, 2.25],
                qdelay_ms: vec![f64::NAN, 4.0],
            }],
            links: vec![LinkSeries {
                name: "bottleneck".into(),
                queue_pkts: vec![0, 7],
            }],
            states: vec![vec!["", "yield-probe"]],
            tests: Vec::new(),
        };
        assert_eq!(
            series_table(&s).to_csv(),
            "t_s,a.cwnd_pkts,a.rate_mbps,a.qdelay_ms,bottleneck.queue_pkts\n\
             0.100,2.000,1.0000,,0\n\
             0.200,3.500,2.2500,4.000,7\n"
        );
        assert_eq!(
            states_table(&s).to_csv(),
            "t_s,a.state\n0.100,\n0.200,yield-probe\n"
        );
    }

    #[test]
    fn tests_table_writes_a_holds_and_a_pushs_figures_in_their_own_columns() {
        use crate::result::TestRecord;
        use ledbat_core::competitor::{TestKind, TestOutcome, Verdict};
        use ledbat_core::{Duration, Instant};
        let flow = |name: &str| FlowSeries {
            name: name.into(),
            cwnd_pkts: vec![],
            rate_mbps: vec![],
            qdelay_ms: vec![],
        };
        let s = Series {
            t_s: vec![],
            flows: vec![flow("a"), flow("b")],
            links: vec![],
            states: vec![],
            tests: vec![
                TestRecord {
                    flow: 1,
                    outcome: TestOutcome {
                        at: Instant::from_millis(1_400),
                        kind: TestKind::Hold {
                            min: Duration::from_micros(10_500),
                            threshold: Duration::from_micros(3_600),
                        },
                        share: 0.5,
                        suspected: false,
                        verdict: Verdict::Positive,
                        positives: 2,
                        yielded: true,
                    },
                    unseen: 0,
                },
                TestRecord {
                    flow: 0,
                    outcome: TestOutcome {
                        at: Instant::from_millis(2_000),
                        kind: TestKind::Push {
                            drop: 0.25,
                            rise: -0.5,
                        },
                        share: 0.125,
                        suspected: true,
                        verdict: Verdict::Negative,
                        positives: 0,
                        yielded: false,
                    },
                    unseen: 1,
                },
            ],
        };
        assert_eq!(
            tests_table(&s).to_csv(),
            "t_s,flow,kind,verdict,suspected,share,min_ms,threshold_ms,drop,rise,positives,yielded,unseen\n\
             1.400,b,hold,positive,0,0.500,10.50,3.60,,,2,1,0\n\
             2.000,a,push,negative,1,0.125,,,0.250,-0.500,0,0,1\n"
        );
    }

    #[test]
    fn sweep_tables_give_one_row_per_run_and_student_t_means_per_point() {
        let keys = vec!["k".to_string()];
        let params = vec![vec!["1".to_string()], vec!["2".to_string()]];
        let runs = [
            run(0, 1, 1.0),
            run(0, 2, 2.0),
            run(0, 3, 3.0),
            run(1, 1, 0.5),
        ];
        let t = sweep_tables(&keys, &params, &runs);
        assert_eq!(t.runs.rows(), 4);
        assert_eq!(
            t.runs.to_csv().lines().take(2).collect::<Vec<_>>(),
            ["k,seed,efficiency,\"x,y\"", "1,1,1.000000,"]
        );
        // Point 0: mean 2, s = 1, n = 3: half-width 4.303 / sqrt(3) = 2.484338.
        // Point 1: one run, no interval.
        assert_eq!(
            t.means.to_csv(),
            "k,runs,efficiency.mean,efficiency.ci95,\"x,y.mean\",\"x,y.ci95\"\n\
             1,3,2.000000,2.484338,,\n\
             2,1,0.500000,,,\n"
        );
    }

    #[test]
    fn controller_catalog_lists_every_controller_and_refuses_unknown_names() {
        let all = controller_catalog(None, &[]).unwrap();
        assert_eq!(all.len(), ledbat_core::CATALOG.len());
        assert!(all.iter().all(|r| r.defaults.get("name").is_none()));
        let one = controller_catalog(Some("ledbat"), &["target=150ms"]).unwrap();
        assert_eq!(one.len(), 1);
        assert!(
            !one[0].non_compliant.is_empty(),
            "150 ms exceeds RFC 6817's 100 ms"
        );
        assert!(controller_catalog(Some("nope"), &[]).is_err());
    }
}
