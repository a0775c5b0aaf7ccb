//! The claims of the five seed papers, each with its scenario(s), metric, tolerance and
//! direction, fixed before looking at our numbers.
//!
//! Tolerance policy (applied uniformly, stated per claim):
//! - a value the paper states in its text as "about X" or reads off its own figure: X ± 20 %
//!   (figure-reading precision and seed-to-seed spread in a different simulator), unless the
//!   claim's own wording gives a bound (e.g. "between 12 and 24 ms", "> 0.99", "< 1 packet");
//! - a qualitative statement ("yields", "shares equally", "finishes first"): the band encodes
//!   the statement with a threshold stated before running (e.g. Jain ≥ 0.9 for "fair");
//! - the direction is the weakest reading of the claim that would still make the paper's
//!   point (e.g. "TCP carries more than LEDBAT").
//!
//! Sweeps are expressed as `--set` overrides of one scenario file, so one file serves a whole
//! gain or target sweep.

use crate::plot::{HBand, Plot, Series};
use crate::stats::{jain, mean, quantile};
use ledbat_sim::RunResult;

/// One scenario instance: a file under `scenarios/` and overrides.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScenarioRef {
    /// Path relative to the scenarios directory.
    pub file: &'static str,
    /// `key=value` overrides (sweep point).
    pub set: Vec<String>,
}

impl ScenarioRef {
    /// The scenario as is.
    pub fn file(file: &'static str) -> Self {
        ScenarioRef {
            file,
            set: Vec::new(),
        }
    }
    /// The scenario with overrides.
    pub fn with(file: &'static str, set: &[String]) -> Self {
        ScenarioRef {
            file,
            set: set.to_vec(),
        }
    }
    /// Display form: `file [k=v, ...]`.
    pub fn label(&self) -> String {
        if self.set.is_empty() {
            self.file.to_string()
        } else {
            format!("{} [{}]", self.file, self.set.join(", "))
        }
    }
}

/// Extracts one number from one seed's runs (in the claim's scenario order).
pub type Extract = fn(&[&RunResult]) -> Result<f64, String>;
/// Draws plots from the first seed's runs.
pub type Draw = fn(&[&RunResult]) -> Vec<Plot>;

/// A claim of a paper.
#[derive(Clone)]
pub struct Claim {
    /// Stable identifier (`s003-ledbat-newreno-jain`).
    pub id: &'static str,
    /// Seed paper short name.
    pub paper: &'static str,
    /// Figure, table or section.
    pub figure: &'static str,
    /// The paper's statement.
    pub statement: &'static str,
    /// The paper's value as stated.
    pub paper_value: &'static str,
    /// Unit of the metric.
    pub unit: &'static str,
    /// What exactly is measured.
    pub metric: &'static str,
    /// Scenarios, in the order the extractor expects.
    pub scenarios: Vec<ScenarioRef>,
    /// The extractor.
    pub extract: Extract,
    /// Optional plots.
    pub draw: Option<Draw>,
    /// Tolerance band (reproduced).
    pub tolerance: crate::claims::Band,
    /// Direction band (differs vs not reproduced).
    pub direction: crate::claims::Band,
    /// Why this tolerance.
    pub tolerance_note: &'static str,
    /// Explanation when it does not reproduce (filled after investigation), or a setup note.
    pub explanation: &'static str,
}

/// Reduced variants of long scenarios for `--quick`: (file, overrides, what changes).
pub const QUICK: &[(&str, &[&str], &str)] = &[
    (
        "seed001/base-growth.toml",
        &["duration=25min", "flow.0.cc.delay.base_interval=30s"],
        "base-delay buckets of 30 s instead of 1 min (BASE_HISTORY still 10), 25 min simulated: the growth period becomes 5 min instead of 10, loss expected near 15 min instead of 30",
    ),
    (
        "seed001/base-growth-jitter.toml",
        &["duration=12min", "flow.0.cc.delay.base_interval=30s"],
        "base-delay buckets of 30 s, 12 min simulated (two growth periods)",
    ),
    ("seed001/short-tcp-alone.toml", &["duration=300s"], "240 s of transfers instead of 600 s"),
    ("seed001/short-tcp-ledbat.toml", &["duration=300s"], "240 s of transfers instead of 600 s"),
    ("seed001/web-up-alone.toml", &["duration=400s"], "340 s of trains instead of 1200 s"),
    ("seed001/web-up-ledbat.toml", &["duration=400s"], "340 s of trains instead of 1200 s"),
    ("seed001/web-down-alone.toml", &["duration=400s"], "340 s of trains instead of 1200 s"),
    ("seed001/web-down-ledbat.toml", &["duration=400s"], "340 s of trains instead of 1200 s"),
    ("seed000/dynamic-gain-cbr.toml", &["duration=60s"], "60 s instead of 180 s"),
    ("seed000/fixed-gain-cbr.toml", &["duration=60s"], "60 s instead of 180 s"),
    ("seed003/target-sweep.toml", &["duration=50s"], "50 s instead of 100 s"),
    ("seed003/lbe10-ledbat.toml", &["duration=50s"], "50 s instead of 100 s"),
    ("seed003/lbe10-nice.toml", &["duration=50s"], "50 s instead of 100 s"),
    ("seed003/lbe10-tcp-lp.toml", &["duration=50s"], "50 s instead of 100 s"),
    ("seed003/aqm-droptail.toml", &["duration=60s"], "60 s instead of 120 s"),
    ("seed003/aqm-red.toml", &["duration=60s"], "60 s instead of 120 s"),
    ("seed003/chunks-ledbat.toml", &["duration=60s"], "60 s instead of 120 s"),
    ("seed003/chunks-fledbat.toml", &["duration=60s"], "60 s instead of 120 s"),
    ("seed004/hybrid-five.toml", &["duration=460s", "warmup=410s"], "flows measured over 410-460 s (all five present) instead of 420-600 s"),
];

// ---------------------------------------------------------------- helpers

fn flow_index(r: &RunResult, name: &str) -> Result<usize, String> {
    r.flows
        .iter()
        .position(|f| f.name == name)
        .ok_or_else(|| format!("{}: no flow named `{name}`", r.scenario))
}

fn tput(r: &RunResult, name: &str) -> Result<f64, String> {
    Ok(r.flows[flow_index(r, name)?].throughput_bps)
}

fn total_tput(r: &RunResult) -> f64 {
    r.flows.iter().map(|f| f.throughput_bps).sum()
}

fn bottleneck(r: &RunResult) -> Result<&ledbat_sim::result::LinkResult, String> {
    let i = r.aggregate.primary_link.unwrap_or(0);
    r.links
        .get(i)
        .ok_or_else(|| format!("{}: no bottleneck link in the result", r.scenario))
}

fn finish(r: &RunResult, name: &str) -> Result<f64, String> {
    let f = &r.flows[flow_index(r, name)?];
    f.completions
        .last()
        .map(|c| c.start_s + c.time_s)
        .ok_or_else(|| {
            format!(
                "{}: flow `{name}` did not complete its transfer within {} s",
                r.scenario, r.duration_s
            )
        })
}

fn completion_times(r: &RunResult, name: &str) -> Result<Vec<f64>, String> {
    let f = &r.flows[flow_index(r, name)?];
    if f.completions.is_empty() {
        return Err(format!("{}: flow `{name}` completed nothing", r.scenario));
    }
    Ok(f.completions.iter().map(|c| c.time_s).collect())
}

fn series(r: &RunResult) -> Result<&ledbat_sim::result::Series, String> {
    r.series
        .as_ref()
        .ok_or_else(|| format!("{}: no time series", r.scenario))
}

/// Queueing delay of the bottleneck over time, ms, from the queue-length series
/// (packets x packet time at the link rate).
fn queue_delay_series(r: &RunResult, mss: f64) -> Result<Vec<(f64, f64)>, String> {
    let s = series(r)?;
    let link = bottleneck(r)?;
    let l = s.links.first().ok_or("no link series")?;
    let pkt_ms = mss * 8.0 / link.rate_bps * 1e3;
    Ok(s.t_s
        .iter()
        .zip(&l.queue_pkts)
        .map(|(t, q)| (*t, *q as f64 * pkt_ms))
        .collect())
}

fn window_mean(pts: &[(f64, f64)], from: f64, to: f64) -> Result<f64, String> {
    let v: Vec<f64> = pts
        .iter()
        .filter(|(t, _)| *t >= from && *t < to)
        .map(|p| p.1)
        .collect();
    if v.is_empty() {
        Err(format!("no samples in [{from}, {to}) s"))
    } else {
        Ok(mean(&v))
    }
}

/// Kendall's tau between two equally long sequences.
pub fn kendall_tau(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len().min(y.len());
    let (mut c, mut d) = (0i64, 0i64);
    for i in 0..n {
        for j in i + 1..n {
            let s = (x[j] - x[i]) * (y[j] - y[i]);
            if s > 0.0 {
                c += 1;
            } else if s < 0.0 {
                d += 1;
            }
        }
    }
    let pairs = (n * (n.saturating_sub(1)) / 2) as f64;
    if pairs == 0.0 {
        0.0
    } else {
        (c - d) as f64 / pairs
    }
}

fn rate_plot(title: &str, r: &RunResult) -> Option<Plot> {
    let s = r.series.as_ref()?;
    Some(Plot::lines(
        title,
        "time (s)",
        "rate (Mb/s)",
        s.flows
            .iter()
            .map(|f| {
                (
                    f.name.clone(),
                    s.t_s
                        .iter()
                        .copied()
                        .zip(f.rate_mbps.iter().copied())
                        .collect(),
                )
            })
            .collect(),
    ))
}

fn cwnd_plot(title: &str, r: &RunResult) -> Option<Plot> {
    let s = r.series.as_ref()?;
    Some(Plot::lines(
        title,
        "time (s)",
        "cwnd (packets)",
        s.flows
            .iter()
            .map(|f| {
                (
                    f.name.clone(),
                    s.t_s
                        .iter()
                        .copied()
                        .zip(f.cwnd_pkts.iter().copied())
                        .collect(),
                )
            })
            .collect(),
    ))
}

fn queue_plot(title: &str, r: &RunResult, mss: f64) -> Option<Plot> {
    let q = queue_delay_series(r, mss).ok()?;
    Some(Plot::lines(
        title,
        "time (s)",
        "bottleneck queueing delay (ms)",
        vec![("queue".into(), q)],
    ))
}

fn sweep(file: &'static str, key: &str, values: &[f64]) -> Vec<ScenarioRef> {
    values
        .iter()
        .map(|v| ScenarioRef::with(file, &[format!("{key}={v}")]))
        .collect()
}

// ---------------------------------------------------------------- seed 000

const S000_GAINS: [f64; 9] = [5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 240.0, 320.0, 400.0];

fn s000_fixed_sweep() -> Vec<ScenarioRef> {
    // paper gain g = RFC GAIN / TARGET(s): GAIN = g * 0.025
    S000_GAINS
        .iter()
        .map(|g| {
            ScenarioRef::with(
                "seed000/fixed-gain.toml",
                &[format!("flow.0.cc.gain={}", g * 0.025)],
            )
        })
        .collect()
}

/// Seconds from the start to the first sample where the flow's own queueing-delay estimate
/// reaches 95 % of TARGET (seed 000's "time to reach steady state").
fn time_to_target(r: &RunResult, target_ms: f64) -> Result<f64, String> {
    let s = series(r)?;
    let f = s.flows.first().ok_or("no flow series")?;
    s.t_s
        .iter()
        .zip(&f.qdelay_ms)
        .find(|(_, q)| q.is_finite() && **q >= 0.95 * target_ms)
        .map(|(t, _)| *t)
        .ok_or_else(|| format!("{}: queueing delay never reached TARGET", r.scenario))
}

fn utilisation_of(r: &RunResult, name: &str) -> Result<f64, String> {
    Ok(tput(r, name)? / r.capacity_bps)
}

fn s000_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    let dyn_sweep = sweep(
        "seed000/dynamic-gain.toml",
        "flow.0.cc.initial_gain",
        &S000_GAINS,
    );
    let dyn_cbr_sweep = sweep(
        "seed000/dynamic-gain-cbr.toml",
        "flow.0.cc.initial_gain",
        &S000_GAINS,
    );
    vec![
        Claim {
            id: "s000-fixed320-utilisation",
            paper: "seed000",
            figure: "Fig. 4(c)",
            statement: "With fixed gain 320 the single LEDBAT flow no longer fills the 1.5 Mb/s link: utilisation drops to about 70 %.",
            paper_value: "≈ 70 %",
            unit: "fraction of capacity",
            metric: "LEDBAT throughput / bottleneck rate, 10-60 s",
            scenarios: vec![ScenarioRef::file("seed000/fixed-gain.toml")],
            extract: |r| utilisation_of(r[0], "ledbat"),
            draw: Some(|r| [cwnd_plot("fixed gain 320: cwnd", r[0]), queue_plot("fixed gain 320: queue", r[0], 1500.0)].into_iter().flatten().collect()),
            tolerance: Near { value: 0.70, tol: 0.14 },
            direction: AtMost { bound: 0.95 },
            tolerance_note: "figure value ±20 %; direction: clearly below full utilisation",
            explanation: "",
        },
        Claim {
            id: "s000-fixed320-queue-oscillation",
            paper: "seed000",
            figure: "Fig. 3(d), 4(i)",
            statement: "With fixed gain 320 the queueing delay oscillates between about 0 and 80 ms; its standard deviation grows to about 35 ms (Fig. 4(i)).",
            paper_value: "sd ≈ 35 ms",
            unit: "ms",
            metric: "standard deviation of the per-packet queueing delay at the bottleneck, 10-60 s",
            scenarios: vec![ScenarioRef::file("seed000/fixed-gain.toml")],
            extract: |r| Ok(bottleneck(r[0])?.qdelay_sd_ms),
            draw: None,
            tolerance: Near { value: 35.0, tol: 7.0 },
            direction: AtLeast { bound: 10.0 },
            tolerance_note: "figure value ±20 %; direction: sd at least twice the dynamic gain's 5 ms",
            explanation: "Setup difference not root-caused. The oscillation itself reproduces (sd(cwnd) 4.5 packets against the paper's 5, utilisation 77 % against about 70 %: see s000-fixed320-cwnd-sd and s000-fixed320-utilisation) but our queue swings less: per-packet queueing delay p99 53 ms against the paper's 80-ms peaks. Lifting RFC 6817's flightsize cap (allowed_increase = 1000) raises the sd only to 20 ms; the paper's ns-2.34 module (MIN_CWND 1, its own delay filter) is not available to compare.",
        },
        Claim {
            id: "s000-dynamic-cwnd-sd",
            paper: "seed000",
            figure: "Fig. 4(e)",
            statement: "With the dynamic gain, sd(cwnd) stays under 1 packet for every initial gain 5..400.",
            paper_value: "< 1 packet",
            unit: "packets",
            metric: "largest cwnd standard deviation over the 9 initial gains (steady state, 10-60 s)",
            scenarios: dyn_sweep.clone(),
            extract: |r| Ok(r.iter().map(|x| x.flows[0].cwnd_sd_pkts).fold(0.0, f64::max)),
            draw: Some(|r| {
                vec![Plot {
                    title: "dynamic gain: sd(cwnd) vs initial gain".into(),
                    x_label: "initial gain (paper units)".into(),
                    y_label: "sd(cwnd) (packets)".into(),
                    series: vec![Series { label: "measured (seed 1)".into(), points: S000_GAINS.iter().zip(r).map(|(g, x)| (*g, x.flows[0].cwnd_sd_pkts)).collect(), scatter: true }],
                    bands: vec![HBand { label: "paper: < 1".into(), lo: 0.0, hi: 1.0 }],
                }]
            }),
            tolerance: AtMost { bound: 1.0 },
            direction: AtMost { bound: 2.5 },
            tolerance_note: "the paper's own bound; direction: half the fixed gain's 5 packets",
            explanation: "",
        },
        Claim {
            id: "s000-dynamic-queue-delay",
            paper: "seed000",
            figure: "Fig. 4(h)",
            statement: "With the dynamic gain the mean queueing delay stays at about 27 ms for every initial gain 5..400.",
            paper_value: "≈ 27 ms",
            unit: "ms",
            metric: "the per-gain mean bottleneck queueing delay farthest from 27 ms, over the 9 initial gains",
            scenarios: dyn_sweep.clone(),
            extract: |r| {
                let v: Vec<f64> = r.iter().map(|x| bottleneck(x).map(|l| l.qdelay_mean_ms)).collect::<Result<_, _>>()?;
                Ok(v.into_iter().max_by(|a, b| (a - 27.0).abs().total_cmp(&(b - 27.0).abs())).unwrap_or(f64::NAN))
            },
            draw: Some(|r| {
                vec![Plot {
                    title: "dynamic gain: mean queueing delay vs initial gain".into(),
                    x_label: "initial gain (paper units)".into(),
                    y_label: "mean queueing delay (ms)".into(),
                    series: vec![Series { label: "measured (seed 1)".into(), points: S000_GAINS.iter().zip(r).filter_map(|(g, x)| bottleneck(x).ok().map(|l| (*g, l.qdelay_mean_ms))).collect(), scatter: true }],
                    bands: vec![HBand { label: "paper 27 ms ±20 %".into(), lo: 21.6, hi: 32.4 }],
                }]
            }),
            tolerance: Near { value: 27.0, tol: 5.4 },
            direction: Between { lo: 15.0, hi: 40.0 },
            tolerance_note: "figure value ±20 %; direction: held near TARGET (25 ms) rather than growing with gain",
            explanation: "",
        },
        Claim {
            id: "s000-dynamic-utilisation",
            paper: "seed000",
            figure: "Fig. 4(c)",
            statement: "With the dynamic gain utilisation stays at 100 % for every initial gain.",
            paper_value: "100 %",
            unit: "fraction of capacity",
            metric: "lowest LEDBAT utilisation over the 9 initial gains, 10-60 s",
            scenarios: dyn_sweep,
            extract: |r| r.iter().map(|x| utilisation_of(x, "ledbat")).try_fold(f64::INFINITY, |m, u| u.map(|u| m.min(u))),
            draw: None,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.85 },
            tolerance_note: "100 % read from a figure, 5 points for ACK-clock and packet granularity",
            explanation: "",
        },
        Claim {
            id: "s000-dynamic-utilisation-cbr",
            paper: "seed000",
            figure: "Fig. 4(c)",
            statement: "With the 750 kb/s CBR present, dynamic-gain LEDBAT uses the remaining half of the link for every initial gain.",
            paper_value: "50 %",
            unit: "fraction of capacity",
            metric: "mean over the 9 initial gains of LEDBAT throughput / 1.5 Mb/s, from 25 s",
            scenarios: dyn_cbr_sweep,
            extract: |r| Ok(mean(&r.iter().map(|x| utilisation_of(x, "ledbat")).collect::<Result<Vec<_>, _>>()?)),
            draw: Some(|r| [rate_plot("dynamic gain 5 with CBR: rates", r[0])].into_iter().flatten().collect()),
            tolerance: Near { value: 0.5, tol: 0.05 },
            direction: Between { lo: 0.35, hi: 0.6 },
            tolerance_note: "the CBR takes exactly 50 %; 5 points for LEDBAT's share of the rest",
            explanation: "",
        },
        Claim {
            id: "s000-fixed320-cwnd-sd",
            paper: "seed000",
            figure: "Fig. 4(e)",
            statement: "Without the extension sd(cwnd) grows from 1 packet (gain 80) to about 5 packets for large gains.",
            paper_value: "≈ 5 packets",
            unit: "packets",
            metric: "cwnd standard deviation at fixed gain 320 (RFC GAIN 8), 10-60 s",
            scenarios: vec![ScenarioRef::file("seed000/fixed-gain.toml")],
            extract: |r| Ok(r[0].flows[0].cwnd_sd_pkts),
            draw: None,
            tolerance: Near { value: 5.0, tol: 1.0 },
            direction: AtLeast { bound: 2.0 },
            tolerance_note: "figure value ±20 %; direction: well above the dynamic gain's < 1",
            explanation: "",
        },
        Claim {
            id: "s000-fixed400-queue-delay",
            paper: "seed000",
            figure: "Fig. 4(h)",
            statement: "Without the extension the mean queueing delay rises from 25 ms to about 50 ms as the gain grows to 400.",
            paper_value: "≈ 50 ms at gain 400",
            unit: "ms",
            metric: "mean per-packet bottleneck queueing delay at fixed gain 400 (RFC GAIN 10), 10-60 s",
            scenarios: vec![ScenarioRef::with("seed000/fixed-gain.toml", &["flow.0.cc.gain=10".to_string()])],
            extract: |r| Ok(bottleneck(r[0])?.qdelay_mean_ms),
            draw: None,
            tolerance: Near { value: 50.0, tol: 10.0 },
            direction: AtLeast { bound: 27.0 },
            tolerance_note: "figure value ±20 %; direction: above the dynamic gain's 27 ms",
            explanation: "Same as s000-fixed320-queue-oscillation: the mean queueing delay does rise with the gain (25 ms at RFC GAIN 1 to 33 ms at 10) but less than the paper's 50 ms, because our queue overshoots less (peaks near 60 ms instead of 80 ms). Not root-caused.",
        },
        Claim {
            id: "s000-dynamic-queue-delay-sd",
            paper: "seed000",
            figure: "Fig. 4(i)",
            statement: "With the dynamic gain the standard deviation of the queueing delay stays at about 5 ms for every initial gain.",
            paper_value: "≈ 5 ms",
            unit: "ms",
            metric: "largest per-packet queueing-delay standard deviation over the 9 initial gains, 10-60 s",
            scenarios: sweep("seed000/dynamic-gain.toml", "flow.0.cc.initial_gain", &S000_GAINS),
            extract: |r| r.iter().map(|x| bottleneck(x).map(|l| l.qdelay_sd_ms)).try_fold(0.0f64, |m, v| v.map(|v| m.max(v))),
            draw: None,
            tolerance: AtMost { bound: 6.0 },
            direction: AtMost { bound: 17.0 },
            tolerance_note: "about 5 ms: at most 5 ms + 20 %; direction: below the fixed gain's sd",
            explanation: "",
        },
        Claim {
            id: "s000-fixed-steady-time-falls",
            paper: "seed000",
            figure: "Fig. 3(e)",
            statement: "Time to reach steady state (queueing delay first at TARGET) falls as the gain grows from 5 to 240.",
            paper_value: "monotone decrease (Kendall τ = -1)",
            unit: "Kendall τ",
            metric: "Kendall rank correlation between gain (5..240, 7 values) and the time the flow's queueing-delay estimate first reaches 95 % of TARGET",
            scenarios: s000_fixed_sweep(),
            extract: |r| {
                let t: Vec<f64> = r.iter().take(7).map(|x| time_to_target(x, 25.0)).collect::<Result<_, _>>()?;
                Ok(kendall_tau(&S000_GAINS[..7], &t))
            },
            draw: Some(|r| {
                vec![Plot {
                    title: "fixed gain: time to steady state".into(),
                    x_label: "gain (paper units)".into(),
                    y_label: "time to TARGET (s)".into(),
                    series: vec![Series { label: "measured (seed 1)".into(), points: S000_GAINS.iter().zip(r).filter_map(|(g, x)| time_to_target(x, 25.0).ok().map(|t| (*g, t))).collect(), scatter: true }],
                    bands: vec![],
                }]
            }),
            tolerance: AtMost { bound: -0.8 },
            direction: AtMost { bound: -0.3 },
            tolerance_note: "a nearly monotone fall allows one inversion among 21 pairs at sample resolution (50 ms)",
            explanation: "",
        },
    ]
}

// ---------------------------------------------------------------- seed 001

/// Mean queueing delay (ms) over the bucket-period `k` (0-based) of a base-growth run,
/// skipping the first and last 20 % of the period. `period` in s.
fn growth_level(r: &RunResult, period: f64, k: usize) -> Result<f64, String> {
    let q = queue_delay_series(r, 1500.0)?;
    let from = k as f64 * period + 0.2 * period;
    let to = (k + 1) as f64 * period - 0.2 * period;
    window_mean(&q, from, to)
}

/// The growth period: BASE_HISTORY x bucket length (10 min, or 5 min in quick mode).
fn growth_period(r: &RunResult) -> f64 {
    if r.duration_s < 30.0 * 60.0 {
        300.0
    } else {
        600.0
    }
}

fn first_full_buffer(r: &RunResult) -> Result<f64, String> {
    let s = series(r)?;
    let l = s.links.first().ok_or("no link series")?;
    let limit = bottleneck(r)?.buffer_pkts.unwrap_or(u32::MAX);
    s.t_s
        .iter()
        .zip(&l.queue_pkts)
        .find(|(_, q)| **q + 1 >= limit)
        .map(|(t, _)| *t)
        .ok_or_else(|| {
            format!(
                "{}: the buffer never filled in {} s",
                r.scenario, r.duration_s
            )
        })
}

fn train_ratio(r: &[&RunResult]) -> Result<f64, String> {
    let alone = completion_times(r[0], "web")?;
    let with = completion_times(r[1], "web")?;
    Ok(quantile(&with, 0.5).unwrap_or(f64::NAN) / quantile(&alone, 0.5).unwrap_or(f64::NAN))
}

fn cdf_plot(title: &str, r: &[&RunResult], name: &str) -> Vec<Plot> {
    let mut series = Vec::new();
    for (label, run) in [("alone", r[0]), ("with LEDBAT", r[1])] {
        if let Ok(mut v) = completion_times(run, name) {
            v.sort_by(|a, b| a.total_cmp(b));
            let n = v.len() as f64;
            series.push((
                label.to_string(),
                v.iter()
                    .enumerate()
                    .map(|(i, x)| (x * 1e3, (i + 1) as f64 / n))
                    .collect(),
            ));
        }
    }
    vec![Plot::lines(title, "transfer time (ms)", "CDF", series)]
}

fn s001_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            id: "s001-base-delay-growth-step",
            paper: "seed001",
            figure: "Fig. 1",
            statement: "When the queue never drains, the standing queue grows by about TARGET (100 ms) every BASE_HISTORY (10) minutes.",
            paper_value: "+100 ms per 10 min",
            unit: "ms",
            metric: "mean bottleneck queueing delay in the second growth period minus the first (middle 60 % of each period)",
            scenarios: vec![ScenarioRef::file("seed001/base-growth.toml")],
            extract: |r| {
                let p = growth_period(r[0]);
                Ok(growth_level(r[0], p, 1)? - growth_level(r[0], p, 0)?)
            },
            draw: Some(|r| [queue_plot("base-delay growth: queueing delay", r[0], 1500.0)].into_iter().flatten().collect()),
            tolerance: Near { value: 100.0, tol: 20.0 },
            direction: AtLeast { bound: 50.0 },
            tolerance_note: "TARGET ±20 %",
            explanation: "",
        },
        Claim {
            id: "s001-base-delay-growth-loss-time",
            paper: "seed001",
            figure: "Fig. 1",
            statement: "The growth continues until the 32-packet (384 ms) buffer overflows, at about t = 30 min in the paper's setup.",
            paper_value: "≈ 30 min (3 periods)",
            unit: "growth periods",
            metric: "time the bottleneck queue first reaches the buffer limit, in growth periods (BASE_HISTORY x bucket length)",
            scenarios: vec![ScenarioRef::file("seed001/base-growth.toml")],
            extract: |r| Ok(first_full_buffer(r[0])? / growth_period(r[0])),
            draw: None,
            tolerance: Near { value: 3.0, tol: 0.6 },
            direction: AtMost { bound: 4.0 },
            tolerance_note: "±20 %; direction: the buffer does fill within the run",
            explanation: "",
        },
        Claim {
            id: "s001-jitter-below-target-still-grows",
            paper: "seed001",
            figure: "Fig. 2",
            statement: "Sender jitter with dmax/2 < TARGET (here dmax = 96 ms) plus interruptions does not stop the base-delay growth.",
            paper_value: "growth persists",
            unit: "ms",
            metric: "queueing-delay step between the first two growth periods, dmax = 96 ms",
            scenarios: vec![ScenarioRef::file("seed001/base-growth-jitter.toml")],
            extract: |r| {
                let p = growth_period(r[0]);
                Ok(growth_level(r[0], p, 1)? - growth_level(r[0], p, 0)?)
            },
            draw: Some(|r| [queue_plot("jitter 96 ms: queueing delay", r[0], 1500.0)].into_iter().flatten().collect()),
            tolerance: AtLeast { bound: 50.0 },
            direction: AtLeast { bound: 20.0 },
            tolerance_note: "growth = a step of at least half of TARGET",
            explanation: "",
        },
        Claim {
            id: "s001-jitter-above-target-prevents",
            paper: "seed001",
            figure: "Fig. 2",
            statement: "Only when dmax/2 >= TARGET (here dmax = 240 ms) does jitter let the sender see the true base delay and stop the growth.",
            paper_value: "no growth",
            unit: "ms",
            metric: "queueing-delay step between the first two growth periods, dmax = 240 ms",
            scenarios: vec![ScenarioRef::with("seed001/base-growth-jitter.toml", &["flow.0.send_jitter=240ms".to_string()])],
            extract: |r| {
                let p = growth_period(r[0]);
                Ok(growth_level(r[0], p, 1)? - growth_level(r[0], p, 0)?)
            },
            draw: Some(|r| [queue_plot("jitter 240 ms: queueing delay", r[0], 1500.0)].into_iter().flatten().collect()),
            tolerance: AtMost { bound: 20.0 },
            direction: AtMost { bound: 50.0 },
            tolerance_note: "no growth = step under 20 % of TARGET",
            explanation: "",
        },
        Claim {
            id: "s001-short-tcp-alone",
            paper: "seed001",
            figure: "Fig. 4(a), text",
            statement: "A 10-packet TCP transfer (RTT 25 ms) over the idle 1 Mb/s uplink takes about 152 ms on average.",
            paper_value: "152 ms",
            unit: "ms",
            metric: "mean transfer time of the 10-packet files (first packet sent to last ACK)",
            scenarios: vec![ScenarioRef::file("seed001/short-tcp-alone.toml")],
            extract: |r| Ok(mean(&completion_times(r[0], "tcp-files")?) * 1e3),
            draw: None,
            tolerance: Near { value: 152.0, tol: 30.4 },
            direction: AtMost { bound: 300.0 },
            tolerance_note: "text value ±20 % (initial window and ACK details of TCP-Linux differ)",
            explanation: "",
        },
        Claim {
            id: "s001-short-tcp-beside-ledbat",
            paper: "seed001",
            figure: "Fig. 4(a), text",
            statement: "Beside a long LEDBAT upload the same 10-packet transfer takes about 566 ms.",
            paper_value: "566 ms",
            unit: "ms",
            metric: "mean transfer time of the 10-packet files beside LEDBAT",
            scenarios: vec![ScenarioRef::file("seed001/short-tcp-ledbat.toml")],
            extract: |r| Ok(mean(&completion_times(r[0], "tcp-files")?) * 1e3),
            draw: None,
            tolerance: Near { value: 566.0, tol: 113.2 },
            direction: AtLeast { bound: 250.0 },
            tolerance_note: "text value ±20 %; direction: well above the idle-link time",
            explanation: "",
        },
        Claim {
            id: "s001-web-upstream-shift",
            paper: "seed001",
            figure: "Fig. 5(a)",
            statement: "The transfer-time distribution of web-like upstream trains shifts right beside LEDBAT.",
            paper_value: "shift right",
            unit: "ratio of medians",
            metric: "median train transfer time beside LEDBAT / alone",
            scenarios: vec![ScenarioRef::file("seed001/web-up-alone.toml"), ScenarioRef::file("seed001/web-up-ledbat.toml")],
            extract: train_ratio,
            draw: Some(|r| cdf_plot("web-like trains upstream", r, "web")),
            tolerance: AtLeast { bound: 1.2 },
            direction: AtLeast { bound: 1.05 },
            tolerance_note: "a visible shift = median at least 20 % later (fixed before running)",
            explanation: "",
        },
        Claim {
            id: "s001-web-downstream-shift",
            paper: "seed001",
            figure: "Fig. 6(a)",
            statement: "Downstream trains (sharing the uplink with LEDBAT only through their ACKs) are also noticeably slower beside LEDBAT.",
            paper_value: "shift right",
            unit: "ratio of medians",
            metric: "median train transfer time beside LEDBAT / alone",
            scenarios: vec![ScenarioRef::file("seed001/web-down-alone.toml"), ScenarioRef::file("seed001/web-down-ledbat.toml")],
            extract: train_ratio,
            draw: Some(|r| cdf_plot("web-like trains downstream", r, "web")),
            tolerance: AtLeast { bound: 1.2 },
            direction: AtLeast { bound: 1.05 },
            tolerance_note: "same threshold as upstream",
            explanation: "",
        },
    ]
}

// ---------------------------------------------------------------- seed 002

fn s002_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            id: "s002-linear-latecomer-finishes-first",
            paper: "seed002",
            figure: "Fig. 1, section 5.2",
            statement: "With the linear decrease the latecomer dominates and finishes first (at 106 s, the first flow at 171 s).",
            paper_value: "171 - 106 = 65 s",
            unit: "s",
            metric: "completion time of the first flow minus that of the latecomer (absolute times)",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-linear.toml")],
            extract: |r| Ok(finish(r[0], "first")? - finish(r[0], "latecomer")?),
            draw: Some(|r| [rate_plot("linear: rates", r[0])].into_iter().flatten().collect()),
            tolerance: Near { value: 65.0, tol: 13.0 },
            direction: AtLeast { bound: 0.0 },
            tolerance_note: "text values ±20 %; direction: the latecomer finishes first",
            explanation: "",
        },
        Claim {
            id: "s002-md-nf1-first-finishes-first",
            paper: "seed002",
            figure: "Fig. 2 (middle), section 5.2",
            statement: "With the multiplicative decrease (MD-NF1) flows share equally, so the first flow finishes first, at 134-158 s.",
            paper_value: "134-158 s",
            unit: "s",
            metric: "completion time of the first flow",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-md-nf1.toml")],
            extract: |r| finish(r[0], "first"),
            draw: Some(|r| [rate_plot("MD-NF1: rates", r[0])].into_iter().flatten().collect()),
            tolerance: Between { lo: 134.0, hi: 158.0 },
            direction: Between { lo: 100.0, hi: 200.0 },
            tolerance_note: "the paper's own range",
            explanation: "Ours: the first flow finishes at 160.9 s and the latecomer at 158.8 s, so with beta = 0.6 the latecomer still keeps a small advantage (see s002-md-nf1-fair for the share while both run). The result is insensitive to the noise filter (min of 1, 2 or 8 samples all give 160.9 s). The paper's MD implementation runs in the Linux kernel code of the Network Simulation Cradle; the difference is not root-caused.",
        },
        Claim {
            id: "s002-md-nf2-first-finishes-first",
            paper: "seed002",
            figure: "Fig. 2 (upper), section 5.2",
            statement: "With MD-NF2 (noise filter of 2 samples) the first flow also finishes at 134-158 s.",
            paper_value: "134-158 s",
            unit: "s",
            metric: "completion time of the first flow",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-md-nf2.toml")],
            extract: |r| finish(r[0], "first"),
            draw: None,
            tolerance: Between { lo: 134.0, hi: 158.0 },
            direction: Between { lo: 100.0, hi: 200.0 },
            tolerance_note: "the paper's own range",
            explanation: "Same as MD-NF1: first flow 160.9 s, latecomer 158.8 s; the noise filter length does not change it in our simulator (no delay noise without delayed ACKs or jitter).",
        },
        Claim {
            id: "s002-mdvar-first-finishes-first",
            paper: "seed002",
            figure: "Fig. 2 (lower), section 5.2",
            statement: "With MDvar the first flow also finishes at 134-158 s (equal sharing, 40 ms base RTT).",
            paper_value: "134-158 s",
            unit: "s",
            metric: "completion time of the first flow",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-mdvar.toml")],
            extract: |r| finish(r[0], "first"),
            draw: Some(|r| [rate_plot("MDvar, RTT 40 ms: rates", r[0])].into_iter().flatten().collect()),
            tolerance: Between { lo: 134.0, hi: 158.0 },
            direction: Between { lo: 100.0, hi: 200.0 },
            tolerance_note: "the paper's own range",
            explanation: "",
        },
        Claim {
            id: "s002-last-finish-linear",
            paper: "seed002",
            figure: "Figs. 1-2, section 5.2",
            statement: "Whatever the decrease scheme, the last transfer finishes at about 171 s (linear case shown).",
            paper_value: "171 s",
            unit: "s",
            metric: "completion time of the later-finishing flow, linear decrease",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-linear.toml")],
            extract: |r| Ok(finish(r[0], "first")?.max(finish(r[0], "latecomer")?)),
            draw: None,
            tolerance: Near { value: 171.0, tol: 17.1 },
            direction: Near { value: 171.0, tol: 50.0 },
            tolerance_note: "text value ±10 % (the total is set by capacity: 200 MB at 10 Mb/s = 160 s + 15 s offset)",
            explanation: "",
        },
        Claim {
            id: "s002-md-lower-utilisation",
            paper: "seed002",
            figure: "section 5.2, 5.3",
            statement: "The MD schemes share equally but at lower utilisation than the linear decrease (the queue empties at every decrease).",
            paper_value: "lower than linear",
            unit: "ratio",
            metric: "mean bottleneck utilisation MD-NF1 / linear while both flows transfer (whole-run link utilisation)",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-md-nf1.toml"), ScenarioRef::file("seed002/two-flows-linear.toml")],
            extract: |r| {
                // bytes / (last completion time) per scenario: the utilisation of the busy period
                let busy = |x: &RunResult| -> Result<f64, String> {
                    let end = finish(x, "first")?.max(finish(x, "latecomer")?);
                    Ok(2.0 * 100e6 * 8.0 / (end * x.capacity_bps))
                };
                Ok(busy(r[0])? / busy(r[1])?)
            },
            draw: None,
            tolerance: AtMost { bound: 0.99 },
            direction: AtMost { bound: 1.0 },
            tolerance_note: "qualitative: strictly lower (by at least 1 %)",
            explanation: "Paper-internal tension rather than a simulator bug: the paper's own completion times put the last transfer at 171 s under every scheme (section 5.2), i.e. no loss of total completion time in this 2 x 100 MB scenario, and ours agree (MD-NF1 160.9 s, linear 161.6 s). With beta = 0.6 the window after a decrease, 0.6 x (33-packet pipe + 21-packet target queue) = 32 packets, still nearly fills the pipe, so the link barely idles. The paper's 'lower utilisation' refers to Fig. 5 (MDvar with 2-5 flows over many transfer sizes) and to transients, which this metric does not isolate.",
        },
        Claim {
            id: "s002-md-nf1-fair",
            paper: "seed002",
            figure: "Fig. 2 (middle), section 5.2",
            statement: "With MD-NF1 the decrease times synchronise and both flows get the same share of the bandwidth.",
            paper_value: "equal share",
            unit: "Jain index",
            metric: "Jain's index of the two flows' mean rates while both transfer (from 30 s to the first completion)",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-md-nf1.toml")],
            extract: |r| jain_period(r[0]),
            draw: None,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "equal share = Jain ≥ 0.95",
            explanation: "",
        },
        Claim {
            id: "s002-mdvar-fair-rtt40",
            paper: "seed002",
            figure: "Fig. 2 (lower)",
            statement: "MDvar shares the link equally between the two flows at base RTT 40 ms.",
            paper_value: "equal share",
            unit: "Jain index",
            metric: "Jain's index of the two flows' mean rates while both transfer (from 30 s to the first completion)",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-mdvar.toml")],
            extract: |r| jain_period(r[0]),
            draw: None,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "equal share = Jain ≥ 0.95 (fixed before running)",
            explanation: "",
        },
        Claim {
            id: "s002-mdvar-fair-rtt20",
            paper: "seed002",
            figure: "Fig. 3",
            statement: "MDvar shares the link equally at base RTT 20 ms.",
            paper_value: "equal share",
            unit: "Jain index",
            metric: "Jain's index of the two flows' mean rates while both transfer",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-mdvar-rtt20.toml")],
            extract: |r| jain_period(r[0]),
            draw: Some(|r| [rate_plot("MDvar, RTT 20 ms: rates", r[0])].into_iter().flatten().collect()),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "equal share = Jain ≥ 0.95",
            explanation: "",
        },
        Claim {
            id: "s002-mdvar-fair-5-flows",
            paper: "seed002",
            figure: "Fig. 4",
            statement: "With five flows starting 15 s apart, MDvar flows always share the link equally after a short time.",
            paper_value: "equal share",
            unit: "Jain index",
            metric: "long-term Jain's index of the five flows, 75-180 s",
            scenarios: vec![ScenarioRef::file("seed002/five-flows-mdvar.toml")],
            extract: |r| r[0].aggregate.jain_long.ok_or_else(|| "no Jain index".to_string()),
            draw: Some(|r| [rate_plot("MDvar, 5 flows: rates", r[0])].into_iter().flatten().collect()),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "equal share = Jain ≥ 0.95",
            explanation: "",
        },
        Claim {
            id: "s002-linear-does-not-yield-20mbps",
            paper: "seed002",
            figure: "Fig. 6 (upper), section 5.4",
            statement: "At 20 Mb/s with a 60-packet queue (TARGET = 42 packets), linear LEDBAT fails to yield to a joining TCP flow.",
            paper_value: "does not yield",
            unit: "LEDBAT share",
            metric: "LEDBAT's share of the total throughput from 30 s (10 s after TCP joins) to 120 s",
            scenarios: vec![ScenarioRef::file("seed002/tcp-20mbps-linear.toml")],
            extract: |r| Ok(tput(r[0], "ledbat")? / total_tput(r[0])),
            draw: Some(|r| [rate_plot("linear vs TCP, 20 Mb/s", r[0])].into_iter().flatten().collect()),
            tolerance: AtLeast { bound: 0.3 },
            direction: AtLeast { bound: 0.15 },
            tolerance_note: "not yielding = LEDBAT keeps ≥ 30 % (yielding LBE flows keep a few %)",
            explanation: "The contrast reproduces (linear keeps 19.5 %, the one-packet minimum 7.5 %), but our linear LEDBAT yields more than the paper's Fig. 6, where it hardly decreases at all. The paper attributes non-yielding to TCP slow-start bursts whose losses hit only TCP; in our simulator LEDBAT also sees some of those losses (its own retransmissions are non-zero), which halves its window. Not root-caused further.",
        },
        Claim {
            id: "s002-linear-min-yields-20mbps",
            paper: "seed002",
            figure: "Fig. 6 (lower), section 5.4",
            statement: "With a decrease of at least one packet per RTT, LEDBAT yields to the joining TCP flow.",
            paper_value: "yields",
            unit: "LEDBAT share",
            metric: "LEDBAT's share of the total throughput from 30 s to 120 s",
            scenarios: vec![ScenarioRef::file("seed002/tcp-20mbps-linear-min.toml")],
            extract: |r| Ok(tput(r[0], "ledbat")? / total_tput(r[0])),
            draw: Some(|r| [rate_plot("linear-min vs TCP, 20 Mb/s", r[0])].into_iter().flatten().collect()),
            tolerance: AtMost { bound: 0.15 },
            direction: AtMost { bound: 0.3 },
            tolerance_note: "yielding = LEDBAT keeps ≤ 15 %",
            explanation: "",
        },
    ]
}

/// Jain's index of the flows' mean rates from 30 s to the first completion (or the end).
fn jain_period(r: &RunResult) -> Result<f64, String> {
    let s = series(r)?;
    let end = r
        .flows
        .iter()
        .filter_map(|f| f.completions.first().map(|c| c.start_s + c.time_s))
        .fold(r.duration_s, f64::min);
    let mut x = vec![0.0; s.flows.len()];
    let mut n = 0usize;
    for (k, t) in s.t_s.iter().enumerate() {
        if *t >= 30.0 && *t < end {
            for (i, f) in s.flows.iter().enumerate() {
                x[i] += f.rate_mbps.get(k).copied().unwrap_or(0.0);
            }
            n += 1;
        }
    }
    if n == 0 {
        return Err(format!("{}: no period with both flows active", r.scenario));
    }
    jain(&x).ok_or_else(|| "zero throughput".to_string())
}

// ---------------------------------------------------------------- seed 003

/// tau for a target expressed as a share of a 100-packet buffer at 10 Mb/s (1.2 ms/packet).
fn tau_for_share(share: f64) -> String {
    format!(
        "flow.0.cc.target={}us",
        (share * 100.0 * 1200.0).round() as u64
    )
}

fn tcp_share(r: &RunResult) -> f64 {
    r.aggregate.tcp_share
}

fn lbe_share_each(r: &[&RunResult]) -> Result<f64, String> {
    let x = r[0];
    tput(x, "tcp")?;
    let lbe: Vec<f64> = x
        .flows
        .iter()
        .filter(|f| f.name != "tcp")
        .map(|f| f.throughput_bps)
        .collect();
    Ok(mean(&lbe) / x.capacity_bps)
}

fn s003_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    let zetas = [0.01, 0.1, 0.2, 0.5];
    let fledbat_zeta_sweep: Vec<ScenarioRef> = zetas
        .iter()
        .map(|z| {
            ScenarioRef::with(
                "seed003/chunks-fledbat.toml",
                &[format!("flow.0.cc.zeta={z}"), format!("flow.1.cc.zeta={z}")],
            )
        })
        .collect();
    vec![
        Claim {
            id: "s003-ledbat-newreno-jain",
            paper: "seed003",
            figure: "Fig. 3.3(a), section 3.2.3",
            statement: "LEDBAT against NewReno (B = 40, both starting at 0, no slow start) yields: Jain's index F = 0.65.",
            paper_value: "F = 0.65",
            unit: "Jain index",
            metric: "long-term Jain's index of the two flows, 0-100 s",
            scenarios: vec![ScenarioRef::file("seed003/ledbat-newreno.toml")],
            extract: |r| r[0].aggregate.jain_long.ok_or_else(|| "no Jain index".into()),
            draw: Some(|r| [cwnd_plot("LEDBAT vs NewReno, B = 40: windows", r[0]), queue_plot("LEDBAT vs NewReno: queue", r[0], 1500.0)].into_iter().flatten().collect()),
            tolerance: Near { value: 0.65, tol: 0.13 },
            direction: AtMost { bound: 0.9 },
            tolerance_note: "text value ±20 %; direction: clearly unequal (LEDBAT yields)",
            explanation: "",
        },
        Claim {
            id: "s003-ledbat-newreno-data-ratio",
            paper: "seed003",
            figure: "Fig. 3.3(a), section 3.2.3",
            statement: "TCP transfers about 6 times as much data as LEDBAT.",
            paper_value: "6x",
            unit: "TCP bytes / LEDBAT bytes",
            metric: "NewReno throughput / LEDBAT throughput, 0-100 s",
            scenarios: vec![ScenarioRef::file("seed003/ledbat-newreno.toml")],
            extract: |r| Ok(tput(r[0], "tcp")? / tput(r[0], "ledbat")?),
            draw: None,
            tolerance: Near { value: 6.0, tol: 1.2 },
            direction: AtLeast { bound: 1.5 },
            tolerance_note: "text value ±20 %; direction: TCP carries clearly more",
            explanation: "Measurement window. The thesis states the ratio 'during the same timeframe' as Fig. 3.3(a), whose narrative spans the first seconds (ramp-up to t = 2 s, cycles at t = 6-7 s). Over the first 20 s the same scenario gives 6.5x and F = 0.650 (`ledbat sim scenarios/seed003/ledbat-newreno.toml --set duration=20s`, seed 1); over the 100 s measured here the start-up, where both windows grow together, weighs less and LEDBAT yields more.",
        },
        Claim {
            id: "s003-ledbat-newreno-window-gain",
            paper: "seed003",
            figure: "Fig. 3.3(a), section 3.2.3",
            statement: "The sum of both sender windows (the thesis's estimate of link use) is about 16 % above TCP alone.",
            paper_value: "+16 %",
            unit: "relative increase",
            metric: "(mean cwnd TCP + mean cwnd LEDBAT) / mean cwnd of NewReno alone - 1 (the thesis's own quantity: sum of windows)",
            scenarios: vec![ScenarioRef::file("seed003/ledbat-newreno.toml"), ScenarioRef::file("seed003/newreno-alone.toml")],
            extract: |r| {
                let both: f64 = r[0].flows.iter().map(|f| f.cwnd_mean_pkts).sum();
                Ok(both / r[1].flows[0].cwnd_mean_pkts - 1.0)
            },
            draw: None,
            tolerance: Near { value: 0.16, tol: 0.032 },
            direction: AtLeast { bound: 0.0 },
            tolerance_note: "text value ±20 %; direction: LEDBAT adds to, not takes from, the link use",
            explanation: "Same measurement-window effect as the data ratio: over the first 20 s the window sum is 13 % above NewReno alone (seed 1, `--set duration=20s` on both scenarios), over 100 s about 7 %. The throughput gain over TCP alone is small either way (efficiency 0.99 against 0.985), as expected with B = 40 close to the 42-packet pipe.",
        },
        Claim {
            id: "s003-ledbat-ledbat-fair",
            paper: "seed003",
            figure: "Fig. 3.3(b), section 3.2.3",
            statement: "Two LEDBAT flows starting together share fairly: F > 0.99.",
            paper_value: "F > 0.99",
            unit: "Jain index",
            metric: "long-term Jain's index, 0-100 s",
            scenarios: vec![ScenarioRef::file("seed003/ledbat-ledbat.toml")],
            extract: |r| r[0].aggregate.jain_long.ok_or_else(|| "no Jain index".into()),
            draw: Some(|r| [cwnd_plot("LEDBAT vs LEDBAT, B = 40: windows", r[0])].into_iter().flatten().collect()),
            tolerance: AtLeast { bound: 0.99 },
            direction: AtLeast { bound: 0.9 },
            tolerance_note: "the paper's own bound",
            explanation: "",
        },
        Claim {
            id: "s003-ledbat-ledbat-efficiency",
            paper: "seed003",
            figure: "Fig. 3.3(b), section 3.2.3",
            statement: "Two LEDBAT flows are as efficient as LEDBAT + TCP: efficiency only 0.7 % lower.",
            paper_value: "-0.7 %",
            unit: "relative difference",
            metric: "efficiency(LEDBAT+LEDBAT) / efficiency(LEDBAT+NewReno) - 1",
            scenarios: vec![ScenarioRef::file("seed003/ledbat-ledbat.toml"), ScenarioRef::file("seed003/ledbat-newreno.toml")],
            extract: |r| Ok(r[0].aggregate.efficiency / r[1].aggregate.efficiency - 1.0),
            draw: None,
            tolerance: Near { value: -0.007, tol: 0.02 },
            direction: AtLeast { bound: -0.05 },
            tolerance_note: "a 0.7 % difference is within run-to-run noise: ±2 points",
            explanation: "",
        },
        Claim {
            id: "s003-target-region2-yields",
            paper: "seed003",
            figure: "Fig. 3.4(b), region T2",
            statement: "For a target of 20-65 % of the buffer LEDBAT completely yields to TCP Reno (TCP% near 100 %).",
            paper_value: "TCP% ≈ 100 %",
            unit: "TCP share",
            metric: "TCP share of throughput at T = 40 % (tau = 48 ms), B = 100",
            scenarios: vec![ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(0.40)])],
            extract: |r| Ok(tcp_share(r[0])),
            draw: None,
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.6 },
            tolerance_note: "near 100 % = at least 90 %",
            explanation: "",
        },
        Claim {
            id: "s003-target-region3-starves-tcp",
            paper: "seed003",
            figure: "Fig. 3.4(b), region T3",
            statement: "As the target approaches the whole buffer (T = 100 %), LEDBAT erodes TCP until TCP starves (TCP% ≈ 0 %).",
            paper_value: "TCP% ≈ 0 %",
            unit: "TCP share",
            metric: "TCP share of throughput at T = 100 % (tau = 120 ms), B = 100",
            scenarios: vec![ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(1.0)])],
            extract: |r| Ok(tcp_share(r[0])),
            draw: None,
            tolerance: AtMost { bound: 0.1 },
            direction: AtMost { bound: 0.5 },
            tolerance_note: "near 0 % = at most 10 %; direction: LEDBAT no longer lower priority",
            explanation: "Not reproduced, not root-caused. The four-region shape is there (seed 1, plot of s003-target-sweep-curve): TCP share 0.99 up to T = 40 %, falling through 65-100 % to a minimum of about 0.57 at T = 120 %, rising again beyond; but LEDBAT never starves TCP. In loss mode our RFC 6817 LEDBAT grows by GAIN x off_target packets per RTT, below Reno's 1 packet per RTT whenever the queue is non-empty, and halves on loss like Reno, so it cannot out-compete Reno. The thesis's TCP% = 0 at T = 100 % requires its LEDBAT to grow at least as fast as Reno near a full buffer; the implementation detail that allows this is not stated.",
        },
        Claim {
            id: "s003-target-region4-half",
            paper: "seed003",
            figure: "Fig. 3.4(b), region T4",
            statement: "With a target beyond the buffer (T > 100 %) LEDBAT falls back to loss-based behaviour and the breakdown is near even (TCP% ≈ 50 %).",
            paper_value: "TCP% ≈ 50 %",
            unit: "TCP share",
            metric: "TCP share of throughput at T = 150 % (tau = 180 ms), B = 100",
            scenarios: vec![ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(1.5)])],
            extract: |r| Ok(tcp_share(r[0])),
            draw: None,
            tolerance: Near { value: 0.5, tol: 0.1 },
            direction: Between { lo: 0.2, hi: 0.8 },
            tolerance_note: "figure value ±10 points",
            explanation: "Same mechanism as region 3: beyond the buffer LEDBAT is loss-driven but its increase (GAIN x off_target per RTT, off_target >= 1/3 at T = 150 %) stays below Reno's, so TCP keeps about 60-65 % instead of 50 %.",
        },
        Claim {
            id: "s003-target-sweep-curve",
            paper: "seed003",
            figure: "Fig. 3.4(b)",
            statement: "TCP% as a function of the target (2..150 % of the buffer): high in 20-65 %, falling to 0 at 100 %, back near 50 % beyond.",
            paper_value: "four regions",
            unit: "TCP share at 40 % minus at 100 %",
            metric: "TCP share at T = 40 % minus TCP share at T = 100 % (the fall between regions 2 and 3); the whole curve is plotted",
            scenarios: [0.02, 0.1, 0.2, 0.4, 0.65, 0.8, 0.9, 1.0, 1.2, 1.5].iter().map(|s| ScenarioRef::with("seed003/target-sweep.toml", &[tau_for_share(*s)])).collect(),
            extract: |r| Ok(tcp_share(r[3]) - tcp_share(r[7])),
            draw: Some(|r| {
                let xs = [2.0, 10.0, 20.0, 40.0, 65.0, 80.0, 90.0, 100.0, 120.0, 150.0];
                vec![Plot {
                    title: "LEDBAT vs TCP: TCP% vs target (B = 100)".into(),
                    x_label: "target T (% of buffer)".into(),
                    y_label: "TCP share".into(),
                    series: vec![Series { label: "measured (seed 1)".into(), points: xs.iter().zip(r).map(|(x, v)| (*x, tcp_share(v))).collect(), scatter: false }],
                    bands: vec![],
                }]
            }),
            tolerance: AtLeast { bound: 0.8 },
            direction: AtLeast { bound: 0.3 },
            tolerance_note: "≈100 % to ≈0 % is a fall of ≈1; at least 0.8",
            explanation: "Regions 1-2 reproduce (TCP share 0.99 for T <= 40 %) and the curve falls and recovers where the thesis's does, but the fall of region 3 is shallower (to about 0.6 instead of 0), see s003-target-region3-starves-tcp.",
        },
        Claim {
            id: "s003-gain-flat",
            paper: "seed003",
            figure: "Fig. 3.4, f(G) curves",
            statement: "The gain (1..10) barely matters: the TCP% curve against LEDBAT is flat in G.",
            paper_value: "flat",
            unit: "|ΔTCP share|",
            metric: "|TCP share at G = 10 - TCP share at G = 1|, tau = 25 ms, B = 100",
            scenarios: vec![
                ScenarioRef::with("seed003/target-sweep.toml", &["flow.0.cc.gain=1.0".to_string()]),
                ScenarioRef::with("seed003/target-sweep.toml", &["flow.0.cc.gain=10.0".to_string()]),
            ],
            extract: |r| Ok((tcp_share(r[1]) - tcp_share(r[0])).abs()),
            draw: None,
            tolerance: AtMost { bound: 0.05 },
            direction: AtMost { bound: 0.15 },
            tolerance_note: "flat = within 5 points",
            explanation: "",
        },
        Claim {
            id: "s003-lbe10-ledbat-each",
            paper: "seed003",
            figure: "Fig. 3.6(b), section 3.2.5.1",
            statement: "With 10 LEDBAT flows + 1 NewReno, each LEDBAT flow gets a mere 1 % of the capacity.",
            paper_value: "≈ 1 % each",
            unit: "fraction of capacity",
            metric: "mean LEDBAT flow throughput / capacity",
            scenarios: vec![ScenarioRef::file("seed003/lbe10-ledbat.toml")],
            extract: lbe_share_each,
            draw: None,
            tolerance: Between { lo: 0.0, hi: 0.02 },
            direction: AtMost { bound: 1.0 / 11.0 },
            tolerance_note: "\"about 1 %\" read from a figure: within 1 point; direction: below the fair share 1/11",
            explanation: "Floor effect. Each of the 10 LEDBAT flows keeps at least one packet per RTT (the thesis's floor, used here; RFC MIN_CWND 2 gave 3.3 % each): 10 packets per ~85 ms RTT is about 1.4 Mb/s, 1.4 % each, plus a little. The thesis's 1 % is within half a point of this bound.",
        },
        Claim {
            id: "s003-lbe10-nice-each",
            paper: "seed003",
            figure: "Fig. 3.6(b), section 3.2.5.1",
            statement: "With 10 NICE flows + 1 NewReno, each NICE flow gets about 3 %.",
            paper_value: "≈ 3 % each",
            unit: "fraction of capacity",
            metric: "mean NICE flow throughput / capacity",
            scenarios: vec![ScenarioRef::file("seed003/lbe10-nice.toml")],
            extract: lbe_share_each,
            draw: None,
            tolerance: Between { lo: 0.02, hi: 0.04 },
            direction: AtMost { bound: 1.0 / 11.0 },
            tolerance_note: "within 1 point; direction: below the fair share 1/11",
            explanation: "Setup difference found: the window floor. Our NICE may fall to 1/48 packet per RTT (the NICE paper's prototype limit, nice.rs default) and then starves against NewReno's standing queue (0.1 % each). The same scenario with a floor of 1 packet gives 1.7 % each, and with a floor of 2 packets (Linux's minimum window) 3.0 % each, the thesis's value (`ledbat sim scenarios/seed003/lbe10-nice.toml --set flow.0.cc.min_cwnd=2`, seed 1: TCP share 0.696). So the thesis's ns-2 NICE evidently never went below about 2 packets per RTT, although its text says cwnd may drop below 1. The scenario keeps our implementation's documented default.",
        },
        Claim {
            id: "s003-lbe10-tcplp-each",
            paper: "seed003",
            figure: "Fig. 3.6(b), section 3.2.5.1",
            statement: "With 10 TCP-LP flows + 1 NewReno, each TCP-LP flow gets about 5 %.",
            paper_value: "≈ 5 % each",
            unit: "fraction of capacity",
            metric: "mean TCP-LP flow throughput / capacity",
            scenarios: vec![ScenarioRef::file("seed003/lbe10-tcp-lp.toml")],
            extract: lbe_share_each,
            draw: None,
            tolerance: Between { lo: 0.04, hi: 0.06 },
            direction: AtMost { bound: 1.0 / 11.0 },
            tolerance_note: "within 1 point; direction: below the fair share 1/11",
            explanation: "Not root-caused; reported to the TCP-LP implementer. Our TCP-LP flows get well under the thesis's 5 % each (1.5 % to 2.4 % each across the controller's revisions during this work): under NewReno's standing queue the early-congestion threshold d_min + 0.15 (d_max - d_min) is crossed almost continuously, so TCP-LP keeps halving and re-entering its inference period.",
        },
        Claim {
            id: "s003-latecomer-starves-first",
            paper: "seed003",
            figure: "Fig. 4.1(a) bottom, section 4.2.1",
            statement: "With B = 100 a LEDBAT latecomer arriving 10 s later over-estimates the base delay and starves the first flow.",
            paper_value: "first flow starves",
            unit: "first flow's share",
            metric: "first flow's share of the throughput, 20-80 s",
            scenarios: vec![ScenarioRef::file("seed003/latecomer-ledbat.toml")],
            extract: |r| Ok(tput(r[0], "first")? / total_tput(r[0])),
            draw: Some(|r| [cwnd_plot("LEDBAT latecomer, B = 100: windows", r[0])].into_iter().flatten().collect()),
            tolerance: AtMost { bound: 0.1 },
            direction: AtMost { bound: 0.4 },
            tolerance_note: "starvation = at most 10 % of the link",
            explanation: "",
        },
        Claim {
            id: "s003-rtt-hetero-ledbat-unfair",
            paper: "seed003",
            figure: "Fig. 3.9 (left)",
            statement: "With RTT heterogeneity (ratio 4) LEDBAT is unfair: the short-RTT flow reaches the target first and the other starves.",
            paper_value: "F near 0.5",
            unit: "Jain index",
            metric: "long-term Jain's index of the two LEDBAT flows, RTT 50 and 200 ms",
            scenarios: vec![ScenarioRef::file("seed003/rtt-hetero-ledbat.toml")],
            extract: |r| r[0].aggregate.jain_long.ok_or_else(|| "no Jain index".into()),
            draw: Some(|r| [rate_plot("LEDBAT, RTT 50 vs 200 ms", r[0])].into_iter().flatten().collect()),
            tolerance: AtMost { bound: 0.7 },
            direction: AtMost { bound: 0.9 },
            tolerance_note: "\"totally unfair\" = F ≤ 0.7",
            explanation: "",
        },
        Claim {
            id: "s003-rtt-hetero-ledbat-efficient",
            paper: "seed003",
            figure: "Fig. 3.9 (right)",
            statement: "With RTT heterogeneity LEDBAT stays perfectly efficient.",
            paper_value: "η ≈ 1",
            unit: "efficiency",
            metric: "efficiency, RTT 50 and 200 ms",
            scenarios: vec![ScenarioRef::file("seed003/rtt-hetero-ledbat.toml")],
            extract: |r| Ok(r[0].aggregate.efficiency),
            draw: None,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.85 },
            tolerance_note: "perfectly efficient = η ≥ 0.95",
            explanation: "",
        },
        Claim {
            id: "s003-rtt-hetero-nice-fair",
            paper: "seed003",
            figure: "Fig. 3.9 (left)",
            statement: "Only NICE, by its Vegas inheritance, stays fair under RTT heterogeneity.",
            paper_value: "fair",
            unit: "Jain index",
            metric: "long-term Jain's index of the two NICE flows, RTT 50 and 200 ms",
            scenarios: vec![ScenarioRef::file("seed003/rtt-hetero-nice.toml")],
            extract: |r| r[0].aggregate.jain_long.ok_or_else(|| "no Jain index".into()),
            draw: None,
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.75 },
            tolerance_note: "fair = F ≥ 0.9",
            explanation: "NICE is the fairest of our LBE protocols under RTT ratio 4 (F 0.78 against LEDBAT's 0.59) but below the 0.9 threshold, with a wide spread over seeds (F from about 0.6 to 0.95). Not root-caused; the thesis adds the extra delay on the return path only, which our symmetric access delay cannot express.",
        },
        Claim {
            id: "s003-fledbat-fluid-queue",
            paper: "seed003",
            figure: "Fig. 4.3, eq. 4.10",
            statement: "Two fLEDBAT flows (zeta 0.1) settle at the fluid equilibrium: queue Q* = C tau + N alpha tau / (zeta R) = 30.8 packets.",
            paper_value: "Q* = 30.8 pkts",
            unit: "packets",
            metric: "time-weighted mean bottleneck queue, 20-60 s, packet simulation",
            scenarios: vec![ScenarioRef::file("seed003/fledbat-fluid.toml")],
            extract: |r| Ok(bottleneck(r[0])?.queue_mean_time_pkts),
            draw: Some(crate::fluid_compare::draw),
            tolerance: Near { value: 30.83, tol: 6.17 },
            direction: Between { lo: 20.8, hi: 60.0 },
            tolerance_note: "closed form ±20 % (the model ignores the base-delay estimation error and packet quantisation, section 4.3.1); direction: above C tau",
            explanation: "",
        },
        Claim {
            id: "s003-fledbat-fluid-fair",
            paper: "seed003",
            figure: "Fig. 4.3(a)",
            statement: "After a transient the two fLEDBAT flows share the capacity fairly, X_i = C/2.",
            paper_value: "X_i = C/2",
            unit: "Jain index",
            metric: "long-term Jain's index, 20-60 s",
            scenarios: vec![ScenarioRef::file("seed003/fledbat-fluid.toml")],
            extract: |r| r[0].aggregate.jain_long.ok_or_else(|| "no Jain index".into()),
            draw: None,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "fair = F ≥ 0.95",
            explanation: "",
        },
        Claim {
            id: "s003-fledbat-latecomer-zeta-range",
            paper: "seed003",
            figure: "Fig. 4.5(c), 4.6, section 4.6.3-4.6.4",
            statement: "fLEDBAT shares fairly with a latecomer (10 s later) for every zeta of the shaded zone {0.01, 0.1, 0.2, 0.5}.",
            paper_value: "fair for all",
            unit: "Jain index",
            metric: "lowest long-term Jain's index over the four zetas (chunk mode, B = 100, 20-120 s)",
            scenarios: fledbat_zeta_sweep,
            extract: |r| r.iter().map(|x| x.aggregate.jain_long.ok_or_else(|| "no Jain index".to_string())).try_fold(f64::INFINITY, |m, j| j.map(|j| m.min(j))),
            draw: Some(|r| {
                vec![Plot {
                    title: "fLEDBAT latecomer: Jain vs zeta".into(),
                    x_label: "zeta".into(),
                    y_label: "Jain index".into(),
                    series: vec![Series { label: "measured (seed 1)".into(), points: [0.01, 0.1, 0.2, 0.5].iter().zip(r).filter_map(|(z, x)| x.aggregate.jain_long.map(|j| (*z, j))).collect(), scatter: true }],
                    bands: vec![HBand { label: "fair (≥ 0.9)".into(), lo: 0.9, hi: 1.0 }],
                }]
            }),
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.75 },
            tolerance_note: "fair = F ≥ 0.9 at every zeta",
            explanation: "With the window kept across chunks as in the thesis (RFC flightsize cap lifted, see the scenario file), fLEDBAT is fair at zeta 0.01, 0.1 and 0.5 (F 0.93-0.98, seed 1) but F = 0.85 at zeta 0.2; with the RFC cap every chunk restarts from 2 packets and all four are trivially fair (F = 1). Not root-caused; the thesis's Fig. 4.5(c) uses the same 10-s gap.",
        },
        Claim {
            id: "s003-chunks-fledbat-fairer",
            paper: "seed003",
            figure: "Fig. 4.4(a), 4.7, section 4.5.1",
            statement: "With chunk traffic and a latecomer, fLEDBAT is at least as fair as LEDBAT (persistence PP = 1 and PP = 0.5).",
            paper_value: "F(fLEDBAT) ≥ F(LEDBAT)",
            unit: "Jain difference",
            metric: "mean over PP ∈ {1, 0.5} of Jain(fLEDBAT) - Jain(LEDBAT)",
            scenarios: vec![
                ScenarioRef::file("seed003/chunks-fledbat.toml"),
                ScenarioRef::file("seed003/chunks-ledbat.toml"),
                ScenarioRef::with("seed003/chunks-fledbat.toml", &["flow.0.traffic.persistence=0.5".to_string(), "flow.1.traffic.persistence=0.5".to_string()]),
                ScenarioRef::with("seed003/chunks-ledbat.toml", &["flow.0.traffic.persistence=0.5".to_string(), "flow.1.traffic.persistence=0.5".to_string()]),
            ],
            extract: |r| {
                let j = |x: &RunResult| x.aggregate.jain_long.ok_or_else(|| "no Jain index".to_string());
                Ok(((j(r[0])? - j(r[1])?) + (j(r[2])? - j(r[3])?)) / 2.0)
            },
            draw: Some(|r| [rate_plot("chunks PP = 1: fLEDBAT rates", r[0]), rate_plot("chunks PP = 1: LEDBAT rates", r[1])].into_iter().flatten().collect()),
            tolerance: AtLeast { bound: 0.0 },
            direction: AtLeast { bound: -0.05 },
            tolerance_note: "at least as fair: difference ≥ 0",
            explanation: "",
        },
        Claim {
            id: "s003-chunks-fledbat-efficient",
            paper: "seed003",
            figure: "Fig. 4.7 (top), section 4.7",
            statement: "With chunk traffic fLEDBAT is as efficient as LEDBAT.",
            paper_value: "η(fLEDBAT) ≈ η(LEDBAT)",
            unit: "efficiency difference",
            metric: "mean over PP ∈ {1, 0.5} of efficiency(fLEDBAT) - efficiency(LEDBAT)",
            scenarios: vec![
                ScenarioRef::file("seed003/chunks-fledbat.toml"),
                ScenarioRef::file("seed003/chunks-ledbat.toml"),
                ScenarioRef::with("seed003/chunks-fledbat.toml", &["flow.0.traffic.persistence=0.5".to_string(), "flow.1.traffic.persistence=0.5".to_string()]),
                ScenarioRef::with("seed003/chunks-ledbat.toml", &["flow.0.traffic.persistence=0.5".to_string(), "flow.1.traffic.persistence=0.5".to_string()]),
            ],
            extract: |r| Ok(((r[0].aggregate.efficiency - r[1].aggregate.efficiency) + (r[2].aggregate.efficiency - r[3].aggregate.efficiency)) / 2.0),
            draw: None,
            tolerance: AtLeast { bound: -0.02 },
            direction: AtLeast { bound: -0.05 },
            tolerance_note: "as efficient = at most 2 points less",
            explanation: "",
        },
        Claim {
            id: "s003-droptail-queue",
            paper: "seed003",
            figure: "Fig. 7.1 (DropTail), chapter 7",
            statement: "5 NewReno + 5 LEDBAT over a 600-ms DropTail buffer: queueing delay approaches half a second.",
            paper_value: "≈ 0.5 s",
            unit: "ms",
            metric: "mean per-packet queueing delay at the bottleneck, 20-120 s",
            scenarios: vec![ScenarioRef::file("seed003/aqm-droptail.toml")],
            extract: |r| Ok(bottleneck(r[0])?.qdelay_mean_ms),
            draw: Some(|r| [queue_plot("DropTail 600 ms: queue", r[0], 1500.0)].into_iter().flatten().collect()),
            tolerance: Near { value: 500.0, tol: 100.0 },
            direction: AtLeast { bound: 250.0 },
            tolerance_note: "text value ±20 %",
            explanation: "",
        },
        Claim {
            id: "s003-droptail-ledbat-low-priority",
            paper: "seed003",
            figure: "Fig. 7.1 (DropTail)",
            statement: "Under DropTail LEDBAT stays low-priority: NewReno flows take most of the capacity.",
            paper_value: "LEDBAT in LBE mode",
            unit: "TCP share",
            metric: "TCP (NewReno) share of throughput, DropTail",
            scenarios: vec![ScenarioRef::file("seed003/aqm-droptail.toml")],
            extract: |r| Ok(tcp_share(r[0])),
            draw: None,
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.6 },
            tolerance_note: "low priority = TCP ≥ 90 % (5 of 10 flows)",
            explanation: "",
        },
        Claim {
            id: "s003-red-queue",
            paper: "seed003",
            figure: "Fig. 7.1 (RED)",
            statement: "RED cuts the queueing delay to about 4 ms.",
            paper_value: "4 ms",
            unit: "ms",
            metric: "mean per-packet queueing delay at the bottleneck, RED (ns-2 defaults)",
            scenarios: vec![ScenarioRef::file("seed003/aqm-red.toml")],
            extract: |r| Ok(bottleneck(r[0])?.qdelay_mean_ms),
            draw: None,
            tolerance: Between { lo: 0.0, hi: 10.0 },
            direction: AtMost { bound: 50.0 },
            tolerance_note: "\"a few ms\": at most 10 ms (RED parameters not given in the thesis)",
            explanation: "",
        },
        Claim {
            id: "s003-red-utilisation-cost",
            paper: "seed003",
            figure: "Fig. 7.1",
            statement: "RED costs about 3 % of link utilisation compared with DropTail.",
            paper_value: "-3 %",
            unit: "efficiency points",
            metric: "efficiency(DropTail) - efficiency(RED)",
            scenarios: vec![ScenarioRef::file("seed003/aqm-droptail.toml"), ScenarioRef::file("seed003/aqm-red.toml")],
            extract: |r| Ok(r[0].aggregate.efficiency - r[1].aggregate.efficiency),
            draw: None,
            tolerance: Near { value: 0.03, tol: 0.02 },
            direction: AtLeast { bound: 0.0 },
            tolerance_note: "3 ± 2 points; direction: RED costs something",
            explanation: "RED's parameters are not given in the thesis; with ns-2's defaults (min_th 5, max_th 15 packets of a 500-packet buffer) the cost varies widely between seeds (95 % CI spans 0 to more than 10 points) because a few flows at a time synchronise; the mean is compatible with a few points.",
        },
        Claim {
            id: "s003-red-removes-priority",
            paper: "seed003",
            figure: "Fig. 7.1 (RED)",
            statement: "Under RED the relative priority is reset: LEDBAT and NewReno get comparable shares.",
            paper_value: "TCP% ≈ 50 %",
            unit: "TCP share",
            metric: "TCP (NewReno) share of throughput, RED",
            scenarios: vec![ScenarioRef::file("seed003/aqm-red.toml")],
            extract: |r| Ok(tcp_share(r[0])),
            draw: Some(|r| [rate_plot("RED: rates", r[0])].into_iter().flatten().collect()),
            tolerance: Near { value: 0.5, tol: 0.15 },
            direction: AtMost { bound: 0.8 },
            tolerance_note: "5 of 10 flows; ±15 points",
            explanation: "",
        },
    ]
}

// ---------------------------------------------------------------- seed 004

fn s004_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            id: "s004-hybrid-queue-delay",
            paper: "seed004",
            figure: "Fig. 4, section III-A",
            statement: "The hybrid controller holds the queueing delay between 12 and 24 ms.",
            paper_value: "12-24 ms",
            unit: "ms",
            metric: "mean per-packet queueing delay at the bottleneck, 20-200 s",
            scenarios: vec![ScenarioRef::file("seed004/hybrid-alone.toml")],
            extract: |r| Ok(bottleneck(r[0])?.qdelay_mean_ms),
            draw: Some(|r| [queue_plot("hybrid alone: queue", r[0], 1000.0), rate_plot("hybrid alone: rate", r[0])].into_iter().flatten().collect()),
            tolerance: Between { lo: 12.0, hi: 24.0 },
            direction: AtMost { bound: 48.0 },
            tolerance_note: "the paper's own range (d1..d2); direction: below d3",
            explanation: "Not root-caused; reported to the hybrid controller's owner. Our hybrid flow keeps no loss and 0.95 Mb/s as the paper says, but its mean queueing delay (per packet at the bottleneck) sits below d1 = 12 ms instead of between d1 and d2: it spends more time in zone 1 than the paper's Fig. 4 suggests. Note the paper plots the controller's own per-epoch estimate delta_avg = mean(OWD - OWD_min), while this metric is the per-packet wait at the bottleneck; both measure one-way queueing delay, but the per-epoch mean of a bursty source (15 packets every 100 ms) weights the burst peaks differently. An earlier build of the controller during this work held it at 0.5 ms with 0.87 Mb/s.",
        },
        Claim {
            id: "s004-hybrid-no-loss",
            paper: "seed004",
            figure: "Fig. 4, section III-A",
            statement: "The hybrid controller sees no loss.",
            paper_value: "0 %",
            unit: "loss rate",
            metric: "bottleneck loss rate",
            scenarios: vec![ScenarioRef::file("seed004/hybrid-alone.toml")],
            extract: |r| Ok(bottleneck(r[0])?.loss_rate),
            draw: None,
            tolerance: AtMost { bound: 0.0 },
            direction: AtMost { bound: 0.001 },
            tolerance_note: "zero; direction: below NewReno's 0.4 %",
            explanation: "",
        },
        Claim {
            id: "s004-hybrid-rate",
            paper: "seed004",
            figure: "Fig. 4, 6",
            statement: "The hybrid controller sends at 0.8-1 Mb/s.",
            paper_value: "0.8-1 Mb/s",
            unit: "Mb/s",
            metric: "mean throughput, 20-200 s",
            scenarios: vec![ScenarioRef::file("seed004/hybrid-alone.toml")],
            extract: |r| Ok(r[0].flows[0].throughput_bps / 1e6),
            draw: None,
            tolerance: Between { lo: 0.8, hi: 1.0 },
            direction: AtLeast { bound: 0.6 },
            tolerance_note: "the paper's own range",
            explanation: "",
        },
        Claim {
            id: "s004-newreno-queue-delay",
            paper: "seed004",
            figure: "Fig. 5",
            statement: "NewReno fed by the same source fills the buffer: queueing delay close to 400 ms.",
            paper_value: "≈ 400 ms",
            unit: "ms",
            metric: "mean per-packet queueing delay at the bottleneck",
            scenarios: vec![ScenarioRef::file("seed004/newreno-alone.toml")],
            extract: |r| Ok(bottleneck(r[0])?.qdelay_mean_ms),
            draw: Some(|r| [queue_plot("NewReno alone: queue", r[0], 1000.0)].into_iter().flatten().collect()),
            tolerance: Near { value: 400.0, tol: 80.0 },
            direction: AtLeast { bound: 100.0 },
            tolerance_note: "text value ±20 %",
            explanation: "The paper's 'close to 400 ms' is the buffer size (50 x 1000 B at 1 Mb/s) read from its time plot; our mean is 234 ms because the bursty source with a 32-packet sender buffer keeps NewReno application-limited part of the time, so the queue saw-tooths between empty and full rather than staying full.",
        },
        Claim {
            id: "s004-newreno-loss",
            paper: "seed004",
            figure: "Fig. 5",
            statement: "NewReno sees some loss, close to 0.4 %.",
            paper_value: "≈ 0.4 %",
            unit: "loss rate",
            metric: "bottleneck loss rate",
            scenarios: vec![ScenarioRef::file("seed004/newreno-alone.toml")],
            extract: |r| Ok(bottleneck(r[0])?.loss_rate),
            draw: None,
            tolerance: Near { value: 0.004, tol: 0.0008 },
            direction: AtLeast { bound: 0.0005 },
            tolerance_note: "text value ±20 %",
            explanation: "Follows from the queue: our NewReno overflows the buffer less often (0.09 % of packets) because the 32-packet sender buffer limits its window growth; the paper's 0.4 % implies a queue that is full more of the time.",
        },
        Claim {
            id: "s004-hybrid-five-fair",
            paper: "seed004",
            figure: "Fig. 7",
            statement: "Five staggered hybrid flows divide the bandwidth almost equally.",
            paper_value: "fair",
            unit: "Jain index",
            metric: "long-term Jain's index over the period all five are present",
            scenarios: vec![ScenarioRef::file("seed004/hybrid-five.toml")],
            extract: |r| r[0].aggregate.jain_long.ok_or_else(|| "no Jain index".into()),
            draw: Some(|r| [rate_plot("hybrid, five flows", r[0])].into_iter().flatten().collect()),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "almost equal = F ≥ 0.95",
            explanation: "",
        },
        Claim {
            id: "s004-hybrid-yields-to-cbr",
            paper: "seed004",
            figure: "Fig. 8",
            statement: "A 300 kb/s CBR source keeps its rate; the hybrid flow takes the remaining 700 kb/s on average.",
            paper_value: "≈ 0.7 Mb/s",
            unit: "Mb/s",
            metric: "hybrid throughput while the CBR is present (12-25 s)",
            scenarios: vec![ScenarioRef::file("seed004/hybrid-cbr.toml")],
            extract: |r| Ok(tput(r[0], "hybrid")? / 1e6),
            draw: Some(|r| [rate_plot("hybrid with 300 kb/s CBR", r[0])].into_iter().flatten().collect()),
            tolerance: Near { value: 0.7, tol: 0.14 },
            direction: AtMost { bound: 0.75 },
            tolerance_note: "text value ±20 %; direction: leaves the CBR its 300 kb/s",
            explanation: "",
        },
        Claim {
            id: "s004-random-loss-hybrid",
            paper: "seed004",
            figure: "Fig. 9(a)",
            statement: "With 5 % random loss the hybrid controller keeps about 0.9 Mb/s (losses without a delay rise are ignored).",
            paper_value: "≈ 0.9 Mb/s",
            unit: "Mb/s",
            metric: "mean throughput with 5 % random loss",
            scenarios: vec![ScenarioRef::file("seed004/hybrid-loss5.toml")],
            extract: |r| Ok(r[0].flows[0].throughput_bps / 1e6),
            draw: None,
            tolerance: Near { value: 0.9, tol: 0.18 },
            direction: AtLeast { bound: 0.5 },
            tolerance_note: "text value ±20 %",
            explanation: "",
        },
        Claim {
            id: "s004-random-loss-advantage",
            paper: "seed004",
            figure: "Fig. 9",
            statement: "With 5 % random loss the hybrid controller beats NewReno: 0.9 against 0.75 Mb/s.",
            paper_value: "0.9 / 0.75 = 1.2",
            unit: "ratio",
            metric: "hybrid throughput / NewReno throughput, 5 % random loss",
            scenarios: vec![ScenarioRef::file("seed004/hybrid-loss5.toml"), ScenarioRef::file("seed004/newreno-loss5.toml")],
            extract: |r| Ok(r[0].flows[0].throughput_bps / r[1].flows[0].throughput_bps),
            draw: None,
            tolerance: Near { value: 1.2, tol: 0.24 },
            direction: AtLeast { bound: 1.0 },
            tolerance_note: "ratio of text values ±20 %; direction: hybrid ahead",
            explanation: "The hybrid side reproduces (0.78 Mb/s, s004-random-loss-hybrid); NewReno does much worse than the paper's 0.75 Mb/s: 0.30 Mb/s with 220 retransmission timeouts in 200 s. The Mathis estimate 1.22 MSS / (RTT sqrt(p)) at RTT 110 ms and p = 5 % is about 0.4 Mb/s, so 0.75 Mb/s is above what loss-driven Reno sustains in the stated setup; reading the paper's D = 50 ms as the round-trip time instead (topology.delay = 24ms) gives NewReno 0.57 Mb/s.",
        },
    ]
}

/// Every claim, in report order.
pub fn all() -> Vec<Claim> {
    let mut v = s000_claims();
    v.extend(s001_claims());
    v.extend(s002_claims());
    v.extend(s003_claims());
    v.extend(s004_claims());
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn scenarios_dir() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
    }

    #[test]
    fn claim_ids_are_unique_and_prefixed_by_their_paper() {
        let mut seen = HashSet::new();
        for c in all() {
            assert!(seen.insert(c.id), "duplicate id {}", c.id);
            assert!(
                c.id.starts_with(&format!("s{}", &c.paper[4..])),
                "{} vs {}",
                c.id,
                c.paper
            );
            assert!(!c.scenarios.is_empty(), "{} has no scenario", c.id);
            assert!(!c.tolerance_note.is_empty());
        }
    }

    #[test]
    fn every_scenario_instance_parses_and_validates() {
        for c in all() {
            for s in &c.scenarios {
                let text = std::fs::read_to_string(scenarios_dir().join(s.file))
                    .unwrap_or_else(|e| panic!("{}: {e}", s.file));
                assert!(
                    text.starts_with("# Seed 00"),
                    "{} must open with a comment citing its figure",
                    s.file
                );
                ledbat_sim::Scenario::from_toml_with(&text, &s.set)
                    .unwrap_or_else(|e| panic!("{}: {e}", s.label()));
            }
        }
    }

    #[test]
    fn quick_overrides_apply_to_existing_files() {
        for (file, set, note) in QUICK {
            let text = std::fs::read_to_string(scenarios_dir().join(file)).unwrap();
            ledbat_sim::Scenario::from_toml_with(&text, set)
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(!note.is_empty());
        }
    }

    #[test]
    fn kendall_tau_of_monotone_sequences() {
        assert_eq!(kendall_tau(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), -1.0);
        assert_eq!(kendall_tau(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]), 1.0);
    }

    #[test]
    fn target_share_maps_to_tau() {
        assert_eq!(tau_for_share(1.0), "flow.0.cc.target=120000us");
        assert_eq!(tau_for_share(0.2), "flow.0.cc.target=24000us");
    }
}
